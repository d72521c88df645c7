"""Shadow Cats rules, case by case from the rules page (docs/rules/shadow-cats.md)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

import pytest
from shadow_helpers import (
    LAYOUT,
    SUM_FOR,
    character,
    placed,
    players,
    put,
    roster_text,
    sample_characters,
    setup_action,
    started,
)

from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import (
    Attack,
    Begin,
    ChangeHp,
    CopyCharacter,
    Deal,
    DeclareNeutralWin,
    Destination,
    EndTurn,
    FinalIdentities,
    Forest,
    GiveItem,
    IdentityEntry,
    Move,
    MoveDice,
    PickCharacter,
    Place,
    Relocate,
    Reveal,
    SetCounts,
    SetFirstPlayer,
    SetLayout,
    Setup,
    TakeItem,
)
from companion.games.shadow_cats.rules.board import (
    LOCATIONS,
    SUMS,
    location_for_sum,
    slot_distance,
)
from companion.games.shadow_cats.rules.state import BEATS, element_bonus
from companion.rules.base import (
    BadActionError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    RuleError,
    SetupError,
)

# --------------------------------------------------------------------------- helpers


def apply(state, *actions):
    for action in actions:
        state = GAME.apply(state, action)
    return state


def refused(state, action, kind=RuleError, text=None):
    """The action is refused with ``kind`` (and ``text`` in its message); nothing changes."""
    with pytest.raises(kind) as info:
        GAME.apply(state, action)
    if text is not None:
        assert text in str(info.value), str(info.value)
    return info.value


def ready_to_attack(locations, mover_to, **kwargs):
    """Place players; p1 moves to ``mover_to`` and is in the attack step."""
    state = placed(locations, **kwargs)
    state = apply(state, Move("p1", (SUM_FOR[mover_to],)))
    assert state.step == ("forest" if mover_to == "forest" else "attack")
    return state


def kill(state, pid, identity=None):
    """Bring ``pid`` to 0 HP by a manual change, then enter ``identity`` if given."""
    state = apply(state, ChangeHp(pid, -state.seat(pid).hp, "test"))
    assert not state.seat(pid).alive
    if identity is not None:
        state = apply(state, Reveal(pid, identity))
    return state


# --------------------------------------------------------------------------- setup


def test_setup_deals_seats_and_waits_for_start_positions():
    state = started(5)
    assert state.phase == "start"
    assert [s.character for s in state.seats] == ["metal", "wood", "water", "fire", "earth"]
    assert all(s.hp == 50 and s.identity is None and s.location is None for s in state.seats)
    assert state.next_to_place == "p1"
    assert GAME.outcome(state) is None


@pytest.mark.parametrize("count", [3, 11])
def test_player_count_outside_4_to_10_is_refused(count):
    names = [f"P{i}" for i in range(count)]
    from companion.rules.base import seat_players

    with pytest.raises(SetupError):
        GAME.setup(seat_players(names), {})


def test_only_setup_is_accepted_before_setup():
    state = GAME.setup(players(4), {})
    refused(state, Place("p1", (6,)), IllegalActionError, "Set the game up first")


@pytest.mark.parametrize(
    ("change", "kind", "text"),
    [
        ({"characters": ("metal", "wood", "water", "fire")}, BadActionError, "one character"),
        ({"characters": ("metal", "wood", "water", "fire", "zzz")}, BadActionError, "zzz"),
        (
            {"characters": ("metal", "metal", "water", "fire", "earth")},
            IllegalActionError,
            "same character",
        ),
        (
            {"layout": ("warp", "kingdom", "village", "library", "shop", "demon", "forest")},
            IllegalActionError,
            "Warp Stone",
        ),
        (
            {"layout": ("warp", "kingdom", "village", "library", "shop", "demon")},
            BadActionError,
            "7 locations",
        ),
        ({"layout": ("library",) * 7}, BadActionError, "7 locations"),
        ({"red": 0, "blue": 4, "neutral": 1}, SetupError, "at least one Red"),
        ({"red": 2, "blue": 2, "neutral": 2}, SetupError, "add up to 6"),
        ({"first_player": "p9"}, BadActionError, "p9"),
        ({"equipment_deck": ("wood-bow", "metal-mail")}, IllegalActionError, "metal-sword"),
        (
            {"equipment_deck": ("metal-sword", "metal-sword", "wood-bow", "metal-mail")},
            BadActionError,
            "twice",
        ),
        (
            {"equipment_deck": ("metal-sword", "wood-bow", "metal-mail", "ghost")},
            BadActionError,
            "ghost",
        ),
        ({"roster": "not = [toml"}, RuleError, "test.toml"),
    ],
)
def test_bad_setup_is_refused(change, kind, text):
    state = GAME.setup(players(5), {})
    refused(state, replace(setup_action(5), **change), kind, text)


def test_deck_must_be_filled_to_twelve_or_all_there_is():
    # the test roster has 2 weapons and 1 armour: the deck holds all three
    state = GAME.setup(players(4), {})
    action = setup_action(
        4, ["water", "fire", "earth", "mimic"], (2, 2, 0), deck=("metal-sword", "metal-mail")
    )
    refused(state, action, IllegalActionError, "weapon")


def test_setup_twice_is_refused():
    refused(started(5), setup_action(5), IllegalActionError, "set up already")


# --------------------------------------------------------------------------- start positions


def test_start_positions_reroll_7_without_free_choice_or_effect():
    state = started(4, counts=(2, 2, 0))
    refused(state, Place("p2", (6,)), NotYourTurnError)
    refused(state, Place("p1", (7,)), IllegalActionError, "rolled again")
    refused(state, Place("p1", (8, 6)), IllegalActionError, "Only a 7")
    refused(state, Place("p1", ()), BadActionError)
    refused(state, Place("p1", (13,)), BadActionError, "2 to 12")
    state = apply(state, Place("p1", (7, 7, 10)))  # the Forest, but no effect at the start
    assert state.seat("p1").location == "forest"
    assert state.seat("p1").hp == 50
    state = apply(state, Place("p2", (10,)), Place("p3", (2,)))
    refused(state, Move("p1", (6,)), IllegalActionError, "start position")
    state = apply(state, Place("p4", (12,)))
    assert (state.phase, state.turn, state.step, state.round) == ("play", "p1", "move", 1)
    refused(state, Place("p1", (6,)), IllegalActionError)


def test_first_player_comes_from_setup_and_start_order_follows_it():
    state = started(4, counts=(2, 2, 0), first="p3")
    assert state.next_to_place == "p3"
    state = apply(state, Place("p3", (6,)), Place("p4", (6,)), Place("p1", (6,)), Place("p2", (6,)))
    assert state.turn == "p3"


# --------------------------------------------------------------------------- moves


@pytest.mark.parametrize("total", sorted(SUMS))
def test_every_location_sum(total):
    expected = SUMS[total]
    start = "library" if expected != "library" else "shop"
    state = placed([start, "kingdom", "kingdom", "kingdom", "kingdom"])
    state = apply(state, Move("p1", (total,)))
    assert state.seat("p1").location == expected
    assert location_for_sum(total) == expected
    assert state.step == ("forest" if expected == "forest" else "attack")
    assert state.notices[0].template == "{player} moves to {location}."
    assert len(state.notices) == 2  # the location's reminder


def test_sum_table_is_the_pages():
    assert {s: SUMS.get(s) for s in range(2, 13)} == {
        2: "kingdom",
        11: "kingdom",
        3: "village",
        12: "village",
        4: "warp",
        5: "warp",
        6: "library",
        7: None,
        8: "shop",
        9: "demon",
        10: "forest",
    }


def test_seven_is_a_free_choice_but_never_the_same_location():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, Move("p1", (7,)), BadActionError, "destination")
    refused(state, Move("p1", (7,), "warp"), IllegalActionError, "may not stay")
    refused(state, Move("p1", (7,), "moon"), BadActionError, "moon")
    state = apply(state, Move("p1", (7,), "forest"))
    assert state.seat("p1").location == "forest"
    assert state.step == "forest"


def test_same_location_is_rolled_again_and_every_roll_is_recorded():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, Move("p1", (4,)), IllegalActionError, "roll again")
    refused(state, Move("p1", (5,)), IllegalActionError, "roll again")
    refused(state, Move("p1", (8, 9)), IllegalActionError, "needs no re-roll")
    refused(state, Move("p1", (7, 8)), IllegalActionError, "needs no re-roll")
    refused(state, Move("p1", (8,), "demon"), BadActionError, "only on a 7")
    moved = apply(state, Move("p1", (4, 5, 4, 8)))
    assert moved.seat("p1").location == "shop"
    moved = apply(state, Move("p1", (4, 7), "library"))
    assert moved.seat("p1").location == "library"


@pytest.mark.parametrize("total", [0, 1, 13, -2])
def test_dice_sum_outside_2_to_12_is_refused(total):
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, Move("p1", (total,)), BadActionError, "2 to 12")


def test_move_order_and_steps():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, Move("p2", (6,)), NotYourTurnError, "Ann's turn")
    refused(state, EndTurn("p1"), IllegalActionError, "moves first")
    refused(state, Attack("p1", "p2", 50), IllegalActionError, "moves first")
    refused(state, Move("p7", (6,)), BadActionError, "p7")
    state = apply(state, Move("p1", (6,)))
    refused(state, Move("p1", (8,)), IllegalActionError, "moved already")
    state = apply(state, EndTurn("p1"))
    assert (state.turn, state.step) == ("p2", "move")


def test_turns_skip_the_dead_and_rounds_count_wraps():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = kill(state, "p2", "red")
    for pid, loc in (("p1", "library"), ("p3", "shop"), ("p4", "shop"), ("p5", "shop")):
        assert state.turn == pid
        state = apply(state, Move(pid, (SUM_FOR[loc],)), EndTurn(pid))
    assert (state.turn, state.round) == ("p1", 2)


def test_dead_character_cannot_move():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = kill(state, "p1", "red")
    assert state.turn == "p2"  # a death in one's own turn passes it on
    refused(state, Move("p1", (6,)), IllegalActionError, "dead")
    refused(state, Relocate("p1", "shop", "skill"), IllegalActionError, "dead")


# --------------------------------------------------------------------------- distances

DEFAULT_COLOURS = ("red", "red", "green", "green", "blue", "blue")
# slot 0 centre, 1..6 outer; the page's rules written out for the default board
EXPECTED = [
    # c  1  2  3  4  5  6
    [1, 2, 2, 2, 2, 2, 2],  # centre: same slot 1, anything else 2
    [2, 1, 1, 3, 3, 3, 2],  # slot 1 red: 2 is red (1), 6 adjacent blue (2), rest far
    [2, 1, 1, 2, 3, 3, 3],  # slot 2 red: 3 adjacent green (2)
    [2, 3, 2, 1, 1, 3, 3],
    [2, 3, 3, 1, 1, 2, 3],
    [2, 3, 3, 3, 2, 1, 1],
    [2, 2, 3, 3, 3, 1, 1],
]


def test_every_distance_on_the_default_board():
    for a, b in product(range(7), repeat=2):
        assert slot_distance(a, b, "brown", DEFAULT_COLOURS) == EXPECTED[a][b], (a, b)


@pytest.mark.parametrize(
    ("here", "there", "expected", "case"),
    [
        ("kingdom", "village", 1, "outer, same colour"),
        ("warp", "shop", 1, "outer, same colour"),
        ("kingdom", "kingdom", 1, "outer, same slot"),
        ("village", "warp", 2, "adjacent slot of another colour"),
        ("forest", "kingdom", 2, "adjacent across the wrap-around"),
        ("kingdom", "warp", 3, "far"),
        ("village", "demon", 3, "far, opposite"),
        ("library", "library", 1, "centre, same slot"),
        ("library", "kingdom", 2, "centre to outer"),
        ("forest", "library", 2, "outer to centre"),
    ],
)
def test_distance_cases_between_players(here, there, expected, case):
    state = placed(["warp", "warp", "warp", "warp", "warp"])
    state = put(put(state, "p1", here), "p2", there)
    assert state.distance("p1", "p2") == expected, case
    assert state.distance("p2", "p1") == expected, case


def test_centre_to_a_brown_slot_is_1_on_a_custom_board():
    text = roster_text(
        board={"centre": "brown", "outer": ["brown", "red", "red", "blue", "blue", "green"]}
    )
    state = placed(["warp"] * 5, text=text)
    state = put(put(state, "p1", "library"), "p2", "kingdom")  # kingdom: slot 1, brown
    assert state.distance("p1", "p2") == 1
    assert state.distance("p2", "p1") == 1
    state = put(state, "p2", "village")  # slot 2, red
    assert state.distance("p1", "p2") == 2
    assert slot_distance(0, 1, "brown", ("brown", "red", "red", "blue", "blue", "green")) == 1


def test_targets_in_range_follow_attack_range():
    # p1 metal range 1 at kingdom (slot 1); p2 village (1), p3 forest (2), p4 warp (3),
    # p5 library (centre, 2)
    state = ready_to_attack(["shop", "village", "forest", "warp", "library"], "kingdom")
    assert state.in_range("p1") == ("p2",)
    refused(state, Attack("p1", "p3", 50), IllegalActionError, "distance 2")
    refused(state, Attack("p1", "p4", 50), IllegalActionError, "range is 1")


def test_range_3_reaches_everything():
    chars = ["sniper", "wood", "water", "fire", "earth"]
    state = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"], "kingdom", characters=chars
    )
    assert state.in_range("p1") == ("p2", "p3", "p4", "p5")


# --------------------------------------------------------------------------- damage


@pytest.mark.parametrize(
    ("roll", "damage"),
    [(1, None), (10, None), (11, 10), (50, 10), (51, 20), (90, 20), (91, 30), (100, 30)],
)
def test_damage_table_edges(roll, damage):
    # p1 "n1" (no element) attacks p2 "n2" (no element): the table alone
    chars = ["n1", "n2", "water", "fire", "earth"]
    state = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"], "kingdom", characters=chars
    )
    assert state.character("p1").damage_for(roll) == damage
    state = apply(state, Attack("p1", "p2", roll))
    report = state.last_attack
    assert report.table == damage
    assert report.damage == (damage or 0)
    assert state.seat("p2").hp == 50 - (damage or 0)
    assert (state.turn, state.step) == ("p2", "move")  # the attack ends the turn


@pytest.mark.parametrize("roll", [0, 101, -5])
def test_d100_outside_1_to_100_is_refused(roll):
    state = ready_to_attack(["shop", "village", "forest", "warp", "library"], "kingdom")
    refused(state, Attack("p1", "p2", roll), BadActionError, "1 to 100")


@pytest.mark.parametrize(("attacker", "target"), sorted(BEATS.items()))
def test_each_element_advantage_adds_5(attacker, target):
    assert element_bonus(attacker, target) == 5
    assert element_bonus(target, attacker) == 0  # never both ways
    chars = [attacker, target, *[c for c in ("n1", "n2", "mid") if c]][:5]
    state = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"], "kingdom", characters=chars
    )
    state = apply(state, Attack("p1", "p2", 60))
    report = state.last_attack
    assert (report.table, report.element, report.damage) == (20, 5, 25)
    assert state.seat("p2").hp == 25


def test_five_advantages_form_the_cycle():
    assert BEATS == {
        "water": "fire",
        "fire": "metal",
        "metal": "wood",
        "wood": "earth",
        "earth": "water",
    }


@pytest.mark.parametrize("other", ["metal", "wood", "water", "fire", "earth", "none"])
def test_no_element_gives_no_bonus_either_way(other):
    assert element_bonus("none", other) == 0
    assert element_bonus(other, "none") == 0


def test_same_or_unrelated_elements_give_no_bonus():
    assert element_bonus("fire", "fire") == 0
    assert element_bonus("water", "wood") == 0  # water generates wood; no 剋


def test_miss_does_no_damage_even_with_element_and_weapon():
    chars = ["metal", "wood", "water", "fire", "earth"]
    state = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"], "kingdom", characters=chars
    )
    state = apply(state, GiveItem("p1", "metal-sword", "drew it"))
    state = apply(state, Attack("p1", "p2", 5))
    report = state.last_attack
    assert (report.table, report.element, report.weapon, report.damage) == (None, 0, 0, 0)
    assert state.seat("p2").hp == 50


def test_equipment_owner_and_other_bonuses():
    chars = ["metal", "wood", "water", "fire", "earth"]
    base = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"], "kingdom", characters=chars
    )
    # the owner of the sword (metal) gets +10; metal beats wood (+5): 20 + 5 + 10
    state = apply(base, GiveItem("p1", "metal-sword", "shop"), Attack("p1", "p2", 60))
    assert state.last_attack.weapon == 10
    assert state.last_attack.damage == 35
    # another character with the sword gets +4; wood's mail (owner metal) takes off 3
    state = apply(
        base,
        GiveItem("p1", "wood-bow", "shop"),
        GiveItem("p2", "metal-mail", "x"),
        Attack("p1", "p2", 60),
    )
    report = state.last_attack
    assert (report.table, report.element, report.weapon, report.armour) == (20, 5, 2, 3)
    assert report.damage == 24
    assert state.seat("p2").hp == 26


def test_armour_cannot_make_damage_negative():
    text = roster_text(
        items=[
            {
                "id": "wall",
                "name": "Wall",
                "kind": "armour",
                "owner": "wood",
                "owner_bonus": 50,
                "other_bonus": 50,
            }
        ]
    )
    chars = ["n1", "wood", "water", "fire", "earth"]
    state = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"],
        "kingdom",
        characters=chars,
        text=text,
        deck=("wall",),
    )
    state = apply(state, GiveItem("p2", "wall", "found"), Attack("p1", "p2", 95))
    assert state.last_attack.damage == 0
    assert state.seat("p2").hp == 50


def test_expected_attack_includes_modifiers():
    chars = ["metal", "wood", "water", "fire", "earth"]
    state = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"], "kingdom", characters=chars
    )
    plain = Fraction(40 * 10 + 40 * 20 + 10 * 30, 100)
    assert state.character("p1").expected_damage == plain
    assert state.expected_attack("p1", "p3") == plain
    assert state.expected_attack("p1", "p2") == plain + Fraction(90 * 5, 100)  # hits only


def test_hp_never_goes_below_zero_and_death_waits_for_identity():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = apply(state, ChangeHp("p2", -45, "event"))
    state = apply(state, Move("p1", (2,)), Attack("p1", "p2", 95))  # 30 > 5 HP left
    assert state.seat("p2").hp == 0
    assert state.last_attack.hp_before == 5 and state.last_attack.hp_after == 0
    assert state.last_attack.killed
    assert state.pending_reveal == "p2"
    refused(state, Move("p3", (6,)), IllegalActionError, "Bo died")
    refused(state, ChangeHp("p3", -1, "x"), IllegalActionError, "Bo died")
    refused(state, Reveal("p3", "red", "peek"), IllegalActionError, "Bo died")
    state = apply(state, Reveal("p2", "blue"))
    assert state.pending_reveal is None and state.seat("p2").identity == "blue"
    assert state.turn == "p3"


def test_dead_character_cannot_be_targeted():
    state = placed(["shop", "village", "forest", "warp", "library"])
    state = kill(state, "p2", "red")
    state = apply(state, Move("p1", (2,)))
    assert "p2" not in state.in_range("p1")
    refused(state, Attack("p1", "p2", 50), IllegalActionError, "dead")
    refused(state, ChangeHp("p2", 10, "heal"), IllegalActionError, "dead")
    refused(state, GiveItem("p2", "wood-bow", "x"), IllegalActionError, "dead")


def test_attack_on_oneself_is_refused():
    state = ready_to_attack(["shop", "village", "forest", "warp", "library"], "kingdom")
    refused(state, Attack("p1", "p1", 50), IllegalActionError, "itself")
    refused(state, Attack("p1", "p9", 50), BadActionError, "p9")


# --------------------------------------------------------------------------- HP and forest


def test_healing_is_clamped_at_max_hp_and_shown():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = apply(state, ChangeHp("p2", -5, "event"), ChangeHp("p2", 20, "potion"))
    assert state.seat("p2").hp == 50
    assert state.notices[0].template.startswith("{player} heals {applied} of {amount}")
    assert dict(state.notices[0].params)["applied"] == 5
    full = apply(state, ChangeHp("p2", 1, "potion"))
    assert full.seat("p2").hp == 50 and dict(full.notices[0].params)["applied"] == 0


def test_manual_hp_change_needs_reason_and_a_real_amount():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, ChangeHp("p2", -5, "  "), BadActionError, "reason")
    refused(state, ChangeHp("p2", 0, "x"), BadActionError, "0")
    refused(state, ChangeHp("p2", 5000, "x"), BadActionError, "at most")
    refused(state, ChangeHp("p8", 5, "x"), BadActionError, "p8")


def test_cat_forest_damages_another_character():
    state = ready_to_attack(["warp", "kingdom", "kingdom", "kingdom", "kingdom"], "forest")
    refused(state, Attack("p1", "p2", 50), IllegalActionError, "Cat Forest")
    refused(state, EndTurn("p1"), IllegalActionError, "Cat Forest")
    refused(state, Forest("p1", "p1", "damage"), IllegalActionError, "another character")
    refused(state, Forest("p2", "p1", "damage"), NotYourTurnError)
    state = apply(state, Forest("p1", "p3", "damage"))
    assert state.seat("p3").hp == 30
    assert state.step == "attack"  # the attack step still follows
    refused(state, Forest("p1", "p3", "damage"), IllegalActionError, "moved already")


def test_cat_forest_heals_anyone_including_oneself():
    state = ready_to_attack(["warp", "kingdom", "kingdom", "kingdom", "kingdom"], "forest")
    state = apply(state, ChangeHp("p1", -15, "event"), Forest("p1", "p1", "heal"))
    assert state.seat("p1").hp == 45
    other = ready_to_attack(["warp", "kingdom", "kingdom", "kingdom", "kingdom"], "forest")
    other = apply(other, ChangeHp("p4", -3, "event"), Forest("p1", "p4", "heal"))
    assert other.seat("p4").hp == 50  # clamped: healed 3 of 10
    assert "heals" in other.notices[0].template


def test_cat_forest_can_kill_and_cannot_target_the_dead():
    state = ready_to_attack(["warp", "kingdom", "kingdom", "kingdom", "kingdom"], "forest")
    state = apply(state, ChangeHp("p2", -35, "event"), Forest("p1", "p2", "damage"))
    assert state.seat("p2").hp == 0 and state.pending_reveal == "p2"
    state = apply(state, Reveal("p2", "red"))
    assert state.step == "attack"
    other = ready_to_attack(["warp", "kingdom", "kingdom", "kingdom", "kingdom"], "forest")
    other = kill(other, "p3", "red")
    refused(other, Forest("p1", "p3", "heal"), IllegalActionError, "dead")


# --------------------------------------------------------------------------- manual actions


def test_relocate_items_and_copy():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, Relocate("p2", "kingdom", "x"), IllegalActionError, "already")
    refused(state, Relocate("p2", "mars", "x"), BadActionError, "mars")
    state = apply(state, Relocate("p2", "forest", "NPC"))
    assert state.seat("p2").location == "forest" and state.seat("p2").hp == 50  # no effect
    refused(state, GiveItem("p2", "nope", "x"), BadActionError, "nope")
    state = apply(state, GiveItem("p2", "metal-sword", "shop"))
    refused(state, GiveItem("p3", "metal-sword", "x"), IllegalActionError, "holds")
    refused(state, GiveItem("p2", "wood-bow", "x"), IllegalActionError, "weapon already")
    refused(state, TakeItem("p3", "metal-sword", "x"), IllegalActionError, "does not hold")
    state = apply(
        state, TakeItem("p2", "metal-sword", "stolen"), GiveItem("p3", "metal-sword", "stolen")
    )
    assert state.seat("p3").weapon == "metal-sword" and state.seat("p2").weapon is None
    refused(state, CopyCharacter("p2", "fire", "x"), IllegalActionError, "cannot copy")


def test_item_outside_the_deck_is_refused():
    text = roster_text(
        items=[
            {
                "id": "a",
                "name": "A",
                "kind": "weapon",
                "owner": "n1",
                "owner_bonus": 1,
                "other_bonus": 1,
            },
            {
                "id": "b",
                "name": "B",
                "kind": "weapon",
                "owner": "n2",
                "owner_bonus": 1,
                "other_bonus": 1,
            },
        ]
    )
    base = GAME.setup(players(5), {})
    setup = setup_action(5, text=text, deck=("a",))
    refused(base, setup, IllegalActionError, "weapon")  # 2 weapons exist: both go in


def test_mimic_copies_table_and_element():
    chars = ["mimic", "wood", "water", "fire", "earth"]
    state = ready_to_attack(
        ["shop", "village", "forest", "warp", "library"], "kingdom", characters=chars
    )
    refused(state, CopyCharacter("p1", "mimic", "x"), IllegalActionError, "itself")
    refused(state, CopyCharacter("p1", "ghost", "x"), BadActionError, "ghost")
    state = apply(state, CopyCharacter("p1", "metal", "skill: copies metal"))
    assert state.fighting_character("p1").element == "metal"
    state = apply(state, Attack("p1", "p2", 60))
    assert state.last_attack.element == 5  # metal beats wood


def test_manual_reveal_of_a_living_player():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, Reveal("p2", "red"), BadActionError, "reason")
    state = apply(state, Reveal("p2", "red", "event card"))
    refused(state, Reveal("p2", "blue", "again"), IllegalActionError, "already")
    state = apply(state, Reveal("p3", "red", "event card"))
    refused(state, Reveal("p4", "red", "event"), IllegalActionError, "2 Red identities")
    # a revealed character's death needs no second entry and may end the game at once
    state = kill(state, "p2")
    assert state.pending_reveal is None
    state = kill(state, "p3")
    assert state.phase == "ended" and state.victory.team == "blue"


# --------------------------------------------------------------------------- victory


def finish(state, entries):
    return apply(state, FinalIdentities(tuple(IdentityEntry(p, i) for p, i in entries)))


def test_red_wiped_blue_wins_after_final_identities():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = kill(state, "p1", "red")
    assert state.phase == "play"
    state = kill(state, "p4", "red")
    assert state.phase == "ended" and state.victory.team == "blue"
    assert GAME.outcome(state) is None  # not before every identity is recorded
    refused(state, Move("p2", (6,)), GameOverError)
    refused(state, FinalIdentities(()), IllegalActionError, "Bo, Cy, Ed too")
    refused(
        state,
        FinalIdentities(
            (IdentityEntry("p2", "blue"), IdentityEntry("p3", "blue"), IdentityEntry("p5", "blue"))
        ),
        IllegalActionError,
        "3 Blue",
    )
    refused(
        state,
        FinalIdentities((IdentityEntry("p1", "red"),)),
        IllegalActionError,
        "recorded already",
    )
    refused(
        state,
        FinalIdentities((IdentityEntry("p2", "blue"), IdentityEntry("p2", "blue"))),
        BadActionError,
        "twice",
    )
    state = finish(state, [("p2", "blue"), ("p3", "neutral"), ("p5", "blue")])
    outcome = GAME.outcome(state)
    assert outcome.termination == "team-wipe"
    assert outcome.winners == ("p2", "p5")
    assert outcome.sides == {"p1": "red", "p2": "blue", "p3": "neutral", "p4": "red", "p5": "blue"}
    assert outcome.render() == "Blue team wins: every Red character is dead."
    refused(state, Reveal("p2", "blue"), GameOverError)


def test_blue_wiped_red_wins():
    state = placed(["warp", "kingdom", "kingdom", "kingdom"], counts=(2, 2, 0))
    state = kill(state, "p2", "blue")
    state = kill(state, "p3", "blue")
    assert state.victory.team == "red"
    state = finish(state, [("p1", "red"), ("p4", "red")])
    outcome = GAME.outcome(state)
    assert outcome.winners == ("p1", "p4")  # dead or alive, the team wins
    assert outcome.render() == "Red team wins: every Blue character is dead."


def test_wipe_with_every_identity_known_ends_without_final_entry():
    state = placed(["warp", "kingdom", "kingdom", "kingdom"], counts=(2, 2, 0))
    state = apply(state, Reveal("p1", "red", "x"), Reveal("p4", "red", "x"))
    state = kill(state, "p2", "blue")
    state = kill(state, "p3", "blue")
    assert state.phase == "over"
    assert GAME.outcome(state).winners == ("p1", "p4")


def test_neutral_win_alone():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    refused(state, DeclareNeutralWin(("p3",), ""), BadActionError, "reason")
    refused(state, DeclareNeutralWin((), "x"), BadActionError)
    refused(state, DeclareNeutralWin(("p3", "p3"), "x"), BadActionError, "twice")
    state = apply(state, DeclareNeutralWin(("p3",), "condition met"))
    assert state.phase == "ended" and state.victory.neutrals == ("p3",)
    assert state.seat("p3").identity == "neutral"
    refused(state, DeclareNeutralWin(("p3",), "again"), IllegalActionError, "already")
    refused(state, DeclareNeutralWin(("p4",), "x"), IllegalActionError, "1 Neutral")
    state = finish(state, [("p1", "red"), ("p2", "blue"), ("p4", "red"), ("p5", "blue")])
    outcome = GAME.outcome(state)
    assert outcome.termination == "neutral-win"
    assert outcome.winners == ("p3",)
    assert outcome.render() == "Neutral win: Cy."


def test_neutral_win_takes_precedence_over_a_simultaneous_team_wipe():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = kill(state, "p1", "red")
    state = kill(state, "p2", "red")
    assert state.victory.team == "blue"
    state = apply(state, DeclareNeutralWin(("p5",), "wanted Ann and Bo dead"))
    assert state.victory.kind == "neutral"
    state = finish(state, [("p3", "blue"), ("p4", "blue")])
    outcome = GAME.outcome(state)
    assert outcome.termination == "neutral-win"
    assert outcome.winners == ("p5",)


def test_neutral_win_during_pending_reveal_and_two_neutrals():
    state = placed(["warp"] * 6, counts=(2, 2, 2))
    state = apply(state, ChangeHp("p2", -50, "x"))
    assert state.pending_reveal == "p2"
    state = apply(state, DeclareNeutralWin(("p4",), "p2 died"))
    state = apply(state, DeclareNeutralWin(("p6",), "also met"))
    assert state.victory.neutrals == ("p4", "p6")
    state = finish(state, [("p1", "red"), ("p2", "red"), ("p3", "blue"), ("p5", "blue")])
    assert GAME.outcome(state).winners == ("p4", "p6")


def test_revealed_team_member_cannot_win_as_neutral():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = apply(state, Reveal("p2", "red", "event"))
    refused(state, DeclareNeutralWin(("p2",), "x"), IllegalActionError, "only a Neutral")
    no_neutral = placed(["warp", "kingdom", "kingdom", "kingdom"], counts=(2, 2, 0))
    refused(no_neutral, DeclareNeutralWin(("p2",), "x"), IllegalActionError, "no Neutral")
    refused(started(5), DeclareNeutralWin(("p2",), "x"), IllegalActionError, "during play")


def test_final_identities_only_after_a_victory_and_nothing_after_the_end():
    state = placed(["warp", "kingdom", "kingdom", "kingdom"], counts=(2, 2, 0))
    refused(state, FinalIdentities(()), IllegalActionError, "has not ended")
    state = kill(state, "p2", "blue")
    state = kill(state, "p3", "blue")
    state = finish(state, [("p1", "red"), ("p4", "red")])
    refused(state, Move("p1", (6,)), GameOverError, "over")
    refused(state, ChangeHp("p1", 1, "x"), GameOverError)


def test_unknown_action_and_progress_label():
    from companion.rules.base import Action

    class Strange(Action):
        type = "strange"

    refused(started(5), Strange(), BadActionError, "strange")
    assert GAME.progress_label(started(5)) == "start"
    assert GAME.progress_label(placed(["warp"] * 4, counts=(2, 2, 0))) == "round 1"


def test_json_forms_round_trip():
    from companion.rules.base import action_to_json

    actions = [
        setup_action(5),
        Deal("test.toml", "[roster]", (("metal", "wood"), ("fire",)), LAYOUT, "p2"),
        PickCharacter("p1", "wood"),
        SetCounts(2, 2, 1),
        SetLayout(LAYOUT),
        SetFirstPlayer("p3"),
        Begin(("metal-sword",)),
        Place("p1", (7, 8)),
        Move("p1", (4, 7), "shop"),
        MoveDice("p1", (4, 7)),
        Destination("p1", "shop"),
        Forest("p1", "p2", "heal"),
        Attack("p1", "p2", 42),
        EndTurn("p1"),
        Reveal("p2", "red", ""),
        ChangeHp("p2", -3, "x"),
        Relocate("p2", "forest", "x"),
        GiveItem("p2", "a", "x"),
        TakeItem("p2", "a", "x"),
        CopyCharacter("p2", "b", "x"),
        DeclareNeutralWin(("p3",), "x"),
        FinalIdentities((IdentityEntry("p1", "blue"),)),
    ]
    assert {a.type for a in actions} == set(GAME.action_types)
    for action in actions:
        assert GAME.parse_action(action_to_json(action)) == action
    with pytest.raises(BadActionError):
        GAME.parse_action({"type": "forest", "player": "p1", "target": "p2", "effect": "burn"})
    with pytest.raises(BadActionError):
        GAME.parse_action({"type": "reveal", "player": "p1", "identity": "green"})


def test_roster_of_the_setup_is_the_text_in_the_action():
    chars = sample_characters()
    chars[0] = character("metal", "metal", hp=77)
    state = started(5, text=roster_text(chars))
    assert state.seat("p1").hp == 77
    assert state.roster_file == "test.toml"
    assert set(LAYOUT) == set(LOCATIONS)


def test_bad_setup_changes_nothing():
    state = GAME.setup(players(5), {})
    with pytest.raises(RuleError):
        GAME.apply(state, replace(setup_action(5), red=9))
    assert state.phase == "setup" and state.roster is None
    assert isinstance(setup_action(5), Setup)


def test_two_neutrals_declared_together_are_listed_in_the_languages_list():
    """The notice of a shared Neutral win lists the players as the shown language
    lists names (``Cy、Ed`` in Chinese; the rules had joined them with ", ")."""
    from companion.games.shadow_cats.view import build
    from companion.i18n import _, set_language

    state = placed(
        ["warp", "kingdom", "kingdom", "kingdom", "kingdom", "kingdom"], counts=(2, 2, 2)
    )
    state = apply(state, DeclareNeutralWin(("p3", "p5"), "both conditions met"))
    try:
        set_language("zh")
        shown = [n.render(_) for n in build(state, "zh").notices]
        assert any("Cy、Ed" in line for line in shown), shown
        set_language("en")
        shown = [n.render(_) for n in build(state, "en").notices]
        assert any("Cy, Ed" in line for line in shown), shown
    finally:
        set_language("en")
