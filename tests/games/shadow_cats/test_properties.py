"""Invariants of Shadow Cats under random play (hypothesis drives the table's seed)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from shadow_helpers import players

from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import (
    Attack,
    ChangeHp,
    CopyCharacter,
    EndTurn,
    Forest,
    GiveItem,
    Move,
    Relocate,
)
from companion.games.shadow_cats.testing import Table, junk_action
from companion.rules.base import RuleError, action_to_json
from companion.session.log import replay
from companion.session.store import Entry

ACTING = (Move, Attack, EndTurn, Forest)
TARGETING = {
    Attack: "target",
    Forest: "target",
    ChangeHp: "player",
    GiveItem: "player",
    Relocate: "player",
    CopyCharacter: "player",
}


def check_invariants(before, action, after):
    for seat in after.seats:
        top = after.character(seat.player).max_hp
        assert 0 <= seat.hp <= top
        old = before.seat(seat.player) if before.seats else None
        if old is not None and not old.alive:
            assert not seat.alive, "the dead never come back"
    if isinstance(action, ACTING):
        assert before.seat(action.player).alive, "a dead character acted"
    field = TARGETING.get(type(action))
    if field is not None:
        assert before.seat(getattr(action, field)).alive, "a dead character was targeted"
    if after.counts is not None:
        for identity in ("red", "blue", "neutral"):
            assert after.revealed(identity) <= getattr(after.counts, identity)


def play(seed: int, count: int, junk_rate: float, steps: int = 600):
    rng = random.Random(seed)
    table = Table(players(count), rng)
    state = GAME.setup(table.players, GAME.check_options({}))
    applied = []
    for _ in range(steps):
        if state.phase == "over":
            break
        if state.phase != "setup" and rng.random() < junk_rate:
            action = junk_action(state, rng)
        else:
            action = table.next_action(state)
        try:
            new = GAME.apply(state, action)
        except RuleError:
            continue
        check_invariants(state, action, new)
        applied.append(action)
        state = new
    return table, state, applied


@settings(max_examples=120, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    count=st.integers(4, 10),
    junk_rate=st.sampled_from([0.0, 0.2, 0.5]),
)
def test_random_play_keeps_invariants_and_replays(seed, count, junk_rate):
    table, state, applied = play(seed, count, junk_rate)
    entries = [Entry(i + 1, "action", action_to_json(a), "t", i) for i, a in enumerate(applied)]
    replayed, outcome = replay(GAME, table.players, {}, entries)
    assert replayed == state
    assert outcome == GAME.outcome(state)
    if outcome is not None:
        assert outcome.winners
    if outcome is not None and junk_rate == 0:
        # with truthful reveals only (junk may "reveal" a wrong card), results are right
        truth = table.identity
        if outcome.termination == "team-wipe":
            team = state.victory.team
            assert set(outcome.winners) == {p for p, i in truth.items() if i == team}
            loser = "red" if team == "blue" else "blue"
            assert all(not s.alive for s in state.seats if truth[s.player] == loser)
        else:
            assert all(truth[p] == "neutral" for p in outcome.winners)
        assert dict(outcome.sides) == truth


def test_random_games_usually_finish():
    finished = sum(play(seed, 5, 0.0, steps=2000)[1].phase == "over" for seed in range(20))
    assert finished == 20
