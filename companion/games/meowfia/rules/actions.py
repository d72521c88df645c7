"""The actions of 喵喵咪呀, one frozen dataclass each; the ``type`` tag is the JSON name.

The JSON form of each is ``{"type": <tag>, <field>: <value>, ...}`` (see
``docs/games/meowfia.md``). Randomness is never drawn here: the first questioned
player of round 1 is chosen by the caller (``session.rng``) and carried in ``Start``.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from companion.rules.base import Action, PlayerId

Building = Literal["N", "E", "S", "W"]
"""The four buildings (建筑) by compass direction."""
BUILDINGS: tuple[Building, ...] = ("N", "E", "S", "W")

InspectionResult = Literal["contraband", "empty"]
Tile = Literal["undercover", "meowfia"]
Marker = Literal["ring", "message", "rose"]
Counter = Literal["smuggles", "intercepts"]
TimerCommand = Literal["start", "pause", "resume"]


# --------------------------------------------------------------------- the game flow


@dataclass(frozen=True)
class Start(Action):
    """Name the Sheriff (警长, public) and the first questioned player of round 1.

    ``first`` is drawn at random by the caller among the players other than the
    Sheriff, so the log replays the same way forever.
    """

    type = "start"
    sheriff: PlayerId
    first: PlayerId


@dataclass(frozen=True)
class SmugglingDone(Action):
    """The host confirms the smuggling (偷渡) placement is done: inspection begins."""

    type = "smuggling-done"


@dataclass(frozen=True)
class Question(Action):
    """The Sheriff questioned ``player`` (the next in the order); ``claim`` is optional."""

    type = "question"
    player: PlayerId
    claim: Building | None = None


@dataclass(frozen=True)
class Inspect(Action):
    """The Sheriff opened ``building``; it held ``result``."""

    type = "inspect"
    building: Building
    result: InspectionResult


@dataclass(frozen=True)
class Vote(Action):
    """``voter`` points at ``target`` on the open ballot."""

    type = "vote"
    voter: PlayerId
    target: PlayerId


@dataclass(frozen=True)
class Abstain(Action):
    """``voter`` explicitly casts no vote (weight 0) on the open ballot."""

    type = "abstain"
    voter: PlayerId


@dataclass(frozen=True)
class Retract(Action):
    """Withdraw ``voter``'s entry on the open ballot (a mistyped vote)."""

    type = "retract"
    voter: PlayerId


@dataclass(frozen=True)
class Revote(Action):
    """After a tie, open the next ballot of the same reckoning."""

    type = "revote"


@dataclass(frozen=True)
class Reveal(Action):
    """The accused's tile is turned: ``undercover``, or ``meowfia`` with an optional role."""

    type = "reveal"
    player: PlayerId
    tile: Tile
    role: str | None = None


@dataclass(frozen=True)
class Identify(Action):
    """After the game: who was the Undercover (卧底), so every side is known."""

    type = "identify"
    undercover: PlayerId


@dataclass(frozen=True)
class Timer(Action):
    """Start, pause or resume the phase timer at host-monotonic ``host_ns``.

    The timer is in the log (not only on the host's screen) so the board shows it and a
    restarted app finds it running; its length comes from the session options
    (``smuggling_seconds``, ``discussion_seconds``). The session stamps ``host_ns``.
    """

    type = "timer"
    command: TimerCommand
    host_ns: int


# --------------------------------------------------------------------- manual actions


@dataclass(frozen=True)
class MoveMarker(Action):
    """Move the ring / message / rose marker to a player or to nobody (role ability)."""

    type = "move-marker"
    marker: Marker
    to: PlayerId | None
    reason: str


@dataclass(frozen=True)
class SetWeight(Action):
    """Change one voter's weight for the open ballot only (e.g. ``"2"``, ``"1/2"``, ``0``)."""

    type = "set-weight"
    voter: PlayerId
    weight: Fraction
    reason: str


@dataclass(frozen=True)
class RevealTile(Action):
    """Reveal a player's tile outside a vote (role ability, or a tile shown by mistake)."""

    type = "reveal-tile"
    player: PlayerId
    tile: Tile
    reason: str
    role: str | None = None


@dataclass(frozen=True)
class SetCounter(Action):
    """Correct the smuggles or intercepts counter (a table mistake)."""

    type = "set-counter"
    counter: Counter
    value: int
    reason: str


ALL_ACTIONS: tuple[type[Action], ...] = (
    Start,
    SmugglingDone,
    Question,
    Inspect,
    Vote,
    Abstain,
    Retract,
    Revote,
    Reveal,
    Identify,
    Timer,
    MoveMarker,
    SetWeight,
    RevealTile,
    SetCounter,
)
