"""Ours or refused untouched: every file is inspected read-only before it is opened.

Before these changes a browser's ``places.sqlite`` was converted (companion tables
added, WAL on) even by ``companion stats``; a newer database with a leftover -wal
was checkpointed and its -wal deleted; ``--db /dev/null`` left /dev/null-journal;
two first starts on a new file raced ("table roster already exists").
"""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.session.store import APPLICATION_ID, SCHEMA_VERSION, Store, StoreError

CHILD = Path(__file__).with_name("first_start_child.py")


def fingerprint(path: Path) -> dict[str, str | None]:
    """Hashes of the file and its -wal and -shm (None: absent)."""
    out: dict[str, str | None] = {}
    for suffix in ("", "-wal", "-shm", "-journal", ".lock"):
        f = path.with_name(path.name + suffix)
        out[suffix] = hashlib.sha256(f.read_bytes()).hexdigest() if f.is_file() else None
    return out


def leftover_wal(tmp_path: Path, name: str, build) -> Path:
    """A database whose last commits are only in its -wal (as a crash leaves it)."""
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    live = work / name
    conn = sqlite3.connect(live, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    build(conn)
    left = tmp_path / name
    for suffix in ("", "-wal", "-shm"):  # copied while the writer still has it open
        shutil.copyfile(live.with_name(live.name + suffix), left.with_name(left.name + suffix))
    conn.close()
    assert left.with_name(left.name + "-wal").stat().st_size > 0
    return left


def browser_history(conn: sqlite3.Connection) -> None:
    conn.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)")
    conn.execute("INSERT INTO moz_places(url) VALUES ('https://example.org')")


def newer_companion(conn: sqlite3.Connection) -> None:
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("CREATE TABLE sessions (id TEXT PRIMARY KEY)")
    conn.execute("CREATE TABLE future (x)")
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")


def refused_untouched(path: Path, match: str, capsys) -> None:
    before = fingerprint(path)
    with pytest.raises(StoreError, match=match):
        Store.open(path)
    with pytest.raises(StoreError, match=match):
        Store.open(path, readonly=True)
    for command in (["stats"], ["export", "--all"], ["import", "/nonexistent.json"]):
        with pytest.raises(SystemExit) as exit_:
            main(["--db", str(path), *command])
        assert exit_.value.code == 2
        assert "left untouched" in capsys.readouterr().err
    assert fingerprint(path) == before


def test_a_browsers_database_with_a_wal_is_refused_untouched(tmp_path, capsys):
    path = leftover_wal(tmp_path, "places.sqlite", browser_history)
    refused_untouched(path, "another program's SQLite database", capsys)


def test_a_browsers_database_without_a_wal_is_refused_untouched(tmp_path, capsys):
    path = tmp_path / "places.sqlite"
    conn = sqlite3.connect(path)
    browser_history(conn)
    conn.commit()
    conn.close()
    refused_untouched(path, "moz_places", capsys)


def test_a_newer_companion_with_a_leftover_wal_is_refused_untouched(tmp_path, capsys):
    path = leftover_wal(tmp_path, "future.sqlite3", newer_companion)
    refused_untouched(path, "written by a newer companion", capsys)


def test_text_and_damaged_headers_are_refused_untouched(tmp_path, capsys):
    path = tmp_path / "notes.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    refused_untouched(path, "cannot be read as a database", capsys)


def test_dev_null_is_refused_and_nothing_appears_beside_it(capsys):
    beside = [Path("/dev/null" + s) for s in ("-journal", "-wal", "-shm", ".lock")]
    before = [p.exists() for p in beside]
    with pytest.raises(StoreError, match="not a regular file"):
        Store.open("/dev/null")
    with pytest.raises(SystemExit):
        main(["--db", "/dev/null", "stats"])
    assert "not a regular file" in capsys.readouterr().err
    assert [p.exists() for p in beside] == before


def test_a_folder_is_refused_and_left_as_it_was(tmp_path, capsys):
    (tmp_path / "keep.txt").write_text("x")
    with pytest.raises(StoreError, match="is a folder"):
        Store.open(tmp_path)
    with pytest.raises(SystemExit):
        main(["--db", str(tmp_path), "stats"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]


@pytest.mark.parametrize("how", ["absent", "empty"])
def test_absent_and_empty_files_become_marked_databases(tmp_path, how):
    path = tmp_path / "new.sqlite3"
    if how == "empty":
        path.write_bytes(b"")
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION
        assert store.conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_an_empty_sqlite_file_becomes_ours(tmp_path):
    path = tmp_path / "blank.sqlite3"
    sqlite3.connect(path).execute("PRAGMA user_version = 0").connection.close()
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION


def test_read_only_commands_create_nothing(tmp_path, capsys):
    path = tmp_path / "none.sqlite3"
    assert main(["--db", str(path), "stats", "--json"]) == 0
    assert not any(tmp_path.iterdir()), "stats on no history creates no file"


def first_starts(path: Path, n: int, mode: str) -> list[str]:
    """Start ``n`` children on ``path`` at one instant; their one-line reports.

    An owner stays open (as an app window does) until every other child has
    reported, so "exactly one owner" means exactly one.
    """
    at = time.time() + 3 + n / 20  # every child sleeps until the same instant
    children = [
        subprocess.Popen(
            [sys.executable, str(CHILD), str(path), str(at), mode],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(n)
    ]
    deadline = time.monotonic() + 300
    while sum(c.poll() is None for c in children) > 1 and time.monotonic() < deadline:
        time.sleep(0.1)
    Path(str(path) + ".done").touch()
    return [c.communicate(timeout=300)[0].strip() for c in children]


def test_fifty_simultaneous_first_starts_are_all_served(tmp_path):
    path = tmp_path / "new.sqlite3"
    outputs = first_starts(path, 50, "store")
    refused = [o for o in outputs if o != f"owner {SCHEMA_VERSION}"]
    assert refused == []
    with Store.open(path) as store:
        assert store.schema_version == SCHEMA_VERSION


@pytest.mark.parametrize("n", [50, 200])
def test_simultaneous_first_starts_of_the_app_one_owner_the_rest_read_only(tmp_path, n):
    """As ``companion`` opens: one owner; the others read-only beside it, 0 refused.

    Before: 2 of 50 were refused "older than this companion" (the read-only open saw
    the owner's migration not yet committed), and a read-only open of a file the
    owner had not created yet was refused "does not exist yet".
    """
    path = tmp_path / "new.sqlite3"
    outputs = first_starts(path, n, "app")
    owners = [o for o in outputs if o == f"owner {SCHEMA_VERSION}"]
    readers = [o for o in outputs if o == f"read-only {SCHEMA_VERSION}"]
    assert len(owners) == 1
    assert len(owners) + len(readers) == n, [o for o in outputs if o not in owners + readers]


def test_read_only_commands_upgrade_an_older_companion_database(tmp_path, capsys):
    path = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute(
        "CREATE TABLE roster (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE, "
        "colour TEXT, birth_date TEXT, created_at TEXT NOT NULL)"
    )
    conn.execute(
        "CREATE TABLE sessions (id TEXT PRIMARY KEY, game TEXT NOT NULL, options TEXT NOT NULL, "
        "players TEXT NOT NULL, started_at TEXT NOT NULL, ended_at TEXT, outcome TEXT)"
    )
    conn.execute(
        "CREATE TABLE entries (session_id TEXT NOT NULL REFERENCES sessions(id), seq INTEGER "
        "NOT NULL, kind TEXT NOT NULL, payload TEXT NOT NULL, at TEXT NOT NULL, mono_ns "
        "INTEGER NOT NULL, PRIMARY KEY (session_id, seq)) WITHOUT ROWID"
    )
    conn.execute("PRAGMA user_version = 1")  # as a first companion left it
    conn.close()
    assert main(["--db", str(path), "stats", "--json"]) == 0
    with Store.open(path, readonly=True) as store:
        assert store.schema_version == SCHEMA_VERSION
