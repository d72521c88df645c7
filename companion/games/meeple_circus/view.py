"""The Meeple Circus view-model: what the host screen and the board both show.

Design decisions:

* Pure (no Textual, no Rich, no gettext): frozen rows of plain values and ``N_``
  templates, translated where they are drawn. The host screen (``panels.py``), the
  board (``board.py``) and the photo finish render these rows, so the same two
  presses show the same place, gap and verdict everywhere; nothing here is computed
  twice.
* A gap is measured against the press ranked just before (what the Tadaa order
  means). Between two presses of one button box it comes from the box's own clock
  (exact, ``⏱``); otherwise from the mapped host times. Where the clock cannot tell
  which came first (a tie, settled or not) the gap is ``±`` instead of ``+``.
* Meeple Circus has no hidden information: the board's view-model is the host's.
* The countdown is a function of the logged attempt and a time passed in, so the
  screen and the board (each with its own tick) agree on it at every instant.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.meeple_circus.guide import STATUS_WORDS
from companion.games.meeple_circus.rules.actions import Press
from companion.games.meeple_circus.rules.state import SPEED_TOKEN_ACTS, CircusState
from companion.games.meeple_circus.rules.timing import (
    Attempt,
    JudgedPress,
    PressStatus,
    definitely_before,
    same_device,
    tie_groups,
)
from companion.games.meeple_circus.units import NS_PER_S, format_elapsed, format_gap, format_ms
from companion.rules.base import N_, PlayerId
from companion.rules.names import fit_name

ACT_NAMES = {
    1: N_("First rehearsal"),
    2: N_("Second rehearsal"),
    3: N_("Grand show"),
}
PHASE_NAMES = {
    "first-player": N_("Choosing the first player"),
    "preparation": N_("Preparation"),
    "performance": N_("Performance"),
    "evaluation": N_("Evaluation"),
    "end": N_("End of act"),
    "over": N_("Final standings"),
}
STATUS_COLOURS = {
    "counted": "green",
    "false-start": "red",
    "too-late": "yellow",
    "repeat": "dim",
    "voided": "dim",
    "discarded": "dim",
    "uncertain-start": "magenta",
    "uncertain-end": "magenta",
    "not-performer": "dim",
}
"""A press's colour by what it counts as (names; each renderer picks its style)."""
TOO_CLOSE = N_("too close to call")
SETTLED = N_("host's order")
"""A press of a tie group whose order the host gave (``t``): no longer too close."""


# --------------------------------------------------------------------------- presses


@dataclass(frozen=True)
class PressRow:
    """One press as every table shows it."""

    index: int
    """0-based, in the performance's list (``void-press`` and ``settle-press`` use it)."""
    player: PlayerId
    name: str
    seat: int
    colour: str | None
    place: str
    """``"1"``, ``"2="`` (unsettled tie), or ``""`` when it does not count."""
    status: PressStatus
    label: str
    """What it counts as (an ``N_`` template): the status, or "too close to call"."""
    style: str
    """A colour name from ``STATUS_COLOURS`` (magenta for an unsettled tie)."""
    time: str
    """Time into the music (``0:20.300``) or ``—`` before any start."""
    gap: str
    """To the press ranked before: ``+250.0 ms``, ``±10.4 ms``, ``+50 µs``; ``""`` if none."""
    gap_exact: bool
    """The gap comes from one box's own clock."""
    token: int | None
    uncertainty: str
    """``±20.0 ms``."""
    keyboard: bool
    device: str | None
    """The button box's or HID device's id (None for a key or a phone)."""
    button: int | None
    """The button's number on its device."""
    current_attempt: bool
    """It belongs to the attempt now open (the photo finish shows only those)."""


def gap_between(a: Press, b: Press) -> tuple[int, bool]:
    """``b`` minus ``a`` in ns, and whether it comes from one device's clock (exact)."""
    if same_device(a, b):
        assert a.device_us is not None and b.device_us is not None
        return (b.device_us - a.device_us) * 1000, True
    return b.host_ns - a.host_ns, False


def gap_label(a: Press, b: Press) -> tuple[str, bool]:
    """The gap column's text from ``a`` to ``b``, and whether it is exact.

    ``+`` when ``a`` was certainly first, ``±`` when the clock cannot tell (the host
    may have settled the order either way).
    """
    ns, exact = gap_between(a, b)
    return format_gap(ns, exact=exact, certain=definitely_before(a, b)), exact


def press_rows(state: CircusState) -> tuple[PressRow, ...]:
    """Counted presses in Tadaa order, then the others by time (the open performance)."""
    verdict = state.verdict()
    perf = state.performance
    if verdict is None or perf is None:
        return ()
    tokens = verdict.tokens or {}
    seats = {p.id: (i, p) for i, p in enumerate(state.players, start=1)}
    ranked = sorted((j for j in verdict.presses if j.rank is not None), key=lambda j: j.rank or 0)
    others = sorted((j for j in verdict.presses if j.rank is None), key=lambda j: j.press.host_ns)
    settled = {p.player for group in settled_ties(state) for p in group}
    rows = []
    previous: JudgedPress | None = None
    for j in [*ranked, *others]:
        seat, player = seats[j.press.player]
        gap, exact = "", False
        if j.rank is not None and previous is not None:
            gap, exact = gap_label(previous.press, j.press)
        if j.tied_with:
            label, style = TOO_CLOSE, "magenta"
        elif j.rank is not None and j.press.player in settled:
            label, style = SETTLED, "cyan"
        else:
            label, style = STATUS_WORDS[j.status], STATUS_COLOURS[j.status]
        rows.append(
            PressRow(
                index=j.index,
                player=j.press.player,
                name=fit_name(player.name),
                seat=seat,
                colour=player.colour,
                place="" if j.rank is None else f"{j.rank}{'=' if j.tied_with else ''}",
                status=j.status,
                label=label,
                style=style,
                time=format_elapsed(j.elapsed_ns) if j.elapsed_ns is not None else "—",
                gap=gap,
                gap_exact=exact,
                token=tokens.get(j.press.player) if j.status == "counted" else None,
                uncertainty="±" + format_ms(j.press.uncertainty_ns),
                keyboard=j.press.source == "keyboard",
                device=j.press.device if j.press.source == "button-box" else None,
                button=j.press.button,
                current_attempt=perf.presses[j.index].attempt == perf.current_index,
            )
        )
        if j.rank is not None:
            previous = j
    return tuple(rows)


def settled_ties(state: CircusState) -> tuple[tuple[Press, ...], ...]:
    """The tie groups of the open performance the host has ordered (``t``), each in
    the host's order: their presses are ranked, no longer too close to call."""
    verdict = state.verdict()
    perf = state.performance
    if verdict is None or perf is None:
        return ()
    firsts = [j.press for j in verdict.presses if j.rank is not None]
    out = []
    for group in tie_groups(firsts):
        players = {p.player for p in group}
        order = next((o for o in reversed(perf.tie_orders) if set(o) == players), None)
        if len(group) > 1 and order is not None:
            out.append(tuple(sorted(group, key=lambda p: order.index(p.player))))
    return tuple(out)


def undecided(state: CircusState) -> tuple[tuple[str, dict[str, object]], ...]:
    """What the host must settle, as (template, params) pairs."""
    verdict = state.verdict()
    if verdict is None:
        return ()
    names = {p.id: fit_name(p.name) for p in state.players}
    out: list[tuple[str, dict[str, object]]] = []
    for item in verdict.undecided:
        kind, _sep, what = item.partition(":")
        if kind == "press":
            j = verdict.presses[int(what)]
            out.append(
                (
                    N_("press #{n} by {name}: inside the music or not?"),
                    {"n": int(what) + 1, "name": names[j.press.player]},
                )
            )
        else:
            # A tuple: joined where it is translated (``、`` in Chinese).
            who = tuple(names[p] for p in what.split(","))
            out.append((N_("who was first among {names}?"), {"names": who}))
    return tuple(out)


# --------------------------------------------------------------------------- the clock


@dataclass(frozen=True)
class ClockView:
    """The countdown at one instant: time left, mode and a label for the players."""

    remaining_ns: int | None
    """``None`` outside a performance; when idle, the length of the music to come."""
    mode: str
    """``idle`` (not started, or aborted), ``running`` or ``ended``."""
    label: str
    """An ``N_`` template."""


def attempt_key(state: CircusState) -> tuple[int, int, int] | None:
    """The open attempt as (act, performance index, attempt index); None if none is open.

    What the music plays for: a key that changes (an undo, an abort, the next
    performer) means the music playing is no longer this attempt's.
    """
    perf = state.performance
    if perf is None or perf.current is None or state.act is None:
        return None
    return (state.act_number, len(state.act.performances) - 1, len(perf.attempts) - 1)


def attempt_of(state: CircusState) -> Attempt | None:
    """The open performance's last attempt (an aborted one included)."""
    perf = state.performance
    return perf.attempts[-1] if perf is not None and perf.attempts else None


def clock_view(state: CircusState, now_ns: int, idle_length_ns: int) -> ClockView:
    """The countdown at ``now_ns``; ``idle_length_ns`` is what the next music lasts."""
    if state.phase != "performance":
        return ClockView(None, "idle", "")
    attempt = attempt_of(state)
    if attempt is None:
        return ClockView(idle_length_ns, "idle", N_("Waiting for the music"))
    if attempt.aborted:
        label = N_("Attempt aborted — the table fell; play again")
        return ClockView(idle_length_ns, "idle", label)
    if attempt.running:
        remaining = attempt.scheduled_end_ns - now_ns
        if remaining <= 0:
            return ClockView(0, "ended", N_("Time! Hands off"))
        return ClockView(remaining, "running", N_("Music playing — build!"))
    left = attempt.scheduled_end_ns - attempt.end_ns
    if attempt.end_reason == "tadaa":
        return ClockView(left, "ended", N_("Tadaa! — music stopped"))
    if attempt.end_reason == "stopped":
        return ClockView(left, "ended", N_("Everyone finished — music stopped"))
    return ClockView(0, "ended", N_("Time! Hands off"))


def clock_text(remaining_ns: int) -> str:
    """``m:ss`` from ten seconds up, ``s.d`` below (tenths matter at the end).

    >>> clock_text(125 * NS_PER_S), clock_text(9_250_000_000), clock_text(-1)
    ('2:05', '9.3', '0.0')
    """
    remaining_ns = max(0, remaining_ns)
    if remaining_ns >= 10 * NS_PER_S:
        seconds = -(-remaining_ns // NS_PER_S)  # round up: "0:10" until it is below ten
        return f"{seconds // 60}:{seconds % 60:02d}"
    tenths = -(-remaining_ns // (NS_PER_S // 10))
    return f"{tenths // 10}.{tenths % 10}"


# --------------------------------------------------------------------------- banner and standings


@dataclass(frozen=True)
class Banner:
    act: int | None
    """``None`` before act 1's first player is chosen and after the game."""
    act_name: str
    phase_name: str
    first_player: str | None
    performer: str | None
    next_to_prepare: str | None
    fun_technical: bool


def banner(state: CircusState) -> Banner:
    names = {p.id: fit_name(p.name) for p in state.players}
    act = state.act
    over = state.phase == "over"
    return Banner(
        act=None if over or act is None else act.number,
        act_name=ACT_NAMES[state.act_number],
        phase_name=PHASE_NAMES[state.phase],
        first_player=names[act.first_player] if act is not None and not over else None,
        performer=names.get(state.performer or ""),
        next_to_prepare=names.get(state.next_to_prepare() or ""),
        fun_technical=state.act_number == 3 and state.fun_technical,
    )


@dataclass(frozen=True)
class StandingRow:
    player: PlayerId
    name: str
    seat: int
    colour: str | None
    per_act: tuple[int | None, int | None, int | None]
    """Each act's evaluation total (``None``: not scored)."""
    this_act: str
    """The open act's points: the evaluation, or ``+2`` for a token not yet scored."""
    total: int
    rank: int
    first_player: bool
    performer: bool
    winner: bool


def standings(state: CircusState, winners: tuple[PlayerId, ...] = ()) -> tuple[StandingRow, ...]:
    """Every player in seating order, with their acts, total and competition rank."""
    totals = state.totals()
    ordered = sorted(totals.values(), reverse=True)
    act = state.act
    verdict = state.verdict()
    live_tokens = (verdict.tokens or {}) if verdict is not None else {}
    rows = []
    for seat, player in enumerate(state.players, start=1):
        per_act: list[int | None] = []
        for number in (1, 2, 3):
            past = next((a for a in state.acts if a.number == number), None)
            score = past.score_of(player.id) if past else None
            per_act.append(score.total if score else None)
        this_act = ""
        if act is not None:
            score = act.score_of(player.id)
            token = act.token_of(player.id) or (
                live_tokens.get(player.id, 0) if act.number in SPEED_TOKEN_ACTS else 0
            )
            if score is not None:
                this_act = str(score.total)
            elif token:
                this_act = f"+{token}"
        rows.append(
            StandingRow(
                player=player.id,
                name=fit_name(player.name),
                seat=seat,
                colour=player.colour,
                per_act=(per_act[0], per_act[1], per_act[2]),
                this_act=this_act,
                total=totals[player.id],
                rank=ordered.index(totals[player.id]) + 1,
                first_player=act is not None
                and act.first_player == player.id
                and state.phase != "over",
                performer=state.performer == player.id,
                winner=player.id in winners,
            )
        )
    return tuple(rows)


def timeline_marks(state: CircusState) -> tuple[tuple[str, int], ...]:
    """(seat label, host time) of every press of the open attempt (the photo finish line)."""
    return tuple(
        (str(r.seat), _host_ns(state, r.index)) for r in press_rows(state) if r.current_attempt
    )


def _host_ns(state: CircusState, index: int) -> int:
    perf = state.performance
    assert perf is not None
    return perf.presses[index].press.host_ns
