"""喵窩暗影 Shadow Cats on the board: the locations with who stands where, HP bars,
equipment, the last attack, and identities once revealed.

Rendered from the same view-model as the host screen (``view.build``) with the same
renderers (``render.py``): the board cannot show a different HP bar, distance or
colour. Identities are hidden by construction: the state holds only revealed ones,
and every other player is "?". Characters are public (face up at the table).
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from companion.games.shadow_cats import render
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.view import ShadowView, build
from companion.session.follow import Snapshot
from companion.widgets.board_view import BoardView

RING_WIDTH = 96
"""Columns of the ring of locations on the board (three cells of 30 and gaps)."""


class ShadowCatsView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="sc-banner", classes="board-banner")
        with Horizontal(id="sc-main"):
            yield Static("", id="sc-board")
            yield Static("", id="sc-seats")
        yield Static("", id="sc-attack", classes="board-log")

    @property
    def shadow(self) -> ShadowState:
        state: ShadowState = self.snapshot.state
        return state

    def view(self) -> ShadowView:
        return build(self.shadow, self.lang)

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        for widget_id, renderable in self.panels().items():
            self.query_one(f"#{widget_id}", Static).update(renderable)

    def panels(self) -> dict[str, RenderableType]:
        """Every panel's content, by widget id (rendered from the snapshot alone)."""
        view = self.view()
        banner = self.outcome_text() or render.text(view.banner)
        if view.death is not None:
            banner += "  ·  " + render.text(view.death)
        dealt = bool(self.shadow.layout)
        return {
            "sc-banner": banner,
            "sc-board": render.ring(view, RING_WIDTH, compact=False) if dealt else Text(""),
            "sc-seats": render.seats_table(view),
            "sc-attack": render.attack_text(view.attack, one_line=True)
            if view.attack
            else Text(""),
        }


VIEW = ShadowCatsView
