"""Invariants over random games: tokens conserved, display <= 4, one ending, replay = state."""

from __future__ import annotations

import random

from cat_box_helpers import NAMES, ledger_ok
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.cat_box.prepare import deal_for, roll_dice
from companion.games.cat_box.rules import (
    GAME,
    AdjustTokens,
    CatBoxState,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    UseEnvy,
)
from companion.rules.base import Action, GameOverError, RuleError, seat_players
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store

MAX_STEPS = 1500


def choose(state: CatBoxState, rng: random.Random) -> Action:
    """A move a table might make now; sometimes a wrong one (which must change nothing).

    The player mostly plays with sense: builds on the card they hold most tokens on,
    retires when the next die would likely hiss, opens what they can.
    """
    pid = state.current
    assert pid is not None
    if rng.random() < 0.05:  # wild: any player, any card, any slot, any dice
        who = rng.choice(state.players).id
        card = rng.choice([*(d.card for d in state.display), "nope"])
        return rng.choice(
            [
                Roll(who, roll_dice(rng, rng.choice([2, 3])), roll_dice(rng, rng.randint(0, 3))),
                Place(who, card, rng.randint(0, 4)),
                Pass(who),
                Open(who, card),
                Retire(who),
                UseEnvy(who, card),
                RemoveToken(who, card, rng.randint(1, 3), "test"),
                AdjustTokens(who, rng.randint(-2, 2), "test"),
            ]
        )
    if state.pending is not None:
        check = state.pending_check()
        assert check is not None
        if check.envy_cards and state.pending.envy is None and rng.random() < 0.3:
            return UseEnvy(pid, rng.choice(check.envy_cards))
        if rng.random() < 0.03:
            return SetDice(pid, roll_dice(rng, 3), roll_dice(rng, 1), "envy")
        if check.allowed and rng.random() < 0.95:
            focus = max(
                check.allowed, key=lambda spot: (state.displayed(spot[0]).count(pid), rng.random())
            )  # type: ignore[union-attr]
            return Place(pid, *focus)
        if check.may_place and rng.random() < 0.2:
            shown = rng.choice(state.display)
            return Place(pid, shown.card, rng.randint(1, len(shown.tokens)), override="host")
        return Pass(pid)
    openable = state.openable(pid)
    if openable and rng.random() < 0.9:
        return Open(pid, rng.choice(openable))
    held = sum(state.seat(pid).held)
    mine = [state.card(d.card).hiss for d in state.display if d.count(pid)]
    room = (min(mine) if mine else max(state.card(d.card).hiss for d in state.display)) - held
    if (mine and room < 4 and rng.random() < 0.85) or rng.random() < 0.03:
        return Retire(pid)
    return Roll(pid, roll_dice(rng, 3), roll_dice(rng, 2 if room >= 9 else 1))


def check_invariants(state: CatBoxState) -> None:
    if not state.dealt:
        return
    assert ledger_ok(state)
    assert len(state.display) <= 4
    assert all(len(set(slot)) == len(slot) for d in state.display for slot in d.tokens)
    cards_seen = (
        [d.card for d in state.display] + list(state.deck) + [c for s in state.seats for c in s.won]
    )
    assert sorted(cards_seen) == sorted(c.id for c in state.card_set.cards)  # type: ignore[union-attr]
    if state.ended is None:
        assert state.current is not None and state.seat(state.current).active
        assert all(s.held == () for s in state.seats) or state.round >= 1


@settings(max_examples=100, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_tokens_conserved_display_bounded_and_one_ending(players: int, seed: int) -> None:
    rng = random.Random(seed)
    group = seat_players(NAMES[:players])
    state = GAME.setup(group, GAME.check_options({}))
    state = GAME.apply(state, deal_for(group, {}, rng))
    endings = 0
    for _ in range(MAX_STEPS):
        action = choose(state, rng)
        try:
            new = GAME.apply(state, action)
        except RuleError:
            continue  # a refused action changes nothing (states are immutable values)
        if state.ended is None and new.ended is not None:
            endings += 1
        state = new
        check_invariants(state)
        if state.ended is not None:
            break
    assert state.ended is not None and endings == 1
    outcome = GAME.outcome(state)
    assert outcome is not None and set(outcome.winners) == set(state.winners)
    best = max(outcome.scores.values())
    assert all(outcome.scores[w] == best for w in outcome.winners)
    for action in (Retire(state.players[0].id), Roll("p1", (1, 1, 1), (1,))):
        try:
            GAME.apply(state, action)
            raise AssertionError("an action after the end was accepted")
        except GameOverError:
            pass


@settings(max_examples=20, deadline=None)
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32 - 1))
def test_replay_of_the_log_equals_the_live_state(players: int, seed: int) -> None:
    rng = random.Random(seed)
    store = Store.memory()
    live = LiveSession.start(
        store, "cat-box", seat_players(NAMES[:players]), {}, rng=random.Random(seed)
    )
    live.act(deal_for(live.players, live.options, live.rng))
    for _ in range(300):
        if live.outcome is not None:
            break
        roll = rng.random()
        try:
            if roll < 0.04 and live.can_undo:
                live.undo()
            elif roll < 0.06 and live.can_redo:
                live.redo()
            elif not live.state.dealt:  # the deal itself was undone
                live.act(deal_for(live.players, live.options, live.rng))
            else:
                live.act(choose(live.state, rng))
        except RuleError:
            pass
        check_invariants(live.state)
    state, outcome = replay(GAME, live.players, live.options, store.entries(live.id))
    assert state == live.state
    assert outcome == live.outcome
    resumed = LiveSession.resume(store, live.id)
    assert resumed.state == live.state


def test_the_driver_reaches_both_endings_with_the_default_cards() -> None:
    """Guard for the tests above: random play opens boxes and ends both ways."""
    endings: dict[str, int] = {}
    opened = 0
    for seed in range(30):
        rng = random.Random(seed)
        group = seat_players(NAMES[:8])
        state = GAME.apply(GAME.setup(group, GAME.check_options({})), deal_for(group, {}, rng))
        while state.ended is None:
            try:
                state = GAME.apply(state, choose(state, rng))
            except RuleError:
                continue
            check_invariants(state)
        endings[state.ended] = endings.get(state.ended, 0) + 1
        opened += sum(len(s.won) for s in state.seats)
    assert endings.get("deck-empty", 0) >= 1 and endings.get("instant-win", 0) >= 1, endings
    assert opened >= 30 * 3
