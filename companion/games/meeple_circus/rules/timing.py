"""Which Tadaa! presses count, and in what order (the photo finish, as pure functions).

Design decisions:

* A performance is a record of facts: attempts (start, length, end or abort) and
  every press as it arrived. What a press *means* — counted, false start, too late,
  repeat, voided — is derived from those facts every time, never stored, so a
  late ``start-performance`` or a void re-judges every press consistently.
* Time is an interval, not a point: a press lies in ``[host_ns ± uncertainty_ns]``.
  Two presses of the same device are ordered by the device's own clock alone.
  Otherwise one press is *definitely before* another only when their intervals do
  not overlap; overlapping presses form a tie group ("too close to call") that the
  host orders with ``settle-tie``. A press whose interval holds the music's start
  or end is flagged for the host (``settle-press``), never decided silently.
* The music ends at ``min(stop time, start + length)``: a stop action arriving after
  the track's end does not stretch the music.
* Speed tokens (2 and 1) go to the first two distinct players in the settled order.
  An ambiguity matters only when some way of settling it changes who gets which
  token; ambiguities that cannot change the tokens never block the game.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from companion.games.meeple_circus.rules.actions import CLOCKED_SOURCES, Press
from companion.rules.base import PlayerId

PressStatus = Literal[
    "counted",
    "false-start",
    "too-late",
    "repeat",
    "voided",
    "discarded",
    "uncertain-start",
    "uncertain-end",
    "not-performer",
]
"""What a press means:

* ``counted`` — inside the music; the player's first such press;
* ``false-start`` — before the music started (no effect);
* ``too-late`` — after the music ended (no effect);
* ``repeat`` — the player already has a counted press (no effect);
* ``voided`` — the host voided it;
* ``discarded`` — it belongs to an aborted attempt;
* ``uncertain-start`` / ``uncertain-end`` — its interval holds the music's start or
  end: the host settles it;
* ``not-performer`` — act 3: someone other than the performer pressed (no effect).
"""

SPEED_TOKENS = (2, 1)
"""The speed tokens, in the order the earliest players take them."""

MAX_SETTLE_COMBINATIONS = 256
"""Beyond this many ways to settle flagged presses, every flag must be settled."""

EndReason = Literal["music", "stopped", "tadaa"]


@dataclass(frozen=True)
class Attempt:
    """One try at a performance: playback started at ``start_ns`` for ``length_ns``."""

    start_ns: int
    length_ns: int
    track: str | None = None
    stop_ns: int | None = None
    """When the music was stopped (or ended); None while it plays."""
    end_reason: EndReason | None = None
    aborted: bool = False
    abort_reason: str = ""

    @property
    def scheduled_end_ns(self) -> int:
        return self.start_ns + self.length_ns

    @property
    def end_ns(self) -> int:
        """When the music ends (or will end): the earlier of the stop and the track end."""
        if self.stop_ns is None:
            return self.scheduled_end_ns
        return min(self.stop_ns, self.scheduled_end_ns)

    @property
    def running(self) -> bool:
        return self.stop_ns is None and not self.aborted


@dataclass(frozen=True)
class RecordedPress:
    """A press as recorded, with the attempt it belongs to and the host's decisions."""

    press: Press
    attempt: int
    """Index of the attempt it belongs to (may equal ``len(attempts)``: not yet started)."""
    voided: bool = False
    settled: bool | None = None
    """Host's verdict on a press at the music's start/end: counted (True) or not."""


@dataclass(frozen=True)
class Performance:
    """All facts of one performance: every attempt and every press.

    ``performer`` is None in acts 1–2 (everyone at once), else act 3's performer.
    """

    performer: PlayerId | None = None
    attempts: tuple[Attempt, ...] = ()
    presses: tuple[RecordedPress, ...] = ()
    tie_orders: tuple[tuple[PlayerId, ...], ...] = ()
    """Orders the host gave to tie groups (each matches a group by its players)."""

    @property
    def current(self) -> Attempt | None:
        """The attempt that is running or ended (not aborted), if any."""
        if self.attempts and not self.attempts[-1].aborted:
            return self.attempts[-1]
        return None

    @property
    def current_index(self) -> int:
        """Index of the attempt new presses belong to (the next one after an abort)."""
        return len(self.attempts) - 1 if self.current is not None else len(self.attempts)

    @property
    def started(self) -> bool:
        return self.current is not None

    @property
    def ended(self) -> bool:
        current = self.current
        return current is not None and current.stop_ns is not None


# --------------------------------------------------------------------------- ordering


def definitely_before(a: Press, b: Press) -> bool:
    """True when press ``a`` certainly happened before press ``b``.

    >>> k = lambda t, u=0: Press("p1", t, u, "keyboard")
    >>> definitely_before(k(100, 10), k(121, 10)), definitely_before(k(100, 10), k(120, 10))
    (True, False)
    """
    if same_device(a, b):
        assert a.device_us is not None and b.device_us is not None
        return a.device_us < b.device_us
    return a.host_ns + a.uncertainty_ns < b.host_ns - b.uncertainty_ns


def same_device(a: Press, b: Press) -> bool:
    """Both presses come from one device (a box, a phone page) stamped by its own clock."""
    return (
        a.source in CLOCKED_SOURCES
        and a.source == b.source
        and a.device is not None
        and a.device == b.device
        and a.device_us is not None
        and b.device_us is not None
    )


def order_presses(presses: Sequence[Press]) -> list[Press]:
    """Presses earliest first: by host time, but one device's presses by its clock."""
    ordered = sorted(presses, key=lambda p: p.host_ns)
    # A clock-sync refit can map one device's presses slightly out of device order;
    # the device clock is the truth between them, so restore its order.
    for i in range(1, len(ordered)):
        j = i
        while (
            j > 0
            and same_device(ordered[j - 1], ordered[j])
            and definitely_before(ordered[j], ordered[j - 1])
        ):
            ordered[j - 1], ordered[j] = ordered[j], ordered[j - 1]
            j -= 1
    return ordered


def tie_groups(presses: Sequence[Press]) -> list[list[Press]]:
    """Presses earliest first, grouped where the order between them is not certain.

    Groups are ordered: every press of a group is certainly before every press of
    a later group.
    """
    groups: list[list[Press]] = []
    for press in order_presses(presses):
        first_overlap = next(
            (
                i
                for i, group in enumerate(groups)
                if any(not definitely_before(q, press) for q in group)
            ),
            None,
        )
        if first_overlap is None:
            groups.append([press])
        else:
            merged = [q for group in groups[first_overlap:] for q in group]
            del groups[first_overlap:]
            groups.append([*merged, press])
    return groups


# --------------------------------------------------------------------------- judging


@dataclass(frozen=True)
class JudgedPress:
    """A press with its meaning and, when counted, its place in the Tadaa order."""

    index: int
    press: Press
    status: PressStatus
    rank: int | None = None
    """1-based place among counted presses (tied presses share the group's first place)."""
    tied_with: tuple[PlayerId, ...] = ()
    """Other players in an unsettled tie group with this press."""
    gap_ns: int | None = None
    """Time since the previous counted press (None for the first)."""
    elapsed_ns: int | None = None
    """Time since the music started (None before any start)."""


@dataclass(frozen=True)
class Verdict:
    """The whole judgement of a performance."""

    presses: tuple[JudgedPress, ...]
    order: tuple[tuple[PlayerId, ...], ...]
    """Counted players earliest first; a tuple of several players is an unsettled tie."""
    tokens: Mapping[PlayerId, int] | None
    """Speed tokens per player (acts 1–2), or None while an ambiguity decides them."""
    undecided: tuple[str, ...]
    """What the host must settle before the tokens are known (``tie:p1,p2``, ``press:3``)."""

    def counted_players(self) -> set[PlayerId]:
        return {pid for group in self.order for pid in group}


def _base_status(perf: Performance, index: int, rp: RecordedPress) -> PressStatus:
    """Status of one press before repeats are known."""
    if rp.voided:
        return "voided"
    if rp.attempt < len(perf.attempts) and perf.attempts[rp.attempt].aborted:
        return "discarded"
    if perf.performer is not None and rp.press.player != perf.performer:
        return "not-performer"
    if rp.attempt >= len(perf.attempts):
        return "false-start"  # the attempt has not started yet
    attempt = perf.attempts[rp.attempt]
    t, u = rp.press.host_ns, rp.press.uncertainty_ns
    if attempt.end_reason == "tadaa" and attempt.stop_ns == t and _ending_press(perf) == index:
        return "counted"
    if t + u < attempt.start_ns:
        return "false-start"
    if t - u <= attempt.start_ns:
        return _settled(rp, "uncertain-start", "false-start")
    end = attempt.end_ns
    if t - u > end:
        return "too-late"
    if t + u >= end:
        return _settled(rp, "uncertain-end", "too-late")
    return "counted"


def _settled(rp: RecordedPress, flag: PressStatus, refused: PressStatus) -> PressStatus:
    if rp.settled is None:
        return flag
    return "counted" if rp.settled else refused


def _ending_press(perf: Performance) -> int | None:
    """Act 3: the index of the press that ended the current attempt by a Tadaa."""
    current = perf.current
    if current is None or current.end_reason != "tadaa":
        return None
    index = len(perf.attempts) - 1
    for i, rp in enumerate(perf.presses):
        if (
            rp.attempt == index
            and rp.press.player == perf.performer
            and rp.press.host_ns == current.stop_ns
        ):
            return i
    return None


@functools.lru_cache(maxsize=64)
def judge(perf: Performance, speed_tokens: bool) -> Verdict:
    """Judge every press of ``perf``; award speed tokens when ``speed_tokens``.

    Pure, so its result is cached by value: the screen asks several times per
    refresh, and the rules once per action.
    """
    base = [_base_status(perf, i, rp) for i, rp in enumerate(perf.presses)]
    verdict = _judge_with(perf, base)
    if not speed_tokens:
        return Verdict(verdict.presses, verdict.order, MappingProxyType({}), ())
    return _with_tokens(perf, base, verdict)


def _judge_with(perf: Performance, base: Sequence[PressStatus]) -> Verdict:
    """Repeats, order and gaps given a base status for every press."""
    statuses: list[PressStatus] = list(base)
    candidates = [i for i, s in enumerate(statuses) if s == "counted"]
    first_of: dict[PlayerId, int] = {}
    by_press = {id(perf.presses[i].press): i for i in candidates}
    for press in order_presses([perf.presses[i].press for i in candidates]):
        i = by_press[id(press)]
        if press.player in first_of:
            statuses[i] = "repeat"
        else:
            first_of[press.player] = i
    firsts = [perf.presses[i].press for i in first_of.values()]
    groups = _settle_groups(tie_groups(firsts), perf.tie_orders)

    ranks: dict[int, tuple[int, tuple[PlayerId, ...], int | None]] = {}
    order: list[tuple[PlayerId, ...]] = []
    place = 1
    previous: Press | None = None
    for group in groups:
        players = tuple(p.player for p in group)
        if len(group) == 1 or _is_settled(players, perf.tie_orders):
            for press in group:
                gap = None if previous is None else press.host_ns - previous.host_ns
                ranks[by_press[id(press)]] = (place, (), gap)
                order.append((press.player,))
                previous = press
                place += 1
        else:
            # Too close to call: all share the group's first place; each gap is to
            # the press just before it in host time (what a photo finish shows).
            for press in group:
                gap = None if previous is None else press.host_ns - previous.host_ns
                others = tuple(pid for pid in players if pid != press.player)
                ranks[by_press[id(press)]] = (place, others, gap)
                previous = press
            order.append(players)
            place += len(group)

    judged = []
    for i, rp in enumerate(perf.presses):
        rank, tied, gap = ranks.get(i, (None, (), None))
        attempt = perf.attempts[rp.attempt] if rp.attempt < len(perf.attempts) else None
        elapsed = rp.press.host_ns - attempt.start_ns if attempt is not None else None
        judged.append(JudgedPress(i, rp.press, statuses[i], rank, tied, gap, elapsed))
    return Verdict(tuple(judged), tuple(order), None, ())


def _is_settled(players: Iterable[PlayerId], tie_orders: Sequence[tuple[PlayerId, ...]]) -> bool:
    wanted = set(players)
    return any(set(order) == wanted for order in tie_orders)


def _settle_groups(
    groups: list[list[Press]], tie_orders: Sequence[tuple[PlayerId, ...]]
) -> list[list[Press]]:
    """Apply the host's order to every tie group the host settled."""
    out: list[list[Press]] = []
    for group in groups:
        players = {p.player for p in group}
        order = next((o for o in reversed(tie_orders) if set(o) == players), None)
        if len(group) > 1 and order is not None:
            group = sorted(group, key=lambda p: order.index(p.player))
        out.append(group)
    return out


def _tokens_of(verdict: Verdict) -> tuple[dict[PlayerId, int] | None, tuple[str, ...]]:
    """Tokens from a verdict's order, or the tie that decides them."""
    tokens: dict[PlayerId, int] = {}
    for place, group in enumerate(verdict.order):
        if place >= len(SPEED_TOKENS):
            break
        if len(group) > 1:
            return None, ("tie:" + ",".join(sorted(group)),)
        tokens[group[0]] = SPEED_TOKENS[place]
    return tokens, ()


def _cannot_matter(perf: Performance, base: Sequence[PressStatus], index: int) -> bool:
    """A flagged press that can never hold a token, however it is settled.

    Either its player already has a counted press certainly before it (it would be
    a repeat), or — at the music's end — two other players have counted presses
    certainly before it (it could be third at best).
    """
    press = perf.presses[index].press
    counted = [perf.presses[j].press for j, s in enumerate(base) if s == "counted"]
    earlier = {p.player for p in counted if definitely_before(p, press)}
    if press.player in earlier:
        return True
    return base[index] == "uncertain-end" and len(earlier) >= len(SPEED_TOKENS)


def _with_tokens(perf: Performance, base: Sequence[PressStatus], shown: Verdict) -> Verdict:
    flags = [i for i, s in enumerate(base) if s in ("uncertain-start", "uncertain-end")]
    # Presses that cannot change the tokens are left out of the search (taken as not
    # counting); the rest are tried both ways.
    base = [
        _refused(s) if i in flags and _cannot_matter(perf, base, i) else s
        for i, s in enumerate(base)
    ]
    flagged = [i for i in flags if base[i] in ("uncertain-start", "uncertain-end")]
    if 2 ** len(flagged) > MAX_SETTLE_COMBINATIONS:
        return Verdict(shown.presses, shown.order, None, tuple(f"press:{i}" for i in flagged))
    outcomes: dict[tuple[bool, ...], tuple[dict[PlayerId, int] | None, tuple[str, ...]]] = {}
    for choice in itertools.product((True, False), repeat=len(flagged)):
        assumed: list[PressStatus] = list(base)
        for i, counted in zip(flagged, choice, strict=True):
            assumed[i] = "counted" if counted else _refused(base[i])
        outcomes[choice] = _tokens_of(_judge_with(perf, assumed))
    results = list(outcomes.values())
    if all(result == results[0] for result in results):
        tokens, ties = results[0]
        frozen = MappingProxyType(tokens) if tokens is not None else None
        return Verdict(shown.presses, shown.order, frozen, ties)
    # Some way of settling a flagged press changes the tokens: the host settles
    # those presses (a press matters when flipping it alone changes the result).
    relevant = [
        i
        for k, i in enumerate(flagged)
        if any(
            outcomes[choice] != outcomes[(*choice[:k], not choice[k], *choice[k + 1 :])]
            for choice in outcomes
        )
    ]
    return Verdict(shown.presses, shown.order, None, tuple(f"press:{i}" for i in relevant))


def _refused(flag: PressStatus) -> PressStatus:
    return "false-start" if flag == "uncertain-start" else "too-late"
