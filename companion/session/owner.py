"""One writing app per database: an OS file lock beside the database file.

Design decisions:

* The lock is ``fcntl.flock`` on ``<database>.lock``, taken without waiting and
  held on an open file for the life of the process. The kernel drops it when the
  process ends in any way (a crash, SIGKILL, a closed laptop lid that kills the
  terminal), so there is never a stale lock to clean up by hand; the file itself
  may stay and means nothing while unlocked.
* The holder writes its process id into the file, so a second instance can say
  which process has the database ("process 4242"). The pid is informative only:
  the lock, not the file's content, decides.
* Only writers take it (the app, ``import``, ``restore``). Read-only commands
  (``stats``, ``export``, ``board``, ``check``) open the database read-only beside
  the owner; SQLite's WAL lets them read while it writes.
* On Windows, where there is no ``flock``, the same lock is ``msvcrt.locking`` on
  one byte far past the pid (a locked range cannot be read there, so the pid stays
  readable); Windows too frees it when the process ends. Where neither exists
  (:data:`LOCKING` is False) there is no lock: ``companion doctor`` says so, and
  the seq checks of ``Store.append_next`` still keep a session replayable with two
  writers.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from companion.rules.base import N_

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX
    fcntl = None  # type: ignore[assignment]
try:
    import msvcrt
except ImportError:  # not Windows
    msvcrt = None  # type: ignore[assignment]

#: The byte ``msvcrt.locking`` locks: far past the pid, which stays readable.
_WIN_LOCK_OFFSET = 1 << 20

#: Whether this platform has an owner lock at all (fcntl or msvcrt).
LOCKING = fcntl is not None or msvcrt is not None


IN_USE = N_(
    "This database is open in another companion window (process {pid}). Close that "
    "window first, or use this one read-only."
)
IN_USE_UNKNOWN = N_(
    "This database is open in another companion window. Close that window first, or "
    "use this one read-only."
)


class DatabaseInUse(Exception):
    """Another process holds the database's owner lock. ``pid`` is None if unknown."""

    def __init__(self, path: Path, pid: int | None) -> None:
        self.path = path
        self.pid = pid
        self.template = IN_USE if pid is not None else IN_USE_UNKNOWN
        super().__init__(self.render())

    def render(self, gettext: object = None) -> str:
        text = gettext(self.template) if callable(gettext) else self.template
        return str(text).format(pid=self.pid)


def lock_path(db_path: str | os.PathLike[str]) -> Path:
    p = Path(db_path)
    return p.with_name(p.name + ".lock")


class OwnerLock:
    """The owner lock of one database file. ``acquire`` or ``DatabaseInUse``."""

    def __init__(self, db_path: str | os.PathLike[str]) -> None:
        self.path = lock_path(Path(db_path).expanduser().absolute())
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> OwnerLock:
        """Take the lock now (never waits). Raises ``DatabaseInUse`` naming the holder."""
        if self._fd is not None or not LOCKING:
            return self
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            _lock(fd, exclusive=True)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise DatabaseInUse(self.path, pid) from None
        except OSError:
            os.close(fd)
            raise
        with contextlib.suppress(OSError):  # the pid is informative; a full disk is no reason
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)  # the Windows lock moved the position
            os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)
            if fcntl is None:
                with contextlib.suppress(OSError):
                    _unlock(fd)
            os.close(fd)  # closing the only descriptor drops the flock

    def __enter__(self) -> OwnerLock:
        return self.acquire()

    def __exit__(self, *exc: object) -> None:
        self.release()


def holder(db_path: str | os.PathLike[str]) -> int | None:
    """The pid holding ``db_path``'s lock, 0 if held by an unknown process, None if free."""
    path = lock_path(Path(db_path).expanduser().absolute())
    if not LOCKING or not path.exists():
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        try:
            _lock(fd, exclusive=False)
        except BlockingIOError:
            return _read_pid(fd) or 0
        _unlock(fd)
        return None
    finally:
        os.close(fd)


def _lock(fd: int, *, exclusive: bool) -> None:
    """Lock ``fd`` without waiting; ``BlockingIOError`` if another process holds it."""
    if fcntl is not None:
        fcntl.flock(fd, (fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH) | fcntl.LOCK_NB)
        return
    # Windows: a byte-range lock (exclusive only); "already locked" is EACCES there.
    os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)
    try:
        msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except PermissionError as exc:
        raise BlockingIOError(*exc.args) from None
    except OSError as exc:
        if exc.errno in (errno.EACCES, errno.EDEADLK):
            raise BlockingIOError(*exc.args) from None
        raise


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return
    os.lseek(fd, _WIN_LOCK_OFFSET, os.SEEK_SET)
    msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


def _read_pid(fd: int) -> int | None:
    try:
        if hasattr(os, "pread"):
            raw = os.pread(fd, 32, 0)
        else:  # Windows
            os.lseek(fd, 0, os.SEEK_SET)
            raw = os.read(fd, 32)
        text = raw.decode("ascii", "replace").strip()
    except OSError:
        return None
    return int(text) if text.isdigit() else None
