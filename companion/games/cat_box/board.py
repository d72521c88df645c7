"""九张牌：喵喵开箱 Cat Box on the board: the displayed cards with their tokens, the
deck count, whose turn and their dice, and the scores in block figures.

The cards are drawn by the host screen's own pure renderers
(``companion.games.cat_box.render``), so both show a card the same way. The deck
is face down: the board shows how many cards are left, never their order.
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
    card_panel,
    dice_text,
    notices_text,
    status_text,
    token,
    won_text,
)
from companion.games.cat_box.rules import CatBoxState
from companion.i18n import _
from companion.session.follow import Snapshot
from companion.widgets.board_parts import Row, Standings, competition_ranks
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

    def panels(self) -> dict[str, RenderableType]:
        """Every text panel's content, by widget id (rendered from the snapshot alone)."""
        return {"cb-banner": self._banner(), "cb-display": self._display(), "cb-turn": self._turn()}

    def _banner(self) -> str:
        state = self.box
        banner = self.outcome_text()
        if banner:
            return banner
        if not state.dealt:
            return _("Waiting for the deal")
        parts = [
            _("Round {n}").format(n=state.round),
            _("Deck: {n} cards").format(n=len(state.deck)),
        ]
        if state.last_round:
            parts.append(_("Last round!"))
        return "  ·  ".join(parts)

    def _display(self) -> RenderableType:
        state = self.box
        if not state.dealt or not state.display:
            return Text("")
        grid = Table.grid(padding=(0, 1), expand=True)
        for _shown in state.display:
            grid.add_column(ratio=1)
        grid.add_row(
            *(
                Panel(card_panel(state, shown.card, self.lang, None), expand=True)
                for shown in state.display
            )
        )
        return grid

    def _turn(self) -> RenderableType:
        state = self.box
        if not state.dealt:
            return Text("")
        lines: list[RenderableType] = []
        if state.current is not None and state.ended is None:
            who = Text(_("Turn: "), style="bold")
            who.append_text(token(state.players, state.current))
            who.append(" " + state.name(state.current), style="bold")
            lines.append(who)
            seat = state.seat(state.current)
            lines.append(Text(_("held dice: {dice}").format(dice=dice_text(seat.held))))
            if state.pending is not None:
                lines.append(
                    Text(
                        _("rolled: {dice}  common: {common}").format(
                            dice=dice_text(state.pending.rolled),
                            common=dice_text(state.pending.common),
                        ),
                        style="bold yellow",
                    )
                )
        table = Table(box=None, padding=(0, 1), show_header=False)
        for player in state.players:
            label = Text.assemble(token(state.players, player.id), " ", player.name)
            table.add_row(
                label,
                status_text(state, player.id),
                Text(won_text(state, player.id, self.lang), style="dim"),
            )
        lines += [Text(""), table, Text(""), notices_text(state, self.lang)]
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
