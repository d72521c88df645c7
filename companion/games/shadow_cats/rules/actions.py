"""The actions of 喵窩暗影, each with its JSON form (``docs/games/shadow-cats.md``).

Dice never come from the rules: every roll (a 2d6 *sum*, a d100 face) is chosen by
the session layer with ``session.rng`` or typed in from physical dice, and written
into the action. A move carries every roll it took, re-rolls included, so the log
shows them and replay needs no randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.rules.base import Action, PlayerId

Identity = Literal["red", "blue", "neutral"]
IDENTITIES: tuple[Identity, ...] = ("red", "blue", "neutral")


@dataclass(frozen=True)
class Setup(Action):
    """Start the game: the roster text, each player's character, layout, identity counts.

    ``roster`` is the whole TOML text the host's file held (or the shipped default),
    ``roster_file`` the name used in messages. ``characters`` follows seating order.
    ``layout`` names the location on the centre slot, then on outer slots 1–6.
    ``equipment_deck`` lists the item ids shuffled into the equipment deck.
    """

    type = "setup"
    roster_file: str
    roster: str
    characters: tuple[str, ...]
    layout: tuple[str, ...]
    red: int
    blue: int
    neutral: int
    first_player: PlayerId
    equipment_deck: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deal(Action):
    """The setup draft, dealt by the session the moment the setup screen opens (or
    again on ``d``, or after the roster file is read again).

    ``pairs`` holds each player's dealt character cards in seating order (two each;
    the first is preselected, any unused character may be picked instead).
    ``layout`` and ``first_player`` are dealt the same way. The identity counts start
    as the roster's defaults for this number of players. ``begin`` starts the game.
    """

    type = "deal"
    roster_file: str
    roster: str
    pairs: tuple[tuple[str, ...], ...]
    layout: tuple[str, ...]
    first_player: PlayerId


@dataclass(frozen=True)
class PickCharacter(Action):
    """Setup draft: ``player`` keeps ``character`` (one of theirs, or any unused one)."""

    type = "pick-character"
    player: PlayerId
    character: str


@dataclass(frozen=True)
class SetCounts(Action):
    """Setup draft: the identity cards in play (at least one Red and one Blue; the
    three add up to the number of players)."""

    type = "identity-counts"
    red: int
    blue: int
    neutral: int


@dataclass(frozen=True)
class SetLayout(Action):
    """Setup draft: the host lays the board out (centre first, then slots 1–6)."""

    type = "layout"
    layout: tuple[str, ...]


@dataclass(frozen=True)
class SetFirstPlayer(Action):
    """Setup draft: who takes the first turn."""

    type = "first-player"
    player: PlayerId


@dataclass(frozen=True)
class Begin(Action):
    """Start the game from the draft; ``equipment_deck`` is dealt at this moment."""

    type = "begin"
    equipment_deck: tuple[str, ...]


@dataclass(frozen=True)
class Place(Action):
    """Start position: 2d6 sums until one is not 7 (the 7s are the re-rolls)."""

    type = "place"
    player: PlayerId
    rolls: tuple[int, ...]


@dataclass(frozen=True)
class Move(Action):
    """Move step: 2d6 sums; all but the last landed on the current location (re-rolled).

    A last roll of 7 is a free choice: ``destination`` names the location.
    """

    type = "move"
    player: PlayerId
    rolls: tuple[int, ...]
    destination: str | None = None


@dataclass(frozen=True)
class MoveDice(Action):
    """Move step, dice first: 2d6 sums ending in a 7 (all but the last landed where the
    player was). Recorded the moment they are rolled; ``destination`` follows."""

    type = "move-dice"
    player: PlayerId
    rolls: tuple[int, ...]


@dataclass(frozen=True)
class Destination(Action):
    """The free choice after a 7 (``move-dice``): any other location."""

    type = "destination"
    player: PlayerId
    location: str


@dataclass(frozen=True)
class Forest(Action):
    """喵森林: ``damage`` (20, another character) or ``heal`` (10, anyone)."""

    type = "forest"
    player: PlayerId
    target: PlayerId
    effect: Literal["damage", "heal"]


@dataclass(frozen=True)
class Attack(Action):
    """Attack a character in range with a d100 ``roll`` (1–100)."""

    type = "attack"
    player: PlayerId
    target: PlayerId
    roll: int


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn without attacking."""

    type = "end-turn"
    player: PlayerId


@dataclass(frozen=True)
class Reveal(Action):
    """Record an identity: a dead character's turned card, or a public reveal (reason)."""

    type = "reveal"
    player: PlayerId
    identity: Identity
    reason: str = ""


@dataclass(frozen=True)
class ChangeHp(Action):
    """Manual HP change (skills, events, NPCs): ``amount`` < 0 is damage, > 0 healing."""

    type = "change-hp"
    player: PlayerId
    amount: int
    reason: str


@dataclass(frozen=True)
class Relocate(Action):
    """Manual move to ``location`` (no location effect)."""

    type = "relocate"
    player: PlayerId
    location: str
    reason: str


@dataclass(frozen=True)
class GiveItem(Action):
    """Give an equipment card from the deck to a character."""

    type = "give-item"
    player: PlayerId
    item: str
    reason: str


@dataclass(frozen=True)
class TakeItem(Action):
    """Take an equipment card away from a character (discarded or passed on)."""

    type = "take-item"
    player: PlayerId
    item: str
    reason: str


@dataclass(frozen=True)
class CopyCharacter(Action):
    """丑時's skill: use ``character``'s damage table and element from now on."""

    type = "copy"
    player: PlayerId
    character: str
    reason: str


@dataclass(frozen=True)
class DeclareNeutralWin(Action):
    """The host declares that these Neutrals met their Neutral condition (reveals them)."""

    type = "declare-neutral-win"
    players: tuple[PlayerId, ...]
    reason: str


@dataclass(frozen=True)
class IdentityEntry:
    player: PlayerId
    identity: Identity


@dataclass(frozen=True)
class FinalIdentities(Action):
    """At the end: the identity of every player not revealed yet."""

    type = "final-identities"
    identities: tuple[IdentityEntry, ...]


ALL_ACTIONS = (
    Setup,
    Deal,
    PickCharacter,
    SetCounts,
    SetLayout,
    SetFirstPlayer,
    Begin,
    Place,
    Move,
    MoveDice,
    Destination,
    Forest,
    Attack,
    EndTurn,
    Reveal,
    ChangeHp,
    Relocate,
    GiveItem,
    TakeItem,
    CopyCharacter,
    DeclareNeutralWin,
    FinalIdentities,
)
