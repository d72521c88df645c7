"""The host guide: ``allowed`` is exactly what ``apply`` accepts; sentences; start player."""

from __future__ import annotations

from cat_box_helpers import dealt, new_game, play, with_tokens

from companion.games.cat_box.guide import GUIDE, CardName
from companion.games.cat_box.rules import (
    GAME,
    AdjustTokens,
    Deal,
    Pass,
    Place,
    Retire,
    Roll,
    Termination,
)
from companion.i18n import catalog
from companion.rules.guide import member_docs

ALL_TYPES = frozenset(GAME.action_types)


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
