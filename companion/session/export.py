"""Sessions out of and back into the store: the replayable JSON format, CSV, BG Stats.

Design decisions:

* The JSON document (format ``companion-session``, documented in
  ``docs/formats/session-json.md``) is the *log*, not a summary: game, options,
  players and every entry exactly as stored. The outcome in it is informative;
  ``replay`` and ``import`` recompute it with the current rules, because the log is
  the truth and the rules may have been fixed since.
* Parsing is strict and names the place of every problem
  (``sessions[2].entries[5].seq: expected a whole number``): a file that is not this
  format is refused before anything is replayed or written.
* Import is all-or-nothing per file: every session is replayed first, and only when
  all of them replay is the file inserted, in one transaction
  (``Store.import_sessions``). A session already present (same uuid) is skipped.
* CSV and BG Stats are views for other programs. They are built from the stored
  outcome (written in the same transaction as the entry that ended the game), so
  exporting 10,000 sessions needs no replay. Unfinished sessions have no score,
  rank or winner in CSV and are not sent to BG Stats, which records finished plays.
* Every file is written atomically: a temporary file in the same folder, fsync,
  then ``os.replace``. A reader never sees half a file; a path that cannot be
  written is an ``ExportError`` with a message that says why. The JSON of many
  sessions is streamed (``export_file``): read, checked and written ``CHUNK``
  sessions at a time, each checked once, never the whole document in memory.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import gc
import io
import json
import os
import re
import sqlite3
import tempfile
import threading
import urllib.parse
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, tzinfo
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from companion import __version__
from companion.games import find_game
from companion.rules.base import N_, Outcome, Player, RuleError
from companion.session.log import ReplayError, is_finished, replay
from companion.session.results import (
    SessionResult,
    local_time,
    parse_time,
    session_results,
    session_title,
)
from companion.session.store import (
    ENTRY_KINDS,
    DamagedError,
    Entry,
    SessionRow,
    Store,
    StoreError,
)

FORMAT_NAME = "companion-session"
MULTI_FORMAT_NAME = "companion-sessions"
FORMAT_VERSION = 1
GENERATOR = "companion"
#: The release that wrote an export (informative: readers decide by ``version``).
APP_VERSION = __version__
STATUSES = ("active", "finished", "abandoned")

BGSTATS_SOURCE_NAME = "Tabletop Companion"
BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html"
BGSTATS_APP_URL = "bgstats://app.bgstatsapp.com/createPlay.html"

CSV_COLUMNS = (
    "session_id",
    "date",
    "game",
    "game_id",
    "status",
    "player",
    "seat",
    "side",
    "score",
    "rank",
    "winner",
)


class ExportError(Exception):
    """A file cannot be read, parsed or written; the message says which and why.

    Like ``RuleError``, the message is an English template (marked ``N_``) with
    parameters; ``render(_)`` gives it in the host's language, ``str()`` in English.
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(self.render())

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        text = gettext(self.template) if gettext is not None else self.template
        params = {
            k: (v.render(gettext) if isinstance(v, RuleError | ExportError) else v)
            for k, v in self.params.items()
        }
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return self.template.format(**params)


_MUST_BE_OBJECT = N_("{source}: {where} must be an object.")
_EXPECTED: dict[type, str] = {
    str: N_("{source}: {where}: expected text."),
    int: N_("{source}: {where}: expected a whole number."),
    dict: N_("{source}: {where}: expected an object."),
    list: N_("{source}: {where}: expected a list."),
}


class ImportRefused(ExportError):
    """A session of an import file does not replay under the current rules.

    ``session_id``, ``index`` (0-based entry index, -1 for the setup) and ``reason``
    say exactly where; nothing of the file was imported.
    """

    def __init__(self, session_id: str, index: int, seq: int, reason: RuleError | str) -> None:
        if index < 0:
            super().__init__(
                N_(
                    "Session {session} was not imported, nor anything else from "
                    "this file: its setup does not start under the current "
                    "rules: {reason}"
                ),
                session=session_id,
                reason=reason,
            )
        else:
            super().__init__(
                N_(
                    "Session {session} was not imported, nor anything else from "
                    "this file: entry {index} (seq {seq}) does not replay: "
                    "{reason}"
                ),
                session=session_id,
                index=index,
                seq=seq,
                reason=reason,
            )
        self.session_id = session_id
        self.index = index
        self.seq = seq
        self.reason = reason


# --------------------------------------------------------------------------- writing JSON


def entry_to_json(entry: Entry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "kind": entry.kind,
        "payload": entry.payload,
        "at": entry.at,
        "mono_ns": entry.mono_ns,
    }


def session_document(
    row: SessionRow, entries: Sequence[Entry], exported_at: str | None = None
) -> dict[str, Any]:
    """One session as a self-describing ``companion-session`` document."""
    doc: dict[str, Any] = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "generator": GENERATOR,
        "app_version": APP_VERSION,
    }
    if exported_at is not None:
        doc["exported_at"] = exported_at
    doc.update(
        {
            "id": row.id,
            "game": row.game,
            "title": session_title(row.game, row.options),
            "options": row.options,
            "players": [p.to_json() for p in row.players],
            "started_at": row.started_at,
            "ended_at": row.ended_at,
            "status": row.status,
            "outcome": row.outcome,
            "entries": [entry_to_json(e) for e in entries],
        }
    )
    return doc


def sessions_document(
    items: Iterable[tuple[SessionRow, Sequence[Entry]]], exported_at: str | None = None
) -> dict[str, Any]:
    """Many sessions: ``{"format": "companion-sessions", "sessions": [<session>, ...]}``.

    Each element is itself a complete ``companion-session`` document.
    """
    doc: dict[str, Any] = {
        "format": MULTI_FORMAT_NAME,
        "version": FORMAT_VERSION,
        "generator": GENERATOR,
        "app_version": APP_VERSION,
    }
    if exported_at is not None:
        doc["exported_at"] = exported_at
    doc["sessions"] = [session_document(row, entries) for row, entries in items]
    return doc


def dumps_document(doc: Mapping[str, Any]) -> str:
    """UTF-8 JSON text (Chinese names stay readable), newline-terminated.

    One session is indented for people; a many-session document puts one compact
    session per line, which stays readable with ``grep`` and is several times
    faster to write for a large history.
    """
    if doc.get("format") != MULTI_FORMAT_NAME:
        return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"
    head = {k: v for k, v in doc.items() if k != "sessions"}
    lines = [json.dumps(s, ensure_ascii=False, separators=(",", ":")) for s in doc["sessions"]]
    opening = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    body = ",\n".join(lines)
    return (
        f'{opening},\n "sessions": [\n{body}\n ]\n}}\n'
        if lines
        else (f'{opening},\n "sessions": []\n}}\n')
    )


_ROW_SQL = "SELECT id, game, options, players, started_at, ended_at, outcome, status FROM sessions"
_ENTRY_SQL = "SELECT seq, kind, payload, at, mono_ns FROM entries"


def sessions_json_text(
    store: Store, session_ids: Sequence[str], exported_at: str | None = None
) -> str:
    """The many-session document, built from the stored JSON text without re-parsing it.

    Same content as ``dumps_document(sessions_document(...))``: the store keeps
    options, players, outcome and payloads as compact JSON already, so they are
    copied as they are (a large history exports several times faster).
    """
    return "".join(sessions_json_chunks(store, session_ids, exported_at))


CHUNK = 200
"""Sessions read from the store at a time by a streamed export."""


def sessions_json_chunks(
    store: Store,
    session_ids: Sequence[str],
    exported_at: str | None = None,
    check: Callable[[str], bool] | None = None,
) -> Iterator[str]:
    """The many-session document in pieces, ``CHUNK`` sessions read at a time: an export
    of everything is written as it is read, never held whole in memory.

    ``check(sid)`` is asked before each session is written (the export's check that
    it imports back); False leaves it out.
    """
    head: dict[str, Any] = {
        "format": MULTI_FORMAT_NAME,
        "version": FORMAT_VERSION,
        "generator": GENERATOR,
        "app_version": APP_VERSION,
    }
    if exported_at is not None:
        head["exported_at"] = exported_at
    opening = json.dumps(head, ensure_ascii=False, indent=1)[:-2]
    yield f'{opening},\n "sessions": ['
    dumps = json.dumps
    first = True
    for start in range(0, len(session_ids), CHUNK):
        # Full ids (a unique prefix is accepted; an unknown id raises StoreError). An
        # id the listing read but no row answers (a flipped byte in the row's id: its
        # index still holds the old one) is the check's to name, not a refusal of the
        # whole export: with ``skip_damaged`` it is left out and named.
        ids = []
        rows: dict[str, Any] = {}
        for sid in session_ids[start : start + CHUNK]:
            row = store.conn.execute(_ROW_SQL + " WHERE id = ?", (sid,)).fetchone()
            if row is None:
                if check is not None and not check(sid):
                    continue
                sid = store.session(sid).id
                row = store.conn.execute(_ROW_SQL + " WHERE id = ?", (sid,)).fetchone()
            rows[sid] = row
            ids.append(sid)
        for sid in ids:
            if check is not None and not check(sid):
                continue
            # Each session's entries by its id, as the check read them (``Store.entries``):
            # the session_id *column* is not read. One IN query grouped by that column
            # raised KeyError, or dropped entries without a word, where a flipped byte
            # had changed it under an index that still holds the old value.
            entries = [
                f'{{"seq":{seq},"kind":{dumps(kind)},"payload":{payload},'
                f'"at":{dumps(at)},"mono_ns":{mono_ns}}}'
                for seq, kind, payload, at, mono_ns in store.conn.execute(
                    _ENTRY_SQL + " WHERE session_id = ? ORDER BY seq", (sid,)
                )
            ]
            _id, game, options, players, started, ended, outcome, status = rows[sid]
            title = _stored_title(game, options)
            yield (
                ("\n" if first else ",\n")
                + f'{{"format":"{FORMAT_NAME}","version":{FORMAT_VERSION},'
                f'"generator":"{GENERATOR}","app_version":{dumps(APP_VERSION)},'
                f'"id":{dumps(sid, ensure_ascii=False)},'
                f'"game":{dumps(game)},"title":{dumps(title, ensure_ascii=False)},'
                f'"options":{options},"players":{players},'
                f'"started_at":{dumps(started)},"ended_at":{dumps(ended)},'
                f'"status":{dumps(status)},"outcome":{outcome or "null"},'
                f'"entries":[{",".join(entries)}]}}'
            )
            first = False
    yield "]\n}\n" if first else "\n ]\n}\n"


def _stored_title(game: str, options_text: str) -> str | None:
    """The host's name for the game (``session_title``) from stored options text."""
    try:
        options = json.loads(options_text)
    except ValueError:  # damaged: check_exportable names it before anything is written
        return None
    return session_title(game, options) if isinstance(options, dict) else None


def load_sessions(store: Store, session_ids: Sequence[str]) -> list[tuple[SessionRow, list[Entry]]]:
    rows = [store.session(sid) for sid in session_ids]
    return [(row, store.entries(row.id)) for row in rows]


# --------------------------------------------------------------------------- reading JSON


@dataclass(frozen=True)
class ExportFile:
    """What an export file holds: its sessions, and whether it is the many-session form."""

    multi: bool
    sessions: list[tuple[SessionRow, list[Entry]]]
    refused: list[ExportError] = field(default_factory=list)
    """With ``skip_bad``: the sessions of the file that could not be read, with why."""


def parse_document(text: str, source: str = "the file") -> list[tuple[SessionRow, list[Entry]]]:
    """The sessions in an export file, or ``ExportError`` saying where it is wrong."""
    return parse_export(text, source).sessions


MAX_DEPTH = 64
"""Deepest nesting of lists and objects an import file may have (ours reach about 8)."""
MAX_DIGITS = 40
"""Longest integer an import file may write (64-bit needs 19 digits)."""
MAX_TEXT = 1_000_000
"""Longest text value in an import file (a Shadow Cats roster rides in a payload)."""
MAX_NAME = 1_000
"""Longest player id, name, colour or birth date."""
INT64 = 2**63
MAX_ID = 100
"""Longest session id (ours are 36-character uuids)."""
_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
"""A JSON string literal, written as "a run of plain characters, then (escape, run)*":
the same strings as ``"(?:[^"\\]|\\.)*"``, which took one step of the regex engine a
character (3 s for a file holding a 1 MB string, against 0.14 s)."""
_BRACKETS = re.compile(r"[\[\]{}]")


class _Hooks:
    """The decoder's hooks for one file: each refusal is an ``ExportError`` naming it."""

    def __init__(self, source: str) -> None:
        self.source = source

    def integer(self, text: str) -> int:
        if len(text.lstrip("-")) > MAX_DIGITS:
            raise ExportError(
                N_("{source} contains a number with more than {digits} digits."),
                source=self.source,
                digits=MAX_DIGITS,
            )
        return int(text)

    def real(self, text: str) -> float:
        value = float(text)
        if value in (float("inf"), float("-inf")):
            raise ExportError(
                N_("{source} contains a number too large for a float."), source=self.source
            )
        return value

    def constant(self, text: str) -> Any:
        raise ExportError(
            N_("{source} contains {value}, which JSON does not allow."),
            source=self.source,
            value=text,
        )

    def pairs(self, pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out = dict(pairs)
        if len(out) != len(pairs):
            seen: set[str] = set()
            for key, _value in pairs:
                if key in seen:
                    raise ExportError(
                        N_("{source} has the key {key} twice in one object."),
                        source=self.source,
                        key=json.dumps(key, ensure_ascii=False),
                    )
                seen.add(key)
        return out


def _depth(text: str) -> int:
    """Deepest bracket nesting outside strings, found without recursion."""
    deepest = depth = 0
    for match in _BRACKETS.finditer(_STRINGS.sub("", text)):
        if match.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
            if deepest > MAX_DEPTH:
                return deepest
        else:
            depth -= 1
    return deepest


def parse_export(text: str, source: str = "the file", *, skip_bad: bool = False) -> ExportFile:
    """Parse an export (either form), or ``ExportError`` saying where it is wrong.

    The text is bounded before it is decoded: nesting deeper than ``MAX_DEPTH``
    (the decoder recurses), integers longer than ``MAX_DIGITS`` (Python refuses
    over 4,300 digits with a ValueError), NaN, Infinity and duplicate keys are all
    refusals naming the file.
    """
    if _depth(text) > MAX_DEPTH:
        raise ExportError(
            N_("{source} is nested more than {depth} levels deep, so not a companion export."),
            source=source,
            depth=MAX_DEPTH,
        )
    hooks = _Hooks(source)
    try:
        data = json.loads(
            text,
            parse_int=hooks.integer,
            parse_float=hooks.real,
            parse_constant=hooks.constant,
            object_pairs_hook=hooks.pairs,
        )
    except RecursionError:
        raise ExportError(
            N_("{source} is nested more than {depth} levels deep, so not a companion export."),
            source=source,
            depth=MAX_DEPTH,
        ) from None
    except json.JSONDecodeError as exc:
        raise ExportError(
            N_("{source} is not valid JSON (line {line}, column {column}: {problem})."),
            source=source,
            line=exc.lineno,
            column=exc.colno,
            problem=exc.msg,
        ) from exc
    if not isinstance(data, dict):
        raise ExportError(
            N_(
                "{source} is not a companion export: expected a JSON object "
                'with "format": "{name}".'
            ),
            source=source,
            name=FORMAT_NAME,
        )
    fmt = data.get("format")
    if fmt not in (FORMAT_NAME, MULTI_FORMAT_NAME):
        raise ExportError(
            N_(
                '{source} is not a companion export: "format" is {found}, '
                'expected "{one}" or "{many}".'
            ),
            source=source,
            found=json.dumps(fmt, ensure_ascii=False),
            one=FORMAT_NAME,
            many=MULTI_FORMAT_NAME,
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise ExportError(N_('{source}: "version" must be a whole number.'), source=source)
    if version > FORMAT_VERSION:
        raise ExportError(
            N_(
                "{source} was written by a newer companion (format version "
                "{version}; this one reads up to {known})."
            ),
            source=source,
            version=version,
            known=FORMAT_VERSION,
        )
    if version < 1:
        raise ExportError(
            N_("{source}: unknown format version {version}."), source=source, version=version
        )
    if fmt == FORMAT_NAME:
        return ExportFile(False, [_parse_session(data, source, "")])
    sessions = data.get("sessions")
    if not isinstance(sessions, list):
        raise ExportError(N_('{source}: "sessions" must be a list.'), source=source)
    out = []
    refused: list[ExportError] = []
    seen: dict[str, str] = {}
    for i, item in enumerate(sessions):
        where = f"sessions[{i}]"
        try:
            if not isinstance(item, dict):
                raise ExportError(_MUST_BE_OBJECT, source=source, where=where)
            if item.get("format", FORMAT_NAME) != FORMAT_NAME:
                raise ExportError(
                    N_('{source}: {where}.format must be "{name}".'),
                    source=source,
                    where=where,
                    name=FORMAT_NAME,
                )
            parsed = _parse_session(item, source, where + ".")
            if parsed[0].id in seen:
                raise ExportError(
                    N_("{source}: {where}.id is the same session as {other}."),
                    source=source,
                    where=where,
                    other=seen[parsed[0].id],
                )
            seen[parsed[0].id] = where
        except ExportError as exc:
            if not skip_bad:
                raise
            refused.append(exc)
            continue
        out.append(parsed)
    return ExportFile(True, out, refused)


def _field(
    data: Mapping[str, Any],
    name: str,
    kind: type | tuple[type, ...],
    source: str,
    where: str,
    *,
    optional: bool = False,
    limit: int = MAX_TEXT,
) -> Any:
    if name not in data or data[name] is None:
        if optional:
            return None
        raise ExportError(N_("{source}: {where} is missing."), source=source, where=where + name)
    value = data[name]
    if isinstance(value, bool) and kind is int:
        raise ExportError(_EXPECTED[int], source=source, where=where + name)
    if not isinstance(value, kind):
        template = _EXPECTED.get(kind if isinstance(kind, type) else dict, _EXPECTED[dict])
        raise ExportError(template, source=source, where=where + name)
    if limit != MAX_TEXT:  # every value was bounded by MAX_TEXT with its session
        _bounded(value, source, where + name, limit)
    return value


_SCALARS = (float, bool, type(None))


def _bounded(value: Any, source: str, where: str, limit: int = MAX_TEXT) -> None:
    """Every text at most ``limit`` long, every integer within 64 bits (the store's).

    A flat walk first (no recursion, no place names: it is on every entry of every
    import and export); only when it finds something is the value walked again
    to name the exact place.
    """
    kind = type(value)
    if kind is str:
        if len(value) <= limit and "\x00" not in value:
            return
    elif kind is int:
        if -INT64 <= value < INT64:
            return
    elif kind in _SCALARS:
        return
    stack = [value]
    pop, many = stack.pop, stack.extend
    while stack:
        item = pop()
        kind = type(item)
        if kind is str:
            if len(item) > limit or "\x00" in item:
                break
        elif kind is int:
            if not -INT64 <= item < INT64:
                break
        elif kind is dict:
            many(item)
            many(item.values())
        elif kind is list:
            many(item)
        elif kind not in _SCALARS:
            # a subclass (never from json.loads): the slow path names it
            break
    else:
        return
    _bounded_place(value, source, where, limit)


def _bounded_place(value: Any, source: str, where: str, limit: int = MAX_TEXT) -> None:
    """``_bounded``, naming the place of the first value out of bounds."""
    if isinstance(value, str):
        if len(value) > limit or "\x00" in value:
            raise ExportError(
                N_("{source}: {where}: text longer than {limit} characters or with a NUL."),
                source=source,
                where=where,
                limit=limit,
            )
    elif isinstance(value, int) and not isinstance(value, bool):
        if not -INT64 <= value < INT64:
            raise ExportError(
                N_("{source}: {where}: {value} does not fit in 64 bits."),
                source=source,
                where=where,
                value=value,
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            _bounded_place(key, source, where)
            _bounded_place(item, source, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            _bounded_place(item, source, f"{where}[{i}]")


_CANONICAL_MOMENT = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?Z")
"""The form the companion writes (UTC, ``Z``): from 1971 to 9998 it converts to any
local zone, so only its date and time need checking."""


def _is_moment(value: str) -> bool:
    """True if ``value`` is an ISO 8601 time the history can sort, show and convert."""
    try:
        moment = parse_time(value)
        if not 1970 <= moment.year <= 9999:
            return False
        if not (1970 < moment.year < 9999 and _CANONICAL_MOMENT.fullmatch(value)):
            local_time(value)
    except (ValueError, OverflowError, OSError):
        return False
    return True


def _moment(value: str, source: str, where: str) -> str:
    """``value`` if ``_is_moment``, else an ``ExportError`` naming ``where``."""
    if not _is_moment(value):
        raise ExportError(
            N_("{source}: {where}: {value} is not a date and time like 2026-11-29T20:15:00Z."),
            source=source,
            where=where,
            value=json.dumps(value[:40], ensure_ascii=False),
        )
    return value


def _parse_session(
    data: Mapping[str, Any], source: str, where: str
) -> tuple[SessionRow, list[Entry]]:
    # Every text and integer of the session within bounds, in one flat walk (it was a
    # walk a field, 1.6 million calls for a club's 10,000 sessions); a field with a
    # tighter limit (a name) is bounded again by ``_field``.
    _bounded(data, source, where[:-1])
    sid = _field(data, "id", str, source, where)
    if not sid.strip():
        raise ExportError(N_("{source}: {where} is empty."), source=source, where=where + "id")
    if len(sid) > MAX_ID or sid != sid.strip() or not sid.isprintable():
        raise ExportError(
            N_("{source}: {where}: a session id is at most {limit} printable characters."),
            source=source,
            where=where + "id",
            limit=MAX_ID,
        )
    game = _field(data, "game", str, source, where)
    try:
        known = find_game(game).id
    except RuleError:
        known = None
    if known != game:
        raise ExportError(
            N_("{source}: {where}: {found} is not a game id of this companion{hint}."),
            source=source,
            where=where + "game",
            found=json.dumps(game[:40], ensure_ascii=False),
            hint=f" ({known})" if known else "",
        )
    options = _field(data, "options", dict, source, where)
    raw_players = _field(data, "players", list, source, where)
    players = []
    for i, p in enumerate(raw_players):
        pw = f"{where}players[{i}]."
        if not isinstance(p, dict):
            raise ExportError(_MUST_BE_OBJECT, source=source, where=pw[:-1])
        _field(p, "id", str, source, pw, limit=MAX_NAME)
        _field(p, "name", str, source, pw, limit=MAX_NAME)
        _field(p, "colour", str, source, pw, optional=True, limit=MAX_NAME)
        _field(p, "birth_date", str, source, pw, optional=True, limit=MAX_NAME)
        players.append(Player.from_json(p))
    if not players or len({p.id for p in players}) != len(players):
        raise ExportError(
            N_("{source}: {where}: players must be a non-empty list with distinct ids."),
            source=source,
            where=where + "players",
        )
    started = _moment(_field(data, "started_at", str, source, where), source, where + "started_at")
    ended = _field(data, "ended_at", str, source, where, optional=True)
    if ended is not None:
        _moment(ended, source, where + "ended_at")
    status = _field(data, "status", str, source, where, optional=True) or (
        "finished" if ended else "active"
    )
    if status not in STATUSES:
        raise ExportError(
            N_("{source}: {where} must be one of {choices}, not {found}."),
            source=source,
            where=where + "status",
            choices=", ".join(STATUSES),
            found=json.dumps(status, ensure_ascii=False),
        )
    outcome = _field(data, "outcome", dict, source, where, optional=True)
    raw_entries = _field(data, "entries", list, source, where)
    entries: list[Entry] = []
    last = 0
    for i, e in enumerate(raw_entries):
        if type(e) is dict:
            # The entry as the companion writes it, checked in one go (five
            # ``_field`` calls an entry were a third of a club's import parse);
            # anything else takes the field-by-field path below, which names it.
            seq, kind, at, mono_ns = e.get("seq"), e.get("kind"), e.get("at"), e.get("mono_ns")
            payload = e.get("payload")
            if (
                type(seq) is int
                and last < seq < INT64
                and type(kind) is str
                and kind in ENTRY_KINDS
                and type(payload) is dict
                and type(at) is str
                and type(mono_ns) is int
                and _is_moment(at)
            ):
                last = seq
                entries.append(Entry(seq, kind, payload, at, mono_ns))
                continue
        ew = f"{where}entries[{i}]."
        if not isinstance(e, dict):
            raise ExportError(_MUST_BE_OBJECT, source=source, where=ew[:-1])
        seq = _field(e, "seq", int, source, ew)
        if seq <= last or seq >= INT64:
            raise ExportError(
                N_(
                    "{source}: {where} {seq} does not follow {last}: entries "
                    "must be in increasing seq order."
                ),
                source=source,
                where=ew + "seq",
                seq=seq,
                last=last,
            )
        last = seq
        kind = _field(e, "kind", str, source, ew)
        if kind not in ENTRY_KINDS:
            raise ExportError(
                N_("{source}: {where} must be one of {choices}, not {found}."),
                source=source,
                where=ew + "kind",
                choices=", ".join(ENTRY_KINDS),
                found=json.dumps(kind, ensure_ascii=False),
            )
        payload = _field(e, "payload", dict, source, ew)
        at = _moment(_field(e, "at", str, source, ew), source, ew + "at")
        mono_ns = _field(e, "mono_ns", int, source, ew)
        entries.append(Entry(seq, kind, payload, at, mono_ns))
    row = SessionRow(
        id=sid,
        game=game,
        options=options,
        players=tuple(players),
        started_at=started,
        ended_at=ended,
        outcome=outcome,
        status=status,
    )
    return row, entries


_P = ParamSpec("_P")
_R = TypeVar("_R")
_pauses = 0
_pauses_lock = threading.Lock()
_collector_was_on = True


def _collector_paused(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` with Python's cycle collector paused, then as it was.

    A club's export decodes into millions of dicts, lists and strings, and the
    collector, started every 700 new containers, walked them over and over as they
    piled up: the parse of 10,000 sessions took 4.7 s CPU with it, 3.5 s without
    (docs/PERFORMANCE.md). What an import builds is trees (decoded JSON, rows,
    states), which reference counting frees; the collector is back on as soon as
    the last import in flight ends, whatever it raised.
    """

    @functools.wraps(fn)
    def paused(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        global _pauses, _collector_was_on
        with _pauses_lock:
            if _pauses == 0:
                _collector_was_on = gc.isenabled()
                gc.disable()
            _pauses += 1
        try:
            return fn(*args, **kwargs)
        finally:
            with _pauses_lock:
                _pauses -= 1
                if _pauses == 0 and _collector_was_on:
                    gc.enable()

    return paused


def read_export(path: str | os.PathLike[str]) -> list[tuple[SessionRow, list[Entry]]]:
    """The sessions of an export file (``ExportError`` if it cannot be used)."""
    return read_export_file(path).sessions


@_collector_paused
def read_export_file(path: str | os.PathLike[str], *, skip_bad: bool = False) -> ExportFile:
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise ExportError(N_("{path} does not exist."), path=str(p)) from None
    except IsADirectoryError:
        raise ExportError(N_("{path} is a folder, not an export file."), path=str(p)) from None
    except OSError as exc:
        raise ExportError(
            N_("{path} cannot be read: {problem}."), path=str(p), problem=exc.strerror or str(exc)
        ) from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ExportError(
            N_("{path} is not UTF-8 text, so not a companion export."), path=str(p)
        ) from exc
    return parse_export(text, str(p), skip_bad=skip_bad)


# --------------------------------------------------------------------------- replay


@dataclass(frozen=True)
class Replayed:
    """One session re-applied with the current rules."""

    row: SessionRow
    entries: list[Entry]
    outcome: Outcome | None
    finished: bool = True
    """The guide allows nothing more (``is_finished``); False for a game over that
    still waits for an entry (the Undercover after a Police win)."""

    @property
    def outcome_json(self) -> dict[str, Any] | None:
        return self.outcome.to_json() if self.outcome is not None else None

    @property
    def matches_record(self) -> bool:
        """Does the replayed outcome equal the one recorded in the file?"""
        return bool(_comparable(self.outcome_json) == _comparable(self.row.outcome))


def _comparable(outcome: Mapping[str, Any] | None) -> Any:
    if outcome is None:
        return None
    return {k: outcome.get(k) for k in ("termination", "winners", "scores", "sides")}


def replay_session(row: SessionRow, entries: Sequence[Entry]) -> Replayed:
    """Re-apply one session; ``ReplayError`` (index -1 = setup) if it breaks a rule."""
    try:
        info = find_game(row.game)
        game = info.load()
    except RuleError as exc:
        raise ReplayError(-1, 0, exc) from exc
    state, outcome = replay(game, row.players, row.options, entries)
    return Replayed(row, list(entries), outcome, is_finished(game, info.guide, state))


class ReplayFailed(ExportError):
    """A session of a file breaks the current rules at entry ``index`` (-1: its setup)."""

    def __init__(self, session_id: str, index: int, seq: int, reason: RuleError | str) -> None:
        if index < 0:
            super().__init__(
                N_("Session {session}: the setup does not start under the current rules: {reason}"),
                session=session_id,
                reason=reason,
            )
        else:
            super().__init__(
                N_("Session {session}: entry {index} (seq {seq}) breaks the rules: {reason}"),
                session=session_id,
                index=index,
                seq=seq,
                reason=reason,
            )
        self.session_id = session_id
        self.index = index
        self.seq = seq
        self.reason = reason


# --------------------------------------------------------------------------- import


@dataclass(frozen=True)
class ImportReport:
    added: list[str]
    skipped: list[str]
    extended: list[str] = field(default_factory=list)
    """Sessions already present whose newer export brought new entries (appended)."""
    refused: list[ExportError | StoreError] = field(default_factory=list)
    """With ``skip_bad``: the sessions left out, each with its reason."""

    @property
    def total(self) -> int:
        return len(self.added) + len(self.skipped) + len(self.extended)


@_collector_paused
def import_sessions(
    store: Store,
    items: Sequence[tuple[SessionRow, Sequence[Entry]]],
    *,
    skip_bad: bool = False,
    refused: Sequence[ExportError] = (),
) -> ImportReport:
    """Replay every session, then insert them all in one transaction.

    Raises ``ImportRefused`` (nothing written) on the first session that does not
    replay, ``ImportConflict`` on one whose stored log disagrees with the file's.
    With ``skip_bad`` those sessions are left out and listed in the report instead,
    and the others are imported. Outcome, end time and status are recomputed from
    the replay: the stored history always agrees with the log. A session already
    stored is skipped, or extended with its new entries (see
    ``Store.import_sessions``).
    """
    left_out: list[ExportError | StoreError] = list(refused)
    ready: list[tuple[SessionRow, Sequence[Entry]]] = []
    stored = store.present(row.id for row, _entries in items)
    for row, entries in items:
        try:
            try:
                replayed = replay_session(row, entries)
            except ReplayError as err:
                raise ImportRefused(row.id, err.index, err.seq, err.error) from err
            if row.id in stored:  # ImportConflict before anything is written
                store.import_relation(row, entries)
        except (ImportRefused, StoreError) as exc:
            if not skip_bad:
                raise
            left_out.append(exc)
            continue
        ready.append((_row_after_replay(replayed), entries))
    report = ImportReport([], [], [], left_out)

    def note(row: SessionRow, how: str) -> None:
        {"added": report.added, "extended": report.extended, "skipped": report.skipped}[how].append(
            row.id
        )

    if ready:
        store.import_sessions(ready, on_each=note)
    return report


def _row_after_replay(replayed: Replayed) -> SessionRow:
    row = replayed.row
    outcome = replayed.outcome_json
    if replayed.finished:
        # Ended: keep the recorded end time if there is one, else the last entry's.
        ended = row.ended_at or (replayed.entries[-1].at if replayed.entries else row.started_at)
        status = "finished"
    else:
        ended = None
        status = "abandoned" if row.status == "abandoned" else "active"
    return SessionRow(
        id=row.id,
        game=row.game,
        options=row.options,
        players=row.players,
        started_at=row.started_at,
        ended_at=ended,
        outcome=outcome,
        status=status,
    )


def import_file(
    store: Store, path: str | os.PathLike[str], *, skip_bad: bool = False
) -> ImportReport:
    """Import one export file, all or nothing (``ExportError`` / ``ImportRefused``).

    With ``skip_bad`` a many-session file's good sessions are imported and the
    others listed in the report (a file that is not an export is still refused).
    """
    export = read_export_file(path, skip_bad=skip_bad)
    return import_sessions(store, export.sessions, skip_bad=skip_bad, refused=export.refused)


# --------------------------------------------------------------------------- CSV


def _number(value: int | float | str | None) -> str:
    if value is None:
        return ""
    if isinstance(value, str) and "/" in value:  # a Fraction from Outcome.to_json
        num, den = value.split("/", 1)
        value = int(num) / int(den)
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return str(value)


def csv_text(results: Iterable[SessionResult], lang: str = "en", tz: tzinfo | None = None) -> str:
    """One row per player per session, RFC 4180 (CRLF, quotes doubled), BOM-prefixed.

    ``date`` is the start in local time ``YYYY-MM-DD HH:MM:SS`` (what spreadsheets
    read as a date); ``game`` is the display name in ``lang`` and ``game_id`` the
    stable id.
    """
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, dialect="excel", lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(CSV_COLUMNS)
    for res in results:
        date = local_time(res.started_at, tz).strftime("%Y-%m-%d %H:%M:%S")
        game = res.title or _game_name(res.game, lang)
        for pr in res.players:
            writer.writerow(
                (
                    res.id,
                    date,
                    game,
                    res.game,
                    "incomplete" if res.incomplete else res.status,
                    pr.name,
                    pr.seat,
                    pr.side or "",
                    _number(pr.score),
                    pr.rank or "",
                    "" if not res.finished else ("true" if pr.winner else "false"),
                )
            )
    return out.getvalue()


def _bgg_id(game_id: str) -> int | None:
    try:
        return find_game(game_id).bgg_id
    except RuleError:
        return None


def _game_name(game_id: str, lang: str) -> str:
    try:
        return find_game(game_id).name(lang)
    except RuleError:
        return game_id


# --------------------------------------------------------------------------- BG Stats


class NotFinishedError(ExportError):
    """BG Stats takes finished plays only."""


def bgstats_play(res: SessionResult, tz: tzinfo | None = None) -> dict[str, Any]:
    """The BG Stats push-play payload for one finished session.

    Field names and types follow https://www.bgstatsapp.com/support/
    push-plays-to-bg-stats-from-other-apps-or-websites/ : ``playDate`` local time
    ``YYYY-MM-DD hh:mm:ss``, ``durationMin`` whole minutes, scores as numbers.
    """
    if res.incomplete:
        raise NotFinishedError(
            N_(
                "Session {session} is over but still waits for an entry (resume it and "
                "make it); BG Stats records finished plays only."
            ),
            session=res.id,
        )
    if not res.finished:
        raise NotFinishedError(
            N_("Session {session} is not finished; BG Stats records finished plays only."),
            session=res.id,
        )
    game: dict[str, Any] = {"name": res.game_label}
    bgg_id = _bgg_id(res.game)  # from the game's record; none: BG Stats matches the name
    if bgg_id is not None and not res.title:  # a named score-pad game is not the pad's id
        game["bggId"] = bgg_id
    no_points = not res.has_scores
    game.update(
        {"highestWins": res.highest_wins, "noPoints": no_points, "sourceGameId": res.game_key}
    )
    players = []
    for pr in res.players:
        player: dict[str, Any] = {"name": pr.name}
        if not no_points:
            player["score"] = _bgstats_score(pr.score)
        player.update(
            {
                "rank": pr.rank or 0,
                "role": pr.side or "",
                "winner": pr.winner,
                "startPlayer": pr.start_player,
                "sourcePlayerId": pr.key,
            }
        )
        players.append(player)
    play: dict[str, Any] = {
        "sourceName": BGSTATS_SOURCE_NAME,
        "sourcePlayId": res.id,
        "playDate": local_time(res.started_at, tz).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(0, round(res.duration_s / 60)),
        "game": game,
        "players": players,
    }
    if res.summary:
        play["comments"] = res.summary
    return play


def _bgstats_score(value: int | float | str | None) -> int | float:
    if value is None:
        return 0
    if isinstance(value, str):
        num, _, den = value.partition("/")
        return round(int(num) / int(den or 1), 2)
    return value


def bgstats_link(play: Mapping[str, Any], app: bool = True) -> str:
    """``bgstats://…/createPlay.html?data=<url-encoded JSON>`` (or the https form)."""
    data = json.dumps(play, ensure_ascii=False, separators=(",", ":"))
    base = BGSTATS_APP_URL if app else BGSTATS_URL
    return f"{base}?data={urllib.parse.quote(data, safe='')}"


def bgstats_document(results: Sequence[SessionResult], tz: tzinfo | None = None) -> Any:
    """One play object for one session; a list for several (unfinished ones skipped)."""
    plays = [bgstats_play(r, tz) for r in results if r.finished]
    if len(results) == 1:
        if not plays:
            bgstats_play(results[0], tz)  # raises NotFinishedError with the message
        return plays[0]
    return plays


# --------------------------------------------------------------------------- files


def write_atomic(path: str | os.PathLike[str], text: str | Iterable[str]) -> Path:
    """Write ``text`` (UTF-8; a string, or pieces written as they come) to ``path`` via
    a temporary file and ``os.replace``: the file appears whole or not at all (an
    error while the pieces are made, or a full disk, leaves no file and no debris)."""
    p = Path(path).expanduser()
    if p.is_dir():
        raise ExportError(N_("Cannot write {path}: it is a folder; give a file name."), path=str(p))
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise ExportError(
            N_("Cannot write {path}: the folder {folder} does not exist."),
            path=str(p),
            folder=str(folder),
        )
    tmp_name: str | None = None
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            if isinstance(text, str):
                fh.write(text)
            else:
                for piece in text:  # each on to the OS before the next is made
                    fh.write(piece)
                    fh.flush()
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp_name, p)
        tmp_name = None
    except OSError as exc:
        raise ExportError(
            N_("Cannot write {path}: {problem}."), path=str(p), problem=exc.strerror or str(exc)
        ) from exc
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    return p


def export_text(
    store: Store,
    session_ids: Sequence[str],
    fmt: str,
    *,
    lang: str = "en",
    tz: tzinfo | None = None,
    exported_at: str | None = None,
    single: bool | None = None,
    skip_damaged: bool = False,
) -> str:
    """The text of an export of ``session_ids`` in ``fmt`` (``json``, ``csv``, ``bgstats``).

    ``single`` (default: exactly one id) chooses the one-session JSON form.
    ``skip_damaged``: a session that cannot be read back (or would not import back)
    is left out and named in ``store.damaged``, and the sound ones are exported (an
    export of the whole history); otherwise it refuses the export, naming it.
    """
    one = len(session_ids) == 1 if single is None else single
    with store.snapshot():
        counts = entry_counts(store)
        if fmt == "json" and not one:  # each session checked once, as it is written
            check = _checker(store, skip_damaged, counts)
            return "".join(sessions_json_chunks(store, session_ids, exported_at, check))
        if skip_damaged:
            session_ids = sound_sessions(
                store, session_ids, json_checks=fmt == "json", counts=counts
            )
        return _export_text(store, session_ids, fmt, lang, tz, exported_at, single, counts)


def export_file(
    store: Store,
    session_ids: Sequence[str],
    fmt: str,
    path: str | os.PathLike[str],
    *,
    lang: str = "en",
    tz: tzinfo | None = None,
    exported_at: str | None = None,
    single: bool | None = None,
    skip_damaged: bool = False,
) -> Path:
    """``export_text`` written to ``path`` (atomically); the JSON of many sessions is
    streamed: each session is read, checked that it imports back (once) and written
    before the next is read, so memory holds ``CHUNK`` sessions, not the history.

    A session that fails the check refuses the export (nothing is written: the
    temporary file is removed), or with ``skip_damaged`` is left out and named in
    ``store.damaged``.
    """
    one = len(session_ids) == 1 if single is None else single
    if fmt != "json" or one:
        text = export_text(
            store,
            session_ids,
            fmt,
            lang=lang,
            tz=tz,
            exported_at=exported_at,
            single=single,
            skip_damaged=skip_damaged,
        )
        return write_atomic(path, text)

    with store.snapshot():
        check = _checker(store, skip_damaged, entry_counts(store))
        pieces = sessions_json_chunks(store, session_ids, exported_at, check)
        return write_atomic(path, pieces)


def entry_counts(store: Store) -> dict[str, int] | None:
    """Each session's number of entries by the entries' own ``session_id`` column, read
    without the index (one scan of the table), or None where the file cannot be read so.

    A read by id goes through the index; where one byte of an entry's id changed in the
    table, or in the index, the two disagree and the read by id silently has an entry
    more or fewer than the session holds (a session exported with 2 of its 3 entries,
    no word). Compared with this count, such a session is named as damaged.
    """
    # Counted here, not by GROUP BY: the entries table is ordered by its key, and SQLite
    # groups a scan of it by runs of equal ids, so a row out of order (its id changed)
    # splits its session into runs that each look whole.
    counts: dict[str, int] = {}
    try:
        for (sid,) in store.conn.execute("SELECT session_id FROM entries"):
            counts[sid] = counts.get(sid, 0) + 1
        ids = {sid for (sid,) in store.conn.execute("SELECT id FROM sessions")}
    except sqlite3.DatabaseError:  # a page SQLite cannot read: the reads by id name it
        return None
    # An entry whose id names no session lost its session: one byte of the id changed.
    # It belongs to the session whose id differs from it in a character or two; that
    # session is short by it (-1 never equals a count read by id).
    ids = {sid for sid in ids if isinstance(sid, str)}  # a damaged row's id may be NULL
    for orphan in [sid for sid in counts if isinstance(sid, str) and sid not in ids]:
        for sid in ids:
            if (
                len(sid) == len(orphan)
                and sum(a != b for a, b in zip(sid, orphan, strict=True)) <= 2
            ):
                counts[sid] = -1
    return counts


def _checker(
    store: Store, skip_damaged: bool, counts: Mapping[str, int] | None = None
) -> Callable[[str], bool]:
    """The check a many-session JSON export makes of each session as it writes it."""

    def check(sid: str) -> bool:
        try:
            check_exportable(store, [sid], counts)
        except NotExportable as exc:
            if not skip_damaged:
                raise
            store.damaged[sid] = DamagedError(sid, "export", exc.params["reason"])
            return False
        return True

    return check


def sound_sessions(
    store: Store,
    session_ids: Sequence[str],
    *,
    json_checks: bool = True,
    counts: Mapping[str, int] | None = None,
) -> list[str]:
    """``session_ids`` without the damaged ones, which are named in ``store.damaged``."""
    sound = []
    for sid in session_ids:
        try:
            if json_checks:
                check_exportable(store, [sid], counts)
            else:
                row = store.session(sid)
                store.entries(row.id)
        except NotExportable as exc:
            store.damaged[sid] = DamagedError(sid, "export", exc.params["reason"])
        except DamagedError as exc:
            store.damaged[sid] = exc
        else:
            sound.append(sid)
    return sound


class NotExportable(ExportError):
    """A stored session would not import back: the export is refused, naming it."""


def check_exportable(
    store: Store, session_ids: Sequence[str], counts: Mapping[str, int] | None = None
) -> None:
    """Refuse (``NotExportable``) if a session would not import back as it is.

    Each session is read back (damaged JSON is found), checked as ``import`` checks
    a file, and replayed with the current rules. A backup that cannot be restored
    is worse than none: it is refused before anything is written. With ``counts``
    (``entry_counts``), a session whose entries read by id are not as many as the
    table holds for it is refused too: the file's index and its rows disagree.
    """
    for sid in session_ids:
        try:
            row = store.session(sid)
            entries = store.entries(row.id)
            if counts is not None and counts.get(row.id, 0) != len(entries):
                raise ExportError(
                    N_(
                        "its entries in the file and in the file's index disagree "
                        "({read} read, {held} held): the file is damaged"
                    ),
                    read=len(entries),
                    held=counts.get(row.id, 0),
                )
            _parse_session(session_document(row, entries), "", "")
            replay_session(row, entries)
        except (StoreError, ExportError, ReplayError) as exc:
            reason: Any = exc if isinstance(exc, StoreError | ExportError) else str(exc)
            raise NotExportable(
                N_(
                    "Session {session} cannot be exported so that it imports back "
                    "({reason}). Nothing was written; run 'companion check', or export "
                    "the other sessions."
                ),
                session=sid,
                reason=reason.render(None) if hasattr(reason, "render") else reason,
            ) from exc


def _export_text(
    store: Store,
    session_ids: Sequence[str],
    fmt: str,
    lang: str,
    tz: tzinfo | None,
    exported_at: str | None,
    single: bool | None,
    counts: Mapping[str, int] | None = None,
) -> str:
    one = len(session_ids) == 1 if single is None else single
    if fmt == "json":
        check_exportable(store, session_ids, counts)
        if one and session_ids:
            items = load_sessions(store, session_ids[:1])
            return dumps_document(session_document(*items[0], exported_at=exported_at))
        return sessions_json_text(store, session_ids, exported_at)
    results = session_results(store, session_ids)
    if fmt == "csv":
        return csv_text(results, lang, tz)
    if fmt == "bgstats":
        if one:
            return json.dumps(bgstats_document(results, tz), ensure_ascii=False, indent=1) + "\n"
        # Many plays: one compact play per line (indenting uses the slow pure-Python
        # encoder, and a list of thousands of plays is not read by eye anyway).
        lines = [json.dumps(bgstats_play(r, tz), ensure_ascii=False) for r in results if r.finished]
        return "[\n" + ",\n".join(lines) + "\n]\n" if lines else "[]\n"
    raise ExportError(
        N_("Unknown export format {format}: use json, csv or bgstats."), format=json.dumps(fmt)
    )


def now_stamp() -> str:
    return datetime.now().astimezone().isoformat(timespec="seconds")
