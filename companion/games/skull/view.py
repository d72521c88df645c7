"""Skull view-model (pure): what the host's screen and the board both show.

Nothing here can hold a face-down disc: the state never had one. The last lost
disc's draw (``SkullState.lost``) is the host's alone and is not in the rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.skull.rules import SkullState


@dataclass(frozen=True)
class Row:
    player: str
    name: str
    discs: int
    on_mat: int
    turned: int
    wins: int
    out: bool
    passed: bool
    acting: bool
    challenger: bool


@dataclass(frozen=True)
class SkullView:
    round: int
    phase: str
    bid: int
    bidder: str | None
    flowers: int
    rows: tuple[Row, ...]


def skull_view(state: SkullState) -> SkullView:
    rows = tuple(
        Row(
            player=p.id,
            name=p.name,
            discs=state.discs[i],
            on_mat=state.placed[i],
            turned=state.turned_from(i),
            wins=state.wins[i],
            out=not state.alive(i),
            passed=state.phase == "bidding" and state.passed[i] and state.alive(i),
            acting=state.turn == i,
            challenger=state.bidder == i and state.phase in ("reveal", "lose"),
        )
        for i, p in enumerate(state.players)
    )
    bidder = state.players[state.bidder].name if state.bidder is not None else None
    return SkullView(state.round, state.phase, state.bid, bidder, state.flowers(), rows)
