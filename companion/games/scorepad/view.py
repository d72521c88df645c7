"""计分板 Score pad's view-model: what the host screen and the players' board both show.

Pure: frozen rows computed from the rules state (no Rich, no Textual, no gettext).
``render.py`` turns them into the words and cells of both renderers, so the round
shown, the open round's points, a total, a rank and who is marked as leading are
computed here once and the screen and the board cannot disagree.

The score pad hides nothing, so the board's view is the host's view; only the number
of closed rounds shown differs (``max_rounds``: the board's block figures are wider).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from companion.games.scorepad.rules import ScorepadState
from companion.rules.base import PlayerId, competition_ranks
from companion.rules.names import fit_name

HOST_ROUNDS = 12
"""Closed rounds the host's table shows (the newest); totals always count every round."""
BOARD_ROUNDS = 8
"""Closed rounds the board shows."""


@dataclass(frozen=True)
class PadRow:
    """One player's line, in seating order (players find their own line where it was)."""

    player: PlayerId
    name: str
    rounds: tuple[int, ...]
    """Points in each shown closed round, oldest first."""
    open_points: tuple[int, ...]
    """Every score written in the open round, in order (``+5 -2``)."""
    total: int
    rank: int
    """Competition rank ("1224") by total, in the game's direction."""
    leading: bool
    """Marked: a winner once the game has ended, else a best total once anyone scored."""
    winner: bool


@dataclass(frozen=True)
class PadView:
    round_number: int
    """The open round's number (the next one after the last closed round)."""
    ended: bool
    highest_wins: bool
    target: int | None
    shown_rounds: tuple[int, ...]
    """Numbers (from 1) of the closed rounds shown, oldest first."""
    open_round: int | None
    """The open round's number while the game runs, else None."""
    rows: tuple[PadRow, ...]


def pad_view(
    state: ScorepadState, winners: Collection[PlayerId] = (), max_rounds: int = HOST_ROUNDS
) -> PadView:
    """The view of ``state``; ``winners`` from the outcome once the game has ended."""
    totals = state.totals()
    ranks = competition_ranks(totals.items(), state.highest_wins)
    first = max(0, len(state.rounds) - max_rounds)
    shown = range(first, len(state.rounds))
    per_round = [state.round_points(i) for i in shown]
    running = state.ended is None
    scored = any(totals.values())
    rows = []
    for player in state.players:
        winner = player.id in winners
        rows.append(
            PadRow(
                player=player.id,
                name=fit_name(player.name),
                rounds=tuple(points[player.id] for points in per_round),
                open_points=tuple(p for pid, p in state.current if pid == player.id)
                if running
                else (),
                total=totals[player.id],
                rank=ranks[player.id],
                leading=winner if winners else scored and ranks[player.id] == 1,
                winner=winner,
            )
        )
    return PadView(
        round_number=state.round_number,
        ended=not running,
        highest_wins=state.highest_wins,
        target=state.target,
        shown_rounds=tuple(i + 1 for i in shown),
        open_round=state.round_number if running else None,
        rows=tuple(rows),
    )
