"""Two writers on one session: every seq comes from the database, stale state never commits.

The issue's reproduction: two ``LiveSession`` objects resumed from the same session,
one acts, the other records a hardware entry (its counter was stale) and undoes
an action it never saw. Before the fix the undo committed and the session never
replayed again.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.live import (
    LiveSession,
    NothingToRedoError,
    NothingToUndoError,
    StaleSessionError,
)
from companion.session.log import replay
from companion.session.store import Store

CHILD = Path(__file__).with_name("two_writers_child.py")


def score(pid: str, pts: int) -> dict[str, object]:
    return {"type": "score", "player": pid, "points": pts}


def replays(store: Store, sid: str) -> None:
    """The session resumes and replays from its log (raises if not)."""
    live = LiveSession.resume(store, sid)
    row = store.session(sid)
    state, _outcome = replay(live.game, row.players, row.options, store.entries(sid))
    assert state == live.state
    seqs = [e.seq for e in store.entries(sid)]
    assert seqs == list(range(1, len(seqs) + 1)), "no hole in seq"


def test_the_issue_reproduction_replays(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as store:
        live = LiveSession.start(
            store, "scorepad", seat_players(["Ann", "Bo"]), {}, clock=ManualClock()
        )
        live.act(score("p1", 3))
        a = LiveSession.resume(store, live.id)
        b = LiveSession.resume(store, live.id)
        a.act(score("p2", 5))
        b.record_hardware({"button": 1})  # failed with IntegrityError before the fix
        assert [e.seq for e in b.entries] == [1, 2, 3], "b saw a's action when it wrote"
        change = b.undo()  # undoes a's action, which b now knows
        assert change.entry.payload == {"undoes": 2}
        replays(store, live.id)


def test_a_stale_session_refuses_and_reloads(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as store:
        live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act(score("p2", 1))
        a = LiveSession.resume(store, live.id)
        b = LiveSession.resume(store, live.id)
        a.act(score("p1", 4))
        before = store.entries(live.id)
        with pytest.raises(StaleSessionError):
            b.undo()  # computed from a state without a's action
        assert store.entries(live.id) == before, "nothing written"
        assert b.state == a.state, "b reloaded what the other window wrote"
        assert b.undo().entry.payload == {"undoes": 2}  # now it undoes a's action
        replays(store, live.id)


def test_a_failed_hardware_write_leaves_no_hole(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as store:
        live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act(score("p1", 1))
        store.conn.execute("PRAGMA query_only = ON")  # every write fails now
        with pytest.raises(sqlite3.OperationalError):
            live.record_hardware({"button": 2})
        store.conn.execute("PRAGMA query_only = OFF")
        entry = live.record_hardware({"button": 2})
        assert entry.seq == 2
        live.act(score("p2", 2))
        replays(store, live.id)


def test_random_interleavings_of_two_sessions_always_replay(tmp_path):
    rng = random.Random(7)
    for run in range(40):
        with Store.open(tmp_path / f"db{run}.sqlite3") as store:
            first = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
            sessions = [LiveSession.resume(store, first.id), LiveSession.resume(store, first.id)]
            for _step in range(30):
                s = rng.choice(sessions)
                op = rng.choice(("act", "act", "undo", "redo", "hw"))
                try:
                    if op == "act":
                        s.act(score(rng.choice(("p1", "p2")), rng.randint(-3, 9)))
                    elif op == "undo":
                        s.undo()
                    elif op == "redo":
                        s.redo()
                    else:
                        s.record_hardware({"button": rng.randint(1, 4)})
                except StaleSessionError:
                    pass
                except (NothingToUndoError, NothingToRedoError):
                    pass
            replays(store, first.id)


@pytest.mark.slow
def test_two_processes_interleaving_actions_and_hardware_always_replay(tmp_path):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        sid = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {}).id
    children = [
        subprocess.Popen(
            [sys.executable, str(CHILD), str(db), sid, str(seed), "150"],
            stdout=subprocess.PIPE,
            text=True,
        )
        for seed in (1, 2)
    ]
    reports = [json.loads(c.communicate(timeout=120)[0]) for c in children]
    assert all(c.returncode == 0 for c in children)
    committed = sum(r["committed"] for r in reports)
    assert sum(r["stale"] for r in reports) + committed > 0
    with Store.open(db) as store:
        assert len(store.entries(sid)) == committed, "every committed entry is there"
        replays(store, sid)
