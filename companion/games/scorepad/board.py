"""计分板 Score pad on the board: the table of rounds, totals in block figures."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from companion.games.scorepad.rules import ScorepadState
from companion.i18n import _
from companion.session.follow import Snapshot
from companion.widgets.board_parts import Row, Standings, competition_ranks
from companion.widgets.board_view import BoardView

ROUND_COLUMNS = 8
"""Closed rounds shown (the newest); the totals always count every round."""


class ScorepadView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="pad-banner", classes="board-banner")
        yield Standings(id="pad-table", max_scale=4)

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        state: ScorepadState = snapshot.state
        mode = _("highest wins") if state.highest_wins else _("lowest wins")
        parts = [
            _("Round {n}").format(n=state.round_number) if state.ended is None else _("Final"),
            mode,
        ]
        if state.target:
            parts.append(_("target {n}").format(n=state.target))
        banner = self.outcome_text() or "  ·  ".join(parts)
        self.query_one("#pad-banner", Static).update(banner)

        totals = state.totals()
        first = max(0, len(state.rounds) - ROUND_COLUMNS)
        headers = [_("R{n}").format(n=i + 1) for i in range(first, len(state.rounds))]
        if state.ended is None and state.current:
            headers.append(_("R{n} (open)").format(n=state.round_number))
        ranks = competition_ranks([(p.id, totals[p.id]) for p in state.players], state.highest_wins)
        winners = set(snapshot.outcome.winners) if snapshot.outcome else set()
        leaders = {pid for pid, r in ranks.items() if r == 1} if any(totals.values()) else set()
        rows = []
        for player in state.players:
            cells: list[str | Text] = [
                str(state.round_points(i)[player.id]) for i in range(first, len(state.rounds))
            ]
            if state.ended is None and state.current:
                open_points = [pts for pid, pts in state.current if pid == player.id]
                cells.append(Text(" ".join(f"{p:+d}" for p in open_points), style="italic"))
            rows.append(
                Row(
                    player.name,
                    str(totals[player.id]),
                    ranks[player.id],
                    "🏆" if player.id in winners else "",
                    highlight=player.id in (winners or leaders),
                    cells=tuple(cells),
                )
            )
        # Seating order, not rank order: players find their own line where it was.
        self.query_one(Standings).update(rows, headers, _("Total"))


VIEW = ScorepadView
