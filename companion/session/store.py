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

import contextlib
import json
import re
import sqlite3
import stat
import threading
import time
import uuid
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules.base import N_, Player
from companion.session import summary as _summary


class StoreError(Exception):
    """The database cannot be used; the message says why and what to do.

    Like ``RuleError``: an English template (marked ``N_``) and its parameters;
    ``render(_)`` gives it in the host's language, ``str()`` in English.
    """

    def __init__(self, template: str, **params: Any) -> None:
        self.template = template
        self.params = params
        super().__init__(self.render())

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        text = gettext(self.template) if gettext is not None else self.template
        params = {
            k: (gettext(v) if gettext is not None and v in PROBLEMS else v)
            for k, v in self.params.items()
        }
        for candidate in (text, self.template):
            try:
                return candidate.format(**params)
            except (KeyError, IndexError, ValueError):
                continue
        return self.template


class WriteError(StoreError, sqlite3.OperationalError):
    """A write was refused by the disk or the lock; nothing of it was saved.

    Also an ``sqlite3.OperationalError``, so callers that caught SQLite's own error
    still do; ``render(_)`` names the cause ("the disk is full") for the host.
    """

    def __init__(self, exc: sqlite3.Error) -> None:
        self.problem = db_problem(exc)
        super().__init__(NOT_SAVED, problem=self.problem)


NOT_SAVED = N_("Not saved: {problem}. Nothing was changed; the app goes on.")


class ImportConflict(StoreError):
    """An imported session has the id of a stored one but a different history.

    ``seq`` is the first entry that differs (None: the game, players or options do).
    """

    def __init__(self, session_id: str, seq: int | None) -> None:
        if seq is None:
            super().__init__(CONFLICT_SETUP, session=session_id)
        else:
            super().__init__(CONFLICT_ENTRY, session=session_id, seq=seq)
        self.session_id = session_id
        self.seq = seq


CONFLICT_SETUP = N_(
    "Session {session} is already in the history with other players, options or "
    "game; it was not imported, nor anything else from this file."
)
CONFLICT_ENTRY = N_(
    "Session {session} is already in the history, and its entry {seq} differs from "
    "the file's; it was not imported, nor anything else from this file."
)


class DamagedError(StoreError):
    """One stored session cannot be read back; the rest of the history can."""

    def __init__(self, session_id: str, where: str, problem: str) -> None:
        # An id read from damaged bytes may hold lone surrogates: shown escaped.
        shown = session_id.encode("utf-8", "backslashreplace").decode("utf-8")
        super().__init__(DAMAGED_SESSION, session=shown, where=where, problem=problem)
        self.session_id = session_id
        self.where = where
        self.problem = problem


DAMAGED_SESSION = N_(
    "Session {session} is damaged ({where}: {problem}); the rest of the history can "
    "be used. Restore a backup to get it back (companion restore FILE)."
)


class DiskFull(StoreError):
    """The disk of the database has no room: it can be read, not written.

    ``free`` is what is left, in bytes. Read-only opens still work there (the file is
    then read ``immutable``: no -shm or -wal is created beside it).
    """

    def __init__(self, path: Path, free: int) -> None:
        self.path = path
        self.free = free
        super().__init__(DISK_FULL_START, free=f"{free / 2**20:.1f}")


DISK_FULL_START = N_(
    "The disk is full ({free} MiB free); history and exports still work, new entries "
    "cannot be saved. Free some space and start the companion again."
)
FULL_BELOW = 512 * 1024
"""Less free space than this (bytes) on the database's disk is a full disk: a -shm
(32 KiB) and the first commits of a -wal would not fit, or hardly."""


def free_space(path: Path) -> int | None:
    """Bytes free on the disk of ``path`` (its folder); None if it cannot be known."""
    import shutil

    folder = path if path.is_dir() else path.parent
    try:
        return shutil.disk_usage(folder).free
    except OSError:
        return None


def disk_is_full(path: Path) -> int | None:
    """The free bytes if the disk of ``path`` is full (below ``FULL_BELOW``), else None."""
    free = free_space(path)
    return free if free is not None and free < FULL_BELOW else None


class HistoryMissing(StoreError):
    """The file holds less than this companion last saved there (``record.py``).

    It was not used and is untouched; ``offer`` is the newest backup that has the
    missing history (``offer_lacks``: what even it lacks; None: it has it all).
    """

    def __init__(
        self,
        path: Path,
        lack: Any,
        offer: Path | None = None,
        offer_lacks: Any = None,
        wal_cut: tuple[int, int] | None = None,
    ) -> None:
        self.path = path
        self.lack = lack
        self.offer = offer
        self.offer_lacks = offer_lacks
        self.wal_cut = wal_cut
        super().__init__(MISSING_ALL if lack.sessions_found == 0 else MISSING_SOME)

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        tr = gettext or (lambda text: text)
        lack = self.lack
        if self.wal_cut is not None:
            head = tr(WAL_CUT).format(path=self.path, frame=self.wal_cut[0], n=self.wal_cut[1])
        elif lack.sessions_found == 0:
            head = tr(MISSING_ALL).format(
                path=self.path, sessions=lack.recorded.sessions, entries=lack.recorded.entries
            )
        else:
            head = tr(MISSING_SOME).format(
                path=self.path,
                lost=_lost_text(lack, tr),
            )
        if self.offer is None:
            tail = tr(OFFER_NONE)
        elif self.offer_lacks is None:
            tail = tr(OFFER_FULL).format(backup=self.offer)
        else:
            lacking = _lost_text(self.offer_lacks, tr)
            tail = tr(OFFER_PART).format(backup=self.offer, lacking=lacking)
        return f"{head} {tail}"


def _lost_text(lack: Any, tr: Callable[[str], str]) -> str:
    return tr(LOST).format(
        sessions=lack.sessions_missing, entries=lack.entries_missing, behind=len(lack.behind)
    )


MISSING_ALL = N_(
    "{path} is empty or missing, but the history kept there had {sessions} sessions "
    "({entries} entries). It was not used, and nothing was written to it."
)
MISSING_SOME = N_(
    "{path} holds less than this companion saved there: {lost}. It was not used and "
    "was left untouched (the newest commits are lost with a damaged or deleted -wal)."
)
WAL_CUT = N_(
    "{path}: its -wal is damaged at frame {frame}, and SQLite would drop the {n} "
    "frames of commits after it. It was not used and was left untouched."
)
LOST = N_("sessions missing: {sessions}; entries missing: {entries} (in {behind} sessions)")
OFFER_FULL = N_(
    "The newest backup that has all of it is {backup}: run 'companion restore' to put "
    "it back (the damaged file is kept aside, untouched)."
)
OFFER_PART = N_(
    "The newest backup, {backup}, has part of it (still missing there: {lacking}): run "
    "'companion restore' to put it back (the damaged file is kept aside, untouched)."
)
OFFER_NONE = N_(
    "No backup has it. Restore a backup or an export you kept (companion restore FILE), "
    "or go on with the file as it is (companion check --accept-loss)."
)

APPLICATION_ID = 0x436F6D70
"""``PRAGMA application_id`` of companion databases (the bytes "Comp")."""
BASE_TABLES = frozenset({"roster", "sessions", "entries"})
"""The tables every companion database has had (schema 1 on)."""
OUR_TABLES = BASE_TABLES | _summary.TABLES
SQLITE_HEADER = b"SQLite format 3\x00"

IS_FOLDER = N_("{path} is a folder, not a database file.")
NOT_A_FILE = N_("{path} is not a regular file (a device or a pipe), so not a database.")
NOT_SQLITE = N_(
    "{path} is not a SQLite database. It was left untouched; choose another file "
    "with --db or COMPANION_DB."
)
FOREIGN = N_(
    "{path} is another program's SQLite database (tables: {tables}). It was left "
    "untouched; choose another file with --db or COMPANION_DB."
)
NEWER = N_(
    "{path} was written by a newer companion (schema {version}; this version knows "
    "{known}). It was left untouched: update the companion, or choose another file "
    "with --db."
)
UNREADABLE = N_(
    "{path} cannot be read as a database ({problem}). It was left untouched; restore "
    "a backup (companion restore FILE) or choose another file with --db."
)
CANNOT_OPEN = N_("{path} cannot be used as a database: {problem}.")
OLDER_READONLY = N_(
    "{path} is older than this companion; open it once with the host app to upgrade it."
)


DISK_FULL = N_("the disk is full")
READ_ONLY = N_("the disk is read-only")
DB_READ_ONLY = N_("the database is read-only")
DENIED = N_("permission denied")
QUOTA = N_("the disk quota is used up")
LOCKED = N_("the database is locked by another program")
IO_ERROR = N_("the disk failed to read or write (disk I/O error)")
DAMAGED = N_("the file is damaged")
PROBLEMS = frozenset(
    {
        DISK_FULL,
        READ_ONLY,
        DB_READ_ONLY,
        DENIED,
        QUOTA,
        LOCKED,
        IO_ERROR,
        DAMAGED,
        N_("expected text"),
        N_("unknown status"),
        N_("not a list of players"),
        N_("expected JSON text"),
        N_("not valid JSON"),
        N_("JSON of the wrong shape"),
        N_("a seq that is not a positive number"),
        N_("unknown entry kind"),
        N_("a time that is not readable"),
        N_("its checksum does not match: the stored data changed"),
        N_("text that is not UTF-8: the stored bytes changed"),
    }
)
CHANGED = N_("its checksum does not match: the stored data changed")
NOT_UTF8 = N_("text that is not UTF-8: the stored bytes changed")
"""Causes that ``StoreError.render`` translates when they are a parameter."""


def os_problem(exc: OSError) -> str:
    """An ``OSError`` as a cause a host understands ("the disk is full")."""
    import errno

    causes = {
        errno.ENOSPC: DISK_FULL,
        errno.EROFS: READ_ONLY,
        errno.EACCES: DENIED,
        errno.EPERM: DENIED,
        errno.EDQUOT: QUOTA,
    }
    return causes.get(exc.errno or 0, exc.strerror or str(exc))


def db_problem(exc: sqlite3.Error) -> str:
    """A SQLite error as a cause a host understands ("the disk is full")."""
    text = str(exc)
    code = getattr(exc, "sqlite_errorcode", None)
    if code == getattr(sqlite3, "SQLITE_FULL", 13) or "database or disk is full" in text:
        return DISK_FULL
    if "readonly" in text or "read-only" in text:
        return DB_READ_ONLY
    if "locked" in text or "busy" in text:
        return LOCKED
    if "disk I/O error" in text:
        return IO_ERROR
    if "malformed" in text or "not a database" in text:
        return DAMAGED
    return text


@dataclass(frozen=True)
class Inspection:
    """What an existing file is, learnt without changing a byte of it."""

    exists: bool
    """False: absent, or empty (it becomes a new database)."""
    version: int = 0
    ours: bool = False


def _retry_locked(fn: Callable[[], object], seconds: float = 5.0) -> None:
    """Run ``fn``, retrying while another connection holds the lock it needs.

    Changing the journal mode of a new file takes an exclusive lock, and SQLite
    does not always wait for it through the busy handler when many apps start on
    the same new file at once.
    """
    deadline = time.monotonic() + seconds
    while True:
        try:
            fn()
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


OWNER_WAIT_S = 15.0
"""How long a read-only open waits for the owner app to create or upgrade the file."""


def _owner_is_creating(path: Path) -> bool:
    from companion.session.owner import holder  # here: owner imports nothing of ours

    return holder(path) is not None


def _wait_for_owner(path: Path, ready: Callable[[], bool]) -> Any:
    """Poll ``ready`` while another app holds the owner lock (at most ``OWNER_WAIT_S``).

    Returns what ``inspect_file`` says of the file after the wait (the caller
    decides again). The owner's migration is one transaction, so this ends as soon
    as it commits, or when the owner gives up and releases the lock.
    """
    deadline = time.monotonic() + OWNER_WAIT_S
    while time.monotonic() < deadline:
        try:
            if ready():
                break
        except sqlite3.OperationalError:  # locked for an instant by the migration
            pass
        if not _owner_is_creating(path):
            break
        time.sleep(0.02)
    return inspect_file(path)


def inspect_file(path: str | Path, attempts: int = 5) -> Inspection:
    """``_inspect_file``, tried again when it fails while another app creates the file.

    A file being created (or its -wal checkpointed) by another app at this moment
    can look damaged for an instant; a damaged file still is after a few tries.
    """
    for attempt in range(attempts):
        try:
            return _inspect_file(path)
        except StoreError as exc:
            if exc.template not in (UNREADABLE, FOREIGN, NOT_SQLITE) or attempt == attempts - 1:
                raise
            time.sleep(0.02 * (attempt + 1))
    raise AssertionError("unreachable")


def _inspect_file(path: str | Path) -> Inspection:
    """Decide whether ``path`` may be opened, without touching it or its -wal/-shm.

    Absent and empty files become new databases. Anything else must be a SQLite
    file that is ours (our ``application_id``, or an older companion's tables) at
    a schema this version knows; otherwise ``StoreError`` says why, and the file,
    its -wal and its -shm are byte-identical afterwards. A file whose owner lock
    is held is ours (the owner accepted it) and is not inspected again.

    The file is read with ``immutable=1`` (no lock, no -shm, no -wal read). If a
    -wal holds commits, the main file alone is not the truth: the file and its
    -wal are copied to a temporary folder and the copy is read.
    """
    p = Path(path)
    try:
        st = p.stat()
    except FileNotFoundError:
        return Inspection(exists=False)
    except OSError as exc:
        raise StoreError(CANNOT_OPEN, path=str(p), problem=os_problem(exc)) from exc
    if stat.S_ISDIR(st.st_mode):
        raise StoreError(IS_FOLDER, path=str(p))
    if not stat.S_ISREG(st.st_mode):
        raise StoreError(NOT_A_FILE, path=str(p))
    head = b""

    wal = p.with_name(p.name + "-wal")
    wal_size = wal.stat().st_size if wal.is_file() else 0
    if st.st_size == 0 and wal_size == 0:
        return Inspection(exists=False)
    if st.st_size > 0:
        try:
            with p.open("rb") as fh:
                head = fh.read(100)
        except OSError as exc:
            raise StoreError(CANNOT_OPEN, path=str(p), problem=os_problem(exc)) from exc
        if not head.startswith(SQLITE_HEADER):
            raise StoreError(NOT_SQLITE, path=str(p))
    from companion.session.owner import holder  # here: owner imports nothing of ours

    if holder(p) is not None:
        return Inspection(exists=True, version=SCHEMA_VERSION, ours=True)
    if wal_size == 0 and len(head) == 100:
        # The header alone says it is ours, and with no -wal the file is the truth.
        version = int.from_bytes(head[60:64], "big")
        if int.from_bytes(head[68:72], "big") == APPLICATION_ID:
            _refuse_newer(p, version)
            return Inspection(exists=True, version=version, ours=True)
    try:
        if wal_size == 0:
            facts = _read_facts(f"{p.resolve().as_uri()}?mode=ro&immutable=1")
        else:
            facts = _read_facts_of_copy(p, wal)
    except sqlite3.DatabaseError as exc:
        raise StoreError(UNREADABLE, path=str(p), problem=db_problem(exc)) from exc
    except OSError as exc:
        raise StoreError(UNREADABLE, path=str(p), problem=os_problem(exc)) from exc
    version, app_id, tables = facts
    user_tables = sorted(t for t in tables if not t.startswith("sqlite_"))
    if app_id == 0 and set(user_tables) >= BASE_TABLES:
        _refuse_newer(p, version)  # a newer companion may add tables
    if app_id not in (0, APPLICATION_ID) or (
        app_id == 0 and user_tables and not set(user_tables) <= OUR_TABLES
    ):
        raise StoreError(FOREIGN, path=str(p), tables=", ".join(user_tables) or "-")
    _refuse_newer(p, version)
    if app_id == 0 and not user_tables and version == 0:
        return Inspection(exists=True, version=0, ours=False)  # an empty SQLite file
    return Inspection(exists=True, version=version, ours=True)


def _read_facts(uri: str) -> tuple[int, int, list[str]]:
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
        app_id = int(conn.execute("PRAGMA application_id").fetchone()[0])
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    finally:
        conn.close()
    return version, app_id, tables


def _read_facts_of_copy(p: Path, wal: Path) -> tuple[int, int, list[str]]:
    import shutil
    import tempfile

    with tempfile.TemporaryDirectory(prefix="companion-inspect-") as tmp:
        copy = Path(tmp) / "db.sqlite3"
        shutil.copyfile(p, copy)
        shutil.copyfile(wal, Path(tmp) / "db.sqlite3-wal")
        return _read_facts(f"{copy.as_uri()}?mode=rw")


def _settled(p: Path) -> bool:
    """No app holds the file and its -wal holds no commit: the main file is the truth."""
    wal = p.with_name(p.name + "-wal")
    try:
        empty_wal = not wal.exists() or wal.stat().st_size == 0
    except OSError:
        return False
    return empty_wal and not _owner_is_creating(p)


def _absent_companions(p: Path) -> list[Path]:
    """The -wal and -shm that do not exist beside ``p`` now (an open may create them)."""
    return [f for f in (p.with_name(p.name + s) for s in ("-wal", "-shm")) if not f.exists()]


def _remove_debris(p: Path, created: list[Path]) -> None:
    """Remove the -wal/-shm a failed open just created (empty or a partial -shm),
    when no other app has the file open: a full disk keeps no debris of ours."""
    if _owner_is_creating(p):
        return
    for f in created:
        with contextlib.suppress(OSError):
            if f.stat().st_size <= 32768 and (f.name.endswith("-shm") or f.stat().st_size == 0):
                f.unlink()


def history_missing(path: str | Path) -> HistoryMissing | None:
    """What ``Store.open`` would refuse the file for, as a ``HistoryMissing`` (None: it
    holds what its record says). Reads only; ``restore`` asks before replacing."""
    p = Path(path)
    try:
        if inspect_file(p).exists:
            _refuse_behind(p)
        else:
            _refuse_lost_file(p)
    except HistoryMissing as exc:
        return exc
    except StoreError:
        return None
    return None


def _refuse_behind(p: Path) -> None:
    """``HistoryMissing`` if the file holds less than its record, read without touching
    it: ``immutable`` with no -wal, else a copy of the file and its -wal (opening the
    file itself would check the -wal into it and delete it)."""
    from companion.session import record as rec
    from companion.session.owner import holder

    if holder(p) is not None:
        return  # the owner (it compared) has it open
    recorded = rec.read_record(p)
    wal = p.with_name(p.name + "-wal")
    cut = rec.wal_cut(wal) if wal.is_file() and wal.stat().st_size > 0 else None
    if cut is not None:  # opening it would drop the commits after the damage, for good
        evidence = recorded or rec.Record()
        offer = rec.best_backup(p, evidence) if recorded is not None else None
        if offer is None:
            newest = rec.backups_of(p)
            offer = (newest[0], rec.Missing(evidence, 0, {})) if newest else None
        raise HistoryMissing(
            p,
            rec.Missing(evidence, 1, {}),
            offer[0] if offer else None,
            offer[1] if offer else None,
            wal_cut=cut,
        )
    if recorded is None:
        return
    try:
        if wal.is_file() and wal.stat().st_size > 0:
            lack = _missing_in_copy(p, wal, recorded)
        else:
            conn = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro&immutable=1", uri=True)
            try:
                lack = rec.missing(conn, recorded)
            finally:
                conn.close()
    except sqlite3.OperationalError as exc:
        if "no such table" not in str(exc):
            return  # locked, unreadable: the open itself says so
        # A file without our tables where a history was (its -wal held them all).
        from companion.session.record import Missing

        lack = Missing(recorded, 0, {}) if recorded.sessions > 0 else None
    except (sqlite3.DatabaseError, OSError, UnicodeDecodeError):
        # Damaged beyond counting: the open or the integrity check says so. (SQLite's
        # message about a damaged schema can quote the damaged bytes, and the sqlite3
        # module then fails to decode the message itself: UnicodeDecodeError.)
        return
    if lack is not None:
        offer = rec.best_backup(p, recorded)
        raise HistoryMissing(p, lack, offer[0] if offer else None, offer[1] if offer else None)


def _missing_in_copy(p: Path, wal: Path, recorded: Any) -> Any:
    import shutil
    import tempfile

    from companion.session import record as rec

    with tempfile.TemporaryDirectory(prefix="companion-inspect-") as tmp:
        copy = Path(tmp) / "db.sqlite3"
        shutil.copyfile(p, copy)
        shutil.copyfile(wal, Path(tmp) / "db.sqlite3-wal")
        conn = sqlite3.connect(f"{copy.as_uri()}?mode=rw", uri=True)
        try:
            return rec.missing(conn, recorded)
        finally:
            conn.close()


def _refuse_lost_file(p: Path) -> None:
    """An absent or empty file where the record or a backup says a history was:
    ``HistoryMissing`` (nothing is created or written in its place)."""
    from companion.session import record as rec

    evidence = rec.has_history(p)
    if evidence is None:
        return
    lack = rec.Missing(evidence, 0, {})
    offer = rec.best_backup(p, evidence)
    raise HistoryMissing(p, lack, offer[0] if offer else None, offer[1] if offer else None)


def _refuse_newer(path: Path | None, version: int) -> None:
    if version > SCHEMA_VERSION:
        raise StoreError(NEWER, path=str(path), version=version, known=SCHEMA_VERSION)


def _foreign_tables(c: sqlite3.Connection) -> list[str]:
    rows = c.execute("SELECT name FROM sqlite_master WHERE type='table'")
    return sorted(r[0] for r in rows if not r[0].startswith("sqlite_") and r[0] not in OUR_TABLES)


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
    # 2 -> 3: a checksum of every entry and of every session's setup, so damage that
    # SQLite cannot see (a changed digit inside valid JSON) is found when read.
    # Rows written before have none (NULL) and are not checked.
    """
    ALTER TABLE entries ADD COLUMN crc INTEGER;
    ALTER TABLE sessions ADD COLUMN crc INTEGER;
    """,
    # 3 -> 4: the history's summary tables (``companion.session.summary``), kept at
    # commit time so the list and the statistics are SQL aggregates, not a fold of
    # every session; filled from the stored sessions by ``FILLS[3]``.
    _summary.SCHEMA,
    # 4 -> 5: History's page and Home's newest sessions (newest first, then by id)
    # walk an index instead of sorting every session (18 ms -> 0.4 ms at 10,000).
    """
    CREATE INDEX sessions_by_start ON sessions(started_at DESC, id);
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)
FILLS: dict[int, Callable[[sqlite3.Connection], None]] = {3: _summary.fill}
"""Python steps run after ``MIGRATIONS[i]``'s SQL, in the same transaction."""
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


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), sort_keys=True)
"""The stored JSON's one form (compact, keys sorted, text as it is). ``json.dumps``
with these options builds an encoder a call: a club's import writes 300,000 payloads.
An encoder keeps no state between calls, so one serves every thread."""


def _dumps(value: Any) -> str:
    return _ENCODER.encode(value)


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
        conn.text_factory = read_text
        self._local.conn = conn
        self._first = conn
        self._connections = [conn]
        self._guard = threading.Lock()
        self.damaged: dict[str, DamagedError] = {}
        """Sessions found damaged while listing (skipped, reported by ``check``)."""
        self.unreadable: str | None = None
        """Set when a listing stopped at a page SQLite cannot read (the cause)."""
        self.missing: Any = None
        """A read-only open of a file behind its record: what it lacks (``record.Missing``)."""
        self._record: Any = None
        """A writer's record of what it committed (``record.Record``; None: not kept)."""
        self._record_lock = threading.Lock()
        self._record_file: Any = None
        self._record_thread: threading.Thread | None = None
        self._record_wake = threading.Event()
        self._record_stop = False

    @property
    def conn(self) -> sqlite3.Connection:
        """This thread's connection (opened and configured on first use)."""
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is not None:
            return conn
        if self._uri is None:  # in-memory: one connection for everyone
            return self._first
        conn = sqlite3.connect(self._uri, uri=True, isolation_level=None, check_same_thread=False)
        conn.text_factory = read_text
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
    def open(cls, path: str | Path, *, readonly: bool = False, accept_loss: bool = False) -> Store:
        """Open (creating and migrating if needed) or refuse with ``StoreError``.

        The file is first inspected without being touched (``inspect_file``); only
        a companion database (or an absent or empty file) is then opened for real.
        A file that holds less than its record (``companion.session.record``) says
        was saved there, or an absent or empty one where a history existed, is
        refused with ``HistoryMissing`` (read-only: opened, with ``missing`` set),
        unless ``accept_loss`` (``restore``, ``check --accept-loss``).
        """
        p = Path(path)
        found = inspect_file(p)
        if not readonly and not accept_loss:
            if found.exists:
                _refuse_behind(p)
            else:
                _refuse_lost_file(p)
        full = disk_is_full(p)
        if readonly:
            if not found.exists and _owner_is_creating(p):
                found = _wait_for_owner(p, lambda: inspect_file(p).exists)
            if not found.exists:
                raise StoreError(N_("{path} does not exist yet."), path=str(p))
            uri = f"{p.resolve().as_uri()}?mode=ro"
            if full is not None and _settled(p):
                # No room for a -shm: read the file as it is (nobody writes it, its
                # -wal is empty), and leave nothing beside it.
                uri += "&immutable=1"
        elif full is not None:
            raise DiskFull(p, full)
        else:
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(CANNOT_OPEN, path=str(p), problem=os_problem(exc)) from exc
            uri = f"{p.resolve().as_uri()}?mode=rwc"
        debris = _absent_companions(p)
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as exc:
            raise StoreError(CANNOT_OPEN, path=str(p), problem=db_problem(exc)) from exc
        try:
            store = cls(conn, p, readonly, uri)
            store._configure()
            store._compare_with_record(accept_loss)
        except sqlite3.DatabaseError as exc:
            store.close()
            full = disk_is_full(p)
            if full is not None and db_problem(exc) in (IO_ERROR, DISK_FULL):
                _remove_debris(p, debris)
                raise DiskFull(p, full) from exc
            raise StoreError(CANNOT_OPEN, path=str(p), problem=db_problem(exc)) from exc
        except UnicodeDecodeError as exc:
            # SQLite's message about a damaged schema quotes its bytes, and Python
            # cannot decode a flipped bit in them: the file is damaged, said so.
            with store._guard:  # not ``close``: its checkpoint would meet the same bytes
                for each in store._connections:
                    each.close()
                store._connections.clear()
            raise StoreError(UNREADABLE, path=str(p), problem=DAMAGED) from exc
        except StoreError:
            store.close()
            raise
        return store

    # ------------------------------------------------------------------ the record

    def _compare_with_record(self, accept_loss: bool) -> None:
        """A reader notes what the file lacks of its record (``missing``); a writer
        (the file was compared before it was opened: ``_refuse_behind``) keeps the
        record going from here."""
        from companion.session import record as rec

        assert self.path is not None
        recorded = rec.read_record(self.path)
        if self.readonly:
            if recorded is not None and not accept_loss:
                with contextlib.suppress(sqlite3.DatabaseError):  # damage: the check names it
                    self.missing = rec.missing(self._first, recorded)
            return
        c = self._first
        try:
            # The file holds at least what the record says (compared before it was
            # opened): the record goes on from there, with no count of the file.
            now = rec.count_history(c) if recorded is None or accept_loss else recorded
        except sqlite3.DatabaseError:
            return  # no record kept for a file SQLite cannot count
        with self._record_lock:
            self._record = now
        self.save_record(sync=recorded is None or accept_loss)

    def save_record(self, *, sync: bool = False) -> None:
        """Write the record of what this writer committed (never raises)."""
        from companion.session.record import RecordFile

        with self._record_lock:
            if self._record is None or self.path is None:
                return
            if self._record_file is None:
                self._record_file = RecordFile(self.path)
            self._record_file.write(self._record, sync=sync)

    def recount_record(self) -> None:
        """Count the history anew (after ``restore`` or an import) and write the record."""
        from companion.session.record import count_history

        if self.readonly or self.path is None:
            return
        try:
            now = count_history(self.conn)
        except sqlite3.DatabaseError:
            return
        with self._record_lock:
            self._record = now
        self.missing = None
        self.save_record()  # fsync'ed at close

    def _noted(
        self,
        session_id: str,
        seq: int,
        *,
        entries: int = 0,
        sessions: int = 0,
        now: bool = False,
    ) -> None:
        """After a commit: the record learns it and is written, off the caller's path.

        A new session, a game's end and an import (``now``) are written before this
        returns; any other commit wakes the record writer thread, which writes the
        newest state (several commits at once if they came faster). Written on the
        committing thread it cost +0.6 ms a commit on the project disk (the page
        it dirties rides along with SQLite's fsync): docs/PERFORMANCE.md.
        """
        if self._record is None:
            return
        with self._record_lock:
            self._record.touch(session_id, seq, new_entries=entries)
            self._record.sessions += sessions
        if now or sessions > 0:
            self.save_record()
            return
        if self._record_thread is None:
            self._record_thread = threading.Thread(
                target=self._record_writer, name="record-writer", daemon=True
            )
            self._record_thread.start()
        self._record_wake.set()

    def _record_writer(self) -> None:
        while True:
            self._record_wake.wait()
            self._record_wake.clear()
            if self._record_stop:
                return
            self.save_record()

    def _stop_record_writer(self) -> None:
        thread, self._record_thread = self._record_thread, None
        if thread is not None:
            self._record_stop = True
            self._record_wake.set()
            thread.join(timeout=5)

    @classmethod
    def memory(cls) -> Store:
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        store = cls(conn, None, False)
        store._configure()
        return store

    def _configure(self) -> None:
        c = self._first
        c.execute("PRAGMA busy_timeout = 5000")
        if self.readonly:
            version = c.execute("PRAGMA user_version").fetchone()[0]
            _refuse_newer(self.path, version)
            if version < SCHEMA_VERSION and self.path is not None and _owner_is_creating(self.path):
                # The owner app is creating or upgrading this file right now (two
                # windows started together): its migration is one commit; wait for it.
                def upgraded() -> bool:
                    return int(c.execute("PRAGMA user_version").fetchone()[0]) >= SCHEMA_VERSION

                _wait_for_owner(self.path, upgraded)
                version = c.execute("PRAGMA user_version").fetchone()[0]
            if version < SCHEMA_VERSION:
                raise StoreError(OLDER_READONLY, path=str(self.path))
            c.execute("PRAGMA query_only = ON")
            return
        _retry_locked(lambda: c.execute("PRAGMA journal_mode = WAL"))
        c.execute("PRAGMA synchronous = FULL")
        c.execute("PRAGMA foreign_keys = ON")
        self.migrate()

    def migrate(self, target: int = SCHEMA_VERSION) -> None:
        """Bring the file to ``target`` in one ``BEGIN IMMEDIATE`` transaction.

        The version is read inside the write transaction: two apps started together
        on a new file queue on the lock, and the second finds the work done (it
        used to fail with "table roster already exists"). Every step runs in that
        one transaction, so a kill or a failed step leaves the file at the version it
        had (never half-way), and a new file costs one commit instead of one a step.
        """
        c0 = self.conn
        if (
            int(c0.execute("PRAGMA user_version").fetchone()[0]) == target
            and int(c0.execute("PRAGMA application_id").fetchone()[0]) == APPLICATION_ID
        ):
            return  # up to date: no write lock needed (checked again inside one otherwise)
        with self.transaction() as c:
            version = int(c.execute("PRAGMA user_version").fetchone()[0])
            _refuse_newer(self.path, version)
            if version == 0 and version < target:
                # Last check before creating tables: a file that gained foreign
                # tables since it was inspected is still not ours.
                foreign = _foreign_tables(c)
                if foreign:
                    raise StoreError(FOREIGN, path=str(self.path), tables=", ".join(foreign))
            while version < target:
                for statement in _split_sql(MIGRATIONS[version]):
                    c.execute(statement)
                if version in FILLS:
                    FILLS[version](c)
                version += 1
                c.execute(f"PRAGMA user_version = {version}")
            if int(c.execute("PRAGMA application_id").fetchone()[0]) != APPLICATION_ID:
                c.execute(f"PRAGMA application_id = {APPLICATION_ID}")

    def check(self, *, full: bool = False) -> list[str]:
        """``PRAGMA quick_check`` (``integrity_check`` with ``full``): [] if the file is sound.

        Run it off the UI thread: on a large history it reads every page.
        """
        pragma = "integrity_check" if full else "quick_check"
        try:
            rows = [str(r[0]) for r in self.conn.execute(f"PRAGMA {pragma}")]
        except sqlite3.DatabaseError as exc:
            return [db_problem(exc)]
        if rows == ["ok"]:
            return []
        # SQLite's own error text ("database disk image is malformed") said plainly;
        # the check's diagnostics (page and cell numbers) are kept for an expert.
        return [DAMAGED if "malformed" in r or "not a database" in r else r for r in rows]

    @property
    def schema_version(self) -> int:
        return int(self.conn.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        """Close every connection; a writer first checkpoints the WAL into the file.

        After a clean exit the ``.sqlite3`` file alone holds every commit (the -wal
        is empty), so copying that one file by hand is a whole backup. A board
        still reading keeps the checkpoint from finishing; that is harmless.
        """
        if not self.readonly and self._uri is not None and self._connections:
            with contextlib.suppress(sqlite3.Error):
                self._first.execute("PRAGMA busy_timeout = 1000")
                self._first.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._stop_record_writer()
            self.save_record(sync=True)
        self._stop_record_writer()
        with self._record_lock:
            if self._record_file is not None:
                self._record_file.close()
                self._record_file = None
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
        """``BEGIN IMMEDIATE`` … ``COMMIT``; rolled back on any exception.

        A write the disk or the lock refuses (full, read-only, locked, I/O error)
        is a ``WriteError`` naming the cause; nothing of the transaction stays.
        """
        c = self.conn
        try:
            c.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise WriteError(exc) from exc
        try:
            yield c
            c.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                if c.in_transaction:  # SQLite may have rolled back by itself (disk full)
                    c.execute("ROLLBACK")
            if isinstance(exc, sqlite3.OperationalError) and not isinstance(exc, WriteError):
                raise WriteError(exc) from exc
            raise

    @contextmanager
    def snapshot(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query inside sees the same commits.

        The board, exports and statistics read a session's row and its entries
        inside one, so a commit landing between two queries cannot make them
        disagree. Nested use joins the open transaction.
        """
        c = self.conn
        if c.in_transaction:
            yield c
            return
        c.execute("BEGIN")
        try:
            yield c
        finally:
            if c.in_transaction:
                c.execute("COMMIT")

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
            raise StoreError(N_("A player needs a name."))
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
                "INSERT INTO sessions(id, game, options, players, started_at, status, crc) "
                "VALUES (?, ?, ?, ?, ?, 'active', ?)",
                _setup_values(
                    sid,
                    game,
                    _dumps(options),
                    _dumps([p.to_json() for p in players]),
                    started_at or utc_now(),
                ),
            )
            _summary.refresh(c, [sid])
        self._noted(sid, 0, sessions=1)
        return sid

    def session(self, session_id: str) -> SessionRow:
        if text_is_damaged(session_id):  # an id read from damaged bytes finds nothing
            raise DamagedError(session_id, "id", NOT_UTF8)
        try:
            row = self.conn.execute(
                f"SELECT {_ROW_COLUMNS} FROM sessions WHERE id = ?",
                (session_id,),
            ).fetchone()
            matches = (
                self.conn.execute(
                    "SELECT id FROM sessions WHERE id LIKE ? LIMIT 2", (session_id + "%",)
                ).fetchall()
                if row is None
                else []
            )
        except sqlite3.DatabaseError as exc:  # a page SQLite cannot read: name the session
            raise DamagedError(session_id, "sessions", db_problem(exc)) from exc
        if row is None:
            if len(matches) == 1:
                return self.session(matches[0][0])
            raise StoreError(N_("No session {session} in this database."), session=repr(session_id))
        return _session_row(row)

    def sessions(
        self, status: str | None = None, game: str | None = None, limit: int | None = None
    ) -> list[SessionRow]:
        sql = f"SELECT {_ROW_COLUMNS} FROM sessions"
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
        out = []
        try:
            for r in self.conn.execute(sql, args):
                try:
                    out.append(_session_row(r))
                except DamagedError as exc:  # the rest of the history stays usable
                    self.damaged[exc.session_id] = exc
        except sqlite3.DatabaseError as exc:  # a damaged page: what was read is listed
            self.unreadable = db_problem(exc)
        return out

    def set_status(self, session_id: str, status: str) -> None:
        with self.transaction() as c:
            c.execute("UPDATE sessions SET status = ? WHERE id = ?", (status, session_id))
            _summary.refresh(c, [session_id])

    def mark_unfinished(self, session_id: str) -> None:
        """A session stored as finished whose guide still allows an entry (written by a
        version that finished a game at its outcome): active again, without an end time;
        its outcome stays, as it is until that entry is made."""
        with self.transaction() as c:
            c.execute(
                "UPDATE sessions SET status = 'active', ended_at = NULL WHERE id = ?",
                (session_id,),
            )
            _summary.refresh(c, [session_id])

    def session_ids_with_prefix(self, prefix: str) -> list[str]:
        """The ids that start with ``prefix`` (compared as text, not a LIKE pattern),
        oldest first."""
        rows = self.conn.execute(
            "SELECT id FROM sessions WHERE substr(id, 1, ?) = ? ORDER BY started_at, id",
            (len(prefix), prefix),
        )
        return [str(r[0]) for r in rows]

    def delete_sessions(self, session_ids: Sequence[str]) -> int:
        """Delete these sessions and their entries in one transaction; how many went.

        The only delete of the store (the first-run tour's demos are thrown away
        with it). The record of the history is counted anew: left counting them, it
        made the next start refuse the file as missing the sessions just deleted.
        """
        ids = list(session_ids)
        if not ids:
            return 0
        marks = ",".join("?" * len(ids))
        with self.transaction() as c:
            c.execute(f"DELETE FROM entries WHERE session_id IN ({marks})", ids)
            gone = c.execute(f"DELETE FROM sessions WHERE id IN ({marks})", ids).rowcount
        if gone:
            self.recount_record()
        return int(gone)

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
        finished: bool = True,
    ) -> Entry:
        """Append one entry (and the session's end state) in one transaction.

        ``outcome`` is written when this entry leaves the game with an outcome;
        ``finished`` says whether the session is then finished (the guide allows
        nothing more) or still waits for an entry (the Undercover after a Police win):
        then the outcome is kept but the session stays active, without an end time.
        ``reopen`` clears the outcome when an undo brings a game back. Raises
        ``sqlite3.IntegrityError`` if ``seq`` is taken: two writers must never share
        a session.
        """
        if kind not in ENTRY_KINDS:
            raise ValueError(f"unknown entry kind {kind!r}")
        stamp = at or utc_now()
        with self.transaction() as c:
            self._insert_entry(
                c, session_id, seq, kind, payload, stamp, mono_ns, outcome, reopen, finished
            )
        self._noted(session_id, seq, entries=1, now=outcome is not None or reopen)
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
        finished: bool = True,
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
            self._insert_entry(
                c, session_id, seq, kind, payload, stamp, mono_ns, outcome, reopen, finished
            )
        self._noted(session_id, seq, entries=1, now=outcome is not None or reopen)
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
        finished: bool = True,
    ) -> None:
        c.execute(_INSERT_ENTRY, _entry_values(session_id, seq, kind, payload, stamp, mono_ns))
        if outcome is not None and finished:
            c.execute(
                "UPDATE sessions SET ended_at = ?, outcome = ?, status = 'finished' WHERE id = ?",
                (stamp, _dumps(outcome), session_id),
            )
        elif outcome is not None:  # game over, but an entry is still to come: unfinished
            c.execute(
                "UPDATE sessions SET ended_at = NULL, outcome = ?, "
                "status = CASE status WHEN 'abandoned' THEN status ELSE 'active' END WHERE id = ?",
                (_dumps(outcome), session_id),
            )
        elif reopen:
            c.execute(
                "UPDATE sessions SET ended_at = NULL, outcome = NULL, "
                "status = 'active' WHERE id = ?",
                (session_id,),
            )
        if outcome is not None or reopen:  # what the history summarises changed
            _summary.refresh(c, [session_id])

    def entries(self, session_id: str, after: int = 0) -> list[Entry]:
        if text_is_damaged(session_id):  # an id read from damaged bytes finds nothing
            raise DamagedError(session_id, "id", NOT_UTF8)
        try:
            rows = self.conn.execute(
                "SELECT seq, kind, payload, at, mono_ns, crc FROM entries "
                "WHERE session_id = ? AND seq > ? ORDER BY seq",
                (session_id, after),
            )
            return [_entry(session_id, row) for row in rows]
        except sqlite3.DatabaseError as exc:  # a page SQLite cannot read: name the session
            raise DamagedError(session_id, "entries", db_problem(exc)) from exc

    def last_seq(self, session_id: str) -> int:
        if text_is_damaged(session_id):  # an id read from damaged bytes finds nothing
            raise DamagedError(session_id, "id", NOT_UTF8)
        try:
            row = self.conn.execute(
                "SELECT max(seq) FROM entries WHERE session_id = ?", (session_id,)
            ).fetchone()
        except sqlite3.DatabaseError as exc:  # a page SQLite cannot read: name the session
            raise DamagedError(session_id, "entries", db_problem(exc)) from exc
        return int(row[0] or 0)

    def import_session(self, row: SessionRow, entries: Sequence[Entry]) -> bool:
        """Insert a whole session (from an export) in one transaction.

        Returns False, changing nothing, if a session with this id is present.
        """
        with self.transaction() as c:
            if c.execute("SELECT 1 FROM sessions WHERE id = ?", (row.id,)).fetchone():
                return False
            self._insert_session(c, row, entries)
            _summary.refresh(c, [row.id])
        self._noted(
            row.id, entries[-1].seq if entries else 0, entries=len(entries), sessions=1, now=True
        )
        return True

    def import_sessions(
        self,
        items: Sequence[tuple[SessionRow, Sequence[Entry]]],
        on_each: Callable[[SessionRow, str], None] | None = None,
    ) -> int:
        """Insert many sessions all-or-nothing; returns how many were added or extended.

        A session already present is *skipped* when its stored log holds every entry
        of the file's (the same export again, or an older one), *extended* when the
        stored log is a prefix of the file's (a newer export of the same session:
        the new entries are appended and the row's end state updated), and refused
        with ``ImportConflict`` when the two logs disagree, or the game, players or
        options differ. Then nothing of the batch is written. ``on_each(row, how)``
        gets "added", "extended" or "skipped".
        """
        changed = 0
        with self.transaction() as c, _page_cache(c, IMPORT_CACHE_KIB):
            touched: list[str] = []
            sessions: list[tuple[Any, ...]] = []
            rows: list[tuple[Any, ...]] = []

            def flush() -> None:  # the new sessions so far, in two statements
                c.executemany(_INSERT_SESSION, sessions)
                c.executemany(_INSERT_ENTRY, rows)
                sessions.clear()
                rows.clear()

            seen: set[str] = set()
            for start in range(0, len(items), IMPORT_BATCH):
                batch = items[start : start + IMPORT_BATCH]
                present = _stored_ids(c, [row.id for row, _e in batch])
                for row, entries in batch:
                    if row.id in present or row.id in seen:  # compared with what is stored
                        flush()
                        how = self._import_one(c, row, entries)
                    else:
                        how = "added"
                        sessions.append(_session_values(row))
                        rows.extend(
                            _entry_values(row.id, e.seq, e.kind, e.payload, e.at, e.mono_ns)
                            for e in entries
                        )
                    seen.add(row.id)
                    changed += how != "skipped"
                    if how != "skipped":
                        touched.append(row.id)
                    if on_each:
                        on_each(row, how)
                flush()
            _summary.refresh(c, touched)  # in chunks: a few statements, not one a session
        if changed:
            self.recount_record()
        return changed

    def import_relation(self, row: SessionRow, entries: Sequence[Entry]) -> str:
        """What ``import_sessions`` would do with this session: added/extended/skipped.

        ``ImportConflict`` if it would be refused. Reads only.
        """
        return self._relation(self.conn, row, entries)

    def present(self, session_ids: Iterable[str]) -> set[str]:
        """Which of ``session_ids`` are stored (``IMPORT_BATCH`` at a time: an import
        asks once for a club's 10,000 sessions, not once a session). Reads only."""
        ids = list(session_ids)
        found: set[str] = set()
        for start in range(0, len(ids), IMPORT_BATCH):
            found |= _stored_ids(self.conn, ids[start : start + IMPORT_BATCH])
        return found

    def _relation(self, c: sqlite3.Connection, row: SessionRow, entries: Sequence[Entry]) -> str:
        found = c.execute(
            f"SELECT {_ROW_COLUMNS} FROM sessions WHERE id = ?",
            (row.id,),
        ).fetchone()
        if found is None:
            return "added"
        stored_row = _session_row(found)
        if (stored_row.game, stored_row.players, stored_row.options) != (
            row.game,
            row.players,
            row.options,
        ):
            raise ImportConflict(row.id, None)
        stored = [
            _entry(row.id, r)
            for r in c.execute(
                "SELECT seq, kind, payload, at, mono_ns, crc FROM entries "
                "WHERE session_id = ? ORDER BY seq",
                (row.id,),
            )
        ]
        common = min(len(stored), len(entries))
        if list(stored[:common]) != list(entries[:common]):
            first = next(i for i in range(common) if stored[i] != entries[i])
            raise ImportConflict(row.id, stored[first].seq)
        return "extended" if len(entries) > len(stored) else "skipped"

    def _import_one(self, c: sqlite3.Connection, row: SessionRow, entries: Sequence[Entry]) -> str:
        how = self._relation(c, row, entries)
        if how == "added":
            self._insert_session(c, row, entries)
        elif how == "extended":
            have = int(
                c.execute(
                    "SELECT count(*) FROM entries WHERE session_id = ?", (row.id,)
                ).fetchone()[0]
            )
            c.executemany(
                _INSERT_ENTRY,
                [
                    _entry_values(row.id, e.seq, e.kind, e.payload, e.at, e.mono_ns)
                    for e in entries[have:]
                ],
            )
            c.execute(
                "UPDATE sessions SET ended_at = ?, outcome = ?, status = ? WHERE id = ?",
                (
                    row.ended_at,
                    _dumps(row.outcome) if row.outcome is not None else None,
                    row.status,
                    row.id,
                ),
            )
        return how

    @staticmethod
    def _insert_session(c: sqlite3.Connection, row: SessionRow, entries: Sequence[Entry]) -> None:
        c.execute(_INSERT_SESSION, _session_values(row))
        c.executemany(
            _INSERT_ENTRY,
            [_entry_values(row.id, e.seq, e.kind, e.payload, e.at, e.mono_ns) for e in entries],
        )


def _session_values(row: SessionRow) -> tuple[Any, ...]:
    """The columns of ``_INSERT_SESSION`` for an imported session."""
    sid, game, options, players, started, crc = _setup_values(
        row.id,
        row.game,
        _dumps(row.options),
        _dumps([p.to_json() for p in row.players]),
        row.started_at,
    )
    outcome = _dumps(row.outcome) if row.outcome is not None else None
    return (sid, game, options, players, started, row.ended_at, outcome, row.status, crc)


IMPORT_BATCH = 500
"""Sessions an import looks up and inserts at a time (one ``executemany`` each)."""
IMPORT_CACHE_KIB = 65_536
"""SQLite's page cache while an import writes (its default is 2 MB). Session ids are
random, so a club's 300,000 entries land all over the entries tree: with the
default cache its pages were written out and read back again and again (the write
of 10,000 sessions took 10-20 % longer). Given back when the import ends."""


def _stored_ids(c: sqlite3.Connection, ids: Sequence[str]) -> set[str]:
    """Which of ``ids`` (at most ``IMPORT_BATCH``: one statement) are stored."""
    marks = ",".join("?" * len(ids))
    return {r[0] for r in c.execute(f"SELECT id FROM sessions WHERE id IN ({marks})", ids)}


@contextmanager
def _page_cache(c: sqlite3.Connection, kib: int) -> Iterator[None]:
    """``PRAGMA cache_size`` of ``c`` set to ``kib`` KiB for the block, then as it was."""
    previous = int(c.execute("PRAGMA cache_size").fetchone()[0])
    c.execute(f"PRAGMA cache_size = {-int(kib)}")
    try:
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            c.execute(f"PRAGMA cache_size = {previous}")


_INSERT_SESSION = (
    "INSERT INTO sessions(id, game, options, players, started_at, ended_at, "
    "outcome, status, crc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_ROW_COLUMNS = "id, game, options, players, started_at, ended_at, outcome, status, crc"
_INSERT_ENTRY = (
    "INSERT INTO entries(session_id, seq, kind, payload, at, mono_ns, crc) "
    "VALUES (?, ?, ?, ?, ?, ?, ?)"
)
_SEP = "\x1f"


def read_text(raw: bytes) -> str:
    """SQLite text as ``str``, never an exception: bytes that are not UTF-8 (a flipped
    bit) become lone surrogates, which no stored text can hold (the driver refuses to
    write them), so the row's checks name the damage instead of the driver raising
    "Could not decode to UTF-8" from the middle of a listing."""
    return raw.decode("utf-8", "surrogateescape")


_BAD_TEXT = re.compile("[\udc80-\udcff]")


def text_is_damaged(*values: object) -> bool:
    """True if any of ``values`` is text read from bytes that were not UTF-8."""
    return any(isinstance(v, str) and _BAD_TEXT.search(v) is not None for v in values)


def setup_damaged(sid: Any, game: Any, options: Any, players: Any, started: Any, crc: Any) -> bool:
    """True if a session's setup columns are not what was written (checksum or text)."""
    if text_is_damaged(sid, game, options, players, started):
        return True
    return crc is not None and crc != _crc(sid, game, options, players, started)


def _crc(*parts: object) -> int:
    return zlib.crc32(_SEP.join(map(str, parts)).encode("utf-8", "surrogatepass"))


def _entry_values(
    session_id: str, seq: int, kind: str, payload: dict[str, Any], at: str, mono_ns: int
) -> tuple[str, int, str, str, str, int, int]:
    text = _dumps(payload)
    return (
        session_id,
        seq,
        kind,
        text,
        at,
        mono_ns,
        _crc(session_id, seq, kind, text, at, mono_ns),
    )


def _setup_values(
    sid: str, game: str, options: str, players: str, started: str
) -> tuple[str, str, str, str, str, int]:
    """The columns a session never changes after it starts, with their checksum."""
    return (sid, game, options, players, started, _crc(sid, game, options, players, started))


def _session_row(row: Sequence[Any]) -> SessionRow:
    """A stored session row, checked: ``DamagedError`` names the session and the field."""
    sid, game, options, players, started, ended, outcome, status = row[:8]
    name = sid if isinstance(sid, str) else repr(sid)
    crc = row[8] if len(row) > 8 else None
    for field, value in (("options", options), ("players", players), ("started_at", started)):
        if isinstance(value, str) and _BAD_TEXT.search(value):
            raise DamagedError(name, field, NOT_UTF8)
    if crc is not None and crc != _crc(sid, game, options, players, started):
        raise DamagedError(name, "game/options/players/started_at", CHANGED)
    for field, value in (("id", sid), ("game", game), ("started_at", started)):
        if not isinstance(value, str):
            raise DamagedError(name, field, N_("expected text"))
    if ended is not None and not isinstance(ended, str):
        raise DamagedError(name, "ended_at", N_("expected text"))
    if status not in ("active", "finished", "abandoned"):
        raise DamagedError(name, "status", N_("unknown status"))
    opts = _json_field(name, "options", options, dict)
    raw_players = _json_field(name, "players", players, list)
    if not raw_players or not all(
        isinstance(p, dict) and isinstance(p.get("id"), str) and isinstance(p.get("name"), str)
        for p in raw_players
    ):
        raise DamagedError(name, "players", N_("not a list of players"))
    result = _json_field(name, "outcome", outcome, dict) if outcome else None
    return SessionRow(
        id=sid,
        game=game,
        options=opts,
        players=tuple(Player.from_json(p) for p in raw_players),
        started_at=started,
        ended_at=ended,
        outcome=result,
        status=status,
    )


def _json_field(session: str, field: str, text: Any, kind: type) -> Any:
    if not isinstance(text, str):
        raise DamagedError(session, field, N_("expected JSON text"))
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise DamagedError(session, field, N_("not valid JSON")) from None
    if not isinstance(value, kind):
        raise DamagedError(session, field, N_("JSON of the wrong shape"))
    return value


def _entry(session: str, row: Sequence[Any]) -> Entry:
    """A stored log entry, checked: ``DamagedError`` names the session and the seq."""
    seq, kind, payload, at, mono_ns = row[:5]
    where = f"entry seq {seq}"
    crc = row[5] if len(row) > 5 else None
    for value in (kind, payload, at):
        if isinstance(value, str) and _BAD_TEXT.search(value):
            raise DamagedError(session, where, NOT_UTF8)
    if crc is not None and crc != _crc(session, seq, kind, payload, at, mono_ns):
        raise DamagedError(session, where, CHANGED)
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise DamagedError(session, "entries", N_("a seq that is not a positive number"))
    if kind not in ENTRY_KINDS:
        raise DamagedError(session, where, N_("unknown entry kind"))
    if not isinstance(at, str) or not isinstance(mono_ns, int):
        raise DamagedError(session, where, N_("a time that is not readable"))
    return Entry(seq, kind, _json_field(session, where, payload, dict), at, mono_ns)


def _split_sql(script: str) -> list[str]:
    """Statements of a migration script (ours contain no ';' inside strings)."""
    return [s.strip() for s in script.split(";") if s.strip()]
