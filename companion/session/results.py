"""Each session's result, read from the store: the rows of the history and of exports.

Design decisions:

* A result is derived, never stored apart: it is read from the session row (its
  outcome JSON was written in the same transaction as the entry that ended the
  game) plus two cheap look-ups in the log (the last entry's time, for the
  duration of unfinished sessions; the first action, for the start player).
* Game-agnostic: winners, scores and sides come from the ``Outcome`` JSON every
  game writes. A game without points (喵喵咪呀) has empty scores: winners rank 1
  and everyone else shares the next rank.
* Players are identified across sessions by name, compared case-insensitively
  (the roster's rule), because ids ``p1``… only mean a seat within one session.
* Dates: the store keeps UTC; filters take local calendar dates (what a host
  types) and turn them into UTC bounds.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from fractions import Fraction
from functools import cache
from typing import Any

from companion.games import find_game
from companion.rules.base import RuleError
from companion.session.store import (
    CHANGED,
    NOT_UTF8,
    DamagedError,
    Store,
    db_problem,
    setup_damaged,
    text_is_damaged,
)


def player_key(name: str) -> str:
    """How a player is recognised across sessions: the name, case-insensitive."""
    return name.strip().casefold()


def parse_time(iso: str) -> datetime:
    """A stored ISO 8601 time as an aware datetime (UTC if it carries no zone)."""
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment


def local_time(iso: str, tz: tzinfo | None = None) -> datetime:
    """``iso`` in ``tz`` (default: this machine's local zone)."""
    return parse_time(iso).astimezone(tz)


def score_value(value: Any) -> float | None:
    """A score from outcome JSON (int, float or ``"3/2"``) as a number."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        try:
            return float(Fraction(value))
        except (ValueError, ZeroDivisionError):
            return None
    return None


@dataclass(frozen=True)
class PlayerResult:
    pid: str
    name: str
    seat: int
    """1-based seat in the session's seating order."""
    side: str | None
    score: int | float | str | None
    """As in the outcome JSON (a ``"3/2"`` string for fractions); None if unfinished."""
    rank: int | None
    winner: bool
    start_player: bool

    @property
    def key(self) -> str:
        return player_key(self.name)

    @property
    def value(self) -> float | None:
        return score_value(self.score)


@dataclass(frozen=True)
class SessionResult:
    id: str
    game: str
    status: str
    started_at: str
    ended_at: str | None
    last_at: str | None
    players: tuple[PlayerResult, ...]
    outcome: Mapping[str, Any] | None
    title: str | None = None
    """The name the host gave the game played (the score pad's "Carcassonne"), if any."""

    @property
    def finished(self) -> bool:
        return self.status == "finished" and self.outcome is not None

    @property
    def game_key(self) -> str:
        """What statistics group by: the game, and the host's name for it where the game
        takes one (every score-pad game its own: "scorepad:carcassonne"), case-folded."""
        return game_key(self.game, self.title)

    @property
    def game_label(self) -> str:
        """The game's name as exports write it: the host's title, else the game's English
        name (BG Stats matches plays by it), else the id of a game this version lacks."""
        if self.title:
            return self.title
        try:
            return find_game(self.game).name("en")
        except RuleError:
            return self.game

    @property
    def incomplete(self) -> bool:
        """Game over, but an entry is still to come (the Undercover after a Police win):
        the outcome is provisional and the session unfinished (``is_finished``)."""
        return self.status == "active" and self.outcome is not None

    @property
    def has_scores(self) -> bool:
        return bool(self.outcome and self.outcome.get("scores"))

    @property
    def highest_wins(self) -> bool:
        return bool(self.outcome.get("highest_wins", True)) if self.outcome else True

    @property
    def summary(self) -> str:
        return str(self.outcome.get("summary", "")) if self.outcome else ""

    @property
    def termination(self) -> str:
        return str(self.outcome.get("termination", "")) if self.outcome else ""

    @property
    def winners(self) -> tuple[PlayerResult, ...]:
        return tuple(p for p in self.players if p.winner)

    @property
    def duration_s(self) -> float:
        """Start to end (unfinished: to the last entry); 0 for an empty log."""
        end = self.ended_at or self.last_at
        if not end:
            return 0.0
        return max(0.0, (parse_time(end) - parse_time(self.started_at)).total_seconds())

    def player(self, name: str) -> PlayerResult | None:
        key = player_key(name)
        for p in self.players:
            if p.key == key:
                return p
        return None


def game_key(game: str, title: str | None) -> str:
    """``game``, or ``game:title`` (case-folded) for a game the host named."""
    return f"{game}:{player_key(title)}" if title else game


def ranks_from_outcome(outcome: Mapping[str, Any], pids: Sequence[str]) -> dict[str, int]:
    """Competition ranks ("1224") by score; winners rank 1.

    Without scores (a team game: Meowfia, Shadow Cats) there
    is no order among the losers: they share rank 2, the one place after the winners
    (five winning Meowfia and three losing police are 1 and 2, not 1 and 6: the
    losers did not come sixth). docs/history.md."""
    winners = set(outcome.get("winners", ()))
    scores = {pid: score_value(v) for pid, v in dict(outcome.get("scores") or {}).items()}
    scored = {pid: v for pid, v in scores.items() if v is not None}
    if not scored:
        return {pid: 1 if pid in winners or not winners else 2 for pid in pids}
    highest = bool(outcome.get("highest_wins", True))
    ordered = sorted(scored.items(), key=lambda kv: kv[1], reverse=highest)
    ranks: dict[str, int] = {}
    previous: float | None = None
    rank = 0
    for index, (pid, value) in enumerate(ordered, start=1):
        if value != previous:
            rank, previous = index, value
        ranks[pid] = rank
    for pid in winners:
        ranks[pid] = 1
    last = len(ordered) + 1
    for pid in pids:
        ranks.setdefault(pid, last)
    return ranks


def build_result(
    sid: str,
    game: str,
    players_json: str,
    started: str,
    ended: str | None,
    outcome_json: str | None,
    status: str,
    last_at: str | None,
    starter: Any,
    options_json: str | None = None,
    crc: int | None = None,
) -> SessionResult:
    """One result from a row of ``_select()`` (``starter``: the first action's start player).

    ``DamagedError`` if the stored JSON cannot be read (a damaged page), or the
    setup columns are not what was written (their checksum, or bytes not UTF-8).
    """
    if options_json is not None and setup_damaged(
        sid, game, options_json, players_json, started, crc
    ):
        raise DamagedError(str(sid), "game/options/players/started_at", CHANGED)
    if text_is_damaged(outcome_json, ended, last_at):
        raise DamagedError(str(sid), "outcome/ended_at", NOT_UTF8)
    try:
        players = [(str(p["id"]), str(p["name"])) for p in json.loads(players_json)]
        outcome = json.loads(outcome_json) if outcome_json else None
        if outcome is not None and not isinstance(outcome, dict):
            raise TypeError("outcome")
        parse_time(started)
        options = json.loads(options_json) if options_json else {}
    except (ValueError, TypeError, KeyError, RecursionError) as exc:
        raise DamagedError(str(sid), "players/outcome/started_at", str(exc)) from None
    finished = status == "finished" and outcome is not None
    ranks = (
        ranks_from_outcome(outcome, [pid for pid, _n in players]) if finished and outcome else {}
    )
    sides = dict(outcome.get("sides") or {}) if outcome else {}
    scores = dict(outcome.get("scores") or {}) if outcome else {}
    winners = set(outcome.get("winners", ())) if finished and outcome else set()
    results = tuple(
        PlayerResult(
            pid=pid,
            name=name,
            seat=i,
            side=sides.get(pid),
            score=scores.get(pid) if finished else None,
            rank=ranks.get(pid),
            winner=pid in winners,
            start_player=pid == starter,
        )
        for i, (pid, name) in enumerate(players, start=1)
    )
    return SessionResult(
        id=sid,
        game=game,
        status=status,
        started_at=started,
        ended_at=ended,
        last_at=last_at,
        players=results,
        outcome=outcome,
        title=session_title(game, options if isinstance(options, dict) else {}),
    )


def session_title(game: str, options: Mapping[str, Any]) -> str | None:
    """The host's name for the game played, from the game's guide (None if it has none)."""
    try:
        guide = find_game(game).guide
    except RuleError:  # a game this version does not know
        return None
    return guide.title(options) if guide is not None and isinstance(options, Mapping) else None


# --------------------------------------------------------------------------- queries


@dataclass(frozen=True)
class HistoryFilter:
    """What the history shows. Dates are local calendar days, both ends included."""

    game: str | None = None
    player: str | None = None
    since: date | None = None
    until: date | None = None
    status: str | None = None

    def is_empty(self) -> bool:
        return not (self.game or self.player or self.since or self.until or self.status)


def parse_day(text: str) -> date:
    """``YYYY-MM-DD`` → date, or ``ValueError`` with a message a host can act on."""
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text!r} is not a date like 2026-11-29.") from None


def utc_bound(day: date, tz: tzinfo | None = None) -> str:
    """Local midnight starting ``day`` as the store's UTC text (comparable as strings)."""
    local = datetime.combine(day, time(0, 0))
    aware = local.replace(tzinfo=tz) if tz is not None else local.astimezone()
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")


def _starter_sql() -> str:
    """The start player of ``s``, from the log entry each game's guide names
    (``Guide.start_player_entries``: action types and fields) — no key is guessed.
    Of those still in effect the first or the last counts, as the guide says."""
    from companion.games import GAMES

    kinds, fields, last = [], [], []
    for info in GAMES:
        guide = info.guide
        entries = guide.start_player_entries if guide is not None else ()
        if not entries:
            continue
        listed = ", ".join(f"'{kind}'" for kind, _name in entries)
        kinds.append(f"WHEN '{info.id}' THEN json_extract(e.payload, '$.type') IN ({listed})")
        by_type = " ".join(f"WHEN '{kind}' THEN '$.{name}'" for kind, name in entries)
        fields.append(f"WHEN '{info.id}' THEN CASE json_extract(e.payload, '$.type') {by_type} END")
        if guide is not None and guide.start_player_from == "last":
            last.append(info.id)
    if not kinds:
        return "NULL"
    # In effect = undone as often as redone (undo and redo entries name their target).
    in_effect = (
        "(SELECT count(*) FROM entries u WHERE u.session_id = s.id AND u.kind = 'undo' "
        "AND json_valid(u.payload) AND json_extract(u.payload, '$.undoes') = e.seq) = "
        "(SELECT count(*) FROM entries r WHERE r.session_id = s.id AND r.kind = 'redo' "
        "AND json_valid(r.payload) AND json_extract(r.payload, '$.redoes') = e.seq)"
    )
    # A damaged payload (not JSON) must not make the whole history query fail
    # ("malformed JSON"): it reads as NULL here, and the integrity check names it.
    payload = "(CASE WHEN json_valid(e.payload) THEN e.payload END)"

    def pick(direction: str) -> str:
        return (
            f"(SELECT json_extract({payload}, CASE s.game " + " ".join(fields) + " END) "
            "FROM entries e WHERE e.session_id = s.id AND e.kind = 'action' "
            "AND CASE s.game " + " ".join(kinds).replace("e.payload", payload) + " ELSE 0 END "
            f"AND {in_effect} ORDER BY e.seq {direction} LIMIT 1)"
        )

    if not last:
        return pick("ASC")
    # SQLite cannot order a correlated sub-select by the outer row: one of each.
    listed = ", ".join(f"'{game}'" for game in last)
    return f"CASE WHEN s.game IN ({listed}) THEN {pick('DESC')} ELSE {pick('ASC')} END"


@cache
def _select() -> str:
    """The history's one query (built on first use: it asks every game's guide)."""
    return (
        "SELECT s.id, s.game, s.players, s.started_at, s.ended_at, s.outcome, s.status, "
        "(SELECT e.at FROM entries e WHERE e.session_id = s.id ORDER BY e.seq DESC LIMIT 1), "
        f"{_starter_sql()}, "
        "s.options, s.crc "
        "FROM sessions s"
    )


def filter_sql(store: Store, flt: HistoryFilter, tz: tzinfo | None) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause (on ``sessions s``) and its arguments for ``flt``."""
    return _where(store, flt, tz)


def _where(store: Store, flt: HistoryFilter, tz: tzinfo | None) -> tuple[str, list[Any]]:
    where: list[str] = []
    args: list[Any] = []
    if flt.game:
        game = flt.game
        with contextlib.suppress(RuleError):  # an unknown id is matched as written
            game = find_game(flt.game).id
        where.append("s.game = ?")
        args.append(game)
    if flt.status:
        where.append("s.status = ?")
        args.append(flt.status)
    if flt.since:
        where.append("s.started_at >= ?")
        args.append(utc_bound(flt.since, tz))
    if flt.until:
        where.append("s.started_at < ?")
        args.append(utc_bound(flt.until + timedelta(days=1), tz))
    if flt.player:
        # The summary keeps each seat's name case-folded by Python (``player_key``), so
        # non-ASCII names match case-insensitively, through an index, no JSON read.
        where.append(
            "EXISTS (SELECT 1 FROM summary_seats f WHERE f.session_id = s.id AND f.player_key = ?)"
        )
        args.append(player_key(flt.player))
    return (" WHERE " + " AND ".join(where)) if where else "", args


def query_ids(
    store: Store, flt: HistoryFilter | None = None, tz: tzinfo | None = None
) -> list[str]:
    """Ids of the sessions matching ``flt``, newest first (cheap: no JSON is read)."""
    where, args = _where(store, flt or HistoryFilter(), tz)
    sql = "SELECT s.id FROM sessions s" + where + " ORDER BY s.started_at DESC, s.id"
    return [sid for (sid,) in store.conn.execute(sql, args)]


def query_results(
    store: Store,
    flt: HistoryFilter | None = None,
    tz: tzinfo | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[SessionResult]:
    """Sessions matching ``flt``, newest first (``limit``/``offset`` for paging)."""
    where, args = _where(store, flt or HistoryFilter(), tz)
    order = " ORDER BY s.started_at DESC, s.id"
    if limit:
        # Page first, then look into the log: SQLite would otherwise compute the
        # per-session sub-selects for every matching row before sorting.
        page = f"SELECT s.* FROM sessions s{where}{order} LIMIT {int(limit)} OFFSET {int(offset)}"
        sql = _select().replace("FROM sessions s", f"FROM ({page}) s") + order
    else:
        sql = _select() + where + order
    out = []
    try:
        for row in store.conn.execute(sql, args):
            try:
                out.append(build_result(*row))
            except DamagedError as exc:  # listed apart by ``companion check``; the rest is shown
                store.damaged[exc.session_id] = exc
    except sqlite3.DatabaseError as exc:  # a page SQLite cannot read: what was read is shown
        store.unreadable = db_problem(exc)
    return out


def count_results(store: Store, flt: HistoryFilter | None = None, tz: tzinfo | None = None) -> int:
    """How many sessions match ``flt`` (one SQL count)."""
    where, args = _where(store, flt or HistoryFilter(), tz)
    row = store.conn.execute("SELECT count(*) FROM sessions s" + where, args).fetchone()
    return int(row[0])


BULK = 200
"""From this many ids on, one scan of all sessions beats one query per id."""


def session_results(store: Store, session_ids: Sequence[str]) -> list[SessionResult]:
    """Results of the given sessions, in the given order (ids or unique prefixes)."""
    if len(session_ids) >= BULK:
        by_id = {row[0]: row for row in store.conn.execute(_select())}
        out = []
        for sid in session_ids:
            row = by_id.get(sid)
            if row is None:
                row = by_id[store.session(sid).id]  # a prefix; StoreError if unknown
            out.append(build_result(*row))
        return out
    results = []
    for sid in session_ids:
        full = store.session(sid).id  # accepts a unique prefix; StoreError if unknown
        found = store.conn.execute(_select() + " WHERE s.id = ?", (full,)).fetchone()
        results.append(build_result(*found))
    return results


def player_names(store: Store) -> list[str]:
    """Every player name in the history (first spelling seen), sorted."""
    seen: dict[str, str] = {}
    for key, name in store.conn.execute(
        "SELECT player_key, min(name) FROM summary_seats GROUP BY player_key"
    ):
        if isinstance(name, str):
            seen.setdefault(key, name)
    return sorted(seen.values(), key=str.casefold)


def games_played(store: Store) -> list[str]:
    return [g for (g,) in store.conn.execute("SELECT DISTINCT game FROM sessions ORDER BY game")]
