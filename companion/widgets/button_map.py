"""Assign Tadaa buttons to players: "Ann, press your button".

The dialog walks through the players in seating order. The next press of any
button (captured before it can reach the game) becomes that player's *seat's*
(``seat:N``), saved at once in the settings file by device serial number and button
number, so the mapping survives restarts and serves every later session at this
table, whatever the players' names.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Static

from companion.hardware.config import TadaaConfig, seat_owner
from companion.hardware.feed import PressFeed
from companion.hardware.link import DevicePress
from companion.i18n import N_, _
from companion.rules.base import Player
from companion.widgets.footer import KeyFooter
from companion.widgets.translate import translate_bindings


class ButtonMapScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    ButtonMapScreen { align: center middle; }
    #bm-box { width: 80; height: auto; border: thick $primary; padding: 1 2;
              background: $surface; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "skip", N_("Skip player")),
        Binding("escape", "done", N_("Done")),
    ]

    def __init__(self, feed: PressFeed, config: TadaaConfig, players: Sequence[Player]) -> None:
        super().__init__()
        self.feed = feed
        self.config = config
        self.players = list(players)
        self.index = 0
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(id="bm-box"):
            yield Static("", id="bm-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        self.feed.capture = self._captured
        self._show()

    def on_unmount(self) -> None:
        self.feed.capture = None

    class Captured(Message):
        def __init__(self, press: DevicePress) -> None:
            super().__init__()
            self.press = press

    def _captured(self, dp: DevicePress) -> bool:
        """On the hub's thread: take the press for the mapping, not the game."""
        return self.post_message(self.Captured(dp))

    def on_button_map_screen_captured(self, message: Captured) -> None:
        self._assign(message.press)

    def _assign(self, dp: DevicePress) -> None:
        if self.index >= len(self.players):
            return
        self.config.assign(dp.serial, dp.button, seat_owner(self.index + 1))
        try:
            self.config.save()
        except OSError as exc:
            self.app.notify(
                _("Cannot save the button map: {error}").format(error=exc), severity="error"
            )
        self.index += 1
        self._advance()

    def _advance(self) -> None:
        if self.index >= len(self.players):
            self.dismiss(None)
        else:
            self._show()

    def action_skip(self) -> None:
        self.index += 1
        self._advance()

    def action_done(self) -> None:
        self.dismiss(None)

    def _show(self) -> None:
        text = Text(_("Tadaa buttons"), style="bold")
        text.append("\n\n")
        for i, p in enumerate(self.players):
            where = self.config.button_of(p.name, seat=i + 1)
            have = (
                _("button {button} of {serial}").format(button=where[1], serial=where[0][-8:])
                if where
                else _("no button")
            )
            marker = "▶ " if i == self.index else "  "
            text.append(
                f"{marker}{p.name}: {have}\n", style="bold reverse" if i == self.index else ""
            )
        if self.index < len(self.players):
            text.append(
                "\n"
                + _("{name}, press your button now.").format(name=self.players[self.index].name),
                style="bold",
            )
        self.query_one("#bm-text", Static).update(text)
