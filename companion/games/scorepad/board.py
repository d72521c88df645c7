"""计分板 Score pad on the board: the table of rounds, totals in block figures.

It draws the same view-model as the host's screen (``view.pad_view``, worded by
``render``), with fewer closed rounds (``BOARD_ROUNDS``): block figures are wide.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from companion.games.scorepad.render import banner, round_cells, round_headers
from companion.games.scorepad.rules import ScorepadState
from companion.games.scorepad.view import BOARD_ROUNDS, pad_view
from companion.i18n import _
from companion.session.follow import Snapshot
from companion.widgets.board_parts import Row, Standings
from companion.widgets.board_view import BoardView


class ScorepadView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="pad-banner", classes="board-banner")
        yield Standings(id="pad-table", max_scale=4)

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        state: ScorepadState = snapshot.state
        winners = snapshot.outcome.winners if snapshot.outcome else ()
        view = pad_view(state, winners, max_rounds=BOARD_ROUNDS)
        self.query_one("#pad-banner", Static).update(self.outcome_text() or banner(view))
        rows = []
        for row in view.rows:
            cells: list[str | Text] = list(round_cells(view, row))
            if view.open_round is not None:  # the open round's points, in italics
                cells[-1] = Text(str(cells[-1]), style="italic")
            rows.append(
                Row(
                    row.name,
                    str(row.total),
                    row.rank,
                    "🏆" if row.winner else "",
                    highlight=row.leading,
                    cells=tuple(cells),
                )
            )
        # Seating order, not rank order: players find their own line where it was.
        self.query_one(Standings).update(rows, round_headers(view), _("Total"))


VIEW = ScorepadView
