"""Hypothesis: random action sequences keep the 喵喵咪呀 invariants, and logs replay exactly."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    Vote,
)
from companion.rules.base import Action, GameOverError, RuleError, seat_players
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def progress_actions(state: MeowfiaState, rnd: random.Random) -> list[Action]:
    """Legal-looking moves that push the game forward (what a host would enter)."""
    ids = [p.id for p in state.players]
    if state.phase == "setup":
        sheriff = rnd.choice(ids)
        return [Start(sheriff, rnd.choice([i for i in ids if i != sheriff]))]
    if state.phase == "smuggling":
        return [SmugglingDone()]
    if state.phase == "inspection":
        current = state.current_round
        assert current is not None
        out: list[Action] = [Inspect(rnd.choice(BUILDINGS), rnd.choice(("contraband", "empty")))]
        nxt = current.next_to_question
        if nxt is not None:
            out.append(Question(nxt, rnd.choice((None, *BUILDINGS))))
        return out
    if state.phase == "reckoning":
        ballot = state.ballot
        assert ballot is not None
        if ballot.result == "tie":
            return [Revote()]
        if ballot.result == "accused":
            assert ballot.accused is not None
            return [Reveal(ballot.accused, rnd.choice(("meowfia", "meowfia", "undercover")))]
        waiting = [v for v in ballot.voters if ballot.cast_of(v) is None]
        voter = rnd.choice(waiting)
        targets = [c for c in ballot.candidates if c != voter]
        if not targets or rnd.random() < 0.1:
            return [Abstain(voter)]
        return [Vote(voter, rnd.choice(targets))]
    hidden = [pid for pid in state.hidden if pid != state.undercover]
    return [Identify(rnd.choice(hidden))] if hidden and state.undercover is None else []


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
    ]


def next_action(state: MeowfiaState, rnd: random.Random) -> Action | None:
    progress = progress_actions(state, rnd)
    if progress and rnd.random() < 0.8:
        return rnd.choice(progress)
    return rnd.choice(noise_actions(state, rnd))


def check_invariants(state: MeowfiaState) -> None:
    assert 0 <= state.smuggles <= 3
    assert 0 <= state.intercepts <= 3
    outcome = GAME.outcome(state)
    assert (outcome is None) == (state.ended is None)
    if outcome is not None:
        side = state.winning_side
        assert all(outcome.sides[w] == side for w in outcome.winners)
        if state.undercover is not None:
            assert set(outcome.sides) == {p.id for p in state.players}
            assert sum(1 for s in outcome.sides.values() if s == "police") == 2
    for ballot in state.ballots:
        assert ballot.result == "open" or ballot.complete
        assert all(c != state.sheriff for c in ballot.candidates)
    if state.ballot is not None:
        assert state.phase == "reckoning"


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 10), tied_only=st.booleans())
def test_random_sequences_raise_only_rule_errors(seed: int, n: int, tied_only: bool) -> None:
    rnd = random.Random(seed)
    state = GAME.setup(
        seat_players([f"P{i}" for i in range(n)]),
        GAME.check_options({"revote_tied_only": tied_only}),
    )
    endings = 0
    for _ in range(150):
        action = next_action(state, rnd)
        if action is None:
            break
        was_over = state.ended is not None
        try:
            new = GAME.apply(state, action)
        except RuleError:
            continue  # refused; the old state stays (apply is pure)
        if was_over:
            assert isinstance(action, Identify), action
            assert new.ended == state.ended
        elif new.ended is not None:
            endings += 1
        state = new
        check_invariants(state)
    assert endings <= 1


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 10), tied_only=st.booleans())
def test_a_host_entering_legal_moves_ends_the_game_exactly_once(
    seed: int, n: int, tied_only: bool
) -> None:
    rnd = random.Random(seed)
    state = GAME.setup(
        seat_players([f"P{i}" for i in range(n)]),
        GAME.check_options({"revote_tied_only": tied_only}),
    )
    endings = 0
    for _ in range(2000):
        if state.ended is not None:
            break
        state = GAME.apply(state, rnd.choice(progress_actions(state, rnd)))
        endings += state.ended is not None
        check_invariants(state)
    assert endings == 1
    assert state.round_number <= 5  # each round adds a smuggle or an intercept
    for action in noise_actions(state, rnd):
        if not isinstance(action, Identify):
            try:
                GAME.apply(state, action)
            except GameOverError:
                continue
            raise AssertionError(f"{action} accepted after the end")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 10))
def test_the_log_replays_to_the_same_state(seed: int, n: int) -> None:
    rnd = random.Random(seed)
    players = seat_players([f"P{i}" for i in range(n)])
    options: dict[str, Any] = {"revote_tied_only": rnd.random() < 0.5}
    with Store.memory() as store:
        live = LiveSession.start(store, "meowfia", players, options, rng=rnd)
        for _ in range(120):
            roll = rnd.random()
            try:
                if roll < 0.08:
                    live.undo()
                elif roll < 0.12:
                    live.redo()
                else:
                    action = next_action(live.state, rnd)
                    if action is None:
                        break
                    live.act(action)
            except RuleError:
                pass
            check_invariants(live.state)
        state, outcome = replay(GAME, players, live.options, store.entries(live.id))
        assert state == live.state
        assert outcome == live.outcome
        resumed = LiveSession.resume(store, live.id)
        assert resumed.state == live.state
