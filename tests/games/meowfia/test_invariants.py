"""Hypothesis: random action sequences keep the 喵喵咪呀 invariants, and logs replay exactly."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from meowfia_play import next_action, noise_actions, progress_actions

from companion.games.meowfia.rules import GAME, Identify, MeowfiaState
from companion.rules.base import GameOverError, RuleError, seat_players
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


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
