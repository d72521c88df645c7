"""Damage detected: random byte flips and truncations of the database and its -wal.

Every damaged copy is either refused with a message, or opened with every session
it can read intact and the damaged ones named; never a traceback from the store,
``stats``, ``export`` or ``check``. Before: 13 of 40 damaged files opened and then
raised raw errors, and ``export --all`` gave 12 tracebacks.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.base import seat_players
from companion.session.check import check_store
from companion.session.export import replay_session
from companion.session.live import LiveSession
from companion.session.log import ReplayError
from companion.session.store import DamagedError, Store, StoreError


def build_history(path: Path, sessions: int = 8) -> None:
    rng = random.Random(3)
    with Store.open(path) as store:
        for n in range(sessions):
            live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo", f"P{n}"]), {})
            for _ in range(rng.randint(3, 12)):
                live.act({"type": "score", "player": rng.choice(("p1", "p2", "p3")), "points": n})
            live.record_hardware({"button": 1, "note": "x" * rng.randint(0, 300)})


def snapshot(store: Store) -> dict[str, tuple[object, list[object]]]:
    return {row.id: (row, store.entries(row.id)) for row in store.sessions()}


def run_cli(db: Path, *command: str) -> int:
    try:
        return main(["--db", str(db), *command])
    except SystemExit as exc:
        return int(exc.code or 0)


def probe(db: Path, original: dict[str, tuple[object, list[object]]], out: Path) -> str:
    """Open a damaged copy the ways a host would; return what happened (never raises)."""
    try:
        store = Store.open(db)
    except StoreError as exc:
        assert str(exc)
        return "refused"
    try:
        store.check(full=True)
        report = check_store(store)
        damaged = {d.session_id for d in report.damaged}
        intact = changed = 0
        for sid, (row, entries) in original.items():
            try:
                got = (store.session(sid), store.entries(sid))
                replay_session(*got)
            except (StoreError, ReplayError, sqlite3.DatabaseError):
                continue  # reported as damaged (by check_store) or unreadable
            if got == (row, entries):
                intact += 1
            elif sid in damaged or report.file_problems:
                continue  # changed, and reported (the session, or the file)
            else:
                # A change SQLite cannot see (a digit inside valid JSON text) is
                # possible; counted, so the rate is visible when the test runs.
                changed += 1
        store.sessions()
    finally:
        store.close()
    for command in (("stats", "--json"), ("export", "--all", "--out", str(out)), ("check",)):
        assert run_cli(db, *command) in (0, 1, 2)
    return f"opened intact={intact} changed={changed} damaged={len(damaged)}"


@pytest.mark.slow
def test_random_flips_and_truncations_of_the_database(tmp_path, capsys):
    clean = tmp_path / "clean.sqlite3"
    build_history(clean)
    with Store.open(clean) as store:
        original = snapshot(store)
    size = clean.stat().st_size
    rng = random.Random(11)
    outcomes = []
    for trial in range(60):
        db = tmp_path / f"damaged{trial}.sqlite3"
        shutil.copyfile(clean, db)
        data = bytearray(db.read_bytes())
        if trial % 4 == 3:
            del data[rng.randrange(1, size) :]
        else:
            for _ in range(rng.randint(1, 3)):
                data[rng.randrange(size)] ^= 1 << rng.randrange(8)
        db.write_bytes(bytes(data))
        outcomes.append(probe(db, original, tmp_path / "out.json"))
        capsys.readouterr()
    print(sorted(outcomes))
    assert any(o == "refused" for o in outcomes) or any("damaged=" in o for o in outcomes)


@pytest.mark.slow
def test_random_flips_of_the_wal(tmp_path, capsys):
    work = tmp_path / "work"
    work.mkdir()
    live_db = work / "db.sqlite3"
    build_history(live_db, sessions=3)
    holder = sqlite3.connect(live_db)  # keeps the -wal from being checkpointed away
    holder.execute("PRAGMA journal_mode = WAL")
    with Store.open(live_db) as store:
        more = LiveSession.start(store, "scorepad", seat_players(["Cy", "Di"]), {})
        for i in range(5):
            more.act({"type": "score", "player": "p1", "points": i})
        original = snapshot(store)
        wal_bytes = (work / "db.sqlite3-wal").read_bytes()
        main_bytes = live_db.read_bytes()
    holder.close()
    rng = random.Random(5)
    for trial in range(20):
        db = tmp_path / f"w{trial}.sqlite3"
        db.write_bytes(main_bytes)
        wal = bytearray(wal_bytes)
        if trial % 3 == 2:
            del wal[rng.randrange(1, len(wal)) :]
        else:
            wal[rng.randrange(len(wal))] ^= 0xFF
        db.with_name(db.name + "-wal").write_bytes(bytes(wal))
        probe(db, original, tmp_path / "out.json")
        capsys.readouterr()


def test_a_damaged_payload_names_the_session_and_entry_and_the_rest_is_usable(tmp_path, capsys):
    db = tmp_path / "db.sqlite3"
    build_history(db, sessions=3)
    with Store.open(db) as store:
        victim = store.sessions()[1].id
        store.conn.execute(
            'UPDATE entries SET payload = \'{"type": "sco\' WHERE session_id = ? AND seq = 2',
            (victim,),
        )
        with pytest.raises(DamagedError, match=r"entry seq 2") as exc:
            store.entries(victim)
        assert exc.value.session_id == victim
        report = check_store(store)
        assert [d.session_id for d in report.damaged] == [victim]
        assert report.sound == 2
    assert run_cli(db, "check") == 1
    out = capsys.readouterr().out
    assert victim[:8] in out and "Ann, Bo" in out
    assert run_cli(db, "stats", "--json") == 0


def test_a_damaged_session_row_is_left_out_of_lists_and_named(tmp_path, capsys):
    db = tmp_path / "db.sqlite3"
    build_history(db, sessions=3)
    with Store.open(db) as store:
        victim = store.sessions()[0].id
        store.conn.execute("UPDATE sessions SET players = '[{' WHERE id = ?", (victim,))
        rows = store.sessions()
        assert victim not in {r.id for r in rows} and len(rows) == 2
        assert victim in store.damaged
    assert run_cli(db, "check") == 1
    assert victim in capsys.readouterr().out
    assert run_cli(db, "stats", "--json") == 0
    assert f"1 damaged session(s) left out: {victim}" in capsys.readouterr().err


def test_a_changed_digit_inside_valid_json_is_found_by_the_checksum(tmp_path, capsys):
    """SQLite cannot see this one: the page is sound, the JSON is valid, the score changed."""
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act({"type": "score", "player": "p1", "points": 41})
        live.act({"type": "score", "player": "p2", "points": 2})
        other = LiveSession.start(store, "scorepad", seat_players(["Cy", "Di"]), {}).id
    data = bytearray(db.read_bytes())
    at = data.find(b'"points":41')
    assert at > 0
    data[at + 9 : at + 11] = b"47"
    db.write_bytes(bytes(data))
    with Store.open(db) as store:
        assert store.check(full=True) == [], "SQLite sees nothing wrong"
        with pytest.raises(DamagedError, match="checksum") as exc:
            store.entries(live.id)
        assert "entry seq 1" in str(exc.value)
        assert store.entries(other) == []
        report = check_store(store)
        assert [d.session_id for d in report.damaged] == [live.id]
    assert run_cli(db, "check") == 1
    assert "checksum" in capsys.readouterr().out
