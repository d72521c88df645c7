"""九张牌：喵喵开箱 Cat Box on the board: the displayed cards with their tokens, the
deck count, whose turn and their dice, and the scores in block figures.

The board renders the same view-model as the host screen (``view.table_view`` with
``board=True``) through the same Rich renderers (``render``), so both show a card, a
token, a status and the banner the same way. The deck is face down: the view-model
carries how many cards are left, never which.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from companion.games.cat_box.render import (
    banner_parts,
    card_panel,
    dice_text,
    notices_text,
    player_label,
    status_text,
    token,
    won_text,
)
from companion.games.cat_box.rules import CatBoxState
from companion.games.cat_box.view import TableView, table_view
from companion.i18n import _
from companion.rules.base import competition_ranks
from companion.session.follow import Snapshot
from companion.widgets.board_parts import Row, Standings
from companion.widgets.board_view import BoardView


class CatBoxView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="cb-banner", classes="board-banner")
        yield Static("", id="cb-display")
        with Horizontal(id="cb-lower"):
            yield Standings(id="cb-standings", max_scale=2)
            yield Static("", id="cb-turn")

    @property
    def box(self) -> CatBoxState:
        state: CatBoxState = self.snapshot.state
        return state

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        for widget_id, renderable in self.panels().items():
            self.query_one(f"#{widget_id}", Static).update(renderable)
        self._standings()

    def view(self) -> TableView:
        return table_view(self.box, board=True)

    def panels(self) -> dict[str, RenderableType]:
        """Every text panel's content, by widget id (rendered from the snapshot alone)."""
        view = self.view()
        return {
            "cb-banner": self._banner(view),
            "cb-display": self._display(view),
            "cb-turn": self._turn(view),
        }

    def _banner(self, view: TableView) -> str:
        banner = self.outcome_text()
        if banner:
            return banner
        if not view.banner.dealt:
            return _("Waiting for the deal")
        return "  ·  ".join(banner_parts(view.banner, turn=False))

    def _display(self, view: TableView) -> RenderableType:
        if not view.cards:
            return Text("")
        grid = Table.grid(padding=(0, 1), expand=True)
        for _card in view.cards:
            grid.add_column(ratio=1)
        grid.add_row(*(Panel(card_panel(card, self.lang), expand=True) for card in view.cards))
        return grid

    def _turn(self, view: TableView) -> RenderableType:
        if not view.banner.dealt:
            return Text("")
        lines: list[RenderableType] = []
        current = next((row for row in view.players if row.marker == "turn"), None)
        if current is not None:
            who = Text(_("Turn: "), style="bold")
            who.append_text(token(current.token))
            who.append(" " + current.name, style="bold")
            lines.append(who)
            lines.append(Text(_("held dice: {dice}").format(dice=dice_text(current.held))))
            if view.roll is not None:
                lines.append(
                    Text(
                        _("rolled: {dice}  common: {common}").format(
                            dice=dice_text(view.roll.rolled), common=dice_text(view.roll.common)
                        ),
                        style="bold yellow",
                    )
                )
        table = Table(box=None, padding=(0, 1), show_header=False)
        for row in view.players:
            table.add_row(
                player_label(row),
                status_text(row.status),
                Text(won_text(row.won, self.lang), style="dim"),
            )
        lines += [Text(""), table, Text(""), notices_text(self.box, self.lang)]
        return Group(*lines)

    def _standings(self) -> None:
        state = self.box
        scores = state.scores() if state.dealt else {p.id: 0 for p in state.players}
        ranks = competition_ranks([(pid, s) for pid, s in scores.items()])
        winners = set(self.snapshot.outcome.winners) if self.snapshot.outcome else set()
        rows = [
            Row(
                p.name,
                str(scores.get(p.id, 0)),
                ranks.get(p.id),
                "🏆" if p.id in winners else "",
                highlight=p.id in winners,
            )
            for p in state.players
        ]
        rows.sort(key=lambda r: r.rank or 0)
        self.query_one(Standings).update(rows, score_header=_("Points"))


VIEW = CatBoxView
