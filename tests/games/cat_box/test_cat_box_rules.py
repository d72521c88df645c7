"""喵喵开箱 rules, case by case from the rules page (docs/games/cat-box.md)."""

from __future__ import annotations

import pytest
from cat_box_helpers import (
    DECK,
    card,
    card_set,
    dealt,
    ledger_ok,
    new_game,
    play,
    roll_pass,
    roll_place,
    with_tokens,
)

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
    UseEnvy,
)
from companion.rules.base import (
    BadActionError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    RuleError,
    SetupError,
    action_to_json,
)


def refused(state: CatBoxState, action: object, error: type[RuleError], needle: str) -> None:
    """The action is refused with ``error`` whose message has ``needle``; nothing changes."""
    before = state
    with pytest.raises(error) as err:
        GAME.apply(state, action)  # type: ignore[arg-type]
    assert needle in str(err.value), str(err.value)
    assert state == before


# --------------------------------------------------------------------------- setup and deal


@pytest.mark.parametrize("count", [2, 9])
def test_two_or_nine_players_are_refused(count: int) -> None:
    with pytest.raises(SetupError, match=f"3 to 8 players, not {count}"):
        new_game(count)


@pytest.mark.parametrize("count", [3, 8])
def test_three_to_eight_players(count: int) -> None:
    assert len(dealt(count).seats) == count


def test_start_player_option_must_be_at_the_table() -> None:
    with pytest.raises(SetupError, match="p5 is not at this table"):
        new_game(4, start_player="p5")
    with pytest.raises(SetupError, match="must be one of"):
        new_game(4, start_player="Ann")
    state = new_game(4, start_player="p3")
    refused(state, Deal(card_set(), DECK, "p1"), IllegalActionError, "The host chose Cy")
    assert GAME.apply(state, Deal(card_set(), DECK, "p3")).current == "p3"


def test_deal_shows_start_cards_and_two_from_the_bottom() -> None:
    state = dealt()
    assert [d.card for d in state.display] == ["s6", "s7", "c7", "c6"]
    assert state.deck == ("c1", "c2", "c3", "c4", "c5")
    assert state.round == 1 and state.current == "p1" and state.round_start == "p1"
    assert all(s.active and s.owned == 0 for s in state.seats)


def test_deal_refusals() -> None:
    fresh = new_game()
    refused(fresh, Roll("p1", (1, 1, 1), (1,)), IllegalActionError, "Deal the cards first")
    refused(fresh, Deal(card_set(), DECK[:-1], "p1"), BadActionError, "each card that is not")
    refused(fresh, Deal(card_set(), (*DECK[:-1], "c1"), "p1"), BadActionError, "once")
    refused(fresh, Deal(card_set(), (*DECK, "s6"), "p1"), BadActionError, "once")
    refused(fresh, Deal(card_set(), DECK, "p9"), BadActionError, "no player p9")
    refused(dealt(), Deal(card_set(), DECK, "p1"), IllegalActionError, "already dealt")


# --------------------------------------------------------------------------- turn order


def test_turns_go_clockwise_skipping_stopped_players() -> None:
    state = dealt(4, start="p3")
    state = play(state, Retire("p3"))
    assert state.current == "p4"
    state = roll_place(state, "p4", (1,), "c7", 1)
    assert state.current == "p1"
    state = play(state, Retire("p1"))
    state = roll_place(state, "p2", (1,), "c7", 1)
    assert state.current == "p4"  # p3 and p1 stopped
    refused(state, Roll("p3", (1, 1, 1), (1,)), NotYourTurnError, "Cy has stopped")
    refused(state, Roll("p2", (1, 1, 1), (1,)), NotYourTurnError, "It is Di's turn")


def test_round_ends_when_all_stopped_and_next_start_is_clockwise() -> None:
    state = roll_place(dealt(3), "p1", (5,), "c7", 1)
    assert state.seat("p1").held == (5,)
    state = play(state, Retire("p2"), Retire("p3"))
    assert state.current == "p1"  # only p1 is active: they go again
    state = play(state, Retire("p1"))
    assert state.round == 2 and state.round_start == "p2" and state.current == "p2"
    assert all(s.active and s.held == () for s in state.seats)
    assert [n.kind for n in state.notices] == ["retired", "round-ended", "round-started"]
    state = play(state, Retire("p2"), Retire("p3"), Retire("p1"))
    assert state.round == 3 and state.current == "p3"
    # tokens on cards stay across rounds
    assert state.displayed("c7") is not None and state.displayed("c7").tokens[0] == ("p1",)


# --------------------------------------------------------------------------- rolling


@pytest.mark.parametrize(
    ("common", "dice", "needle"),
    [
        ((1, 2, 3), (0,), "A die shows 1 to 6, not 0"),
        ((1, 2, 7), (1,), "A die shows 1 to 6, not 7"),
        ((1, 2, 3), (), "Roll 1 or 2 player dice, not 0"),
        ((1, 2, 3), (1, 2, 3), "Roll 1 or 2 player dice, not 3"),
        ((1, 2), (1,), "There are 3 common dice, not 2"),
    ],
)
def test_bad_dice_are_refused(common: tuple[int, ...], dice: tuple[int, ...], needle: str) -> None:
    refused(dealt(), Roll("p1", common, dice), IllegalActionError, needle)


def test_roll_then_place_and_held_dice_count() -> None:
    state = play(dealt(), Roll("p1", (4, 4, 1), (2, 3)))
    refused(state, Roll("p1", (1, 1, 1), (1,)), IllegalActionError, "place a token or pass")
    refused(state, Retire("p1"), IllegalActionError, "place a token or pass")
    check = state.pending_check()
    assert check is not None and check.total == 5 and not check.bust
    state = play(state, Place("p1", "s6", 1))
    assert state.seat("p1").held == (2, 3)
    assert state.displayed("s6").tokens == (("p1",), ())
    state = play(state, Retire("p2"), Retire("p3"), Retire("p4"))
    state = play(state, Roll("p1", (1, 1, 1), (1,)))
    assert state.pending_check().total == 6  # 2 + 3 held, 1 rolled


def test_place_refusals() -> None:
    cards = card_set(card("c7", 17, ("pair", "has:6")))
    state = with_tokens(dealt(cards=cards), "c6", ("p1",), ())
    state = play(state, Roll("p1", (1, 2, 3), (4,)))  # no pair, no 6; total 4
    refused(state, Place("p1", "c7", 1), IllegalActionError, "do not meet 'pair'")
    refused(state, Place("p1", "c6", 1), IllegalActionError, "already has a token on slot 1")
    refused(state, Place("p1", "c6", 3), IllegalActionError, "slots 1 to 2, not 3")
    refused(state, Place("p1", "c1", 1), IllegalActionError, "c1 is not on display")
    refused(state, Place("p2", "c7", 1), NotYourTurnError, "It is Ann's turn")
    overridden = play(state, Place("p1", "c7", 1, override="printed card says 'any 4'"))
    assert overridden.displayed("c7").tokens[0] == ("p1",)
    refused(state, Place("p1", "c7", 1, override="  "), IllegalActionError, "do not meet")
    # a card whose hiss value is below the total: refused even with an override
    hot = play(dealt(), Roll("p1", (1, 2, 3), (6, 5)))  # total 11 > 6 and 7
    refused(
        hot, Place("p1", "s6", 1, override="x"), IllegalActionError, "hiss value 6, below Ann's 11"
    )
    assert set(hot.pending_check().too_hot) == {"s6", "s7"}
    assert ("c7", 1) in hot.pending_check().allowed


def test_place_or_pass_without_a_roll() -> None:
    refused(dealt(), Place("p1", "s6", 1), IllegalActionError, "Ann has not rolled yet")
    refused(dealt(), Pass("p1"), IllegalActionError, "Ann has not rolled yet")


def test_conditions_see_common_held_and_rolled_dice() -> None:
    cards = card_set(card("c7", 17, ("has:5,6",)))
    state = roll_place(dealt(cards=cards), "p1", (5,), "c6", 1, common=(1, 1, 1))
    state = play(state, Retire("p2"), Retire("p3"), Retire("p4"))
    state = play(state, Roll("p1", (1, 2, 3), (6,)))  # the 5 is held
    assert ("c7", 1) in state.pending_check().met


# --------------------------------------------------------------------------- bust and FAQ 6


def test_bust_on_one_card_keeps_tokens_elsewhere() -> None:
    state = with_tokens(dealt(), "s6", ("p1",), ("p2",))
    state = with_tokens(state, "c7", ("p1",), ())
    state = play(state, Roll("p1", (1, 1, 1), (4, 3)))  # 7 > 6, 7 <= 17
    check = state.pending_check()
    assert check.bust_cards == ("s6",) and not check.may_place and check.allowed == ()
    refused(state, Place("p1", "c7", 2), IllegalActionError, "pass to settle the bust")
    state = play(state, Pass("p1"))
    assert state.displayed("s6").tokens == ((), ("p2",))
    assert state.displayed("c7").tokens == (("p1",), ())
    assert state.seat("p1").status == "busted" and state.seat("p1").held == (4, 3)
    assert state.notices[0].kind == "bust" and state.notices[0].cards == ("s6",)
    assert state.current == "p2" and ledger_ok(state)


def test_bust_on_several_cards() -> None:
    state = with_tokens(dealt(), "s6", ("p1",), ("p1", "p3"))
    state = with_tokens(state, "s7", ("p1",), ())
    state = with_tokens(state, "c6", ("p1",), ())
    state = roll_pass(state, "p1", (6, 6))  # 12 > 6 and 7, not 16
    assert state.displayed("s6").tokens == ((), ("p3",))
    assert state.displayed("s7").tokens == ((), ())
    assert state.displayed("c6").tokens == (("p1",), ())
    assert state.notices[0].cards == ("s6", "s7")
    assert state.seat("p1").returned == 3 and ledger_ok(state)


def test_retired_players_gain_one_on_a_bust() -> None:
    state = with_tokens(dealt(), "s6", (), ("p3",))
    state = play(state, Retire("p1"))  # p1 retired: +1
    state = roll_place(state, "p2", (1,), "c7", 1)
    state = roll_pass(state, "p3", (6, 6))  # p3 busts
    assert state.seat("p1").owned == 2  # 1 for retiring + 1 for the bust
    assert state.seat("p2").owned == 0  # active players gain nothing
    assert state.notices[0].others == ("p1",)
    # a busted (not retired) player gains nothing from a later bust
    state = with_tokens(state, "s7", ("p4",), ())
    state = roll_pass(state, "p4", (6, 6))
    assert state.seat("p3").owned == 0 and state.seat("p1").owned == 3 and ledger_ok(state)


def test_faq6_case() -> None:
    cards = card_set(card("c7", 9), card("c6", 10))
    state = play(dealt(cards=cards), Roll("p1", (1, 1, 1), (6, 5)))  # 11 > 6, 7, 9, 10
    check = state.pending_check()
    assert check.overwhelmed and not check.bust and check.allowed == ()
    refused(state, Place("p1", "c6", 1, override="x"), IllegalActionError, "FAQ 6")
    state = play(state, Pass("p1"))
    assert state.seat("p1").status == "active" and state.seat("p1").held == (6, 5)
    assert state.notices[0].kind == "faq6" and state.current == "p2"
    assert state.seat("p1").owned == 0 and ledger_ok(state)
    # a retired player gains nothing: it is not a bust
    state = play(state, Retire("p2"), Retire("p3"), Retire("p4"))
    assert state.seat("p2").owned == 1
    assert state.current == "p1"  # still active: may act again this round


def test_faq6_place_only_on_cards_not_below_the_total() -> None:
    state = play(dealt(), Roll("p1", (1, 1, 1), (6, 4)))  # 10: above 6 and 7 only
    check = state.pending_check()
    assert not check.overwhelmed and not check.bust
    assert {c for c, _ in check.allowed} == {"c7", "c6"}
    refused(state, Place("p1", "s7", 1), IllegalActionError, "below Ann's 10")


# --------------------------------------------------------------------------- opening


def test_open_refused_unless_every_slot_holds_the_players_token() -> None:
    state = with_tokens(dealt(), "s6", ("p1",), ("p2",))
    refused(state, Open("p1", "s6"), IllegalActionError, "not every slot holds their token")
    refused(state, Open("p1", "c1"), IllegalActionError, "not on display")
    rolled = play(with_tokens(dealt(), "s6", ("p1",), ("p1",)), Roll("p1", (1, 1, 1), (1,)))
    refused(rolled, Open("p1", "s6"), IllegalActionError, "place a token or pass")


def test_open_with_several_players_tokens_and_refill_from_the_bottom() -> None:
    cards = card_set(card("s7", 7, ("any", "any", "any"), score=3, start=True))
    state = with_tokens(dealt(cards=cards), "s7", ("p1", "p2"), ("p1", "p3", "p2"), ("p1",))
    state = play(state, Open("p1", "s7"))
    p1, p2, p3 = state.seat("p1"), state.seat("p2"), state.seat("p3")
    assert p1.won == ("s7",) and p1.status == "opened" and p1.owned == 0
    assert p1.returned == 3  # own tokens back to the supply
    assert p2.owned == 2 and p3.owned == 1  # the others gain theirs
    assert state.score("p1") == 3 and state.score("p2") == 2
    assert [d.card for d in state.display] == ["s6", "c5", "c7", "c6"]  # refill in place
    assert state.deck == ("c1", "c2", "c3", "c4")
    assert state.current == "p2" and ledger_ok(state)
    assert state.notices[0].kind == "opened" and state.notices[0].others == ("p2", "p3")


def test_envy_of_a_won_card_is_for_the_others() -> None:
    cards = card_set(card("s6", 6, ("any",), start=True, pip=4))
    state = play(with_tokens(dealt(cards=cards), "s6", ("p1",)), Open("p1", "s6"))
    state = play(state, Roll("p2", (1, 1, 1), (4,)))
    assert "s6" in state.pending_check().envy_cards
    used = play(state, UseEnvy("p2", "s6"))
    assert used.pending is not None and used.pending.envy == "s6"
    refused(used, UseEnvy("p2", "s6"), IllegalActionError, "Only one envy effect per turn")
    # the owner cannot use it (FAQ 2)
    state = play(state, Pass("p2"), Retire("p3"), Retire("p4"), Retire("p2"))
    state = play(state, Retire("p2"), Retire("p3"), Retire("p4"))  # round 2 starts at p2
    state = play(state, Roll("p1", (1, 1, 1), (4,)))
    assert "s6" not in state.pending_check().envy_cards
    refused(state, UseEnvy("p1", "s6"), IllegalActionError, "for the others (FAQ 2)")


def test_envy_needs_a_rolled_player_die_with_the_pip() -> None:
    state = play(dealt(), Roll("p1", (2, 2, 2), (3,)))  # envy pips are all 1 here
    refused(state, UseEnvy("p1", "s6"), IllegalActionError, "rolled player die showing 1")
    refused(state, UseEnvy("p1", "zz"), IllegalActionError, "no card zz")
    refused(state, UseEnvy("p1", "c1"), IllegalActionError, "neither on display")
    refused(dealt(), UseEnvy("p1", "s6"), IllegalActionError, "not rolled yet")
    state = play(dealt(), Roll("p1", (1, 1, 1), (1,)), UseEnvy("p1", "c7"))
    assert state.notices[0].kind == "envy"


def test_manual_actions_need_a_reason_and_keep_the_ledger() -> None:
    state = play(dealt(), Roll("p1", (1, 1, 1), (1,)))
    refused(state, SetDice("p1", (1, 1, 1), (6,), " "), IllegalActionError, "Give a reason")
    refused(state, SetDice("p1", (1, 1, 1), (9,), "x"), IllegalActionError, "not 9")
    refused(state, SetDice("p1", (1, 1, 1), (), "x"), IllegalActionError, "1 to 6 player dice")
    changed = play(state, SetDice("p1", (6, 6, 6), (6, 6, 6), "popo cat"))
    assert changed.pending.rolled == (6, 6, 6) and changed.pending_check().total == 18
    refused(dealt(), AdjustTokens("p2", -1, "x"), IllegalActionError, "owns only 0")
    refused(dealt(), AdjustTokens("p2", 0, "x"), IllegalActionError, "Adjust by 1 to 50")
    refused(dealt(), AdjustTokens("p2", 1, ""), IllegalActionError, "Give a reason")
    state = play(dealt(), AdjustTokens("p2", 3, "envy: gain"), AdjustTokens("p2", -1, "x"))
    assert state.seat("p2").owned == 2 and ledger_ok(state) and state.current == "p1"
    state = with_tokens(state, "s6", ("p3",), ())
    refused(state, RemoveToken("p3", "s6", 2, "x"), IllegalActionError, "no token on slot 2")
    state = play(state, RemoveToken("p3", "s6", 1, "envy: take back"))
    assert state.displayed("s6").tokens == ((), ()) and ledger_ok(state)


# --------------------------------------------------------------------------- the end


def _open_next(state: CatBoxState, pid: str) -> CatBoxState:
    """Fill the first displayed card with ``pid``'s tokens and open it."""
    first = state.display[0]
    state = with_tokens(state, first.card, *((pid,) for _ in first.tokens))
    return play(state, Open(pid, first.card))


def test_empty_deck_last_round_one_more_action_each_then_final_gains() -> None:
    state = dealt(4)
    for pid in ("p1", "p2", "p3", "p4"):  # four boxes opened: deck 5 -> 1
        state = _open_next(state, pid)
    assert state.round == 2 and len(state.deck) == 1
    state = _open_next(state, "p2")  # the round starts at p2; deck now empty, refilled
    assert state.deck == () and len(state.display) == 4 and not state.last_round
    state = play(state, Retire("p3"))
    state = with_tokens(state, state.display[1].card, ("p1",), ("p4",))
    state = _open_next(state, "p4")  # refill impossible: the last round starts
    assert state.last_round and len(state.display) == 3
    assert state.final_queue == ("p1",)  # p2 opened and p3 retired this round: stopped
    assert state.current == "p1" and state.notices[-1].kind == "last-round"
    refused(state, Retire("p3"), NotYourTurnError, "Cy has stopped")
    before = {s.player: s.owned for s in state.seats}
    state = roll_pass(state, "p1", (1,))
    assert state.ended == "deck-empty"
    assert state.seat("p1").owned == before["p1"] + 1  # final gains: its token on display
    assert state.seat("p4").owned == before["p4"] + 1
    assert all(d.tokens == tuple(() for _ in d.tokens) for d in state.display)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == "deck-empty"
    assert dict(outcome.scores) == state.scores()
    refused(state, Roll("p2", (1, 1, 1), (1,)), GameOverError, "The game is over")
    assert ledger_ok(state)


def test_last_round_everyone_else_active_in_clockwise_order() -> None:
    state = dealt(4)
    for pid in ("p1", "p2", "p3", "p4"):
        state = _open_next(state, pid)
    state = _open_next(state, "p2")
    state = _open_next(state, "p3")  # round 2: p2 opened, p3 opens with the deck empty
    assert state.final_queue == ("p4", "p1")
    state = play(state, Retire("p4"))
    assert state.current == "p1" and state.ended is None
    state = roll_pass(state, "p1", (1,))
    assert state.ended == "deck-empty"


def test_last_round_with_nobody_else_active_ends_at_once() -> None:
    state = dealt(3)
    for pid in ("p1", "p2", "p3", "p2", "p3"):  # round 1 from p1, round 2 from p2
        state = _open_next(state, pid)
    assert state.round == 2 and state.current == "p1" and state.deck == ()
    state = _open_next(state, "p1")  # p2 and p3 have opened this round: nobody is left
    assert state.ended == "deck-empty" and state.final_queue == ()


def test_instant_win_at_20_mid_round() -> None:
    cards = card_set(card("c7", 17, ("any",), score=19))
    state = play(dealt(cards=cards), AdjustTokens("p1", 1, "earlier envy"))
    state = with_tokens(state, "c7", ("p1",))
    state = play(state, Open("p1", "c7"))
    assert state.ended == "instant-win" and state.winners == ("p1",)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.render() == "Ann reaches 20 points and wins at once."
    refused(state, Retire("p2"), GameOverError, "over")
    refused(state, AdjustTokens("p2", 1, "x"), GameOverError, "over")


def test_instant_win_by_retiring_and_by_a_bust_gain() -> None:
    state = play(dealt(), AdjustTokens("p1", 19, "carry-over"))
    assert play(state, Retire("p1")).ended == "instant-win"
    state = play(dealt(), AdjustTokens("p2", 18, "x"), Retire("p1"), Retire("p2"))
    assert state.seat("p2").owned == 19 and state.ended is None
    state = with_tokens(state, "s6", ("p3",), ())
    state = roll_pass(state, "p3", (6, 6))  # p3 busts: p1 and p2 retired, gain 1
    assert state.ended == "instant-win" and state.winners == ("p2",)


def test_a_bust_in_the_last_round_that_lifts_a_retired_player_to_20_is_an_instant_win() -> None:
    state = dealt(4)
    for pid in ("p1", "p2", "p3", "p4", "p2"):
        state = _open_next(state, pid)
    state = play(state, Retire("p3"))  # round 2: p2 opened, p3 retires
    state = play(state, AdjustTokens("p3", 19 - state.score("p3"), "earlier envy gains"))
    assert state.score("p3") == 19
    state = _open_next(state, "p4")  # the deck is empty: p1 takes the last action
    assert state.final_queue == ("p1",)
    low = min(state.display, key=lambda d: state.card(d.card).hiss)
    state = with_tokens(state, low.card, ("p1",), ())
    assert state.card(low.card).hiss < 12
    state = roll_pass(state, "p1", (6, 6))  # 12 > its hiss: bust; p3 (retired) gains 1
    assert state.notices[0].kind == "bust" and state.notices[0].others == ("p3",)
    assert state.score("p3") == 20
    assert state.ended == "instant-win" and state.winners == ("p3",)


def test_instant_win_tie_is_shared() -> None:
    cards = card_set(card("c7", 17, ("any", "any"), score=10))
    state = play(dealt(cards=cards), AdjustTokens("p1", 10, "x"), AdjustTokens("p2", 19, "x"))
    state = with_tokens(state, "c7", ("p1",), ("p1", "p2"))
    state = play(state, Open("p1", "c7"))  # p1: 10 + 10 = 20; p2: 19 + 1 = 20
    assert state.ended == "instant-win" and state.winners == ("p1", "p2")
    assert GAME.outcome(state).render() == "Ann, Bo reach 20 points and share the win."


def test_tie_on_final_scores_shares_the_win() -> None:
    zero = [card(f"c{n}", 10 + n, ("any",), score=0) for n in range(1, 8)]
    cards = card_set(
        *zero,
        card("s6", 6, ("any",), score=0, start=True),
        card("s7", 7, ("any",), score=0, start=True),
    )

    def to_last_action() -> CatBoxState:
        state = dealt(3, cards=cards)
        for pid in ("p1", "p2", "p3", "p2", "p3"):
            state = _open_next(state, pid)
        state = play(state, Retire("p1"))  # +1; round 3 starts at p3
        state = play(state, Retire("p3"))  # +1
        state = _open_next(state, "p1")  # a 0-point card; the deck is empty
        assert state.final_queue == ("p2",)
        return state

    tie = roll_pass(to_last_action(), "p2", (1,))
    assert tie.scores() == {"p1": 1, "p2": 0, "p3": 1}
    assert tie.winners == ("p1", "p3")
    assert GAME.outcome(tie).render() == "The deck is empty. Ann, Cy share the win with 1 points."
    # one token still on display at the end counts (final gains) and breaks the tie
    last = to_last_action()
    state = with_tokens(last, last.display[0].card, ("p3",))
    alone = roll_pass(state, "p2", (1,))
    assert alone.winners == ("p3",) and alone.scores()["p3"] == 2


# --------------------------------------------------------------------------- JSON


def test_every_action_round_trips_through_json() -> None:
    actions = [
        Deal(card_set(), DECK, "p1", "f.toml"),
        Roll("p1", (1, 2, 3), (4, 5)),
        Place("p1", "s6", 1),
        Place("p1", "s6", 2, override="why"),
        Pass("p1"),
        Open("p1", "s6"),
        Retire("p1"),
        UseEnvy("p1", "s6"),
        SetDice("p1", (1, 1, 1), (2,), "r"),
        AdjustTokens("p1", -2, "r"),
        RemoveToken("p1", "s6", 1, "r"),
    ]
    assert {a.type for a in actions} == set(GAME.action_types)
    for action in actions:
        assert GAME.parse_action(action_to_json(action)) == action
    assert action_to_json(Roll("p1", (1, 2, 3), (4,))) == {
        "type": "roll",
        "player": "p1",
        "common": [1, 2, 3],
        "dice": [4],
    }


@pytest.mark.parametrize(
    ("data", "needle"),
    [
        ({"type": "jump"}, "Unknown action type"),
        ({"type": "roll", "player": "p1", "common": [1, 2, 3]}, "missing field 'dice'"),
        (
            {"type": "roll", "player": "p1", "common": [1, 2, 3], "dice": ["6"]},
            "expected a whole number",
        ),
        ({"type": "place", "player": "p1", "card": "s6", "slot": 1, "x": 1}, "unknown field 'x'"),
        ({"type": "retire", "player": "p9"}, "no player p9"),
    ],
)
def test_bad_json_actions(data: dict[str, object], needle: str) -> None:
    state = dealt()
    with pytest.raises(BadActionError, match=needle):
        GAME.apply(state, GAME.parse_action(data))


def test_progress_and_scores() -> None:
    assert GAME.progress_label(new_game()) == "not dealt"
    assert GAME.scores(new_game()) == {}
    assert GAME.progress_label(dealt()) == "round 1, deck 5"
    assert GAME.scores(play(dealt(), Retire("p1"))) == {"p1": 1, "p2": 0, "p3": 0, "p4": 0}
    assert dealt().seat("p1").pieces() == (0, 0)
    assert play(dealt(), AdjustTokens("p1", 12, "x")).seat("p1").pieces() == (2, 2)
