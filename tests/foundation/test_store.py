"""The SQLite store: migrations from every version, WAL + FULL sync, refusals."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.base import seat_players
from companion.session.store import (
    APPLICATION_ID,
    MIGRATIONS,
    SCHEMA_VERSION,
    Store,
    StoreError,
)


def make_db_at_version(path, version):
    """A database as an older companion left it, with one finished and one open session."""
    conn = sqlite3.connect(path, isolation_level=None)
    for index in range(version):
        for statement in [s for s in MIGRATIONS[index].split(";") if s.strip()]:
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {index + 1}")
    if version >= 1:
        players = json.dumps([p.to_json() for p in seat_players(["Ann", "Bo"])])
        conn.execute(
            "INSERT INTO sessions(id, game, options, players, started_at, ended_at, "
            "outcome) VALUES ('s-done', 'scorepad', '{}', ?, '2026-01-01T20:00:00Z', "
            "'2026-01-01T21:00:00Z', '{\"winners\": [\"p1\"]}')",
            (players,),
        )
        conn.execute(
            "INSERT INTO sessions(id, game, options, players, started_at) VALUES "
            "('s-open', 'scorepad', '{}', ?, '2026-01-02T20:00:00Z')",
            (players,),
        )
        conn.execute(
            "INSERT INTO entries(session_id, seq, kind, payload, at, mono_ns) "
            "VALUES ('s-open', 1, 'action', "
            '\'{"type":"score","player":"p1","points":3}\', '
            "'2026-01-02T20:01:00Z', 5)"
        )
        conn.execute("INSERT INTO roster(name, created_at) VALUES ('Ann', 'x')")
    if version >= 2:  # from version 2 on, the writer records the status itself
        conn.execute("UPDATE sessions SET status = 'finished' WHERE id = 's-done'")
    conn.close()


@pytest.mark.parametrize("version", range(SCHEMA_VERSION + 1))
def test_migrates_from_every_earlier_version(tmp_path, version):
    path = tmp_path / "old.sqlite3"
    make_db_at_version(path, version)
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        if version >= 1:
            assert store.session("s-done").status == "finished"
            assert store.session("s-open").status == "active"
            assert [e.payload["points"] for e in store.entries("s-open")] == [3]
            assert [r.name for r in store.roster()] == ["Ann"]
    # Opening again is a no-op.
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION


@pytest.mark.parametrize("version", range(SCHEMA_VERSION))
def test_a_migration_that_fails_half_way_leaves_the_file_as_it_was(tmp_path, monkeypatch, version):
    """All steps run in one transaction: a step that fails (or a kill) leaves the
    version and the tables the file had, never a file half-way between two versions
    (each step used to commit on its own)."""
    from companion.session import store as store_module

    path = tmp_path / "old.sqlite3"
    make_db_at_version(path, version)
    broken = (*MIGRATIONS[:-1], MIGRATIONS[-1] + ";\nCREATE TABLE sessions (x)")
    monkeypatch.setattr(store_module, "MIGRATIONS", broken)

    def tables() -> list[str]:
        conn = sqlite3.connect(path)
        try:
            return [r[0] for r in conn.execute("SELECT name FROM sqlite_master ORDER BY name")]
        finally:
            conn.close()

    before = tables()
    with pytest.raises(Exception, match="already exists"):
        Store.open(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == version
    conn.close()
    assert tables() == before
    monkeypatch.undo()
    with Store.open(path) as store:  # the real migrations still bring it up to date
        assert store.schema_version == SCHEMA_VERSION


def test_wal_and_full_sync(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as store:
        assert store.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(b"shopping list: milk, eggs\n" * 10)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="is not a SQLite database"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_newer_schema_is_refused_and_left_untouched(tmp_path):
    path = tmp_path / "future.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE future(x)")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")  # a newer companion marks it
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="written by a newer companion"):
        Store.open(path)
    assert path.read_bytes() == before


def test_a_folder_is_refused(tmp_path):
    with pytest.raises(StoreError, match="is a folder"):
        Store.open(tmp_path)


def test_duplicate_seq_fails_loudly(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as store:
        sid = store.create_session("scorepad", {}, seat_players(["Ann"]))
        store.append(sid, 1, "action", {"type": "end"}, 1)
        with pytest.raises(sqlite3.IntegrityError):
            store.append(sid, 1, "action", {"type": "end"}, 2)
        assert len(store.entries(sid)) == 1


def test_readonly_connection_cannot_write(tmp_path):
    path = tmp_path / "db.sqlite3"
    with Store.open(path) as store:
        sid = store.create_session("scorepad", {}, seat_players(["Ann"]))
    with Store.open(path, readonly=True) as ro:
        assert ro.session(sid).game == "scorepad"
        with pytest.raises(sqlite3.OperationalError):
            ro.append(sid, 1, "action", {"type": "end"}, 1)


def test_roster_is_case_insensitive_and_keeps_details(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as store:
        store.add_to_roster("小明", "red", "2012-05-31")
        store.add_to_roster("Ann")
        again = store.add_to_roster("ann", None, "2010-01-01")
        assert again.name == "Ann"
        assert [(r.name, r.colour, r.birth_date) for r in store.roster()] == [
            ("Ann", None, "2010-01-01"),
            ("小明", "red", "2012-05-31"),
        ]
        with pytest.raises(StoreError):
            store.add_to_roster("   ")


def test_unknown_session_id_is_a_clear_error(tmp_path):
    with (
        Store.open(tmp_path / "db.sqlite3") as store,
        pytest.raises(StoreError, match="No session 'nope'"),
    ):
        store.session("nope")


def test_session_found_by_unique_prefix(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as store:
        sid = store.create_session("scorepad", {}, seat_players(["Ann"]))
        assert store.session(sid[:8]).id == sid


def test_each_thread_gets_its_own_connection_and_sees_commits(tmp_path):
    """The UI thread reads while the writer thread commits: no shared connection."""
    import threading

    with Store.open(tmp_path / "db.sqlite3") as store:
        sid = store.create_session("scorepad", {}, seat_players(["Ann"]))
        seen: dict[str, object] = {}

        def writer():
            seen["conn"] = store.conn
            for seq in range(1, 51):
                store.append(
                    sid, seq, "action", {"type": "score", "player": "p1", "points": 1}, seq
                )

        thread = threading.Thread(target=writer)
        thread.start()
        while thread.is_alive():
            store.sessions()  # reads on this thread's connection meanwhile
            store.last_seq(sid)
        thread.join()
        assert seen["conn"] is not store.conn
        assert store.last_seq(sid) == 50
        assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(_JSON)
def test_the_stored_json_is_the_one_form_every_earlier_file_has(value):
    """The store's JSON text is part of each row's checksum: whatever makes it faster
    must write exactly what ``json.dumps`` wrote, or every stored row reads damaged."""
    from companion.session.store import _dumps

    assert _dumps(value) == json.dumps(
        value, ensure_ascii=False, separators=(",", ":"), sort_keys=True
    )
