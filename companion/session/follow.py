"""Follow a session read-only while the host's app writes it (the table board).

Design decisions:

* The follower opens the database with ``Store.open(readonly=True)``: a
  ``mode=ro`` URI plus ``PRAGMA query_only``, so no statement from this connection
  can write, and it never takes a write lock. WAL lets it read while the host writes.
* Change detection is ``PRAGMA data_version``: it changes only when *another*
  connection commits, and costs one page-cache lookup. Only when it changes does
  the follower query anything — and then only the entries after the last one seen
  (``entries(after=last_seq)``), folded incrementally with the same undo/redo
  stacks as the live session (``companion.session.log.Stacks``).
* Which session: the one named (``session_id``), or else the *active* session that
  was written most recently (its newest entry, or its start if it has none). A
  finished session stays on show, with its result, until another active session
  is written; a host who resumes an older session moves the board to it with the
  first action.
* Trouble is a value, not an exception: a busy or vanished database, a log that
  no longer replays — ``Snapshot.problem`` says what, the last good state stays,
  and the next poll tries again (reopening the file if the connection failed, or
  if the file at the path was replaced: one ``stat`` per poll compares its inode).
* ``poll`` returns a new immutable ``Snapshot`` only when something changed, so a
  display can poll on a cheap timer from a worker thread and render on its own.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.games import GameInfo, find_game
from companion.rules.base import N_, Game, Outcome, RuleError
from companion.session.log import Stacks
from companion.session.store import Entry, SessionRow, Store, StoreError

BUSY_TIMEOUT_MS = 250
"""How long one read waits for a lock before the poll reports the database busy."""
RECENT_ENTRIES = 12
"""How many of the newest entries a snapshot carries (for a log strip)."""

Problem = tuple[str, dict[str, Any]]
"""An English template (marked ``N_`` where raised) and its parameters."""

# The English templates of ``Snapshot.problem`` (the board translates them).
NO_DATABASE = N_("No database at {path} yet; waiting for the host app to create it.")
DATABASE_BUSY = N_("The database is busy ({error}); retrying.")
DATABASE_UNUSABLE = N_("The database cannot be read: {error}")
NO_SUCH_SESSION = N_("There is no session {session} in this database (yet).")
GAME_UNKNOWN = N_("This session's game ({game}) is not known to this version of the companion.")
LOG_BROKEN = N_("Entry {seq} of this session does not replay: {error}")


@dataclass(frozen=True)
class Snapshot:
    """Everything a board shows, as of one poll. Immutable; safe to hand between threads."""

    version: int
    """Increases by one with every snapshot a follower makes."""
    session: SessionRow | None = None
    info: GameInfo | None = None
    state: Any = None
    """The game state (the fold of the effective actions); None without a session."""
    outcome: Outcome | None = None
    last_seq: int = 0
    entries: tuple[Entry, ...] = ()
    """The newest entries (at most ``RECENT_ENTRIES``), oldest first."""
    undone: frozenset[int] = frozenset()
    """Seqs of action entries currently undone."""
    problem: Problem | None = None
    following: bool = field(default=False)
    """True when the session was chosen by the follower (newest active), not named."""
    phones_url: str | None = None
    """The phones' join link while the host has them switched on (a ``phones-open``
    hardware entry not yet followed by ``phones-closed``)."""

    @property
    def waiting(self) -> bool:
        """No session to show yet."""
        return self.session is None


class _Folded:
    """One session's log folded so far: the undo/redo stacks and the state stack."""

    def __init__(self, row: SessionRow, info: GameInfo, game: Game[Any]) -> None:
        self.row = row
        self.info = info
        self.game = game
        self.stacks = Stacks.empty()
        self.states: list[Any] = [game.setup(row.players, game.stored_options(row.options))]
        self.last_seq = 0
        self.recent: list[Entry] = []
        self.broken: Problem | None = None
        self.phones_url: str | None = None

    def fold(self, entry: Entry) -> None:
        """Apply one entry, exactly as ``LiveSession`` does when it resumes."""
        if self.broken is not None:
            return
        if entry.kind == "hw":
            kind = entry.payload.get("kind")
            if kind == "phones-open" and isinstance(entry.payload.get("url"), str):
                self.phones_url = entry.payload["url"]
            elif kind == "phones-closed":
                self.phones_url = None
        stacks_before = (list(self.stacks.done), list(self.stacks.undone))
        problem = self.stacks.push(entry)
        try:
            if problem:
                raise ValueError(problem)
            if entry.kind == "action":
                action = self.game.parse_action(entry.payload)
                self.states.append(self.game.apply(self.states[-1], action))
            elif entry.kind == "undo":
                self.states.pop()
            elif entry.kind == "redo":
                redone = self.game.parse_action(self.stacks.done[-1].payload)
                self.states.append(self.game.apply(self.states[-1], redone))
        except Exception as exc:  # any entry the rules cannot take stops the fold, not the board
            self.stacks.done, self.stacks.undone = stacks_before
            self.broken = (LOG_BROKEN, {"seq": entry.seq, "error": str(exc)})
            return
        self.last_seq = entry.seq
        self.recent.append(entry)
        del self.recent[:-RECENT_ENTRIES]


def _file_identity(path: Path) -> tuple[int, int] | None:
    """(device, inode) of the database file, or None if there is none (one ``stat``)."""
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def _open_readonly(path: Path) -> Store:
    store = Store.open(path, readonly=True)
    # A board must not freeze for the store's default 5 s: report "busy", retry.
    store.conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return store


class Follower:
    """Follows one session (or the active one) of the database at ``path``, read-only.

    Not thread-safe: call ``poll`` from one thread at a time (a board calls it from a
    single worker thread and renders the snapshots on its UI thread).
    """

    def __init__(
        self,
        path: str | Path,
        session_id: str | None = None,
        *,
        opener: Callable[[Path], Store] | None = None,
    ) -> None:
        self.path = Path(path)
        self.session_id = session_id
        self._opener = opener or _open_readonly
        self._store: Store | None = None
        self._data_version: int | None = None
        self._folded: _Folded | None = None
        self._version = 0
        self._last: Snapshot | None = None
        self._problem: Problem | None = None
        self._follow_problem: Problem | None = None
        self._identity: tuple[int, int] | None = None

    @property
    def store(self) -> Store | None:
        """The read-only connection (None until the file could be opened)."""
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # ------------------------------------------------------------------ polling

    def poll(self) -> Snapshot | None:
        """A new snapshot if anything changed since the last poll, else None."""
        problem = self._refresh()
        if problem != self._problem:
            self._problem = problem
            return self._snapshot()
        if self._last is None or self._changed_since_last():
            return self._snapshot()
        return None

    def current(self) -> Snapshot:
        """The latest snapshot (making one if none was made yet)."""
        return self._last if self._last is not None else self._snapshot()

    def _changed_since_last(self) -> bool:
        last = self._last
        folded = self._folded
        if last is None:
            return True
        if folded is None:
            return last.session is not None
        return (
            last.session is None
            or last.session != folded.row
            or last.last_seq != folded.last_seq
            or last.problem != self._problem
        )

    def _refresh(self) -> Problem | None:
        """Bring the folded session up to date; the problem that stops it, if any."""
        identity = _file_identity(self.path)
        if self._store is not None and identity != self._identity:
            # The file was removed or replaced (a restored backup, a new database at
            # the same path): the open connection still reads the old one. Start over.
            self.close()
            self._folded = None
            self._follow_problem = None
        if self._store is None:
            if identity is None:
                return (NO_DATABASE, {"path": str(self.path)})
            try:
                self._store = self._opener(self.path)
            except StoreError as exc:
                return (DATABASE_UNUSABLE, {"error": str(exc)})
            self._identity = identity
            self._data_version = None
        store = self._store
        try:
            version = store.data_version()
            if version != self._data_version:
                # One read transaction: the session row and its entries agree.
                with store.snapshot():
                    self._follow_problem = self._follow(store)
                self._data_version = version
            return self._follow_problem
        except sqlite3.OperationalError as exc:
            # Locked or busy (a checkpoint, a migration): keep what we have, try again.
            if "locked" in str(exc) or "busy" in str(exc):
                return (DATABASE_BUSY, {"error": str(exc)})
            self.close()
            return (DATABASE_UNUSABLE, {"error": str(exc)})
        except sqlite3.DatabaseError as exc:
            # The file was replaced or damaged under us: reopen on the next poll.
            self.close()
            return (DATABASE_UNUSABLE, {"error": str(exc)})

    def _follow(self, store: Store) -> Problem | None:
        # The named session; else the active one; else (it just finished, or was
        # abandoned) the one on show, so its last entries and result still arrive.
        target = (
            self.session_id
            or self._newest_active(store)
            or (self._folded.row.id if self._folded else None)
        )
        if target is None:
            return None  # nothing to show yet: wait
        try:
            row = store.session(target)
        except StoreError:
            return (NO_SUCH_SESSION, {"session": target})
        folded = self._folded
        if folded is None or folded.row.id != row.id:
            try:
                info = find_game(row.game)
                game = info.load()
                folded = _Folded(row, info, game)
            except RuleError:
                return (GAME_UNKNOWN, {"game": row.game})
            self._folded = folded
        folded.row = row
        for entry in store.entries(row.id, after=folded.last_seq):
            folded.fold(entry)
            if folded.broken is not None:
                break
        return folded.broken

    @staticmethod
    def _newest_active(store: Store) -> str | None:
        row = store.conn.execute(
            "SELECT s.id FROM sessions AS s WHERE s.status = 'active' ORDER BY "
            "coalesce((SELECT e.at FROM entries AS e WHERE e.session_id = s.id "
            "ORDER BY e.seq DESC LIMIT 1), s.started_at) DESC, s.started_at DESC LIMIT 1"
        ).fetchone()
        return str(row[0]) if row else None

    def _snapshot(self) -> Snapshot:
        self._version += 1
        folded = self._folded
        if folded is None:
            snap = Snapshot(self._version, problem=self._problem, following=self.session_id is None)
        else:
            state = folded.states[-1]
            snap = Snapshot(
                self._version,
                session=folded.row,
                info=folded.info,
                state=state,
                outcome=folded.game.outcome(state),
                last_seq=folded.last_seq,
                entries=tuple(folded.recent),
                undone=frozenset(e.seq for e in folded.stacks.undone),
                problem=self._problem,
                following=self.session_id is None,
                phones_url=folded.phones_url,
            )
        self._last = snap
        return snap
