"""Small builders for Cat Box tests: a plain card set whose numbers are easy to read."""

from __future__ import annotations

from dataclasses import replace

from companion.games.cat_box.rules import (
    GAME,
    BoxCard,
    CardSet,
    CatBoxState,
    Deal,
    Envy,
    Pass,
    Place,
    Roll,
)
from companion.rules.base import Action, seat_players

NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy")


def card(
    card_id: str,
    hiss: int,
    slots: tuple[str, ...] = ("any",),
    score: int = 1,
    start: bool = False,
    pip: int = 1,
) -> BoxCard:
    return BoxCard(
        id=card_id,
        name=card_id.title(),
        hiss=hiss,
        score=score,
        slots=slots,
        envy=Envy(pip=pip, text=f"envy of {card_id}"),
        start=start,
    )


def card_set(*overrides: BoxCard) -> CardSet:
    """Start cards s6 (hiss 6) and s7 (hiss 7), then c1..c7 (hiss 10 + n), all slots ``any``.

    A card in ``overrides`` replaces the one with the same id.
    """
    cards = [
        card("s6", 6, ("any", "any"), score=2, start=True),
        card("s7", 7, ("any", "any"), score=3, start=True),
    ]
    cards += [card(f"c{n}", 10 + n, ("any", "any"), score=n) for n in range(1, 8)]
    by_id = {c.id: c for c in overrides}
    return CardSet(name="test set", cards=tuple(by_id.get(c.id, c) for c in cards))


DECK = ("c1", "c2", "c3", "c4", "c5", "c6", "c7")
"""Top to bottom: the display gets c7 then c6; refills come c5, c4, … c1."""


def new_game(players: int = 4, **options: object) -> CatBoxState:
    return GAME.setup(seat_players(NAMES[:players]), GAME.check_options(options))


def dealt(
    players: int = 4, cards: CardSet | None = None, deck: tuple[str, ...] = DECK, start: str = "p1"
) -> CatBoxState:
    return GAME.apply(new_game(players), Deal(cards or card_set(), deck, start, "test"))


def play(state: CatBoxState, *actions: Action) -> CatBoxState:
    for action in actions:
        state = GAME.apply(state, action)
    return state


def roll_place(
    state: CatBoxState,
    pid: str,
    rolled: tuple[int, ...],
    card_id: str,
    slot: int,
    common: tuple[int, ...] = (1, 2, 3),
) -> CatBoxState:
    return play(state, Roll(pid, common, rolled), Place(pid, card_id, slot))


def roll_pass(
    state: CatBoxState, pid: str, rolled: tuple[int, ...], common: tuple[int, ...] = (1, 2, 3)
) -> CatBoxState:
    return play(state, Roll(pid, common, rolled), Pass(pid))


def with_tokens(state: CatBoxState, card_id: str, *slots: tuple[str, ...]) -> CatBoxState:
    """Put tokens on a displayed card directly (keeping the supply ledger right)."""
    shown = state.displayed(card_id)
    assert shown is not None
    display = tuple(
        replace(d, tokens=tuple(slots)) if d.card == card_id else d for d in state.display
    )
    added = {
        pid: sum(1 for s in slots if pid in s) - shown.count(pid)
        for pid in {p for s in slots for p in s} | shown.holders()
    }
    seats = tuple(replace(s, taken=s.taken + added.get(s.player, 0)) for s in state.seats)
    return replace(state, display=display, seats=seats)


def ledger_ok(state: CatBoxState) -> bool:
    """Every token out of the supply is owned or on a displayed card."""
    return all(
        s.taken - s.returned == s.owned + state.placed(s.player) and s.owned >= 0
        for s in state.seats
    )
