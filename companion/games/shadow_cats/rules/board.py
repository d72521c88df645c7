"""The board: seven location cards on a centre slot and six outer slots, and distances.

Rules (docs/games/shadow-cats.md, "Board and locations"):

* 2d6 picks a location: 2/11 喵王國, 3/12 櫻花村, 4/5 傳送石, 6 圖書館, 8 熊本屋,
  9 喵魔界, 10 喵森林; 7 is a free choice (during play) or a re-roll (start).
* Slot 0 is the centre, slots 1–6 go round. The layout is a permutation of the seven
  locations with the Warp Stone never in the centre.
* Distance from an outer slot: same colour 1, an adjacent slot of another colour 2,
  anything else 3. From the centre: a slot of the centre's colour (brown) or the same
  slot 1, anything else 2. The page gives no outer→centre case; distance is taken to be
  symmetric, so outer→centre is 2 (the centre touches every outer slot and is another
  colour), or 1 if that outer slot is brown too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from companion.rules.base import N_, BadActionError, IllegalActionError

LocationId = Literal["kingdom", "village", "warp", "library", "shop", "demon", "forest"]
LOCATIONS: tuple[LocationId, ...] = (
    "kingdom",
    "village",
    "warp",
    "library",
    "shop",
    "demon",
    "forest",
)
LOCATION_NAMES: dict[str, tuple[str, str]] = {
    # id: (English, the original's name)
    "kingdom": (N_("Cat Kingdom"), "喵王國"),
    "village": (N_("Sakura Village"), "櫻花村"),
    "warp": (N_("Warp Stone"), "傳送石"),
    "library": (N_("Library"), "圖書館"),
    "shop": (N_("Kumamoto Shop"), "熊本屋"),
    "demon": (N_("Cat Demon Realm"), "喵魔界"),
    "forest": (N_("Cat Forest"), "喵森林"),
}
LOCATION_EFFECTS: dict[str, str] = {
    "kingdom": N_("may draw a Kingdom card"),
    "village": N_("may draw a Village card"),
    "warp": N_("may draw a card from any deck"),
    "library": N_("may draw an identity-peek card"),
    "shop": N_("may draw an equipment card"),
    "demon": N_("may draw a Demon card"),
    "forest": N_("one other character loses 20 HP, or one character (yourself allowed) heals 10"),
}
LOCATION_NOTICES: dict[str, str] = {
    "kingdom": N_("{player} may draw a Kingdom card."),
    "village": N_("{player} may draw a Village card."),
    "warp": N_("{player} may draw a card from any deck."),
    "library": N_("{player} may draw an identity-peek card."),
    "shop": N_("{player} may draw an equipment card."),
    "demon": N_("{player} may draw a Demon card."),
    "forest": N_(
        "{player} is in the Cat Forest: one other character loses 20 HP, or one character "
        "(themselves too) heals 10."
    ),
}
"""The reminder shown when ``{player}`` arrives: a sentence naming who may act (the
fragments above read as orphans under the move notice)."""
SUMS: dict[int, LocationId] = {
    2: "kingdom",
    11: "kingdom",
    3: "village",
    12: "village",
    4: "warp",
    5: "warp",
    6: "library",
    8: "shop",
    9: "demon",
    10: "forest",
}
FREE_CHOICE = 7
CENTRE = 0
SLOTS = 7


def location_for_sum(total: int) -> LocationId | None:
    """The location a 2d6 sum lands on; ``None`` for 7 (free choice / re-roll).

    >>> location_for_sum(11), location_for_sum(7)
    ('kingdom', None)
    """
    check_2d6(total)
    return SUMS.get(total)


def sums_for(location: str) -> tuple[int, ...]:
    return tuple(s for s, loc in sorted(SUMS.items()) if loc == location)


def check_2d6(total: int) -> None:
    if not 2 <= total <= 12:
        raise BadActionError(N_("A 2d6 roll is 2 to 12, not {roll}."), roll=total)


def check_d100(roll: int) -> None:
    if not 1 <= roll <= 100:
        raise BadActionError(N_("A d100 roll is 1 to 100, not {roll}."), roll=roll)


def check_location(location: str) -> str:
    if location not in LOCATIONS:
        raise BadActionError(
            N_("There is no location {location!r}; use one of {choices}."),
            location=location,
            choices=", ".join(LOCATIONS),
        )
    return location


def check_layout(layout: Sequence[str]) -> tuple[str, ...]:
    """A layout lists the location on each slot: centre first, then slots 1–6 going round."""
    if len(layout) != SLOTS or sorted(layout) != sorted(LOCATIONS):
        raise BadActionError(
            N_(
                "A layout puts each of the 7 locations on one slot "
                "(centre first, then the six round it)."
            )
        )
    if layout[CENTRE] == "warp":
        raise IllegalActionError(N_("The Warp Stone may not be in the centre; deal again."))
    return tuple(check_location(x) for x in layout)


def slot_distance(a: int, b: int, centre_colour: str, outer: Sequence[str]) -> int:
    """Distance between two slots (0 = centre, 1–6 outer) as the page states it."""
    colours = (centre_colour, *outer)
    if a == b:
        return 1
    if a == CENTRE or b == CENTRE:
        other = b if a == CENTRE else a
        return 1 if colours[other] == centre_colour else 2
    if colours[a] == colours[b]:
        return 1
    ring = len(outer)
    if (a - b) % ring in (1, ring - 1):
        return 2
    return 3


def distance(
    layout: Sequence[str], here: str, there: str, centre_colour: str, outer: Sequence[str]
) -> int:
    """Distance between the slots holding two locations."""
    return slot_distance(layout.index(here), layout.index(there), centre_colour, outer)


AGAIN = "again"
CHOOSE = "choose"


def roll_outcome(total: int, here: str | None, *, start: bool = False) -> str:
    """What one 2d6 sum does: ``"again"`` (roll again), ``"choose"`` (a 7 in play) or the
    location it lands on.

    >>> roll_outcome(7, None, start=True), roll_outcome(4, "warp"), roll_outcome(8, "warp")
    ('again', 'again', 'shop')
    """
    check_2d6(total)
    if total == FREE_CHOICE:
        return AGAIN if start else CHOOSE
    if SUMS[total] == here:
        return AGAIN
    return SUMS[total]
