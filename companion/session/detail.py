"""One session opened from the history: final state, score progression, timeline.

Design decisions:

* Everything here is computed from the log with the current rules, never stored:
  the score progression is the fold of the *effective* actions (what undo left
  in place) with ``game.scores(state)`` read after each one; rounds/acts are
  grouped by the game's ``progress_label``.
* The timeline shows every entry as it was written: undone actions stay, marked,
  and undo/redo entries name the action they moved.
* A log that no longer replays (a rule was fixed since) is still shown: the
  timeline does not need the rules; the error says which entry fails.
* The photo finish is read from what the log holds: ``press`` actions and raw
  ``hw`` entries, grouped into performances by the action that started each one,
  timed from that start on the host's monotonic clock (or the press's own mapped
  time when the entry carries one). Nothing is assumed about a game beyond that.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import find_game
from companion.rules.base import Game, Outcome, RuleError
from companion.rules.guide import Say
from companion.session.log import ReplayError, Stacks, replay
from companion.session.narrate import Narrator
from companion.session.results import SessionResult, session_results
from companion.session.store import Entry, SessionRow, Store

PRESS_ACTION_TYPES = frozenset({"press", "tadaa"})
"""Action types that record a Tadaa! press (button or key)."""
PRESS_TIME_KEYS = ("host_ns", "mapped_ns", "at_ns", "t_ns", "mono_ns")
"""Payload fields holding a press's time on the host's monotonic clock, best first."""


@dataclass(frozen=True)
class ScoreStep:
    """Scores right after one effective action."""

    seq: int
    label: str
    scores: Mapping[str, float]


@dataclass(frozen=True)
class RoundScores:
    """Cumulative scores at the end of one round/act (as the game labels it)."""

    label: str
    scores: Mapping[str, float]


@dataclass(frozen=True)
class TimelineItem:
    seq: int
    kind: str
    at: str
    mono_ns: int
    payload: Mapping[str, Any]
    undone: bool
    """An action entry that is not in effect at the end of the log."""
    target: int | None
    """For undo/redo: the seq of the action it moved."""
    said: Say | None = None
    """The game guide's sentence for the entry (None where the log does not replay)."""


@dataclass(frozen=True)
class Press:
    seq: int
    kind: str
    player: str | None
    offset_ms: float | None
    """Milliseconds after the performance started (None: no start seen)."""
    payload: Mapping[str, Any]
    undone: bool
    verdict: str = "counted"
    """``counted``, ``voided``, ``false-start``, ``too-late``, ``discarded`` (the attempt
    was aborted), ``undone`` or ``raw`` (a hardware event, never judged here)."""


@dataclass(frozen=True)
class Performance:
    number: int
    start_seq: int | None
    label: str
    """The round/act it belongs to (the group of the game's progress label)."""
    length_ms: float | None
    """The music's length, when the start says it (``length_ns``)."""
    end_ms: float | None
    """When the music stopped or the attempt was aborted, after the start."""
    aborted: bool
    presses: tuple[Press, ...]
    voided: frozenset[int]
    """Seqs of presses the host voided."""


@dataclass(frozen=True)
class SessionDetail:
    row: SessionRow
    result: SessionResult
    entries: tuple[Entry, ...]
    state: Any
    outcome: Outcome | None
    progress: str
    error: str | None
    """Why the log does not replay under the current rules (None when it does)."""
    steps: tuple[ScoreStep, ...]
    rounds: tuple[RoundScores, ...]
    timeline: tuple[TimelineItem, ...]
    performances: tuple[Performance, ...]
    next_step: Say | None
    """What the host was to do next, in the game guide's words (None once it ended)."""

    @property
    def has_scores(self) -> bool:
        return any(step.scores for step in self.steps)


def session_detail(store: Store, session_id: str) -> SessionDetail:
    row = store.session(session_id)
    entries = store.entries(row.id)
    result = session_results(store, [row.id])[0]
    return build_detail(row, entries, result)


def build_detail(row: SessionRow, entries: Sequence[Entry], result: SessionResult) -> SessionDetail:
    timeline = build_timeline(entries)
    undone = {t.seq for t in timeline if t.undone}
    state: Any = None
    outcome: Outcome | None = None
    progress = ""
    error: str | None = None
    steps: list[ScoreStep] = []
    next_step: Say | None = None
    try:
        info = find_game(row.game)
        game = info.load()
        state, outcome = replay(game, row.players, row.options, entries)
        initial = game.setup(row.players, game.stored_options(row.options))
        narrator = Narrator(game, info.guide, initial, row.players)
        timeline = [
            dataclasses.replace(item, said=narrator.feed(entry))
            for item, entry in zip(timeline, entries, strict=True)
        ]
        progress = game.progress_label(state)
        steps = score_steps(game, row, entries)
        guide = info.guide
        if outcome is None and guide is not None:
            next_step = guide.prompt(state)
    except ReplayError as exc:
        error = str(exc)
    except RuleError as exc:
        error = str(exc)
    return SessionDetail(
        row=row,
        result=result,
        entries=tuple(entries),
        state=state,
        outcome=outcome,
        progress=progress,
        error=error,
        steps=tuple(steps),
        rounds=tuple(round_scores(steps)),
        timeline=tuple(timeline),
        performances=tuple(
            performances(entries, undone, row, {st.seq: round_key(st.label) for st in steps})
        ),
        next_step=next_step,
    )


def _numbers(scores: Mapping[str, Any]) -> dict[str, float]:
    return {pid: float(v) for pid, v in scores.items()}


def score_steps(game: Game[Any], row: SessionRow, entries: Sequence[Entry]) -> list[ScoreStep]:
    """Fold the effective actions; record ``game.scores`` after each."""
    stacks = Stacks.empty()
    for entry in entries:
        stacks.push(entry)
    state = game.setup(row.players, game.stored_options(row.options))
    steps = [ScoreStep(0, game.progress_label(state), _numbers(game.scores(state)))]
    for entry in stacks.done:
        state = game.apply(state, game.parse_action(entry.payload))
        steps.append(ScoreStep(entry.seq, game.progress_label(state), _numbers(game.scores(state))))
    return steps


def round_key(label: str) -> str:
    """The round/act part of a progress label: ``"act 2, evaluation"`` → ``"act 2"``."""
    return label.split(",", 1)[0].strip()


def round_scores(steps: Sequence[ScoreStep]) -> list[RoundScores]:
    """The scores standing when each round/act closed.

    The step that moves the label on is the one that closes the round, so the round's
    row holds the scores after it: the score pad's ``close-round`` changes no score,
    but Meeple Circus's last evaluation both scores and ends the game, and its points
    belong to act 3. The last label is added only if its scores differ from the
    previous round's (closing the last round moves the label on, to "game over").
    """
    out: list[RoundScores] = []
    closed: set[str] = set()
    for prev, step in itertools.pairwise(steps):
        if round_key(step.label) != round_key(prev.label) and prev.label:
            if round_key(step.label) in closed:
                # Back to a closed round: an ended score pad names its last round played
                # (not the empty one after it), which closes nothing.
                continue
            closed.add(round_key(prev.label))
            out.append(RoundScores(round_key(prev.label), step.scores))
    if steps:
        last = steps[-1]
        changed = not out or dict(out[-1].scores) != dict(last.scores)
        if changed and (any(last.scores.values()) or out):
            out.append(RoundScores(round_key(last.label), last.scores))
    return [r for r in out if r.scores]


def build_timeline(entries: Sequence[Entry]) -> list[TimelineItem]:
    stacks = Stacks.empty()
    targets: dict[int, int] = {}
    for entry in entries:
        if entry.kind == "undo" and stacks.done:
            targets[entry.seq] = stacks.done[-1].seq
        elif entry.kind == "redo" and stacks.undone:
            targets[entry.seq] = stacks.undone[-1].seq
        if stacks.push(entry):
            break  # a broken log: the rest is shown, unmarked
    effective = {e.seq for e in stacks.done}
    return [
        TimelineItem(
            seq=e.seq,
            kind=e.kind,
            at=e.at,
            mono_ns=e.mono_ns,
            payload=e.payload,
            undone=e.kind == "action" and e.seq not in effective,
            target=targets.get(e.seq),
        )
        for e in entries
    ]


LINK_FACTS = ("tadaa-link", "tadaa-lost")
"""Raw entries that are the link's own facts (for a restart), not presses."""


def _is_press(entry: Entry) -> bool:
    if entry.kind == "hw":
        return entry.payload.get("kind") not in LINK_FACTS
    return entry.kind == "action" and entry.payload.get("type") in PRESS_ACTION_TYPES


def _is_start(entry: Entry) -> bool:
    """An action that starts a performance (``start-performance``, ``start-music``…)."""
    if entry.kind != "action":
        return False
    kind = str(entry.payload.get("type", ""))
    return kind.startswith("start") and any(
        w in kind for w in ("perform", "music", "track", "timer", "show")
    )


def _press_time(entry: Entry) -> int:
    for key in PRESS_TIME_KEYS:
        value = entry.payload.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return entry.mono_ns


def performances(
    entries: Sequence[Entry],
    undone: set[int],
    row: SessionRow,
    labels: Mapping[int, str] | None = None,
) -> list[Performance]:
    """Presses grouped by the performance they belong to (empty if the log has none).

    ``labels`` maps an action's seq to the round/act it was played in.
    """
    pids = {p.id for p in row.players}
    groups: list[dict[str, Any]] = []

    def open_group(start: Entry | None) -> dict[str, Any]:
        group: dict[str, Any] = {
            "start": start,
            "presses": [],
            "end": None,
            "aborted": False,
            "void_index": [],
            "settled": {},
        }
        groups.append(group)
        return group

    current: dict[str, Any] | None = None
    for entry in entries:
        kind = entry.payload.get("type") if entry.kind == "action" else None
        # An undone start/end/void did not happen; an undone press is still shown.
        if entry.kind == "action" and entry.seq in undone and kind not in PRESS_ACTION_TYPES:
            continue
        if _is_start(entry):
            current = open_group(entry)
        elif _is_press(entry):
            if current is None:
                current = open_group(None)
            current["presses"].append(entry)
        elif current is not None and kind in ("end-performance", "abort-performance"):
            current["end"] = entry
            current["aborted"] = kind == "abort-performance"
        elif current is not None and kind == "void-press":
            index = entry.payload.get("index")
            if isinstance(index, int):
                current["void_index"].append(index)
        elif current is not None and kind == "settle-press":
            index, counted_flag = entry.payload.get("index"), entry.payload.get("counted")
            if isinstance(index, int) and isinstance(counted_flag, bool):
                current["settled"][index] = counted_flag
    out: list[Performance] = []
    for group in groups:
        start: Entry | None = group["start"]
        presses: list[Entry] = group["presses"]
        if not presses and start is None:
            continue
        origin = _press_time(start) if start is not None else None
        end: Entry | None = group["end"]
        end_ms = _press_time(end) / 1e6 - origin / 1e6 if end and origin is not None else None
        length = start.payload.get("length_ns") if start is not None else None
        length_ms = length / 1e6 if isinstance(length, int) else None
        # Presses count until the music ends: its natural end, or earlier if stopped.
        limit = length_ms
        if end_ms is not None and not group["aborted"] and (limit is None or end_ms < limit):
            limit = end_ms
        # The rules number a performance's presses in log order, undone ones dropped.
        recorded = [e for e in presses if e.kind == "action" and e.seq not in undone]
        number_of = {e.seq: i for i, e in enumerate(recorded)}
        voided = frozenset(recorded[i].seq for i in group["void_index"] if 0 <= i < len(recorded))
        items = []
        for e in presses:
            player = next(
                (
                    v
                    for k in ("player", "pid")
                    if isinstance(v := e.payload.get(k), str) and v in pids
                ),
                None,
            )
            offset = (_press_time(e) - origin) / 1e6 if origin is not None else None
            unc = e.payload.get("uncertainty_ns")
            verdict = _verdict(
                e.kind,
                e.seq in undone,
                bool(group["aborted"]),
                e.seq in voided,
                offset,
                limit,
                unc / 1e6 if isinstance(unc, int) else 0.0,
                group["settled"].get(number_of.get(e.seq, -1)),
            )
            items.append(
                Press(
                    seq=e.seq,
                    kind=e.kind,
                    player=player,
                    offset_ms=offset,
                    payload=e.payload,
                    undone=e.seq in undone,
                    verdict=verdict,
                )
            )
        items.sort(key=lambda p: (p.offset_ms is None, p.offset_ms or 0.0, p.seq))
        # A player's second and later counted presses are logged with no effect.
        seen: set[str] = set()
        for i, item in enumerate(items):
            if item.verdict == "counted" and item.player is not None:
                if item.player in seen:
                    items[i] = dataclasses.replace(item, verdict="repeat")
                seen.add(item.player)
        out.append(
            Performance(
                number=len(out) + 1,
                start_seq=start.seq if start else None,
                label=(labels or {}).get(start.seq, "") if start else "",
                length_ms=length_ms,
                end_ms=end_ms,
                aborted=bool(group["aborted"]),
                presses=tuple(items),
                voided=voided,
            )
        )
    return out


def _verdict(
    kind: str,
    undone: bool,
    aborted: bool,
    voided: bool,
    offset: float | None,
    limit: float | None,
    uncertainty: float,
    settled: bool | None,
) -> str:
    """How a press stands, read from the log the way the rules judged it.

    A press within its uncertainty of the music's start or end is ``uncertain``
    until the host settles it (``settle-press``): never silently decided.
    """
    if kind == "hw":
        return "raw"
    if undone:
        return "undone"
    if aborted:
        return "discarded"
    if voided:
        return "voided"
    if offset is None:
        return "counted"
    near_start = abs(offset) <= uncertainty
    near_end = limit is not None and abs(offset - limit) <= uncertainty
    if settled is not None:
        if settled:
            return "counted"
        return "false-start" if near_start or offset < 0 else "too-late"
    if uncertainty and (near_start or near_end):
        return "uncertain"
    if offset < 0:
        return "false-start"
    if limit is not None and offset > limit:
        return "too-late"
    return "counted"
