"""Every action of 米宝马戏团 Meeple Circus, with its JSON form.

Design decisions:

* Times are facts recorded *inside* actions: the rules never read a clock. A
  ``start-performance`` carries the host-monotonic time at which playback started
  and the track's length; a ``press`` carries the host-monotonic time of the press,
  the half-width of the interval in which the true time lies, and — for the button
  box — the device's own clock, which alone orders two presses of one device.
* ``Press`` is the interface the keyboard and the USB button box share; its fields
  are pinned (the hardware layer builds on exactly these).
* The host settles what the clock cannot: presses too close to call
  (``settle-tie``) and presses within their uncertainty of the music's start or end
  (``settle-press``). Nothing ambiguous is ever ordered silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from companion.rules.base import Action, PlayerId

PressSource = Literal["keyboard", "button-box", "phone"]
"""Where a press came from; ``button-box`` and ``phone`` carry their device's clock."""
CLOCKED_SOURCES = ("button-box", "phone")


# --------------------------------------------------------------------------- setup


@dataclass(frozen=True)
class ChooseFirstPlayer(Action):
    """Act 1: the host names the first player ("saw a circus most recently").

    ``random`` is true when the companion drew the player (the caller draws with the
    session's random generator and records the result here).
    """

    type = "choose-first-player"
    player: PlayerId
    random: bool = False


@dataclass(frozen=True)
class HostPick(Action):
    """The host breaks a tie the rules leave to them (youngest unknown or equal).

    Used for the next first player at the end of an act and for who performs
    first in act 3; the state says which decision is pending and among whom.
    """

    type = "host-pick"
    player: PlayerId


# --------------------------------------------------------------------------- preparation


@dataclass(frozen=True)
class Prepare(Action):
    """Tick off ``player``'s preparation turn (one component tile + one program card)."""

    type = "prepare"
    player: PlayerId


# --------------------------------------------------------------------------- performance


@dataclass(frozen=True)
class ChooseMusic(Action):
    """The host picks what times the performance that plays next (a music-note program
    card): the open act's performance; in act 3, the current performer's.

    ``music`` is written as an act's music option is (``countdown:SECONDS``, or a music
    file with an optional ``@ M:SS`` cut), or ``track:ID`` for a built-in track. The
    rules check its form; the session side checks that the file reads or the track
    exists before recording it (``prepare.music_choice``).
    """

    type = "choose-music"
    music: str


@dataclass(frozen=True)
class StartPerformance(Action):
    """Playback started at host-monotonic ``host_ns``; the music lasts ``length_ns``.

    ``track`` names what plays (a track id, a file name, or None for a plain
    countdown). In act 3 the performance is that of the current performer.
    """

    type = "start-performance"
    host_ns: int
    length_ns: int
    track: str | None = None


@dataclass(frozen=True)
class Press(Action):
    """A Tadaa! press: who, when (host-monotonic), how sure, from which source."""

    type = "press"
    player: PlayerId
    host_ns: int
    """Host-monotonic time of the press (for button-box: mapped from device time)."""
    uncertainty_ns: int
    """Half-width of the interval the true time lies in (>= 0)."""
    source: PressSource
    device: str | None = None
    """Device serial number (button box), ``hid:…`` (HID), ``phone:<id>:<page load>``."""
    device_us: int | None = None
    """The device's own clock, microseconds (button box and phone)."""
    button: int | None = None


@dataclass(frozen=True)
class EndPerformance(Action):
    """The music stopped at host-monotonic ``host_ns``.

    At or after the track's end this is the music's natural end (the end counts as
    ``start + length``); before it, the host stopped the music early (acts 1–2: only
    once every player has pressed).
    """

    type = "end-performance"
    host_ns: int


@dataclass(frozen=True)
class AbortPerformance(Action):
    """The table was knocked over: the attempt's presses are kept but discarded."""

    type = "abort-performance"
    host_ns: int
    reason: str = ""


@dataclass(frozen=True)
class VoidPress(Action):
    """The host voids press number ``index`` (0-based, in the performance's list)."""

    type = "void-press"
    index: int


@dataclass(frozen=True)
class SettlePress(Action):
    """The host decides a press within its uncertainty of the music's start or end.

    ``counted`` true: it was inside the music; false: a false start / too late.
    """

    type = "settle-press"
    index: int
    counted: bool


@dataclass(frozen=True)
class SettleTie(Action):
    """The host orders players whose presses were too close to call.

    ``order`` lists exactly the tied players, earliest first.
    """

    type = "settle-tie"
    order: tuple[PlayerId, ...]


@dataclass(frozen=True)
class FinishPerformance(Action):
    """Close the (current player's) performance: act 3 moves to the next performer,
    otherwise the act moves on to evaluation."""

    type = "finish-performance"


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class ScorePlayer(Action):
    """One player's evaluation for the act (评价阶段), every source at once.

    * ``demands``: the printed value of each public demand satisfied (a card may
      appear several times);
    * ``blue``: blue acrobats touching the ground; ``yellow``: yellow acrobats not
      touching the ground;
    * ``red_heights``: for each red acrobat carrying nothing, its height on the
      measuring stick;
    * ``guest_stars``: the printed value of each guest star used as its card asks
      (acts 2 and 3; doubled in act 3);
    * ``challenges``: the printed value of each challenge met (act 3 only).

    The speed token comes from the performance, not from this action.
    """

    type = "score"
    player: PlayerId
    demands: tuple[int, ...] = ()
    blue: int = 0
    yellow: int = 0
    red_heights: tuple[int, ...] = ()
    guest_stars: tuple[int, ...] = ()
    challenges: tuple[int, ...] = ()


@dataclass(frozen=True)
class CorrectScore(Action):
    """Replace ``player``'s evaluation of the current act (a typing mistake found later).

    The same fields as ``score``; the speed token still comes from the performance.
    Allowed while the act is open (evaluation, and its end before ``end-act``), so the
    host fixes one player without undoing everyone scored after them. At the act's
    end the next first player is decided again from the corrected totals.
    """

    type = "correct-score"
    player: PlayerId
    demands: tuple[int, ...] = ()
    blue: int = 0
    yellow: int = 0
    red_heights: tuple[int, ...] = ()
    guest_stars: tuple[int, ...] = ()
    challenges: tuple[int, ...] = ()


# --------------------------------------------------------------------------- end of act


@dataclass(frozen=True)
class EndAct(Action):
    """The new first player removed one public demand card; the next act begins."""

    type = "end-act"
