"""Is the history sound? The file (SQLite's own checks) and every session in it.

Design decisions:

* Two levels: ``PRAGMA quick_check`` when the app starts (in a thread: on a large
  history it reads every page) and ``PRAGMA integrity_check`` plus a read and
  replay of every session in ``companion check``.
* A damaged session is reported by what a host recognises (game, date, players)
  and where (the field or the entry's seq); the others are still read, so one bad
  page never hides the rest of the history.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field

from companion.rules.base import N_, RuleError
from companion.session.export import replay_session
from companion.session.log import ReplayError
from companion.session.store import Store, StoreError, db_problem

ORPHANS = N_("log entries belong to no session in the history ({ids})")
RESULT_DIFFERS = N_("the stored result does not match what its log replays to")


@dataclass(frozen=True)
class DamagedSession:
    session_id: str
    label: str
    """Game, start and players when the row itself can be read, else the id."""
    problem: str


@dataclass
class CheckReport:
    file_problems: list[str] = field(default_factory=list)
    damaged: list[DamagedSession] = field(default_factory=list)
    sound: int = 0
    """Sessions read and replayed without a problem."""

    @property
    def ok(self) -> bool:
        return not self.file_problems and not self.damaged


def session_label(store: Store, session_id: str) -> str:
    try:
        row = store.session(session_id)
    except (StoreError, sqlite3.DatabaseError):
        return session_id
    names = ", ".join(p.name for p in row.players)
    return f"{row.game} {row.started_at[:16].replace('T', ' ')} ({names}) {session_id[:8]}"


def check_store(store: Store, *, full: bool = True) -> CheckReport:
    """Check the file, then read and replay every session (nothing is written)."""
    report = CheckReport(file_problems=store.check(full=full))
    try:
        ids = [str(r[0]) for r in store.conn.execute("SELECT id FROM sessions ORDER BY started_at")]
    except sqlite3.DatabaseError as exc:
        report.file_problems.append(db_problem(exc))
        return report
    try:
        orphans = [
            str(r[0])
            for r in store.conn.execute(
                "SELECT DISTINCT session_id FROM entries "
                "WHERE session_id NOT IN (SELECT id FROM sessions)"
            )
        ]
    except sqlite3.DatabaseError as exc:
        orphans = []
        report.file_problems.append(db_problem(exc))
    if orphans:  # a damaged key moved entries away from their session
        report.file_problems.append(ORPHANS.format(ids=", ".join(repr(o) for o in orphans[:3])))
    for sid in ids:
        try:
            row = store.session(sid)
            replayed = replay_session(row, store.entries(sid))
            if row.status == "finished" and not replayed.matches_record:
                # The stored result is derived from the log: a changed score is damage.
                raise ValueError(RESULT_DIFFERS)
        except StoreError as exc:  # damaged, or its row unreachable through the index
            report.damaged.append(DamagedSession(sid, session_label(store, sid), str(exc)))
        except ReplayError as exc:
            problem = f"entry {exc.index} (seq {exc.seq}) does not replay: {exc.error}"
            report.damaged.append(DamagedSession(sid, session_label(store, sid), problem))
        except sqlite3.DatabaseError as exc:
            report.damaged.append(DamagedSession(sid, session_label(store, sid), db_problem(exc)))
        except (RuleError, ValueError, TypeError, KeyError) as exc:
            report.damaged.append(DamagedSession(sid, session_label(store, sid), str(exc)))
        else:
            report.sound += 1
    return report
