"""The history's summary tables: each session's result, kept at commit time.

Design decisions:

* Two tables beside ``sessions`` (schema 4): ``summaries`` (one row a session: the
  game key, the host's title, finished or not, which way scores win, the length)
  and ``summary_seats`` (one row a seat: name, side, character, score, rank,
  winner). They hold what ``results.build_result`` derives from the session row,
  so the history list, the statistics and the head-to-head are SQL over them
  (``GROUP BY``, no JSON read, no session replayed) instead of one Python object a
  session. 10,000 sessions: docs/PERFORMANCE.md.
* Written in the transaction that changes what they summarise: a session created,
  an entry that ends or reopens the game (its outcome), a status set, an import.
  An ordinary entry (a score typed) does not touch them: the per-key commit costs
  what it did.
* Derived, never a second truth: ``refresh`` computes the rows with
  ``build_result`` (the same code the list used before), and the property test
  checks that they equal what replaying each session gives. The migration to
  schema 4 fills them for a database written before, in its one transaction.
* A session whose stored row is damaged gets no summary rows (its ``DamagedError``
  is what ``companion check`` and the history list name); the rest is summarised.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import Any

TABLES = frozenset({"summaries", "summary_seats"})

SCHEMA = """
CREATE TABLE summaries (
    session_id    TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
    game_key      TEXT NOT NULL,
    title         TEXT,
    finished      INTEGER NOT NULL,
    highest_wins  INTEGER NOT NULL,
    duration_s    REAL,
    players       INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE summary_seats (
    session_id    TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    pid           TEXT NOT NULL,
    name          TEXT NOT NULL,
    player_key    TEXT NOT NULL,
    side          TEXT,
    character     TEXT,
    score         TEXT,
    value         REAL,
    rank          INTEGER,
    winner        INTEGER NOT NULL,
    PRIMARY KEY (session_id, seat)
) WITHOUT ROWID;
CREATE INDEX summary_seats_by_player ON summary_seats(player_key);
CREATE INDEX summaries_by_game ON summaries(game_key)
"""

_SESSION_SQL = (
    "SELECT id, game, players, started_at, ended_at, outcome, status, NULL, NULL, options, crc "
    "FROM sessions"
)


def rows_of(values: tuple[Any, ...]) -> tuple[tuple[Any, ...], list[tuple[Any, ...]]] | None:
    """The summary row and the seat rows of one ``sessions`` row (``_SESSION_SQL``'s
    columns); None if the stored row is damaged."""
    from companion.session.results import build_result  # results imports the store
    from companion.session.store import DamagedError

    try:
        res = build_result(*values)
    except DamagedError:
        return None
    characters = dict(res.outcome.get("characters") or {}) if res.outcome else {}
    duration = res.duration_s if res.finished and res.ended_at else None
    head = (
        res.id,
        res.game_key,
        res.title,
        int(res.finished),
        int(res.highest_wins),
        duration,
        len(res.players),
    )
    seats = []
    for p in res.players:
        card = characters.get(p.pid)
        character = card.get("id") if isinstance(card, dict) else None
        seats.append(
            (
                res.id,
                p.seat,
                p.pid,
                p.name,
                p.key,
                p.side,
                character if isinstance(character, str) else None,
                json.dumps(p.score) if p.score is not None else None,
                p.value,
                p.rank,
                int(p.winner),
            )
        )
    return head, seats


def refresh(c: sqlite3.Connection, session_ids: Iterable[str]) -> None:
    """Recompute the summary rows of ``session_ids`` (inside the caller's transaction)."""
    ids = list(dict.fromkeys(session_ids))
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        marks = ",".join("?" * len(chunk))
        c.execute(f"DELETE FROM summary_seats WHERE session_id IN ({marks})", chunk)
        c.execute(f"DELETE FROM summaries WHERE session_id IN ({marks})", chunk)
        rows = c.execute(f"{_SESSION_SQL} WHERE id IN ({marks})", chunk).fetchall()
        _insert(c, rows)


def fill(c: sqlite3.Connection) -> None:
    """Summarise every session (the migration to schema 4; ``companion check`` repairs)."""
    c.execute("DELETE FROM summary_seats")
    c.execute("DELETE FROM summaries")
    cursor = c.execute(_SESSION_SQL)
    while True:
        rows = cursor.fetchmany(1000)
        if not rows:
            return
        _insert(c, rows)


def _insert(c: sqlite3.Connection, rows: Iterable[tuple[Any, ...]]) -> None:
    heads, seats = [], []
    for values in rows:
        try:
            found = rows_of(tuple(values))
        except sqlite3.Error:
            found = None
        if found is None:
            continue
        heads.append(found[0])
        seats.extend(found[1])
    c.executemany("INSERT INTO summaries VALUES (?, ?, ?, ?, ?, ?, ?)", heads)
    c.executemany("INSERT INTO summary_seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seats)
