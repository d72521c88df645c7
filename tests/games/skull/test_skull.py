"""Skull: its own rules tests (the conformance suite covers the common contract)."""

from __future__ import annotations

import random

import pytest

from companion.games import find_game
from companion.games.skull.guide import GUIDE
from companion.games.skull.prepare import lose_disc
from companion.games.skull.rules import (
    GAME,
    Bid,
    LoseDisc,
    Pass,
    Place,
    SkullState,
    Termination,
    TurnOver,
)
from companion.i18n import catalog
from companion.rules.base import IllegalActionError, NotYourTurnError, RuleError, seat_players


def play(state: SkullState, *actions) -> SkullState:  # type: ignore[no-untyped-def]
    for action in actions:
        state = GAME.apply(state, action)
    return state


def opened(n: int = 3) -> SkullState:
    state = GAME.setup(seat_players(["Ann", "Bo", "Cy", "Di", "Ed", "Fa"][:n]), {})
    return play(state, *(Place(f"p{i}") for i in range(1, n + 1)))


def test_the_opening_then_turns_and_a_bid_up_to_the_discs_on_the_mats() -> None:
    state = opened()
    assert state.phase == "play" and GUIDE.turn(state) == "p1"
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, Place("p2"))
    state = play(state, Place("p1"))  # Ann: 2 on her mat; 4 in all
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Bid("p2", 5))
    state = play(state, Bid("p2", 2), Pass("p3"), Bid("p1", 3), Pass("p2"))
    assert state.phase == "reveal" and state.bidder == 0 and state.bid == 3


def test_the_challenger_turns_their_own_stack_first() -> None:
    state = play(opened(), Place("p1"), Bid("p2", 3), Pass("p3"), Pass("p1"))
    assert state.bidder == 1 and state.placed[1] == 1
    with pytest.raises(IllegalActionError, match="own stack first"):
        GAME.apply(state, TurnOver("p1", "flower"))
    state = play(state, TurnOver("p2", "flower"))
    with pytest.raises(IllegalActionError):
        GAME.apply(state, TurnOver("p2", "flower"))  # her stack is turned over
    state = play(state, TurnOver("p1", "flower"), TurnOver("p3", "flower"))
    assert state.wins == (0, 1, 0) and state.phase == "opening" and state.starter == 1
    assert state.round == 2 and state.placed == (0, 0, 0)


def test_two_successful_challenges_win() -> None:
    state = opened()
    for _ in range(2):
        state = play(state, Bid(state.players[state.turn].id, 3))
        state = play(state, *(TurnOver(p.id, "flower") for p in state.players))
        if state.phase == "opening":
            state = play(state, *(Place(p.id) for p in state.players))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == Termination.TWO_CHALLENGES
    assert outcome.winners == ("p1",) and outcome.scores["p1"] == 2


def test_a_skull_costs_a_disc_drawn_at_random_and_the_board_never_learns_which() -> None:
    state = play(opened(), Bid("p1", 2), Pass("p2"), Pass("p3"), TurnOver("p1", "flower"))
    state = play(state, TurnOver("p3", "skull"))
    assert GUIDE.allowed(state) == {"lose-disc"}
    draw = lose_disc(state, random.Random(3))
    assert draw.of == 4 and 1 <= draw.drawn <= 4
    with pytest.raises(RuleError):
        GAME.apply(state, LoseDisc(1, 3))  # she has four
    state = play(state, draw)
    assert state.discs == (3, 4, 4) and state.starter == 0 and state.lost == (draw.drawn, 4)
    from companion.games.skull.view import skull_view

    assert "lost" not in repr(skull_view(state))  # the draw is not in the view-model


def test_the_last_player_standing_wins_and_an_eliminated_challenger_hands_on() -> None:
    state = GAME.setup(seat_players(["Ann", "Bo", "Cy"]), {})
    for _ in range(4):  # Bo loses every challenge against Cy's skull
        state = play(state, *(Place(p.id) for p in state.players if state.alive(int(p.id[1:]) - 1)))
        while state.turn != 1:
            state = play(state, Place(state.players[state.turn].id))
        state = play(state, Bid("p2", 1))
        while state.phase == "bidding":
            state = play(state, Pass(state.players[state.turn].id))
        state = play(state, TurnOver("p2", "skull"), LoseDisc(1, state.discs[1]))
    assert state.discs[1] == 0 and state.phase == "opening"
    assert state.starter == 2 or state.starter == 0


def test_sentences_in_both_languages() -> None:
    before = opened()
    after = play(before, Bid("p1", 2))
    zh = GUIDE.describe(Bid("p1", 2), before, after).render(catalog("zh", "skull").gettext)
    assert zh == "Ann 出价 2。"
    assert GUIDE.prompt(after).render() == "Bo: raise the bid of 2 or pass."
    assert find_game("skull").rules is GAME


async def test_a_round_through_the_keys_in_chinese(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The screen's keys: the opening, a bid, passes, the challenger's own stack, a
    skull from another stack and the drawn disc, shown to the host only."""
    from textual.widgets import Static

    from companion.games.skull.screen import SkullScreen
    from companion.i18n import set_language
    from companion.session.clock import ManualClock
    from companion.ui.app import make_app
    from tests.screen_text import visible_text

    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(5))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            app.start_session("skull", ["Ann", "Bo", "Cy"], {})
            await app.settle()
            assert isinstance(app.screen, SkullScreen)
            await pilot.press("p", "p", "p")  # the opening
            await app.settle()
            await pilot.press("b")  # Ann bids (the dialog proposes 1)
            await app.settle()
            await pilot.press("backspace", "2", "enter")
            await app.settle()
            await pilot.press("s", "s")  # Bo and Cy pass
            await app.settle()
            screen = app.screen
            assert isinstance(screen, SkullScreen)
            assert screen.skull.phase == "reveal" and screen.skull.bidder == 0
            await pilot.press("f")  # Ann's own disc: a flower
            await app.settle()
            await pilot.press("k")  # then another stack: which one?
            await app.settle()
            await pilot.press("enter")  # Bo's, the first listed
            await app.settle()
            assert screen.skull.phase == "lose"
            shown = visible_text(app)  # the footer names only what applies now: the draw
            assert "d 抽取失去的牌" in shown and "p 放牌" not in shown
            await pilot.press("d")
            await app.settle()
            assert screen.skull.discs == (3, 4, 4) and screen.skull.round == 2
            secret = str(screen.query_one("#skull-secret", Static).render())
            drawn, of = screen.skull.lost or (0, 0)
            assert f"第 {drawn} 张（共 {of} 张）" in secret
            assert "名次" not in visible_text(app)  # never another game's word
    finally:
        set_language("en")
