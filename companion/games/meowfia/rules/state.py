"""The state of a 喵喵咪呀 game: frozen records that the history can read as they are.

Design decisions:

* The state *is* the game record. ``rounds`` holds every round played (the last
  one is the round in progress), ``ballots`` every ballot of every reckoning (the
  last one may be open), ``revealed`` every turned tile, ``adjustments`` every
  manual action with its reason. Nothing is thrown away when a round ends, so
  statistics by side need no second bookkeeping.
* Weights are ``Fraction`` — exact, never floats. The ring holder (戒指) weighs 3/2;
  ``format_weight`` shows it as ``1.5``.
* A ballot keeps a snapshot of who held the ring and of any weight changes, so a
  closed ballot can always be recounted exactly as it was counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from companion.games.meowfia.rules.actions import Building, InspectionResult, Tile
from companion.games.meowfia.rules.termination import Termination
from companion.rules.base import Player, PlayerId

Phase = Literal["setup", "smuggling", "inspection", "reckoning", "over"]
"""``setup`` until ``start``; then per round 偷渡 smuggling → 审查 inspection →
(清算 reckoning, only after contraband); ``over`` once a side has won."""

Side = Literal["police", "meowfia"]
BallotResult = Literal["open", "accused", "tie"]

RING_WEIGHT = Fraction(3, 2)
NORMAL_WEIGHT = Fraction(1)
TARGET = 3
"""Smuggles or intercepts that end the game."""


def format_weight(value: Fraction) -> str:
    """A weight or total as a host reads it: ``1``, ``1.5``, ``2.5``, ``1/3``.

    >>> format_weight(Fraction(5, 2)), format_weight(Fraction(2)), format_weight(Fraction(1, 3))
    ('2.5', '2', '1/3')
    """
    if value.denominator == 1:
        return str(value.numerator)
    den = value.denominator
    while den % 2 == 0:
        den //= 2
    while den % 5 == 0:
        den //= 5
    if den != 1:  # not a finite decimal
        return f"{value.numerator}/{value.denominator}"
    digits = 0
    scaled = value
    while scaled.denominator != 1:
        scaled *= 10
        digits += 1
    sign = "-" if value < 0 else ""
    whole, frac = divmod(abs(scaled.numerator), 10**digits)
    return f"{sign}{whole}.{frac:0{digits}d}"


@dataclass(frozen=True)
class Questioned:
    """One questioning of the inspection (审查): who, and the building claimed if entered."""

    player: PlayerId
    claim: Building | None = None


@dataclass(frozen=True)
class RoundRecord:
    """One round. ``order`` is the questioning order (the Sheriff skipped)."""

    number: int
    order: tuple[PlayerId, ...]
    questioned: tuple[Questioned, ...] = ()
    smuggling_done: bool = False
    building: Building | None = None
    result: InspectionResult | None = None
    accused: PlayerId | None = None
    """The player revealed by this round's reckoning (None without one)."""

    @property
    def last_in_order(self) -> PlayerId:
        """The last player of the questioning order (questioned or not)."""
        return self.order[-1]

    @property
    def last_questioned(self) -> PlayerId | None:
        """The player the Sheriff actually questioned last in this round (None: nobody yet)."""
        return self.questioned[-1].player if self.questioned else None

    def ring_goes_to(self, to_questioned: bool = True) -> PlayerId | None:
        """Who takes the ring if this round's building opens a reckoning now: the player
        questioned last (``to_questioned``, the rule), else the last in the order (the
        behaviour of sessions stored before the option)."""
        return self.last_questioned if to_questioned else self.last_in_order

    @property
    def questioning_done(self) -> bool:
        """Everyone but the Sheriff has been questioned (完成盘问)."""
        return len(self.questioned) >= len(self.order)

    @property
    def next_to_question(self) -> PlayerId | None:
        """Who the Sheriff questions next, or None once everyone was questioned."""
        done = len(self.questioned)
        return self.order[done] if done < len(self.order) else None


@dataclass(frozen=True)
class Cast:
    """One voter's entry on a ballot: a target, or ``None`` for an explicit abstention."""

    voter: PlayerId
    target: PlayerId | None


@dataclass(frozen=True)
class WeightChange:
    """A manual weight for one voter on one ballot, with the host's reason."""

    voter: PlayerId
    weight: Fraction
    reason: str


@dataclass(frozen=True)
class Ballot:
    """One simultaneous vote (同时投票). Revotes are further ballots of the same reckoning."""

    round: int
    reckoning: int
    """1-based count of reckonings in the game."""
    number: int
    """1 for the first ballot of a reckoning, 2 for the first revote, ..."""
    voters: tuple[PlayerId, ...]
    candidates: tuple[PlayerId, ...]
    ring: PlayerId | None
    casts: tuple[Cast, ...] = ()
    weight_changes: tuple[WeightChange, ...] = ()
    result: BallotResult = "open"

    def weight(self, voter: PlayerId) -> Fraction:
        """``voter``'s weight here: a manual change, else 1.5 with the ring, else 1."""
        for change in reversed(self.weight_changes):
            if change.voter == voter:
                return change.weight
        return RING_WEIGHT if voter == self.ring else NORMAL_WEIGHT

    def cast_of(self, voter: PlayerId) -> Cast | None:
        for cast in self.casts:
            if cast.voter == voter:
                return cast
        return None

    @property
    def complete(self) -> bool:
        """Every voter has voted or abstained."""
        return len(self.casts) == len(self.voters)

    def totals(self) -> dict[PlayerId, Fraction]:
        """Weighted total per candidate (0 for none), in candidate order."""
        totals = {c: Fraction(0) for c in self.candidates}
        for cast in self.casts:
            if cast.target is not None:
                totals[cast.target] += self.weight(cast.voter)
        return totals

    def leaders(self) -> tuple[PlayerId, ...]:
        """The candidates with the highest total (more than one = a tie)."""
        totals = self.totals()
        if not totals:
            return ()
        best = max(totals.values())
        return tuple(c for c, t in totals.items() if t == best)

    @property
    def accused(self) -> PlayerId | None:
        """The accused (被指认者) once the ballot closed with one leader."""
        return self.leaders()[0] if self.result == "accused" else None

    @property
    def tied(self) -> tuple[PlayerId, ...]:
        """The players tied for the highest total once the ballot closed in a tie."""
        return self.leaders() if self.result == "tie" else ()


@dataclass(frozen=True)
class RevealRecord:
    """A turned tile. ``by`` is ``vote`` (the accused of a reckoning) or ``manual``."""

    player: PlayerId
    tile: Tile
    role: str | None
    round: int
    by: Literal["vote", "manual"]
    reason: str | None = None


@dataclass(frozen=True)
class Adjustment:
    """A manual action (role ability or table mistake) with the host's reason."""

    round: int
    kind: str
    """The action tag: ``move-marker``, ``set-weight``, ``reveal-tile``, ``set-counter``."""
    subject: str
    """What changed: ``ring``/``message``/``rose``, a voter, a player, a counter."""
    value: str
    """The new value as text (a player id, ``-`` for nobody, a weight, a tile, a count)."""
    reason: str


@dataclass(frozen=True)
class PhaseTimer:
    """The phase timer of one phase of one round (smuggling, or a reckoning's discussion).

    Times are host-monotonic nanoseconds from the ``timer`` actions: ``left_ns`` were left
    at ``since_ns``; while ``running`` the time since then is gone too. A timer that ran
    out stays in the state (the screen and the board keep saying "Time is up!") until the
    phase ends or the timer is started again.
    """

    round: int
    phase: Phase
    ballot: int
    """How many ballots the game had when it started (a revote's discussion starts afresh)."""
    length_ns: int
    since_ns: int
    left_ns: int
    running: bool

    def remaining_ns(self, now_ns: int) -> int:
        """Nanoseconds left at ``now_ns`` (never below 0; a clock behind ``since_ns`` counts 0)."""
        if not self.running:
            return self.left_ns
        return max(0, self.left_ns - max(0, now_ns - self.since_ns))

    def is_up(self, now_ns: int) -> bool:
        """Time is up: the timer ran to 0 (a paused timer is never up)."""
        return self.running and self.remaining_ns(now_ns) == 0


@dataclass(frozen=True)
class MeowfiaState:
    """Everything about one game; see ``docs/games/meowfia.md`` for each field."""

    players: tuple[Player, ...]
    revote_tied_only: bool = False
    smuggling_seconds: int = 0
    """The smuggling timer's length (session option; 0: no timer)."""
    discussion_seconds: int = 0
    """The discussion timer's length in a reckoning (session option; 0: no timer)."""
    ring_to_questioned: bool = True
    """At the 1st reckoning the ring goes to the player questioned last (session option;
    False for sessions stored before it: the last in the order, questioned or not)."""
    sheriff: PlayerId | None = None
    first: PlayerId | None = None
    """The first questioned player of round 1 (drawn at random by the caller)."""
    phase: Phase = "setup"
    rounds: tuple[RoundRecord, ...] = ()
    """Every round so far; the last one is the round in progress (or the final one)."""
    smuggles: int = 0
    intercepts: int = 0
    ring: PlayerId | None = None
    message: PlayerId | None = None
    rose: PlayerId | None = None
    reckonings: int = 0
    ballots: tuple[Ballot, ...] = ()
    """Every ballot of the game; during a reckoning the last one is the current one."""
    revealed: tuple[RevealRecord, ...] = ()
    adjustments: tuple[Adjustment, ...] = ()
    ended: Termination | None = None
    """Why the game ended (a ``Termination``, stored as its string value); None while it runs."""
    undercover: PlayerId | None = None
    """The Undercover once revealed, entered after the game, or the only hidden player left."""
    timer: PhaseTimer | None = None
    """The current phase's timer once started (cleared when the phase or round changes)."""

    # ------------------------------------------------------------------ players

    def name(self, pid: PlayerId | None) -> str:
        for p in self.players:
            if p.id == pid:
                return p.name
        return "-" if pid is None else pid

    @property
    def voters(self) -> tuple[PlayerId, ...]:
        """Everyone but the Sheriff, in seating order (revealed players included)."""
        return tuple(p.id for p in self.players if p.id != self.sheriff)

    def revealed_tile(self, pid: PlayerId) -> RevealRecord | None:
        for record in self.revealed:
            if record.player == pid:
                return record
        return None

    @property
    def hidden(self) -> tuple[PlayerId, ...]:
        """Players other than the Sheriff whose tile is not turned, in seating order."""
        turned = {r.player for r in self.revealed}
        return tuple(pid for pid in self.voters if pid not in turned)

    def side_of(self, pid: PlayerId) -> Side | None:
        """The player's side if known: the Sheriff and the Undercover are police."""
        if pid == self.sheriff or pid == self.undercover:
            return "police"
        record = self.revealed_tile(pid)
        if record is not None:
            return "police" if record.tile == "undercover" else "meowfia"
        if self.undercover is not None and self.sheriff is not None:
            return "meowfia"
        return None

    # ------------------------------------------------------------------ progress

    @property
    def round_number(self) -> int:
        """1-based number of the round in progress (0 before ``start``)."""
        return len(self.rounds)

    @property
    def current_round(self) -> RoundRecord | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def ballot(self) -> Ballot | None:
        """The current reckoning's newest ballot (open, tied or with an accused)."""
        if self.phase == "reckoning" and self.ballots:
            return self.ballots[-1]
        return None

    @property
    def winning_side(self) -> Side | None:
        if self.ended is None:
            return None
        return "police" if self.ended == "intercepts" else "meowfia"

    def timer_seconds(self) -> int:
        """The length of the current phase's timer in seconds (0: this phase has none)."""
        if self.phase == "smuggling":
            return self.smuggling_seconds
        if self.phase == "reckoning":
            return self.discussion_seconds
        return 0

    def ballots_of(self, reckoning: int) -> tuple[Ballot, ...]:
        return tuple(b for b in self.ballots if b.reckoning == reckoning)
