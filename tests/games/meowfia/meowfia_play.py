"""Shared helpers for the 喵喵咪呀 tests: a table of named players, short drivers, and the
random action generators (a host's progress moves and mostly-illegal noise)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from fractions import Fraction

from companion.games.meowfia.rules import (
    BUILDINGS,
    GAME,
    Abstain,
    Identify,
    Inspect,
    MeowfiaState,
    MoveMarker,
    Question,
    Retract,
    Reveal,
    RevealTile,
    Revote,
    SetCounter,
    SetWeight,
    SmugglingDone,
    Start,
    Timer,
    Vote,
)
from companion.games.meowfia.testing import progress_actions as testing_progress
from companion.rules.base import Action, seat_players
from companion.session.live import LiveSession

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


def question_everyone(state: MeowfiaState) -> MeowfiaState:
    """The Sheriff questions every player in the order (完成盘问), as the rules ask."""
    while state.current_round is not None and state.current_round.next_to_question is not None:
        state = play(state, Question(state.current_round.next_to_question))
    return state


def intercept(state: MeowfiaState) -> MeowfiaState:
    """Smuggling, the whole questioning, then the real contraband: a reckoning."""
    return play(question_everyone(play(state, SmugglingDone())), Inspect("E", "contraband"))


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


def progress_actions(state: MeowfiaState, rnd: random.Random) -> list[Action]:
    """Legal-looking moves that push the game forward (what a host would enter): the
    game's own testing hook, with a voter abstaining now and then."""
    return testing_progress(state, rnd, abstain=0.1)


def noise_actions(state: MeowfiaState, rnd: random.Random) -> list[Action]:
    """Anything at all, mostly illegal: it must be refused with a RuleError or applied."""
    ids = [p.id for p in state.players] + ["p99"]
    pick = rnd.choice
    weight = pick([Fraction(0), Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(11)])
    return [
        Start(pick(ids), pick(ids)),
        SmugglingDone(),
        Question(pick(ids)),
        Inspect(pick(BUILDINGS), pick(("contraband", "empty"))),
        Vote(pick(ids), pick(ids)),
        Abstain(pick(ids)),
        Retract(pick(ids)),
        Revote(),
        Reveal(pick(ids), pick(("meowfia", "undercover"))),
        Identify(pick(ids)),
        MoveMarker(pick(("ring", "message", "rose")), pick([*ids, None]), "ability"),
        SetWeight(pick(ids), weight, "ability"),
        RevealTile(pick(ids), pick(("meowfia", "meowfia", "meowfia", "undercover")), "ability"),
        SetCounter(pick(("smuggles", "intercepts")), rnd.randint(0, 4), "mistake"),
        Timer(pick(("start", "pause", "resume")), rnd.randint(0, 200) * 1_000_000_000),
    ]


def next_action(state: MeowfiaState, rnd: random.Random) -> Action | None:
    progress = progress_actions(state, rnd)
    if progress and rnd.random() < 0.8:
        return rnd.choice(progress)
    return rnd.choice(noise_actions(state, rnd))


def play_a_whole_game(live: LiveSession) -> None:
    """Sheriff p1; a tie and a revote; an undo; a weight change; a Police win; identify."""
    others = [p.id for p in live.players if p.id != "p1"]
    live.act(Start("p1", live.rng.choice(others)))
    for _round in range(3):
        live.act(SmugglingDone())
        live.act(Question(live.state.current_round.next_to_question, "N"))
        live.act(Inspect("E", "contraband"))
        if _round == 0:  # a tie first: p2 and p3 vote for each other, the rest abstain
            live.act(MoveMarker("ring", None, "the ring was given away by a role"))
            live.act(Vote("p2", "p3"))
            live.act(Vote("p3", "p2"))
            live.act(Vote("p4", "p5"))
            live.undo()  # p4 meant to abstain
            for voter in ("p4", "p5", "p6"):
                live.act(Abstain(voter))
            assert live.state.ballot.result == "tie"
            live.act(Revote())
            live.act(SetWeight("p6", Fraction(2), "double vote"))
        target = ("p2", "p3", "p4")[_round]
        for voter in live.state.ballot.voters:
            live.act(Vote(voter, "p5" if voter == target else target))
        live.act(Reveal(target, "meowfia", "Tabby" if _round == 1 else None))
    live.act(Identify("p6"))
