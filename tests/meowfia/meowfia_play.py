"""Shared helpers for the 喵喵咪呀 tests: a table of named players and short drivers."""

from __future__ import annotations

from collections.abc import Iterable

from companion.games.meowfia.rules import (
    GAME,
    Abstain,
    Inspect,
    MeowfiaState,
    SmugglingDone,
    Start,
    Vote,
)
from companion.rules.base import Action, seat_players

NAMES6 = ("Ann", "Bo", "Cy", "Di", "Ed", "Fa")


def new_game(n: int = 6, **options: object) -> MeowfiaState:
    names = [f"P{i}" for i in range(1, n + 1)] if n != 6 else list(NAMES6)
    return GAME.setup(seat_players(names), options)


def play(state: MeowfiaState, *actions: Action) -> MeowfiaState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def started(n: int = 6, sheriff: str = "p1", first: str = "p2", **options: object) -> MeowfiaState:
    return play(new_game(n, **options), Start(sheriff, first))


def empty_round(state: MeowfiaState, building: str = "N") -> MeowfiaState:
    return play(state, SmugglingDone(), Inspect(building, "empty"))  # type: ignore[arg-type]


def intercept(state: MeowfiaState) -> MeowfiaState:
    return play(state, SmugglingDone(), Inspect("E", "contraband"))


def ballot(state: MeowfiaState, votes: dict[str, str | None]) -> MeowfiaState:
    """Enter a whole ballot: ``{voter: target}``, ``None`` for an abstention."""
    for voter, target in votes.items():
        action: Action = Abstain(voter) if target is None else Vote(voter, target)
        state = GAME.apply(state, action)
    return state


def everyone_votes(
    state: MeowfiaState, target: str, fallback: str, abstain: Iterable[str] = ()
) -> MeowfiaState:
    """Every voter votes ``target`` (``target`` itself votes ``fallback``)."""
    skip = set(abstain)
    votes: dict[str, str | None] = {}
    for voter in state.voters:
        votes[voter] = None if voter in skip else (fallback if voter == target else target)
    return ballot(state, votes)
