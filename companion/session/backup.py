"""Backups of the history: made with SQLite's online backup, checked, rotated, restored.

Design decisions:

* A backup is a complete, self-contained database file made with the ``sqlite3``
  backup API from a read transaction: it holds every commit, including the ones
  still in the -wal (copying only the ``.sqlite3`` file would miss them), and it
  is taken while the app keeps writing. It is written to a temporary file beside
  its target, checked (``quick_check``), then renamed into place: a backup file is
  never half a backup. ``restore`` checks much more (every session replayed).
* Automatic backups go to ``<data folder>/backups/`` (beside the database) when a
  session finishes, at most once a day; the newest ``KEEP`` are kept. A failed
  automatic backup (disk full) never fails the action that finished the game.
* ``restore`` refuses a file that is not a sound companion database; before
  replacing the history it backs the current one up (``before-restore-…``), and
  it copies through SQLite into the open database, so the -wal and -shm of the
  current file stay consistent.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from pathlib import Path

from companion.rules.base import N_
from companion.session.store import Store, StoreError, db_problem, os_problem

KEEP = 10
"""How many automatic backups are kept (the newest)."""
EVERY_S = 24 * 3600
"""At most one automatic backup per this many seconds."""
AUTO_PREFIX = "auto-"
SUFFIX = ".sqlite3"

CANNOT_BACK_UP = N_("Cannot write the backup {path}: {problem}.")
BAD_BACKUP = N_("{path} is not a sound companion backup ({problem}); the history was not changed.")


def backup_dir(db_path: Path) -> Path:
    return db_path.parent / "backups"


def default_backup_path(db_path: Path, prefix: str = "", now: float | None = None) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    return backup_dir(db_path) / f"{prefix}{db_path.stem}-{stamp}{SUFFIX}"


def backup(store: Store, target: str | os.PathLike[str]) -> Path:
    """Write a checked copy of the whole history to ``target`` (atomically)."""
    out = Path(target).expanduser()
    if out.is_dir():
        out = out / default_backup_path(store.path or Path("companion.sqlite3")).name
    tmp_name: str | None = None
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp_name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
        os.close(fd)
        dst = sqlite3.connect(tmp_name, isolation_level=None)
        try:
            store.conn.backup(dst)
            # A backup is one file: no -wal beside it that could be lost apart from it.
            dst.execute("PRAGMA journal_mode = DELETE")
        finally:
            dst.close()
        problems = _problems(Path(tmp_name), every_session=False)
        if problems:
            raise StoreError(BAD_BACKUP, path=str(out), problem=problems)
        with open(tmp_name, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp_name, out)
        tmp_name = None
    except OSError as exc:
        raise StoreError(CANNOT_BACK_UP, path=str(out), problem=os_problem(exc)) from exc
    except sqlite3.Error as exc:
        raise StoreError(CANNOT_BACK_UP, path=str(out), problem=db_problem(exc)) from exc
    finally:
        if tmp_name is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)
    return out


def _problems(path: Path, *, every_session: bool = True) -> str:
    """'' if ``path`` is a sound companion database, else what is wrong with it.

    ``every_session``: also read and replay every session (``restore`` does; a new
    backup needs only ``quick_check``, as it is a page copy of a live database).
    """
    from companion.session.check import CheckReport, check_store  # deferred: imports export

    try:
        with Store.open(path, readonly=True) as copy:
            if every_session:
                report = check_store(copy, full=True)
            else:
                report = CheckReport(file_problems=copy.check())
    except StoreError as exc:
        return str(exc)
    if report.ok:
        return ""
    found = report.file_problems + [f"{d.label}: {d.problem}" for d in report.damaged]
    return "; ".join(found[:3])


def auto_backup(store: Store, now: float | None = None) -> Path | None:
    """The daily rotating backup, if the last one is older than a day. Never raises."""
    if store.path is None:
        return None
    moment = time.time() if now is None else now
    folder = backup_dir(store.path)
    try:
        existing = sorted(folder.glob(f"{AUTO_PREFIX}*{SUFFIX}"), key=lambda p: p.stat().st_mtime)
        if existing and moment - existing[-1].stat().st_mtime < EVERY_S:
            return None
        made = backup(store, default_backup_path(store.path, AUTO_PREFIX, moment))
        store.save_record(sync=True)
        existing.append(made)
        for old in existing[:-KEEP]:
            old.unlink()
        return made
    except (OSError, StoreError, sqlite3.Error):
        return None  # a full disk must not fail the action that ended the game


def restore(store: Store, source: str | os.PathLike[str]) -> Path:
    """Replace the history in ``store`` by the backup ``source``; returns the safety copy.

    Refuses (``StoreError``, nothing changed) a file that is not a sound companion
    database. The current history is backed up first.
    """
    src_path = Path(source).expanduser()
    problems = _problems(src_path)
    if problems:
        raise StoreError(BAD_BACKUP, path=str(src_path), problem=problems)
    if store.path is None:
        raise StoreError(N_("There is no database file to restore into."))
    safety = backup(store, default_backup_path(store.path, "before-restore-"))
    src = sqlite3.connect(f"{src_path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        src.backup(store.conn)
    except sqlite3.Error as exc:
        raise StoreError(CANNOT_BACK_UP, path=str(store.path), problem=db_problem(exc)) from exc
    finally:
        src.close()
    store.damaged.clear()
    store.recount_record()  # what the history holds now is what was chosen
    return safety


def keep_aside(db_path: Path, now: float | None = None) -> Path | None:
    """Copy the database file and its -wal and -shm, byte for byte, into
    ``backups/damaged-<stamp>/`` (before ``restore`` replaces a damaged history:
    SQLite's own copy would drop what a damaged -wal still holds). None if there
    is nothing to keep."""
    import shutil

    files = [db_path.with_name(db_path.name + s) for s in ("", "-wal", "-shm")]
    present = [f for f in files if f.is_file()]
    if not present:
        return None
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    folder = backup_dir(db_path) / f"damaged-{db_path.stem}-{stamp}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for f in present:
            shutil.copyfile(f, folder / f.name)
    except OSError as exc:
        raise StoreError(CANNOT_BACK_UP, path=str(folder), problem=os_problem(exc)) from exc
    return folder
