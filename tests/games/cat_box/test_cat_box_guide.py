"""The host guide: ``allowed`` is exactly what ``apply`` accepts; sentences; start player."""

from __future__ import annotations

import random

from cat_box_helpers import NAMES, dealt, new_game, play, with_tokens
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cat_box_properties import choose

from companion.games.cat_box.guide import GUIDE, CardName
from companion.games.cat_box.prepare import deal_for
from companion.games.cat_box.rules import (
    GAME,
    AdjustTokens,
    CatBoxState,
    Deal,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    Termination,
    UseEnvy,
)
from companion.i18n import catalog
from companion.rules.base import Action, RuleError, seat_players
from companion.rules.guide import member_docs

ALL_TYPES = frozenset(GAME.action_types)


def candidates(state: CatBoxState, rng: random.Random) -> list[Action]:
    """Actions of every type that could pass now (if any can), plus some that cannot."""
    group = state.players
    out: list[Action] = [deal_for(group, {}, rng)]
    pid = state.current or group[0].id
    other = next(p.id for p in group if p.id != pid)
    dice = tuple(rng.randint(1, 6) for _ in range(3))
    out += [
        Roll(pid, dice, (rng.randint(1, 6),)),
        Roll(other, dice, (1,)),
        Pass(pid),
        Retire(pid),
        SetDice(pid, dice, (rng.randint(1, 6),), "fix"),
        AdjustTokens(pid, 1, "fix"),
        AdjustTokens(other, -1, "fix"),
    ]
    for shown in state.display:
        out.append(Open(pid, shown.card))
        out.append(UseEnvy(pid, shown.card))
        for slot, holders in enumerate(shown.tokens, start=1):
            out.append(Place(pid, shown.card, slot))
            out.append(Place(pid, shown.card, slot, override="host"))
            out += [RemoveToken(h, shown.card, slot, "fix") for h in holders]
    for seat in state.seats:
        out += [UseEnvy(pid, c) for c in seat.won]
    return out


def check_state(state: CatBoxState, rng: random.Random) -> None:
    allowed = GUIDE.allowed(state)
    assert allowed <= ALL_TYPES
    passed: set[str] = set()
    for action in candidates(state, rng):
        try:
            GAME.apply(state, action)
        except RuleError:
            continue
        assert action.type in allowed, (action, GUIDE.phase(state))
        passed.add(action.type)
    # ...and precise: each allowed type has an action that passes (the key does something)
    assert passed == allowed, (allowed - passed, GUIDE.phase(state))
    for action_type in ALL_TYPES - allowed:
        assert GUIDE.why_not(state, action_type).render()
    assert GUIDE.prompt(state).render()


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_apply_accepts_exactly_the_allowed_types(players: int, seed: int) -> None:
    rng = random.Random(seed)
    group = seat_players(NAMES[:players])
    state = GAME.setup(group, GAME.check_options({}))
    check_state(state, rng)
    state = GAME.apply(state, deal_for(group, {}, rng))
    for _ in range(400):
        check_state(state, rng)
        if state.ended is not None:
            break
        try:
            new = GAME.apply(state, choose(state, rng))
        except RuleError:
            continue
        state = new
    check_state(state, rng)


def test_phases_and_turn() -> None:
    assert GUIDE.phase(new_game()) == "deal"
    assert GUIDE.allowed(new_game()) == {Deal.type}
    state = dealt()
    assert GUIDE.phase(state) == "turn" and GUIDE.turn(state) == "p1"
    assert GUIDE.allowed(state) == {Roll.type, Retire.type, AdjustTokens.type}
    state = play(state, Roll("p1", (1, 2, 3), (4,)))
    assert GUIDE.phase(state) == "roll"
    assert Place.type in GUIDE.allowed(state) and Roll.type not in GUIDE.allowed(state)
    assert GUIDE.why_not(state, Roll.type).render() == (
        "Ann has rolled: place a token or pass first (p)."
    )


def test_describe_names_players_and_cards_in_both_languages() -> None:
    state = dealt()
    roll = Roll("p1", (1, 2, 3), (4, 2))
    after = GAME.apply(state, roll)
    assert GUIDE.describe(roll, state, after).render() == ("Ann rolls 4 2 (common 1 2 3): total 6")
    place = Place("p1", "c7", 1)
    done = GAME.apply(after, place)
    assert GUIDE.describe(place, after, done).render() == "Ann places a token on C7, slot 1"
    zh = catalog("zh").gettext
    assert GUIDE.describe(place, after, done).render(zh) == "Ann 在 C7 的第 1 格放置指示物"


def test_a_card_name_follows_the_language() -> None:
    name = CardName("Orange cat", "橘猫")
    assert name.render() == "Orange cat"
    assert name.render(catalog("en").gettext) == "Orange cat"
    assert name.render(catalog("zh").gettext) == "橘猫"
    assert CardName("Plain").render(catalog("zh").gettext) == "Plain"


def test_a_bust_is_told_with_the_cards() -> None:
    state = with_tokens(dealt(), "s6", ("p1",), ())
    state = play(state, Roll("p1", (1, 2, 3), (6, 1)))
    after = GAME.apply(state, Pass("p1"))
    assert GUIDE.describe(Pass("p1"), state, after).render() == (
        "Ann hisses at 7: tokens on S6 go back"
    )


def test_the_start_player_is_the_deal_s_even_rounds_later() -> None:
    state = dealt(start="p3")
    assert GUIDE.start_player(state) == "p3"
    for pid in ("p3", "p4", "p1", "p2"):
        state = play(state, Retire(pid))
    assert state.round == 2 and state.round_start == "p4"
    assert GUIDE.start_player(state) == "p3"
    assert GUIDE.start_player(new_game()) is None


def test_terminations_are_the_stored_strings() -> None:
    assert Termination.INSTANT_WIN == "instant-win" and Termination.DECK_EMPTY == "deck-empty"
    docs = member_docs(Termination)  # a docstring under every member (python-chess)
    assert set(docs) == {m.name for m in Termination} and all(docs.values())
