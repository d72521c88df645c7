"""The actions of 喵喵开箱 and their JSON form (documented in docs/games/cat-box.md).

A turn is one of: ``roll`` then ``place`` or ``pass`` (the roll action, 投掷), ``open``
(开箱) or ``retire`` (体退). The roll is two entries so that the dice are on record
before anything is decided, and so that an envy effect (``envy`` plus the manual
``set-dice`` / ``adjust-tokens`` / ``remove-token``) can be applied in between.
Slots are numbered from 1 in printed order.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.cat_box.rules.cards import CardSet
from companion.rules.base import Action, PlayerId


@dataclass(frozen=True)
class Deal(Action):
    """The first action: the card set in play, the shuffled deck and the start player.

    The caller (session layer) reads the card file and shuffles with ``session.rng``;
    recording the whole set here makes the log replay exactly even if the file changes.
    ``deck`` lists the non-start cards from top to bottom.
    """

    type = "deal"
    card_set: CardSet
    deck: tuple[str, ...]
    start: PlayerId
    source: str = ""
    """Where the set came from (a file name, or ``default``), for people."""


@dataclass(frozen=True)
class Roll(Action):
    """投掷: the three common dice and the 1 or 2 player dice just rolled."""

    type = "roll"
    player: PlayerId
    common: tuple[int, ...]
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Place(Action):
    """Finish the roll by placing one token; ``override`` is the host's reason to place
    on a slot whose condition the dice do not meet."""

    type = "place"
    player: PlayerId
    card: str
    slot: int
    override: str | None = None


@dataclass(frozen=True)
class Pass(Action):
    """Finish the roll without placing; a bust or the FAQ-6 case is settled here."""

    type = "pass"
    player: PlayerId


@dataclass(frozen=True)
class Open(Action):
    """开箱: take a displayed card whose every slot holds this player's token."""

    type = "open"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class Retire(Action):
    """体退: gain 1 token and stop for the round."""

    type = "retire"
    player: PlayerId


@dataclass(frozen=True)
class UseEnvy(Action):
    """Record that the roller uses the envy effect (嫉妒效果) of ``card`` this turn."""

    type = "envy"
    player: PlayerId
    card: str


@dataclass(frozen=True)
class SetDice(Action):
    """Manual: replace the dice of the open roll (an envy effect, a misread die)."""

    type = "set-dice"
    player: PlayerId
    common: tuple[int, ...]
    dice: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class AdjustTokens(Action):
    """Manual: ``player`` gains (``delta`` > 0) or returns owned tokens."""

    type = "adjust-tokens"
    player: PlayerId
    delta: int
    reason: str


@dataclass(frozen=True)
class RemoveToken(Action):
    """Manual: take ``player``'s token off a slot, back to the supply."""

    type = "remove-token"
    player: PlayerId
    card: str
    slot: int
    reason: str
