"""Consistent reads: the board, exports and statistics read a session in one transaction.

A writer keeps ending a game and undoing the end, so the session row's status
and outcome flip together with its log. A reader that took the row and the
entries in two separate queries could see a finished row with a log that is not
finished (before: a board status wrong for one poll; 2 of 40 exports taken while
writing disagreed with themselves).
"""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

from companion.rules.base import seat_players
from companion.session.export import export_text, parse_export, replay_session
from companion.session.follow import Follower
from companion.session.live import LiveSession
from companion.session.store import Store


def start_toggling(
    db: Path, sessions: int = 3
) -> tuple[list[str], threading.Event, threading.Thread]:
    ids: list[str] = []
    with Store.open(db) as store:
        for _ in range(sessions):
            live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
            live.act({"type": "score", "player": "p1", "points": 1})
            ids.append(live.id)
    stop = threading.Event()

    def write() -> None:
        with Store.open(db) as store:
            lives = [LiveSession.resume(store, sid) for sid in ids]
            n = 0
            while not stop.is_set():
                live = lives[n % len(lives)]
                if live.outcome is None:
                    live.act({"type": "end"})
                else:
                    live.undo()
                n += 1

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return ids, stop, thread


def test_exports_taken_while_writing_agree_with_themselves(tmp_path):
    db = tmp_path / "db.sqlite3"
    ids, stop, thread = start_toggling(db)
    try:
        with Store.open(db, readonly=True) as reader:
            for _ in range(40):
                text = export_text(reader, ids, "json")
                for row, entries in parse_export(text).sessions:
                    replayed = replay_session(row, entries)
                    assert (row.status == "finished") == (replayed.outcome is not None)
                    assert (row.outcome is None) == (replayed.outcome is None)
                csv = export_text(reader, ids, "csv")
                assert csv.count("\r\n") == 1 + 2 * len(ids)
    finally:
        stop.set()
        thread.join()


def test_every_board_snapshot_agrees_with_itself(tmp_path):
    db = tmp_path / "db.sqlite3"
    ids, stop, thread = start_toggling(db, sessions=1)
    follower = Follower(db, ids[0])
    seen = 0
    try:
        deadline = time.monotonic() + 3
        while time.monotonic() < deadline and seen < 100:
            time.sleep(0.001)
            snap = follower.poll()
            if snap is None or snap.session is None:
                continue
            seen += 1
            assert snap.problem is None, snap.problem
            assert (snap.session.status == "finished") == (snap.outcome is not None)
    finally:
        stop.set()
        thread.join()
        follower.close()
    assert seen > 5


def test_stats_read_while_writing(tmp_path, capsys):
    from companion.cli import main

    db = tmp_path / "db.sqlite3"
    _ids, stop, thread = start_toggling(db)
    try:
        for _ in range(20):
            assert main(["--db", str(db), "stats", "--json"]) == 0
            json.loads(capsys.readouterr().out)
    finally:
        stop.set()
        thread.join()
