"""Backups: online, checked, rotated; restore refuses damage; export refuses unimportable files."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.base import seat_players
from companion.session.backup import KEEP, auto_backup, backup_dir
from companion.session.live import LiveSession
from companion.session.owner import OwnerLock
from companion.session.store import Store


def run(*argv: str) -> int:
    try:
        return main(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)


def play(store: Store, points: int = 3, finish: bool = False) -> str:
    live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
    live.act({"type": "score", "player": "p1", "points": points})
    if finish:
        live.act({"type": "end"})
    return live.id


def test_backup_holds_the_commits_still_in_the_wal_and_restore_puts_them_back(tmp_path, capsys):
    db = tmp_path / "db.sqlite3"
    store = Store.open(db)  # stays open: its newest commits are only in the -wal
    kept = play(store, 5)
    assert (tmp_path / "db.sqlite3-wal").stat().st_size > 0
    out = tmp_path / "copy.sqlite3"
    assert run("--db", str(db), "backup", str(out)) == 0
    assert not Path(str(out) + "-wal").exists(), "a backup is one file"
    with Store.open(out, readonly=True) as copy:
        assert [e.payload["points"] for e in copy.entries(kept)] == [5]
    lost = play(store, 7)
    store.close()
    assert run("--db", str(db), "restore", str(out)) == 0
    assert "before it was kept in" in capsys.readouterr().out
    with Store.open(db) as back:
        ids = {r.id for r in back.sessions()}
        assert kept in ids and lost not in ids
        assert back.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    safety = sorted(backup_dir(db).glob("before-restore-*"))
    with Store.open(safety[-1], readonly=True) as before:
        assert lost in {r.id for r in before.sessions()}, "the replaced history was kept"


def test_restore_refuses_a_damaged_or_foreign_backup_and_changes_nothing(tmp_path, capsys):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        play(store)
    out = tmp_path / "copy.sqlite3"
    assert run("--db", str(db), "backup", str(out)) == 0
    with sqlite3.connect(out) as conn:
        conn.execute("UPDATE entries SET payload = '{oops'")
    foreign = tmp_path / "places.sqlite"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE moz_places(x)")
    before = db.read_bytes()
    for bad in (out, foreign, tmp_path / "absent.sqlite3"):
        assert run("--db", str(db), "restore", str(bad)) == 2
        assert "not a sound companion backup" in capsys.readouterr().err
    assert db.read_bytes() == before


def test_restore_is_refused_while_an_app_owns_the_database(tmp_path, capsys):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        play(store)
    out = tmp_path / "copy.sqlite3"
    assert run("--db", str(db), "backup", str(out)) == 0
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys,time; from companion.session.owner import OwnerLock; "
            "OwnerLock(sys.argv[1]).acquire(); print('held', flush=True); time.sleep(60)",
            str(db),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "held"
        assert run("--db", str(db), "restore", str(out)) == 2
        assert "open in another companion window" in capsys.readouterr().err
        assert run("--db", str(db), "backup", str(tmp_path / "again.sqlite3")) == 0
    finally:
        child.kill()
        child.wait()
    with OwnerLock(db):
        pass


def test_a_finished_session_makes_one_backup_a_day_and_the_newest_are_kept(tmp_path):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        play(store, finish=True)
        first = sorted(backup_dir(db).glob("auto-*"))
        assert len(first) == 1
        play(store, finish=True)
        assert sorted(backup_dir(db).glob("auto-*")) == first, "at most one a day"
        day = 24 * 3600
        now = time.time()
        for i in range(KEEP + 3):
            made = auto_backup(store, now=now + (i + 1) * day)
            assert made is not None
            os.utime(made, (now + (i + 1) * day, now + (i + 1) * day))
        kept = sorted(backup_dir(db).glob("auto-*"))
        assert len(kept) == KEEP
        assert made in kept


def test_a_clean_exit_checkpoints_the_wal(tmp_path):
    db = tmp_path / "db.sqlite3"
    store = Store.open(db)
    play(store)
    reader = Store.open(db, readonly=True)  # a board still reading: the WAL stays without us
    reader.sessions()
    store.close()
    wal = tmp_path / "db.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0
    reader.close()
    with Store.open(db, readonly=True) as alone:
        assert len(alone.sessions()) == 1


def test_export_refuses_to_write_a_file_that_would_not_import(tmp_path, capsys):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        play(store)
        bad = play(store, 4)
        store.conn.execute(
            'UPDATE entries SET payload = \'{"type":"score","player":"p9","points":1}\' '
            "WHERE session_id = ?",
            (bad,),
        )
    out = tmp_path / "one.json"
    assert run("--db", str(db), "export", "--session", bad, "--out", str(out)) == 2
    err = capsys.readouterr().err
    assert bad in err and "imports back" in err
    assert not out.exists()
    # The whole history: every sound session is written, the bad one left out and named.
    out = tmp_path / "all.json"
    assert run("--db", str(db), "export", "--all", "--out", str(out)) == 1
    err = capsys.readouterr().err
    assert bad in err
    assert bad not in out.read_text(encoding="utf-8")
    assert run("--db", str(tmp_path / "other.sqlite3"), "import", str(out)) == 0


def test_every_written_export_imports_back(tmp_path):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        for n in range(4):
            play(store, n, finish=n % 2 == 0)
    out = tmp_path / "all.json"
    assert run("--db", str(db), "export", "--all", "--out", str(out)) == 0
    assert run("--db", str(tmp_path / "other.sqlite3"), "import", str(out)) == 0


@pytest.mark.parametrize("command", ["backup", "check"])
def test_read_only_commands_on_a_missing_history(tmp_path, command, capsys):
    assert run("--db", str(tmp_path / "none.sqlite3"), command) in (0, 2)
    assert not (tmp_path / "none.sqlite3").exists()
