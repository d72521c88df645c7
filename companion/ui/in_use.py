"""The first screen of a second window: the database belongs to another companion.

The other window (process N) owns the database: this one offers what is safe
beside it, read-only — the history (browse, export, statistics) or the players'
board — or to quit. It stays at the bottom of the screen stack, so leaving the
history comes back here.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Header, Static

from companion.i18n import N_, _
from companion.session.owner import DatabaseInUse
from companion.widgets.footer import KeyFooter
from companion.widgets.translate import translate_bindings


class InUseScreen(Screen[None]):
    """This database is open in another companion window: history, board or quit."""

    DEFAULT_CSS = """
    InUseScreen { align: center middle; }
    InUseScreen #in-use Static { width: 100%; margin-bottom: 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "history", N_("History (read-only)")),
        Binding("b", "board", N_("Board")),
        Binding("q,escape", "quit_app", N_("Quit")),
    ]

    def __init__(self, busy: DatabaseInUse) -> None:
        super().__init__()
        self.busy = busy
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(classes="dialog", id="in-use"):
            yield Static(self.busy.render(_), id="in-use-message", markup=False)
            yield Static(
                _("[h] the history, read-only   [b] the players' board   [q] quit"),
                classes="hint",
                markup=False,
            )
        yield KeyFooter()

    def action_history(self) -> None:
        from companion.ui.history import HistoryScreen

        self.app.push_screen(HistoryScreen())

    def action_board(self) -> None:
        self.app.exit("board")

    def action_quit_app(self) -> None:
        self.app.exit()
