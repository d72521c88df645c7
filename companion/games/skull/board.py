"""Skull on the players' board: the mats, bids and wins; never a face-down disc, and
never which disc a failed challenger lost (only the host sees the draw)."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from companion.games.skull.render import banner, table
from companion.games.skull.view import skull_view
from companion.session.follow import Snapshot
from companion.widgets.board_view import BoardView


class SkullBoard(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="skull-banner", classes="board-banner")
        yield Static("", id="skull-table")

    def panels(self) -> dict[str, RenderableType]:
        """Everything the board shows, as Rich renderables (the conformance suite reads it)."""
        view = skull_view(self.state)
        return {"banner": Text(self.outcome_text() or banner(view)), "table": table(view)}

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        panels = self.panels()
        self.query_one("#skull-banner", Static).update(panels["banner"])
        self.query_one("#skull-table", Static).update(panels["table"])


VIEW = SkullBoard
