"""The follower: read-only, incremental, and equal to the writer after every entry."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.base import seat_players
from companion.session import follow
from companion.session.follow import Follower, Snapshot
from companion.session.live import LiveSession
from companion.session.store import Store


def poll_until(follower: Follower, seq: int, tries: int = 200) -> Snapshot:
    """Poll until the follower has folded entry ``seq`` (each poll is one read)."""
    for _ in range(tries):
        follower.poll()
        snap = follower.current()
        if snap.session is not None and snap.last_seq >= seq:
            return snap
    raise AssertionError(f"follower stuck before seq {seq}: {follower.current()}")


def test_follows_a_writer_process_entry_by_entry(tmp_path: Path, start_writer) -> None:
    db = tmp_path / "c.db"
    writer = start_writer(db, "scorepad", ["Ann", "Bo", "Cy"], {"target": 20})
    follower = Follower(db)
    snap = poll_until(follower, 0)
    assert snap.session is not None and snap.session.id == writer.session
    assert repr(snap.state) == writer.last["state"]
    script: list[str | dict[str, object]] = [
        {"type": "score", "player": "p1", "points": 5},
        {"type": "score", "player": "p2", "points": 8},
        "undo",
        "redo",
        {"type": "close-round"},
        {"type": "score", "player": "p3", "points": 21},
        "undo",
        {"type": "score", "player": "p3", "points": 22},
        {"type": "close-round"},  # target reached: the game ends
    ]
    for command in script:
        report = writer.send(command)
        assert report["error"] is None
        snap = poll_until(follower, report["seq"])
        assert snap.last_seq == report["seq"]
        assert repr(snap.state) == report["state"]
    assert snap.outcome is not None and snap.outcome.winners == ("p3",)
    assert snap.session is not None and snap.session.status == "finished"
    # Nothing changed: polling again makes no new snapshot.
    assert follower.poll() is None


def test_the_board_connection_cannot_write(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as host:
        live = LiveSession.start(host, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act({"type": "score", "player": "p1", "points": 3})
        follower = Follower(db)
        assert follower.poll() is not None
        store = follower.store
        assert store is not None and store.readonly
        assert store.conn.execute("PRAGMA query_only").fetchone()[0] == 1
        with pytest.raises(sqlite3.OperationalError, match=r"readonly|read-only"):
            store.append(live.id, 99, "action", {"type": "close-round"}, 0)
        with pytest.raises(sqlite3.OperationalError, match=r"readonly|read-only"):
            store.conn.execute("DELETE FROM entries")
        # Even with query_only switched off, the file itself was opened read-only.
        store.conn.execute("PRAGMA query_only = OFF")
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.conn.execute("UPDATE sessions SET status = 'abandoned'")
        assert host.last_seq(live.id) == 1
        assert host.session(live.id).status == "active"
        follower.close()


def test_a_board_started_after_the_game_waits_for_the_next(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as host:
        old = LiveSession.start(host, "scorepad", seat_players(["Ann"]), {})
        old.act({"type": "end"})
        follower = Follower(db)
        snap = follower.poll()
        assert snap is not None and snap.waiting and snap.problem is None
        new = LiveSession.start(host, "scorepad", seat_players(["Bo"]), {})
        snap = follower.poll()
        assert snap is not None and snap.session is not None and snap.session.id == new.id
        follower.close()


def test_waits_for_the_database_then_for_a_session(tmp_path: Path) -> None:
    db = tmp_path / "later.db"
    follower = Follower(db)
    snap = follower.poll()
    assert snap is not None and snap.waiting
    assert snap.problem is not None and snap.problem[0] == follow.NO_DATABASE
    with Store.open(db) as host:
        snap = follower.poll()
        assert snap is not None and snap.waiting and snap.problem is None
        assert follower.poll() is None
        live = LiveSession.start(host, "scorepad", seat_players(["Ann"]), {})
        snap = follower.poll()
        assert snap is not None and snap.session is not None and snap.session.id == live.id
    follower.close()


def test_a_finished_session_stays_until_the_next_one(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as host:
        first = LiveSession.start(host, "scorepad", seat_players(["Ann", "Bo"]), {})
        follower = Follower(db)
        assert follower.poll() is not None  # the board was on before the game ended
        first.act({"type": "score", "player": "p2", "points": 4})
        first.act({"type": "end"})
        snap = poll_until(follower, 2)
        assert snap.session is not None and snap.session.status == "finished"
        assert snap.outcome is not None and snap.outcome.winners == ("p2",)
        # Still shown while nothing else is active.
        assert follower.poll() is None
        second = LiveSession.start(host, "scorepad", seat_players(["Cy", "Di"]), {})
        snap = follower.poll() or follower.current()
        assert snap.session is not None and snap.session.id == second.id
        assert snap.last_seq == 0 and snap.outcome is None
        # The host resumes the older unfinished one: undo reopens it and the board
        # moves back to it with that entry.
        time.sleep(0.005)  # entries are stamped to the millisecond; one host, one hand
        first.undo()
        snap = follower.poll() or follower.current()
        assert snap.session is not None and snap.session.id == first.id
        assert snap.outcome is None and snap.session.status == "active"
        follower.close()


def test_a_named_session_is_kept(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as host:
        chosen = LiveSession.start(host, "scorepad", seat_players(["Ann"]), {})
        follower = Follower(db, chosen.id[:8])  # a unique prefix is enough
        LiveSession.start(host, "scorepad", seat_players(["Bo"]), {}).act(
            {"type": "score", "player": "p1", "points": 1}
        )
        snap = follower.poll()
        assert snap is not None and snap.session is not None
        assert snap.session.id == chosen.id and not snap.following
        missing = Follower(db, "no-such-session")
        snap = missing.poll()
        assert snap is not None and snap.waiting
        assert snap.problem is not None and snap.problem[0] == follow.NO_SUCH_SESSION
        follower.close()
        missing.close()


def test_a_busy_database_keeps_the_last_state_and_recovers(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as host:
        live = LiveSession.start(host, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act({"type": "score", "player": "p1", "points": 3})
        follower = Follower(db)
        good = poll_until(follower, 1)
        # A read meets a lock (WAL recovery after a crash, a checkpoint racing a
        # restart): SQLite answers "database is locked" for a while.
        store = follower.store
        assert store is not None
        real_data_version = store.data_version
        calls = 0

        def locked() -> int:
            nonlocal calls
            calls += 1
            raise sqlite3.OperationalError("database is locked")

        store.data_version = locked  # type: ignore[method-assign]
        live.act({"type": "score", "player": "p2", "points": 1})
        snap = follower.poll()
        assert snap is not None and snap.problem is not None
        assert snap.problem[0] == follow.DATABASE_BUSY
        assert snap.state == good.state and snap.last_seq == 1
        assert follower.poll() is None  # still busy: nothing new to show
        assert calls == 2
        store.data_version = real_data_version  # type: ignore[method-assign]
        live.act({"type": "score", "player": "p2", "points": 7})
        snap = poll_until(follower, 3)
        assert snap.problem is None and snap.state == live.state
        follower.close()


def test_the_host_app_restarting_is_followed(tmp_path: Path, start_writer) -> None:
    db = tmp_path / "c.db"
    first = start_writer(db, "scorepad", ["Ann", "Bo"])
    first.send({"type": "score", "player": "p1", "points": 2})
    follower = Follower(db)
    poll_until(follower, 1)
    first.close()  # the host quits...
    again = start_writer(db, "scorepad", [], session=first.session)  # ...and resumes
    report = again.send({"type": "score", "player": "p2", "points": 9})
    snap = poll_until(follower, report["seq"])
    assert repr(snap.state) == report["state"]
    follower.close()


def test_a_replaced_database_file_is_reopened(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as host:
        old = LiveSession.start(host, "scorepad", seat_players(["Ann"]), {})
        old.act({"type": "score", "player": "p1", "points": 1})
    follower = Follower(db)
    snap = poll_until(follower, 1)
    assert snap.session is not None and snap.session.id == old.id
    # Replaced on purpose: with its record (else a new file there is refused, as a
    # history that vanished: tests/storage/test_history_record.py).
    for suffix in ("", "-wal", "-shm", ".record.json"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    snap = follower.poll()
    assert snap is not None and snap.waiting
    assert snap.problem is not None and snap.problem[0] == follow.NO_DATABASE
    with Store.open(db) as host:  # a new database at the same path
        new = LiveSession.start(host, "scorepad", seat_players(["Bo"]), {})
        snap = follower.poll()
        assert snap is not None and snap.session is not None and snap.session.id == new.id
        assert snap.problem is None
    follower.close()


def test_a_log_that_does_not_replay_is_reported_not_raised(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    with Store.open(db) as host:
        live = LiveSession.start(host, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act({"type": "score", "player": "p1", "points": 3})
        host.append(live.id, 2, "action", {"type": "score", "player": "p9", "points": 1}, 0)
        follower = Follower(db)
        snap = follower.poll()
        assert snap is not None and snap.problem is not None
        assert snap.problem[0] == follow.LOG_BROKEN and snap.problem[1]["seq"] == 2
        assert snap.state == live.state and snap.last_seq == 1
        follower.close()


COMMANDS = st.one_of(
    st.tuples(st.just("score"), st.sampled_from(["p1", "p2", "p3"]), st.integers(-20, 40)),
    st.just(("close-round",)),
    st.just(("end",)),
    st.just(("undo",)),
    st.just(("redo",)),
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.lists(COMMANDS, max_size=25), st.integers(0, 60))
def test_follower_state_equals_the_writer_after_every_step(
    tmp_path_factory: pytest.TempPathFactory, commands: list[tuple[object, ...]], target: int
) -> None:
    db = tmp_path_factory.mktemp("h") / "c.db"
    with Store.open(db) as host:
        live = LiveSession.start(
            host, "scorepad", seat_players(["Ann", "Bo", "Cy"]), {"target": target}
        )
        follower = Follower(db)
        assert follower.poll() is not None
        for command in commands:
            try:
                if command[0] == "undo":
                    live.undo()
                elif command[0] == "redo":
                    live.redo()
                elif command[0] == "score":
                    live.act({"type": "score", "player": command[1], "points": command[2]})
                else:
                    live.act({"type": command[0]})
            except ValueError:
                continue  # refused: nothing was written, the board must not change
            snap = follower.poll()
            assert snap is not None
            assert snap.state == live.state
            assert snap.outcome == live.outcome
            assert snap.undone == frozenset(live.undone)
        follower.close()
