"""One line per Tadaa device: its state, how sure its time is, what it lost or garbled.

Every device line says the truth a host needs before trusting a photo finish:
connected / resyncing / reconnecting / unplugged / dead, the current
uncertainty, presses lost (always shown: "0 lost" is news too) and lines that
could not be parsed; rarer problems (protocol errors, clock outliers, a full
queue in the firmware, reconnects) only when they happened.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from companion.hardware.link import DeviceStatus
from companion.i18n import N_, _, ngettext
from companion.widgets.shown import Shown

STATES = {
    "connected": (N_("connected"), "green"),
    "resyncing": (N_("resyncing"), "yellow"),
    "reconnecting": (N_("reconnecting"), "yellow"),
    "disconnected": (N_("unplugged"), "bold red"),
    "dead": (N_("dead link"), "bold red"),
}


def _ms(ns: int | None) -> str:
    return "—" if ns is None else f"{ns / 1e6:.2f} ms"


def render_status(statuses: Sequence[DeviceStatus], note: str = "") -> Text:
    text = Text()
    if not statuses:
        text.append(
            "🔘 " + (note or _("No Tadaa device: the number keys work as buttons.")), style="dim"
        )
        return text
    for i, s in enumerate(statuses):
        if i:
            text.append("\n")
        label, style = STATES.get(s.state, (s.state, "yellow"))  # another source's own word
        text.append("● ", style=style)
        # A HID device's id is long and ends in a port path: its name says more.
        who = s.firmware[:24] if s.serial.startswith("hid:") else s.serial[-8:]
        text.append(f"{who} ", style="bold")
        text.append(_(label), style=style)
        text.append(
            "  "
            + ngettext(
                "±{unc} · round trip {rtt} · {buttons} button",
                "±{unc} · round trip {rtt} · {buttons} buttons",
                s.buttons,
            ).format(unc=_ms(s.uncertainty_ns), rtt=_ms(s.rtt_ns), buttons=s.buttons)
        )
        if s.drift_ppm is not None:
            text.append(" · " + _("drift {ppm:+.1f} ppm").format(ppm=s.drift_ppm))
        text.append(
            " · " + ngettext("{n} press lost", "{n} presses lost", s.lost).format(n=s.lost),
            style="bold red" if s.lost else "dim",
        )
        problems = s.corrupt + s.device_corrupt
        text.append(
            " · " + ngettext("{n} parse error", "{n} parse errors", problems).format(n=problems),
            style="yellow" if problems else "dim",
        )
        rare = (
            (
                s.protocol_errors,
                ngettext("{n} protocol error", "{n} protocol errors", s.protocol_errors),
            ),
            (
                s.clock_outliers,
                ngettext("{n} clock outlier", "{n} clock outliers", s.clock_outliers),
            ),
            (
                s.queue_overflows,
                ngettext(
                    "{n} button change dropped by the device",
                    "{n} button changes dropped by the device",
                    s.queue_overflows,
                ),
            ),
            (s.reconnects, ngettext("{n} reconnect", "{n} reconnects", s.reconnects)),
        )
        for n, label in rare:
            if n:
                text.append(" · " + label.format(n=n), style="yellow")
        if not s.consistent:
            text.append(" · " + _("clock jumped"), style="bold red")
    if note:
        text.append("\n" + note, style="yellow")
    return text


class DeviceStatusLine(Shown):
    DEFAULT_CSS = "DeviceStatusLine { height: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._last: object = None

    def show(self, statuses: Sequence[DeviceStatus], note: str = "") -> None:
        # Uncertainty and round trip change every ping: round them to what is shown.
        key = (
            tuple(
                (
                    s.serial,
                    s.state,
                    _ms(s.uncertainty_ns),
                    _ms(s.rtt_ns),
                    s.corrupt,
                    s.device_corrupt,
                    s.lost,
                    s.consistent,
                    s.protocol_errors,
                    s.clock_outliers,
                    s.queue_overflows,
                    s.reconnects,
                )
                for s in statuses
            ),
            note,
        )
        if key == self._last:
            return
        self._last = key
        self.update(render_status(statuses, note))
