"""What the app last committed to a database, kept beside it: an emptied or rolled-back
history is noticed at open instead of being used as if nothing had happened.

Design decisions:

* One small JSON file per database, ``<database>.record.json``: how many sessions
  and entries the history held, and the last seq of the sessions written most
  recently (``RECENT`` of them, the newest last). It is written *after* each
  commit succeeded (by a writer thread, so the commit does not wait; on the
  committing thread for a new session, a game's end, an import, a restore, a
  backup and a clean exit), so it is never ahead of what SQLite made durable: a
  record that lags (a crash in the instant after a commit) only means less is
  checked.
* Cheap: the writer keeps the counts in memory (one ``count`` at the first open
  without a record), and a write is one ``pwrite`` of ~1 kB over the open file
  (``RecordFile``; no fsync: ``close`` and the daily backup fsync it).
  ``benchmarks/record_bench.py`` measures appends with and without it
  (docs/PERFORMANCE.md).
* What it catches at open (``missing``): a database truncated to 0 bytes or deleted
  (the record says sessions existed), a deleted ``-wal`` or one whose frame checksum
  ends it early (SQLite then drops every later commit, by design): fewer sessions
  than recorded, or a recent session whose last seq is behind the record. Damage
  elsewhere in old pages is SQLite's to find (``integrity_check``) and the per-row
  checksums'.
* The record is advisory: one that cannot be read (damaged, another program's) is
  ignored, and one that cannot be written (a full disk) is not an error.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FORMAT = "companion-record"
RECENT = 64
"""How many recently written sessions keep their last seq in the record."""
SUFFIX = ".record.json"


def record_path(db_path: str | os.PathLike[str]) -> Path:
    p = Path(db_path)
    return p.with_name(p.name + SUFFIX)


@dataclass
class Record:
    sessions: int = 0
    entries: int = 0
    recent: dict[str, int] = field(default_factory=dict)
    """Session id → last seq, the most recently written last."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": 1,
            "sessions": self.sessions,
            "entries": self.entries,
            "recent": self.recent,
        }

    @classmethod
    def from_json(cls, doc: Any) -> Record | None:
        if not isinstance(doc, dict) or doc.get("format") != FORMAT:
            return None
        sessions, entries, recent = doc.get("sessions"), doc.get("entries"), doc.get("recent")
        if not (isinstance(sessions, int) and isinstance(entries, int)):
            return None
        if not isinstance(recent, dict) or not all(
            isinstance(k, str) and isinstance(v, int) for k, v in recent.items()
        ):
            return None
        return cls(sessions, entries, dict(recent))

    def touch(self, session_id: str, seq: int, *, new_entries: int = 0) -> None:
        self.recent.pop(session_id, None)
        self.recent[session_id] = seq
        while len(self.recent) > RECENT:
            self.recent.pop(next(iter(self.recent)))
        self.entries += new_entries


def read_record(db_path: str | os.PathLike[str]) -> Record | None:
    """The record beside ``db_path``; None if there is none or it cannot be read."""
    try:
        text = record_path(db_path).read_text(encoding="utf-8")
        return Record.from_json(json.loads(text))
    except (OSError, ValueError, RecursionError):
        return None


class RecordFile:
    """The record file of one writer, kept open and overwritten in place.

    A write is one ``pwrite`` of ~1 kB into the page cache (padded with spaces to
    the previous length, which JSON ignores), no new file and no rename: replacing
    the file by ``os.replace`` made ext4 flush it at each commit (+0.8 ms a commit
    on the project disk, docs/PERFORMANCE.md). A torn record (a power cut in the
    middle of the write) does not parse and is ignored: the record is advisory.
    """

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self.path = record_path(db_path)
        self._fd: int | None = None
        self._length = 0
        self._lock = threading.Lock()

    def write(self, record: Record, *, sync: bool = False) -> bool:
        """Write ``record``; False (and nothing else) if the disk refuses."""
        data = json.dumps(record.to_json(), separators=(",", ":")).encode()
        with self._lock:
            try:
                if self._fd is None:
                    self._fd = os.open(
                        self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644
                    )
                    self._length = os.fstat(self._fd).st_size
                padded = data + b" " * max(0, self._length - len(data))
                os.pwrite(self._fd, padded, 0)
                self._length = len(padded)
                if sync:
                    os.fsync(self._fd)
                return True
            except OSError:
                return False

    def close(self) -> None:
        with self._lock:
            if self._fd is not None:
                fd, self._fd = self._fd, None
                with contextlib.suppress(OSError):
                    os.fsync(fd)
                os.close(fd)


def write_record(db_path: str | os.PathLike[str], record: Record, *, sync: bool = False) -> bool:
    """Write the record once (a file opened, written, closed)."""
    out = RecordFile(db_path)
    try:
        return out.write(record, sync=sync)
    finally:
        out.close()


def count_history(conn: sqlite3.Connection) -> Record:
    """The record of what ``conn``'s database holds now (a full count: at first use)."""
    sessions = int(conn.execute("SELECT count(*) FROM sessions").fetchone()[0])
    entries = int(conn.execute("SELECT count(*) FROM entries").fetchone()[0])
    rows = conn.execute(
        "SELECT s.id, (SELECT max(e.seq) FROM entries e WHERE e.session_id = s.id) "
        "FROM sessions s ORDER BY s.started_at DESC, s.id LIMIT ?",
        (RECENT,),
    ).fetchall()
    recent = {str(sid): int(seq or 0) for sid, seq in reversed(rows)}
    return Record(sessions, entries, recent)


@dataclass(frozen=True)
class Missing:
    """What a database lacks of its record: sessions gone, recent sessions behind."""

    recorded: Record
    sessions_found: int
    behind: dict[str, tuple[int, int]]
    """Session id → (last seq found, last seq recorded), for recent sessions behind."""

    @property
    def sessions_missing(self) -> int:
        return max(0, self.recorded.sessions - self.sessions_found)

    @property
    def entries_missing(self) -> int:
        return sum(want - have for have, want in self.behind.values())


def missing(conn: sqlite3.Connection, record: Record) -> Missing | None:
    """What the database of ``conn`` lacks of ``record`` (None: nothing; cheap).

    One count of the sessions and one index seek per recent session.
    """
    found = int(conn.execute("SELECT count(*) FROM sessions").fetchone()[0])
    behind: dict[str, tuple[int, int]] = {}
    for sid, want in record.recent.items():
        row = conn.execute("SELECT max(seq) FROM entries WHERE session_id = ?", (sid,)).fetchone()
        have = int(row[0] or 0)
        if have < want:
            behind[sid] = (have, want)
    if found >= record.sessions and not behind:
        return None
    return Missing(record, found, behind)


def has_history(db_path: str | os.PathLike[str]) -> Record | None:
    """For an absent or empty file: the evidence that a history existed there.

    The record (when it counts sessions), else the newest backup of this database
    (read as a ``Record``). None: nothing says a history was there.
    """
    record = read_record(db_path)
    if record is not None and (record.sessions > 0 or record.entries > 0):
        return record
    if record is None:
        for backup in backups_of(db_path):
            counted = _count_file(backup)
            if counted is not None and counted.sessions > 0:
                return counted
    return None


def backups_of(db_path: str | os.PathLike[str]) -> list[Path]:
    """The backups of this database (``backups/`` beside it), the newest first."""
    p = Path(db_path)
    folder = p.parent / "backups"
    try:
        found = [f for f in folder.glob(f"*{p.stem}-*.sqlite3") if f.is_file()]
        return sorted(found, key=lambda f: f.stat().st_mtime, reverse=True)
    except OSError:
        return []


def _connect_immutable(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def _count_file(path: Path) -> Record | None:
    try:
        conn = _connect_immutable(path)
        try:
            return count_history(conn)
        finally:
            conn.close()
    except sqlite3.Error:
        return None


def best_backup(
    db_path: str | os.PathLike[str], record: Record, exclude: Iterable[Path] = ()
) -> tuple[Path, Missing | None] | None:
    """The newest backup that holds everything of ``record`` (its ``Missing`` None),
    else the one that lacks least of it, newest first on a tie; None if no backup."""
    best: tuple[int, Path, Missing | None] | None = None
    skip = {Path(p).resolve() for p in exclude}
    for backup in backups_of(db_path):
        if backup.resolve() in skip:
            continue
        try:
            conn = _connect_immutable(backup)
            try:
                lack = missing(conn, record)
            finally:
                conn.close()
        except sqlite3.Error:
            continue
        if lack is None:
            return backup, None
        score = lack.sessions_missing * 1_000_000 + lack.entries_missing
        if best is None or score < best[0]:
            best = (score, backup, lack)
    return (best[1], best[2]) if best is not None else None


WAL_HEADER = 32
WAL_FRAME_HEADER = 24


def wal_cut(wal: Path) -> tuple[int, int] | None:
    """Where a damaged -wal ends early: (first bad frame, frames of this log after it).

    SQLite reads a -wal up to the first frame whose checksum fails and drops every
    later commit, as it documents: a flipped bit in frame 10 of 170 silently loses
    the commits of frames 10-170. Frames after a bad one that carry this log's salts
    (not an older log's leftovers) say that commits followed: the log was cut by
    damage, not by a crash. A header that fails its own checksum drops all of them.
    None: the log is whole (or holds no frame).
    """
    import struct

    try:
        data = wal.read_bytes()
    except OSError:
        return None
    if len(data) < WAL_HEADER:
        return None
    magic, _version, page_size = struct.unpack(">III", data[:12])
    if magic not in (0x377F0682, 0x377F0683) or page_size < 512 or page_size & (page_size - 1):
        return None  # not a -wal SQLite would read at all (then SQLite ignores it: see open)
    order = ">" if magic & 1 else "<"
    frame = WAL_FRAME_HEADER + page_size
    frames = (len(data) - WAL_HEADER) // frame
    salts = data[16:24]

    def checksum(chunk: bytes, s0: int, s1: int) -> tuple[int, int]:
        words = struct.unpack(f"{order}{len(chunk) // 4}I", chunk)
        for i in range(0, len(words), 2):
            s0 = (s0 + words[i] + s1) & 0xFFFFFFFF
            s1 = (s1 + words[i + 1] + s0) & 0xFFFFFFFF
        return s0, s1

    s0, s1 = checksum(data[:24], 0, 0)
    if (s0, s1) != struct.unpack(">II", data[24:32]):
        return (0, frames) if frames else None
    for k in range(frames):
        at = WAL_HEADER + k * frame
        head = data[at : at + WAL_FRAME_HEADER]
        if head[8:16] == salts:
            s0, s1 = checksum(head[:8] + data[at + WAL_FRAME_HEADER : at + frame], s0, s1)
            if (s0, s1) == struct.unpack(">II", head[16:24]):
                continue
        # The log ends here for SQLite. An older log's leftovers may follow (a crash
        # after a checkpoint); frames of *this* log after it mean damage cut it.
        later = sum(
            data[WAL_HEADER + j * frame + 8 : WAL_HEADER + j * frame + 16] == salts
            for j in range(k + 1, frames)
        )
        return (k, later) if later else None
    return None
