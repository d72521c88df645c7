"""The phones on the host's screen: one line per phone, and the join dialog (QR code).

Every phone line says what a host needs before trusting its presses: the seat,
connected / setting its clock / silent / gone, the current uncertainty and round
trip, presses and presses lost (always shown). The dialog shows the session's
join link as a QR code and as text, the addresses the server listens on, the
phones, and asks the host about a second phone for a seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from companion.hardware.phones import PhoneServer, PhoneStatus
from companion.hardware.qr import QR_STYLE, qr_lines
from companion.i18n import N_, _, ngettext

STATES = {
    "connected": (N_("connected"), "green"),
    "syncing": (N_("setting its clock"), "yellow"),
    "silent": (N_("silent for {s:.0f} s"), "bold red"),
    "gone": (N_("gone for {s:.0f} s"), "bold red"),
}


def _ms(ns: int | None) -> str:
    return "—" if ns is None else f"{ns / 1e6:.1f} ms"


def render_phones(statuses: Sequence[PhoneStatus], names: Mapping[str, str]) -> Text:
    text = Text()
    for i, s in enumerate(statuses):
        if i:
            text.append("\n")
        label, style = STATES.get(s.state, (s.state, "yellow"))
        text.append("📱 ", style=style)
        seat = names.get(s.seat or "", _("no seat"))
        text.append(f"{seat} ", style="bold")
        # TRANSLATORS: a phone's short id beside its player; full-width brackets in zh
        text.append(_("({phone})").format(phone=s.phone[:4]) + " ", style="dim")
        text.append(_(label).format(s=s.quiet_s), style=style)
        text.append(
            "  "
            + ngettext(
                "±{unc} · round trip {rtt} · {n} press",
                "±{unc} · round trip {rtt} · {n} presses",
                s.presses,
            ).format(unc=_ms(s.uncertainty_ns), rtt=_ms(s.rtt_ns), n=s.presses)
        )
        text.append(
            " · " + ngettext("{n} press lost", "{n} presses lost", s.lost).format(n=s.lost),
            style="bold red" if s.lost else "dim",
        )
        if s.boots > 1:
            text.append(
                " · " + ngettext("{n} page load", "{n} page loads", s.boots).format(n=s.boots),
                style="dim",
            )
        if s.outliers:
            text.append(
                " · "
                + ngettext("{n} clock outlier", "{n} clock outliers", s.outliers).format(
                    n=s.outliers
                ),
                style="yellow",
            )
    return text


class PhonesScreen(ModalScreen[None]):
    """The join link and the phones (``P`` in Meeple Circus)."""

    DEFAULT_CSS = """
    PhonesScreen { align: center middle; }
    PhonesScreen > Vertical { width: auto; max-width: 100%; height: auto; max-height: 100%;
        padding: 1 2; background: $panel; border: round $accent; overflow-y: auto; }
    PhonesScreen #phones-qr { width: auto; height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("o", "switch", N_("Phones on/off")),
        Binding("y", "allow", N_("Give the seat")),
        Binding("n", "refuse", N_("Refuse")),
        Binding("escape", "dismiss_screen", N_("Close")),
    ]

    def __init__(
        self,
        server: Callable[[], PhoneServer | None],
        toggle: Callable[[], object],
        names: Callable[[], Mapping[str, str]],
    ) -> None:
        super().__init__()
        self.server = server
        self.toggle = toggle
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="phones-head")
            yield Static("", id="phones-qr")
            yield Static("", id="phones-list")
            yield Static("", id="phones-ask")
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(0.25, self.refresh_screen)
        self.refresh_screen()

    def refresh_screen(self) -> None:
        server = self.server()
        head = Text()
        qr = Text()
        if server is None or not server.running:
            head.append(_("Phones are off."), style="bold")
            head.append(
                "\n"
                + _(
                    "Press O to let the players' phones be Tadaa buttons: the companion "
                    "then listens on this machine's local network until the game ends."
                )
            )
        else:
            head.append(_("Scan with a phone on the same Wi-Fi, or type:"), style="bold")
            for url in server.urls():
                head.append("\n" + url, style="bold cyan")
            qr = Text("\n".join(qr_lines(server.url)), style=QR_STYLE)
        self.query_one("#phones-head", Static).update(head)
        self.query_one("#phones-qr", Static).update(qr)
        names = self.names()
        statuses = server.status() if server is not None else []
        self.query_one("#phones-list", Static).update(
            render_phones(statuses, names) if statuses else Text(_("No phone yet."), style="dim")
        )
        ask = Text()
        for request in server.pending_requests() if server is not None else []:
            ask.append(
                _(
                    "A second phone ({phone}) asks for {seat}'s seat: Y gives it the seat "
                    "(the other phone lets go), N refuses."
                ).format(phone=request.phone[:4], seat=names.get(request.seat, request.seat)),
                style="bold yellow",
            )
            break
        self.query_one("#phones-ask", Static).update(ask)

    def action_switch(self) -> None:
        self.toggle()
        self.refresh_screen()

    def _decide(self, allow: bool) -> None:
        server = self.server()
        requests = server.pending_requests() if server is not None else []
        if server is not None and requests:
            server.decide(requests[0].phone, allow)

    def action_allow(self) -> None:
        self._decide(True)

    def action_refuse(self) -> None:
        self._decide(False)

    def action_dismiss_screen(self) -> None:
        self.dismiss(None)
