"""Kill test: SIGKILL a writer at random points; nothing it reported is ever lost."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.rules.base import seat_players
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store

CHILD = Path(__file__).with_name("kill_child.py")
sys.path.insert(0, str(CHILD.parent))
from kill_child import op_for  # noqa: E402

ROUNDS = 25


def expected_state(n_entries: int):
    """The state after the first ``n_entries`` steps of the program, in memory."""
    with Store.memory() as store:
        live = LiveSession.start(store, "scorepad", seat_players(["A", "B", "C"]), {})
        for seq in range(1, n_entries + 1):
            op = op_for(seq)
            if op == "undo":
                live.undo()
            elif op == "redo":
                live.redo()
            else:
                live.act(op)
        return live.state


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing_reported(tmp_path):
    db = tmp_path / "kill.sqlite3"
    rng = random.Random(20261129)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    reported: set[int] = set()
    session_id = None
    for _ in range(ROUNDS):
        child = subprocess.Popen(
            [sys.executable, str(CHILD), str(db)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
        )
        assert child.stdout is not None
        header = child.stdout.readline().split()
        session_id = header[1]
        for _ in range(rng.randint(1, 40)):
            line = child.stdout.readline()
            if not line:
                break
            reported.add(int(line.split()[1]))
        time.sleep(rng.random() * 0.004)  # land somewhere inside the next commit
        child.send_signal(signal.SIGKILL)
        child.wait()
        child.stdout.close()

        with Store.open(db) as store:
            entries = store.entries(session_id)
            seqs = [e.seq for e in entries]
            assert seqs == list(range(1, len(seqs) + 1)), "the log has a hole"
            assert reported <= set(seqs), "a reported commit is missing"
            live = LiveSession.resume(store, session_id)
            state, _outcome = replay(live.game, live.players, live.options, entries)
            assert state == live.state == expected_state(len(entries))
    assert len(reported) > ROUNDS
