"""The app knows how much history it had: an emptied or rolled-back file is noticed.

Before (no record beside the database): a file truncated to 0 bytes opened as a new,
empty history and was written; a deleted -wal, or one byte flipped in it (SQLite's
frame checksum ends the log there and drops every later commit), opened with the
newest entries gone, silently. Now each is refused with what is missing and the
newest backup that has it (``companion restore``), and nothing is written to it.
"""

from __future__ import annotations

import hashlib
import shutil
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.base import seat_players
from companion.session.backup import backup, default_backup_path
from companion.session.live import LiveSession
from companion.session.record import read_record, record_path
from companion.session.store import HistoryMissing, Store

SUFFIXES = ("", "-wal", "-shm")


def run(*argv: str) -> int:
    try:
        return main(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)


def play(store: Store, sessions: int, entries: int) -> list[str]:
    ids = []
    for n in range(sessions):
        live = LiveSession.start(store, "scorepad", seat_players(["Ann", f"B{n}"]), {})
        for k in range(entries):
            live.act({"type": "score", "player": "p1", "points": k})
        ids.append(live.id)
    return ids


def fingerprint(db: Path) -> dict[str, str | None]:
    out: dict[str, str | None] = {}
    for s in SUFFIXES:
        f = db.with_name(db.name + s)
        out[s] = hashlib.sha256(f.read_bytes()).hexdigest() if f.exists() else None
    return out


def crashed_copy(live_db: Path, to: Path) -> Path:
    """The database as a crash leaves it: the newest commits only in its -wal."""
    to.mkdir(exist_ok=True)
    for s in SUFFIXES:
        shutil.copyfile(live_db.with_name(live_db.name + s), to / (live_db.name + s))
    shutil.copyfile(record_path(live_db), record_path(to / live_db.name))
    if (live_db.parent / "backups").is_dir():
        shutil.copytree(live_db.parent / "backups", to / "backups")
    return to / live_db.name


def entries_of(db: Path) -> dict[str, int]:
    with Store.open(db, readonly=True) as store:
        return {row.id: store.last_seq(row.id) for row in store.sessions()}


def test_the_record_follows_the_commits_never_ahead_of_them(tmp_path):
    db = tmp_path / "h.sqlite3"
    with Store.open(db) as store:
        ids = play(store, 3, 4)
        for _ in range(20):
            store.append_next(ids[0], "action", {"type": "score", "player": "p1", "points": 1}, 0)
            rec = read_record(db)
            assert rec is not None and rec.sessions == 3
            assert rec.recent[ids[0]] <= store.last_seq(ids[0]), "never ahead of the file"
        for _ in range(200):  # the writer thread catches up at once
            rec = read_record(db)
            if rec is not None and rec.recent[ids[0]] == store.last_seq(ids[0]):
                break
            time.sleep(0.01)
        assert rec is not None and rec.recent[ids[0]] == 24
    rec = read_record(db)  # a clean exit writes it whole
    assert rec is not None
    assert (rec.sessions, rec.entries) == (3, 32)
    assert rec.recent == {ids[1]: 4, ids[2]: 4, ids[0]: 24}


def test_a_database_emptied_to_0_bytes_is_refused_and_restore_brings_it_back(tmp_path, capsys):
    db = tmp_path / "h.sqlite3"
    with Store.open(db) as store:
        play(store, 3, 5)
        made = backup(store, default_backup_path(db, "auto-"))
    want = entries_of(db)
    db.write_bytes(b"")  # a failed copy, a sync tool
    before = fingerprint(db)
    with pytest.raises(HistoryMissing) as refused:
        Store.open(db)
    text = str(refused.value)
    assert "3 sessions" in text and str(made) in text and "companion restore" in text
    assert fingerprint(db) == before, "nothing written to it"
    # The app and the read-only commands say so too, and create nothing.
    assert run("--db", str(db), "stats") == 2
    assert "3 sessions" in capsys.readouterr().err
    assert fingerprint(db) == before
    assert run("--db", str(db), "restore") == 0
    out = capsys.readouterr().out
    assert "kept aside" in out
    assert entries_of(db) == want
    with Store.open(db) as store:  # and it opens as usual again
        assert len(store.sessions()) == 3


def test_a_deleted_database_is_refused_not_created_anew(tmp_path):
    db = tmp_path / "h.sqlite3"
    with Store.open(db) as store:
        play(store, 2, 2)
    db.unlink()
    with pytest.raises(HistoryMissing):
        Store.open(db)
    assert not db.exists()


def test_an_absent_database_with_only_backups_beside_it_is_refused(tmp_path):
    db = tmp_path / "h.sqlite3"
    with Store.open(db) as store:
        play(store, 2, 2)
        backup(store, default_backup_path(db, "auto-"))
    db.unlink()
    record_path(db).unlink()
    with pytest.raises(HistoryMissing):
        Store.open(db)
    assert not db.exists()


def test_a_deleted_wal_is_refused_untouched(tmp_path, capsys):
    live_db = tmp_path / "live" / "h.sqlite3"
    live_db.parent.mkdir()
    store = Store.open(live_db)
    play(store, 2, 6)
    backup(store, default_backup_path(live_db, "auto-"))
    play(store, 1, 3)
    db = crashed_copy(live_db, tmp_path / "copy")
    store.close()
    Path(f"{db}-wal").unlink()
    Path(f"{db}-shm").unlink()
    before = fingerprint(db)
    with pytest.raises(HistoryMissing) as refused:
        Store.open(db)
    assert "sessions missing: 1" in str(refused.value)
    assert fingerprint(db) == before
    assert run("--db", str(db), "check") == 1
    assert "companion restore" in capsys.readouterr().err


def test_a_flipped_byte_in_the_wal_is_refused_and_the_backup_offered(tmp_path, capsys):
    live_db = tmp_path / "live" / "h.sqlite3"
    live_db.parent.mkdir()
    store = Store.open(live_db)
    store.conn.execute("PRAGMA wal_autocheckpoint = 0")
    [sid] = play(store, 1, 40)
    db = crashed_copy(live_db, tmp_path / "copy")
    store.close()
    wal = Path(f"{db}-wal")
    data = bytearray(wal.read_bytes())
    frames = (len(data) - 32) // (24 + 4096)
    data[32 + (24 + 4096) * (frames // 2) + 24 + 200] ^= 0x01
    wal.write_bytes(bytes(data))
    before = fingerprint(db)
    with pytest.raises(HistoryMissing) as refused:
        Store.open(db)
    assert "-wal is damaged at frame" in str(refused.value) and "No backup" in str(refused.value)
    assert fingerprint(db) == before
    # No backup has it: the host may go on with what the file holds, knowingly.
    assert run("--db", str(db), "check", "--accept-loss") == 0
    assert "kept aside" in capsys.readouterr().out
    with Store.open(db) as store:
        assert 0 < store.last_seq(sid) < 40
    kept = list((db.parent / "backups").glob("damaged-*/h.sqlite3-wal"))
    assert [k.read_bytes() for k in kept] == [bytes(data)], "the damaged -wal, as it was"


def test_the_app_is_refused_with_the_message(tmp_path, capsys):
    import argparse

    from companion.cli.app import run_app

    db = tmp_path / "h.sqlite3"
    with Store.open(db) as store:
        play(store, 1, 1)
    db.write_bytes(b"")
    with pytest.raises(SystemExit) as done:
        run_app(argparse.Namespace(db=str(db), lang="en"))
    assert done.value.code == 2
    assert "empty or missing" in capsys.readouterr().err
    assert db.stat().st_size == 0
