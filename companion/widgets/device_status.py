"""One line per Tadaa device: connected / resyncing / unplugged, and how sure its time is."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import Static

from companion.hardware.link import DeviceStatus
from companion.i18n import N_, _

STATES = {
    "connected": (N_("connected"), "green"),
    "resyncing": (N_("resyncing"), "yellow"),
    "disconnected": (N_("unplugged"), "bold red"),
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
        label, style = STATES[s.state]
        text.append("● ", style=style)
        # A HID device's id is long and ends in a port path: its name says more.
        who = s.firmware[:24] if s.serial.startswith("hid:") else s.serial[-8:]
        text.append(f"{who} ", style="bold")
        text.append(_(label), style=style)
        text.append(
            "  "
            + _("±{unc} · round trip {rtt} · {buttons} buttons").format(
                unc=_ms(s.uncertainty_ns), rtt=_ms(s.rtt_ns), buttons=s.buttons
            )
        )
        if s.drift_ppm is not None:
            text.append(" · " + _("drift {ppm:+.1f} ppm").format(ppm=s.drift_ppm))
        problems = s.corrupt + s.device_corrupt
        if problems:
            text.append(" · " + _("{n} corrupt lines").format(n=problems), style="yellow")
        if s.lost:
            text.append(" · " + _("{n} presses lost").format(n=s.lost), style="bold red")
        if not s.consistent:
            text.append(" · " + _("clock jumped"), style="bold red")
    if note:
        text.append("\n" + note, style="yellow")
    return text


class DeviceStatusLine(Static):
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
                )
                for s in statuses
            ),
            note,
        )
        if key == self._last:
            return
        self._last = key
        self.update(render_status(statuses, note))
