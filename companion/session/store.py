"""The SQLite store: roster, sessions and the append-only log.

Design decisions:

* One file in the user data directory (see ``companion.session.locations``), WAL
  mode so a read-only board can follow while the host writes, ``synchronous=FULL``
  so a committed action survives a power cut.
* The log is append-only. Entries have primary key ``(session_id, seq)``: a
  duplicate write fails loudly instead of overwriting. Undo and redo are entries.
* The schema is versioned with ``PRAGMA user_version``; ``MIGRATIONS[i]`` takes a
  database from version ``i`` to ``i + 1``. A file from a newer version, or one that
  is not SQLite, is refused with a message and never touched.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules.base import Player


class StoreError(Exception):
    """The database cannot be used; the message says why and what to do."""


class StaleError(Exception):
    """The database holds entries of a session that the writer has not seen.

    Another window (or process) wrote to the session after the caller's state was
    computed; nothing was written.
    """

    def __init__(self, session_id: str, seen: int, newest: int) -> None:
        self.session_id = session_id
        self.seen = seen
        self.newest = newest
        super().__init__(
            f"session {session_id}: the log has entry {newest}, the writer saw up to {seen}"
        )


MIGRATIONS: tuple[str, ...] = (
    # 0 -> 1: roster, sessions, log.
    """
    CREATE TABLE roster (
        id          INTEGER PRIMARY KEY,
        name        TEXT NOT NULL UNIQUE COLLATE NOCASE,
        colour      TEXT,
        birth_date  TEXT,
        created_at  TEXT NOT NULL
    );
    CREATE TABLE sessions (
        id          TEXT PRIMARY KEY,
        game        TEXT NOT NULL,
        options     TEXT NOT NULL,
        players     TEXT NOT NULL,
        started_at  TEXT NOT NULL,
        ended_at    TEXT,
        outcome     TEXT
    );
    CREATE TABLE entries (
        session_id  TEXT NOT NULL REFERENCES sessions(id),
        seq         INTEGER NOT NULL,
        kind        TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'redo', 'hw')),
        payload     TEXT NOT NULL,
        at          TEXT NOT NULL,
        mono_ns     INTEGER NOT NULL,
        PRIMARY KEY (session_id, seq)
    ) WITHOUT ROWID;
    """,
    # 1 -> 2: sessions can be abandoned (kept in history, marked), and the history
    # list filters by game and date without scanning.
    """
    ALTER TABLE sessions ADD COLUMN status TEXT NOT NULL DEFAULT 'active'
        CHECK (status IN ('active', 'finished', 'abandoned'));
    UPDATE sessions SET status = 'finished' WHERE ended_at IS NOT NULL;
    CREATE INDEX sessions_by_game ON sessions(game, started_at);
    CREATE INDEX sessions_by_status ON sessions(status);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
ENTRY_KINDS = ("action", "undo", "redo", "hw")


def utc_now() -> str:
    """Wall-clock time as ISO 8601 UTC with milliseconds (for people, not ordering)."""
    t = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t)) + f".{int(t * 1000) % 1000:03d}Z"


@dataclass(frozen=True)
class RosterEntry:
    id: int
    name: str
    colour: str | None
    birth_date: str | None


@dataclass(frozen=True)
class SessionRow:
    id: str
    game: str
    options: dict[str, Any]
    players: tuple[Player, ...]
    started_at: str
    ended_at: str | None
    outcome: dict[str, Any] | None
    status: str


@dataclass(frozen=True)
class Entry:
    """One log entry. ``payload`` is JSON-ready; ``mono_ns`` is host-monotonic time."""

    seq: int
    kind: str
    payload: dict[str, Any]
    at: str
    mono_ns: int


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class Store:
    """One database file. Use ``Store.open``; close when done.

    Every writing method is one transaction, committed (and, with
    ``synchronous=FULL``, on disk) before it returns.

    Each thread gets its own SQLite connection (``conn``): the UI thread reads while
    the writer thread commits, and one connection shared by two threads can
    deadlock inside the driver. WAL lets the readers go on during a write; two
    writers queue on ``BEGIN IMMEDIATE`` (busy timeout 5 s). An in-memory store has
    one connection for all threads (there is no file to share).
    """

    def __init__(
        self, conn: sqlite3.Connection, path: Path | None, readonly: bool, uri: str | None = None
    ) -> None:
        self.path = path
        self.readonly = readonly
        self._uri = uri
        self._local = threading.local()
        self._local.conn = conn
        self._first = conn
        self._connections = [conn]
        self._guard = threading.Lock()

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection (opened and configured on first use)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        if self._uri is None:  # in-memory: one connection for everyone
            return self._first
        conn = sqlite3.connect(self._uri, uri=True, isolation_level=None, check_same_thread=False)
        self._connection_pragmas(conn)
        with self._guard:
            self._connections.append(conn)
        self._local.conn = conn
        return conn

    def _connection_pragmas(self, c: sqlite3.Connection) -> None:
        """Settings that belong to each connection (WAL mode belongs to the file)."""
        c.execute("PRAGMA busy_timeout = 5000")
        if self.readonly:
            c.execute("PRAGMA query_only = ON")
        else:
            c.execute("PRAGMA synchronous = FULL")
            c.execute("PRAGMA foreign_keys = ON")

    # ------------------------------------------------------------------ opening

    @classmethod
    def open(cls, path: str | Path, *, readonly: bool = False) -> Store:
        """Open (creating and migrating if needed) or refuse with ``StoreError``."""
        p = Path(path)
        if p.exists() and p.is_dir():
            raise StoreError(f"{p} is a folder, not a database file.")
        if p.exists() and p.stat().st_size > 0:
            with p.open("rb") as fh:
                head = fh.read(16)
            if head != b"SQLite format 3\x00":
                raise StoreError(
                    f"{p} is not a SQLite database. It was left untouched; "
                    "choose another file with --db or COMPANION_DB."
                )
        if readonly:
            if not p.exists():
                raise StoreError(f"{p} does not exist yet.")
            uri = f"{p.resolve().as_uri()}?mode=ro"
        else:
            p.parent.mkdir(parents=True, exist_ok=True)
            uri = f"{p.resolve().as_uri()}?mode=rwc"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        try:
            store = cls(conn, p, readonly, uri)
            store._configure()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StoreError(f"{p} cannot be used as a database: {exc}.") from exc
        except StoreError:
            conn.close()
            raise
        return store

    @classmethod
    def memory(cls) -> Store:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        store = cls(conn, None, False)
        store._configure()
        return store

    def _configure(self) -> None:
        c = self._first
        c.execute("PRAGMA busy_timeout = 5000")
        version = c.execute("PRAGMA user_version").fetchone()[0]
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"This database was written by a newer companion (schema {version}; this "
                f"version knows {SCHEMA_VERSION}). It was left untouched: update the "
                "companion, or choose another file with --db."
            )
        if self.readonly:
            if version < SCHEMA_VERSION:
                raise StoreError(
                    "The database is older than this companion; open it once "
                    "with the host app to upgrade it."
                )
            c.execute("PRAGMA query_only = ON")
            return
        c.execute("PRAGMA journal_mode = WAL")
        c.execute("PRAGMA synchronous = FULL")
        c.execute("PRAGMA foreign_keys = ON")
        self.migrate()

    def migrate(self, target: int = SCHEMA_VERSION) -> None:
        """Apply migrations from the file's version to ``target``, one transaction each."""
        version = self.conn.execute("PRAGMA user_version").fetchone()[0]
        while version < target:
            with self.transaction():
                for statement in _split_sql(MIGRATIONS[version]):
                    self.conn.execute(statement)
                self.conn.execute(f"PRAGMA user_version = {version + 1}")
            version += 1

    @property
    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._guard:
            for conn in self._connections:
                conn.close()
            self._connections.clear()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` … ``COMMIT``; rolled back on any exception."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    def data_version(self) -> int:
        """Changes when *another* connection commits (cheap change detection)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    # ------------------------------------------------------------------ roster

    def roster(self) -> list[RosterEntry]:
        rows = self.conn.execute(
            "SELECT id, name, colour, birth_date FROM roster ORDER BY name COLLATE NOCASE"
        )
        return [RosterEntry(*row) for row in rows]

    def add_to_roster(
        self, name: str, colour: str | None = None, birth_date: str | None = None
    ) -> RosterEntry:
        clean = name.strip()
        if not clean:
            raise StoreError("A player needs a name.")
        with self.transaction() as c:
            row = c.execute(
                "SELECT id, name, colour, birth_date FROM roster WHERE name = ?", (clean,)
            ).fetchone()
            if row is not None:
                c.execute(
                    "UPDATE roster SET colour = coalesce(?, colour), "
                    "birth_date = coalesce(?, birth_date) WHERE id = ?",
                    (colour, birth_date, row[0]),
                )
                return RosterEntry(row[0], row[1], colour or row[2], birth_date or row[3])
            cur = c.execute(
                "INSERT INTO roster(name, colour, birth_date, created_at) VALUES (?, ?, ?, ?)",
                (clean, colour, birth_date, utc_now()),
            )
            return RosterEntry(int(cur.lastrowid or 0), clean, colour, birth_date)

    # ------------------------------------------------------------------ sessions

    def create_session(
        self,
        game: str,
        options: dict[str, Any],
        players: Sequence[Player],
        session_id: str | None = None,
        started_at: str | None = None,
    ) -> str:
        sid = session_id or str(uuid.uuid4())
        with self.transaction() as c:
            c.execute(
                "INSERT INTO sessions(id, game, options, players, started_at, status) "
                "VALUES (?, ?, ?, ?, ?, 'active')",
                (
                    sid,
                    game,
                    _dumps(options),
                    _dumps([p.to_json() for p in players]),
                    started_at or utc_now(),
                ),
            )
        return sid

    def session(self, session_id: str) -> SessionRow:
        row = self.conn.execute(
            "SELECT id, game, options, players, started_at, ended_at, outcome, status "
            "FROM sessions WHERE id = ?",
            (session_id,),
        ).fetchone()
        if row is None:
            matches = self.conn.execute(
                "SELECT id FROM sessions WHERE id LIKE ? LIMIT 2", (session_id + "%",)
            ).fetchall()
            if len(matches) == 1:
                return self.session(matches[0][0])
            raise StoreError(f"No session {session_id!r} in this database.")
        return _session_row(row)

    def sessions(
        self, status: str | None = None, game: str | None = None, limit: int | None = None
    ) -> list[SessionRow]:
        sql = (
            "SELECT id, game, options, players, started_at, ended_at, outcome, status FROM sessions"
        )
        where: list[str] = []
        args: list[Any] = []
        if status:
            where.append("status = ?")
            args.append(status)
        if game:
            where.append("game = ?")
            args.append(game)
        if where:
            sql += " WHERE " + " AND ".join(where)
        sql += " ORDER BY started_at DESC, id"
        if limit:
            sql += f" LIMIT {int(limit)}"
        return [_session_row(r) for r in self.conn.execute(sql, args)]

    def set_status(self, session_id: str, status: str) -> None:
        with self.transaction() as c:
            c.execute("UPDATE sessions SET status = ? WHERE id = ?", (status, session_id))

    # ------------------------------------------------------------------ log

    def append(
        self,
        session_id: str,
        seq: int,
        kind: str,
        payload: dict[str, Any],
        mono_ns: int,
        *,
        outcome: dict[str, Any] | None = None,
        reopen: bool = False,
        at: str | None = None,
    ) -> Entry:
        """Append one entry (and the session's end state) in one transaction.

        ``outcome`` is written when this entry ends the game; ``reopen`` clears it
        when an undo brings a finished game back. Raises ``sqlite3.IntegrityError``
        if ``seq`` is taken: two writers must never share a session.
        """
        if kind not in ENTRY_KINDS:
            raise ValueError(f"unknown entry kind {kind!r}")
        stamp = at or utc_now()
        with self.transaction() as c:
            self._insert_entry(c, session_id, seq, kind, payload, stamp, mono_ns, outcome, reopen)
        return Entry(seq, kind, payload, stamp, mono_ns)

    def append_next(
        self,
        session_id: str,
        kind: str,
        payload: dict[str, Any],
        mono_ns: int,
        *,
        after: int | None = None,
        outcome: dict[str, Any] | None = None,
        reopen: bool = False,
        at: str | None = None,
    ) -> Entry:
        """Append one entry at the next seq, computed inside the write transaction.

        The seq is ``max(seq) + 1`` read under ``BEGIN IMMEDIATE``, so no counter in
        memory can be ahead of or behind the database, and a failed write leaves no
        hole. ``after`` is the newest seq the caller's state was computed from: if the
        database holds a newer entry (another window wrote one), ``StaleError`` is
        raised and nothing is written.
        """
        if kind not in ENTRY_KINDS:
            raise ValueError(f"unknown entry kind {kind!r}")
        stamp = at or utc_now()
        with self.transaction() as c:
            newest = int(
                c.execute(
                    "SELECT coalesce(max(seq), 0) FROM entries WHERE session_id = ?", (session_id,)
                ).fetchone()[0]
            )
            if after is not None and newest != after:
                raise StaleError(session_id, after, newest)
            seq = newest + 1
            self._insert_entry(c, session_id, seq, kind, payload, stamp, mono_ns, outcome, reopen)
        return Entry(seq, kind, payload, stamp, mono_ns)

    @staticmethod
    def _insert_entry(
        c: sqlite3.Connection,
        session_id: str,
        seq: int,
        kind: str,
        payload: dict[str, Any],
        stamp: str,
        mono_ns: int,
        outcome: dict[str, Any] | None,
        reopen: bool,
    ) -> None:
        c.execute(
            "INSERT INTO entries(session_id, seq, kind, payload, at, mono_ns) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (session_id, seq, kind, _dumps(payload), stamp, mono_ns),
        )
        if outcome is not None:
            c.execute(
                "UPDATE sessions SET ended_at = ?, outcome = ?, status = 'finished' WHERE id = ?",
                (stamp, _dumps(outcome), session_id),
            )
        elif reopen:
            c.execute(
                "UPDATE sessions SET ended_at = NULL, outcome = NULL, "
                "status = 'active' WHERE id = ?",
                (session_id,),
            )

    def entries(self, session_id: str, after: int = 0) -> list[Entry]:
        rows = self.conn.execute(
            "SELECT seq, kind, payload, at, mono_ns FROM entries "
            "WHERE session_id = ? AND seq > ? ORDER BY seq",
            (session_id, after),
        )
        return [
            Entry(seq, kind, json.loads(payload), at, mono_ns)
            for seq, kind, payload, at, mono_ns in rows
        ]

    def last_seq(self, session_id: str) -> int:
        row = self.conn.execute(
            "SELECT max(seq) FROM entries WHERE session_id = ?", (session_id,)
        ).fetchone()
        return int(row[0] or 0)

    def import_session(self, row: SessionRow, entries: Sequence[Entry]) -> bool:
        """Insert a whole session (from an export) in one transaction.

        Returns False, changing nothing, if a session with this id is present.
        """
        with self.transaction() as c:
            if c.execute("SELECT 1 FROM sessions WHERE id = ?", (row.id,)).fetchone():
                return False
            self._insert_session(c, row, entries)
        return True

    def import_sessions(
        self,
        items: Sequence[tuple[SessionRow, Sequence[Entry]]],
        on_each: Callable[[SessionRow, bool], None] | None = None,
    ) -> int:
        """Insert many sessions all-or-nothing; ones already present are skipped."""
        added = 0
        with self.transaction() as c:
            for row, entries in items:
                present = (
                    c.execute("SELECT 1 FROM sessions WHERE id = ?", (row.id,)).fetchone()
                    is not None
                )
                if not present:
                    self._insert_session(c, row, entries)
                    added += 1
                if on_each:
                    on_each(row, not present)
        return added

    @staticmethod
    def _insert_session(c: sqlite3.Connection, row: SessionRow, entries: Sequence[Entry]) -> None:
        c.execute(
            "INSERT INTO sessions(id, game, options, players, started_at, ended_at, "
            "outcome, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                row.id,
                row.game,
                _dumps(row.options),
                _dumps([p.to_json() for p in row.players]),
                row.started_at,
                row.ended_at,
                _dumps(row.outcome) if row.outcome is not None else None,
                row.status,
            ),
        )
        c.executemany(
            "INSERT INTO entries(session_id, seq, kind, payload, at, mono_ns) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(row.id, e.seq, e.kind, _dumps(e.payload), e.at, e.mono_ns) for e in entries],
        )


def _session_row(row: Sequence[Any]) -> SessionRow:
    sid, game, options, players, started, ended, outcome, status = row
    return SessionRow(
        id=sid,
        game=game,
        options=json.loads(options),
        players=tuple(Player.from_json(p) for p in json.loads(players)),
        started_at=started,
        ended_at=ended,
        outcome=json.loads(outcome) if outcome else None,
        status=status,
    )


def _split_sql(script: str) -> list[str]:
    """Statements of a migration script (ours contain no ';' inside strings)."""
    return [s.strip() for s in script.split(";") if s.strip()]
