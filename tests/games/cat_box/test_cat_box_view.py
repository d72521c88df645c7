"""The view-model: the board shows what the host sees minus the roll marks, and never a
card still in the deck (by construction: a ``TableView`` only carries face-up cards)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

from cat_box_helpers import NAMES, dealt, new_game, play
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cat_box_properties import choose

from companion.games.cat_box.prepare import deal_for
from companion.games.cat_box.rules import GAME, CatBoxState, Roll
from companion.games.cat_box.view import TableView, table_view
from companion.rules.base import RuleError, seat_players


def strings(value: Any) -> Iterator[str]:
    """Every text inside a view (field values, recursively)."""
    if isinstance(value, str):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from strings(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from strings(item)


def unmarked(view: TableView) -> TableView:
    """The host's view without the open roll's marks (what the board leaves out)."""
    cards = tuple(
        dataclasses.replace(
            c, heat="", slots=tuple(dataclasses.replace(s, mark="") for s in c.slots)
        )
        for c in view.cards
    )
    return dataclasses.replace(view, cards=cards)


def check(state: CatBoxState) -> None:
    host, board = table_view(state), table_view(state, board=True)
    assert board == unmarked(host)
    shown = set(strings(board))
    visible = {d.card for d in state.display} | {c for s in state.seats for c in s.won}
    assert {c.id for c in board.cards} <= visible
    for card_id in set(state.deck) - visible:
        card = state.card(card_id)
        assert not {card.name, card.name_zh} & shown, card_id
    assert board.banner.deck == len(state.deck)


@settings(max_examples=25, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 2**32 - 1))
def test_the_board_never_carries_a_deck_card_and_agrees_with_the_host(
    players: int, seed: int
) -> None:
    rng = random.Random(seed)
    group = seat_players(NAMES[:players])
    state = GAME.apply(GAME.setup(group, GAME.check_options({})), deal_for(group, {}, rng))
    for _ in range(300):
        check(state)
        if state.ended is not None:
            break
        try:
            state = GAME.apply(state, choose(state, rng))
        except RuleError:
            continue
    check(state)


def test_rows_marks_and_banner() -> None:
    assert table_view(new_game()).banner.dealt is False
    state = play(dealt(), Roll("p1", (1, 2, 3), (4,)))
    view = table_view(state)
    assert [r.marker for r in view.players] == ["turn", "", "", ""]
    assert view.roll is not None and view.roll.rolled == (4,)
    assert view.banner.turn == "Ann" and view.banner.deck == 5
    marks = {(c.id, s.number): s.mark for c in view.cards for s in c.slots}
    assert marks[("c7", 1)] == "allowed"
    assert {s.mark for c in table_view(state, board=True).cards for s in c.slots} == {""}
    assert view.players[0].token.seat == 1 and view.players[0].token.colour.startswith("#")
