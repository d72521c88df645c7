"""A full disk: every write path says "the disk is full", the app goes on, nothing is lost.

Before: starting a new game on a full disk crashed the app with a traceback,
starting one said "disk I/O error", and failed hardware writes left holes in seq.
The database lives on a 2 MiB tmpfs (mounted here; the test skips if it cannot).
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.rules.base import seat_players
from companion.session.live import LiveSession
from companion.session.store import Store, StoreError, WriteError
from companion.ui.app import make_app
from companion.ui.new_session import NewSessionScreen


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount = tmp_path / "disk"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=2m", "tmpfs", str(mount)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.skip(f"cannot mount a 2 MiB tmpfs (needs root): {done.stderr.strip()}")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True)


def fill(disk: Path) -> Path:
    """Fill the disk to the last byte with a file that can be removed to free it."""
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        for chunk in (65536, 4096, 1):
            with contextlib.suppress(OSError):
                while os.write(fd, b"\0" * chunk):
                    pass
    finally:
        os.close(fd)
    return filler


def score(pid: str, pts: int) -> dict[str, object]:
    return {"type": "score", "player": pid, "points": pts}


def test_every_session_write_path_names_the_full_disk(small_disk):
    db = small_disk / "db.sqlite3"
    store = Store.open(db)
    live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
    committed = [live.act(score("p1", 1)).entry]
    filler = fill(small_disk)
    failures: list[StoreError] = []
    for i in range(400):  # the -wal grows until the disk refuses it
        try:
            if i % 3 == 0:
                committed.append(live.record_hardware({"button": 1, "pad": "x" * 500}))
            else:
                committed.append(live.act(score("p2", i)).entry)
        except WriteError as exc:
            failures.append(exc)
            if len(failures) > 5:
                break
    assert failures, "the disk never filled"
    assert all("the disk is full" in str(f) for f in failures)
    for attempt in (
        lambda: LiveSession.start(store, "scorepad", seat_players(["Cy"]), {}),
        lambda: store.add_to_roster("Di" * 300),
        lambda: live.abandon(),
        lambda: live.undo(),
    ):
        with pytest.raises(WriteError, match="the disk is full"):
            attempt()
    assert [e.seq for e in store.entries(live.id)] == [e.seq for e in committed]
    filler.unlink()  # room again: the same session goes on
    committed.append(live.act(score("p1", 9)).entry)
    store.close()
    with Store.open(db) as again:
        seqs = [e.seq for e in again.entries(live.id)]
        assert seqs == list(range(1, len(committed) + 1)), "no hole, nothing lost"
        assert LiveSession.resume(again, live.id).state == live.state
        assert len(again.sessions()) == 1, "the refused start wrote nothing"


def test_opening_a_new_database_on_a_full_disk_names_the_cause(small_disk):
    fill(small_disk)
    with pytest.raises(StoreError, match=r"(?i)the disk is full"):
        Store.open(small_disk / "new.sqlite3")
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler"]


def test_a_database_locked_by_another_program_is_named(tmp_path):
    import sqlite3

    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        live = LiveSession.start(store, "scorepad", seat_players(["Ann"]), {})
        other = sqlite3.connect(db, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # e.g. the sqlite3 shell in a transaction
        store.conn.execute("PRAGMA busy_timeout = 100")
        with pytest.raises(WriteError, match="locked by another program"):
            live.act(score("p1", 1))
        other.execute("ROLLBACK")
        other.close()
        assert live.act(score("p1", 1)).entry.seq == 1


def seen(app) -> list[str]:
    """What the host can read: toasts and the game screen's message line."""
    out = [str(n.message) for n in app._notifications]
    out += [str(line.render()) for line in app.screen.query("#message-line")]
    return out


async def test_the_app_plays_and_starts_games_on_a_full_disk(small_disk):
    db = small_disk / "db.sqlite3"
    app = make_app(db, lang="en")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", ["Ann", "Bo"])
        await pilot.pause()
        await pilot.press("plus")
        await app.settle()
        filler = fill(small_disk)
        for _ in range(60):  # scores until the -wal cannot grow
            await pilot.press("plus")
            await app.settle()
            if any("the disk is full" in m for m in seen(app)):
                break
        messages = seen(app)  # a game screen says it in its message line
        assert any("the disk is full" in m for m in messages), messages
        await pilot.press("escape")  # home, then a new game on the full disk
        await pilot.pause()
        app.push_screen(NewSessionScreen(_scorepad()))
        await pilot.pause()
        for name in ("Cy", "Di"):
            for ch in name:
                await pilot.press(ch)
            await pilot.press("enter")
        await pilot.press("ctrl+s")
        await app.settle()
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen), "no crash, still on the setup"
        error = str(app.screen.query_one("#setup-error").render())
        assert "the disk is full" in error
        filler.unlink()
        await pilot.press("ctrl+s")
        await app.settle()
        await pilot.pause()
        assert not isinstance(app.screen, NewSessionScreen), "with room, the game starts"
        shown = [e.seq for e in live.entries]
    with Store.open(db) as store:
        stored = [e.seq for e in store.entries(live.id)]
        assert stored == shown == list(range(1, len(stored) + 1))
        assert len(store.sessions()) == 2


def _scorepad():  # the game info the new-session screen is opened with
    from companion.games import find_game

    return find_game("scorepad")


def test_fill_helper_really_fills(small_disk):
    fill(small_disk)
    with pytest.raises(OSError) as exc:
        (small_disk / "one-more").write_bytes(b"x" * 8192)
    assert exc.value.errno == errno.ENOSPC


def full_history(disk: Path) -> Path:
    """A history of two sessions, closed cleanly, then the disk filled to the last byte."""
    db = disk / "h.sqlite3"
    with Store.open(db) as store:
        for name in ("Ann", "Bo"):
            live = LiveSession.start(store, "scorepad", seat_players([name, "Cy"]), {})
            live.act(score("p1", 3))
    fill(disk)
    return db


def companions(db: Path) -> list[str]:
    return sorted(p.name for p in db.parent.iterdir() if p.name.startswith(db.name + "-"))


def run_cli(*argv: str) -> int:
    from companion.cli import main

    try:
        return main(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)


def test_a_full_disk_at_start_is_named_with_the_free_space(small_disk):
    """Before: "the disk failed to read or write (disk I/O error)", and a -shm and -wal."""
    db = full_history(small_disk)
    with pytest.raises(StoreError) as refused:
        Store.open(db)
    assert str(refused.value).startswith("The disk is full (0.0 MiB free); history and exports")
    assert companions(db) == []


@pytest.mark.parametrize(
    "command",
    [("stats",), ("check",), ("export", "--all", "--format", "json"), ("stats", "--json")],
)
def test_read_only_commands_work_on_a_full_disk_and_leave_nothing_beside_it(
    small_disk, command, capsys
):
    """Before: exit 2 ("disk I/O error"), and a 3-byte -shm and an empty -wal left."""
    db = full_history(small_disk)
    assert run_cli("--db", str(db), *command) == 0
    captured = capsys.readouterr()
    assert "I/O" not in captured.err
    assert companions(db) == []
    with Store.open(db, readonly=True) as store:  # as the board and History read it
        assert len(store.sessions()) == 2
    assert companions(db) == []


async def test_the_app_starts_read_only_on_a_full_disk(small_disk):
    db = full_history(small_disk)
    app = make_app(db)
    assert app.disk_full is not None and app.store.readonly
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert any("The disk is full" in m for m in seen(app))
        with pytest.raises(StoreError, match="new entries cannot be saved"):
            app.start_session("scorepad", ["Ann", "Bo"])
        assert len(app.store.sessions()) == 2, "the history is there to read"
    assert companions(db) == []
