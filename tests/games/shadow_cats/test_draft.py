"""The setup draft and the free choice after a 7 are entries of their own.

Before these actions the draft lived only in the screen (leave and resume: dealt
again) and a 7's dice were kept in the dice dialog until the destination was picked.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from shadow_helpers import LAYOUT, placed, players, roster_text, setup_action

from companion.games.shadow_cats import prepare
from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import (
    Begin,
    ChangeHp,
    Deal,
    Destination,
    EndTurn,
    Move,
    MoveDice,
    PickCharacter,
    Place,
    SetCounts,
    SetFirstPlayer,
    SetLayout,
)
from companion.games.shadow_cats.rules.game import check_counts
from companion.rules.base import (
    BadActionError,
    DataFileError,
    IllegalActionError,
    RuleError,
    SetupError,
)

PAIRS = (("metal", "wood"), ("water", "fire"), ("earth", "mimic"), ("sniper", "mid"), ("n1", "n2"))


def fresh(n: int = 5):
    return GAME.setup(players(n), GAME.check_options({}))


def dealt(n: int = 5):
    return GAME.apply(fresh(n), Deal("test.toml", roster_text(), PAIRS[:n], LAYOUT, "p2"))


def test_deal_records_the_draft_and_preselects_the_first_card():
    state = dealt()
    draft = state.draft
    assert state.phase == "setup" and draft is not None
    assert draft.characters == ("metal", "water", "earth", "sniper", "n1")
    assert draft.pairs == PAIRS and draft.layout == LAYOUT and draft.first_player == "p2"
    assert (draft.counts.red, draft.counts.blue, draft.counts.neutral) == (2, 2, 1)


def test_draft_edits_then_begin_equals_the_one_action_setup():
    state = dealt()
    for action in (
        PickCharacter("p1", "wood"),
        PickCharacter("p5", "n2"),
        SetCounts(1, 3, 1),
        SetLayout(("kingdom", "library", "village", "warp", "shop", "demon", "forest")),
        SetFirstPlayer("p4"),
    ):
        state = GAME.apply(state, action)
    deck = ("metal-sword", "wood-bow", "metal-mail")
    begun = GAME.apply(state, Begin(deck))
    layout = ("kingdom", "library", "village", "warp", "shop", "demon", "forest")
    one = setup_action(
        5, ["wood", "water", "earth", "sniper", "n2"], (1, 3, 1), layout=layout, first="p4"
    )
    assert begun == GAME.apply(fresh(), one)
    assert begun.phase == "start" and begun.draft is None


@pytest.mark.parametrize(
    ("action", "error", "words"),
    [
        (PickCharacter("p1", "water"), IllegalActionError, "Bo has water already"),
        (PickCharacter("p1", "ghost"), BadActionError, "no character"),
        (SetCounts(3, 3, 3), SetupError, "add up to 9, not 5"),
        (SetCounts(0, 4, 1), SetupError, "at least one Red"),
        (SetLayout(("warp", *LAYOUT[1:3], "library", *LAYOUT[4:])), IllegalActionError, "centre"),
        (SetFirstPlayer("p9"), RuleError, "p9"),
    ],
)
def test_bad_draft_edits_change_nothing(action, error, words):
    state = dealt()
    with pytest.raises(error, match=words):
        GAME.apply(state, action)


def test_draft_edits_need_a_deal_and_end_at_begin():
    with pytest.raises(IllegalActionError, match="Deal the setup first"):
        GAME.apply(fresh(), SetCounts(2, 2, 1))
    started = GAME.apply(dealt(), Begin(("metal-sword", "wood-bow", "metal-mail")))
    for action in (SetCounts(2, 2, 1), Deal("t", roster_text(), PAIRS, LAYOUT, "p1")):
        with pytest.raises(IllegalActionError, match="set up already"):
            GAME.apply(started, action)
    with pytest.raises(IllegalActionError, match="Set the game up first"):
        GAME.apply(dealt(), Place("p1", (6,)))


def test_begin_needs_identity_counts_when_the_roster_has_none():
    state = GAME.apply(fresh(), Deal("t.toml", roster_text(identities={}), PAIRS, LAYOUT, "p1"))
    assert state.draft.counts is None
    with pytest.raises(IllegalActionError, match="no identity counts for 5 players"):
        GAME.apply(state, Begin(("metal-sword", "wood-bow", "metal-mail")))
    state = GAME.apply(state, SetCounts(2, 2, 1))
    assert GAME.apply(state, Begin(("metal-sword", "wood-bow", "metal-mail"))).phase == "start"


def test_a_deal_may_not_repeat_a_card_and_covers_every_player():
    with pytest.raises(IllegalActionError, match="dealt twice"):
        GAME.apply(
            fresh(), Deal("t", roster_text(), (("metal", "metal"), *PAIRS[1:]), LAYOUT, "p1")
        )
    with pytest.raises(BadActionError, match="each of the 5 players"):
        GAME.apply(fresh(), Deal("t", roster_text(), PAIRS[:4], LAYOUT, "p1"))


def test_check_counts_is_the_rule_the_screen_checks_as_typed():
    assert check_counts(4, 2, 2, 0).total == 4
    with pytest.raises(SetupError, match="add up to 9, not 4 players"):
        check_counts(4, 3, 3, 3)


def test_a_seven_is_recorded_before_the_destination():
    state = placed(["shop", "warp", "warp", "warp"], counts=(2, 2, 0))
    chosen = GAME.apply(state, MoveDice("p1", (8, 7)))
    assert (chosen.step, chosen.pending_rolls) == ("choose", (8, 7))
    assert chosen.seat("p1").location == "shop"
    with pytest.raises(IllegalActionError, match="choose the destination first"):
        GAME.apply(chosen, EndTurn("p1"))
    with pytest.raises(IllegalActionError, match="may not stay"):
        GAME.apply(chosen, Destination("p1", "shop"))
    moved = GAME.apply(chosen, Destination("p1", "forest"))
    assert (moved.step, moved.pending_rolls) == ("forest", ())
    assert moved.seat("p1").location == "forest"
    # the same as the one-action move with the destination inside
    assert replace(moved, notices=()) == replace(
        GAME.apply(state, Move("p1", (8, 7), "forest")), notices=()
    )
    with pytest.raises(BadActionError, match="end in a 7"):
        GAME.apply(state, MoveDice("p1", (8,)))
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Destination("p1", "forest"))


def test_a_death_during_the_choice_passes_the_turn_and_forgets_the_dice():
    state = GAME.apply(
        placed(["shop", "warp", "warp", "warp"], counts=(2, 2, 0)), MoveDice("p1", (7,))
    )
    after = GAME.apply(state, ChangeHp("p1", -999, "event"))
    assert after.turn == "p2" and after.step == "move" and after.pending_rolls == ()


# --------------------------------------------------------------------------- prepare


def test_prepare_deals_and_rolls_the_actions_the_screen_records():
    source = prepare.RosterSource("test.toml", roster_text())
    deal = prepare.deal(source, players(5), random.Random(4))
    assert deal == prepare.deal(source, players(5), random.Random(4))
    state = GAME.apply(fresh(), deal)
    begin = prepare.begin(state.draft, random.Random(4))
    assert GAME.apply(state, begin).phase == "start"
    rng = random.Random(9)
    assert prepare.place(rng, "p1", typed=(7, 7)).rolls[:2] == (7, 7)
    for seed in range(40):
        action = prepare.move(random.Random(seed), "p1", "warp", typed=(4,))
        assert action.rolls[0] == 4
        assert isinstance(action, MoveDice) == (action.rolls[-1] == 7)
    attack = prepare.attack(random.Random(1), "p1", "p2")
    assert 1 <= attack.roll <= 100 and (attack.player, attack.target) == ("p1", "p2")


def test_prepare_refuses_a_roster_too_small_to_deal():
    small = roster_text(characters=None)
    source = prepare.RosterSource("small.toml", small)
    with pytest.raises(DataFileError, match="11 players need at least 11"):
        prepare.deal(source, [*players(10), replace(players(1)[0], id="p11")], random.Random(0))
    pairs = prepare.deal(prepare.RosterSource("t", small), players(6), random.Random(0)).pairs
    assert all(len(pair) == 1 for pair in pairs)  # ten cards: one each, none twice
