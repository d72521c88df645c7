"""One owner per database: a second app window is told who has it and offered read-only use."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.base import seat_players
from companion.session.live import LiveSession
from companion.session.owner import DatabaseInUse, OwnerLock, holder
from companion.session.store import Store, StoreError
from companion.ui.app import make_app

HOLD = (
    "import sys, time\n"
    "from companion.session.owner import OwnerLock\n"
    "OwnerLock(sys.argv[1]).acquire()\n"
    "print('held', flush=True)\n"
    "time.sleep(600)\n"
)


def hold_in_child(db: Path) -> subprocess.Popen[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(db)], stdout=subprocess.PIPE, text=True
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "held"
    return child


def test_a_second_owner_is_told_the_process_and_a_kill_releases_the_lock(tmp_path):
    db = tmp_path / "db.sqlite3"
    child = hold_in_child(db)
    try:
        with pytest.raises(DatabaseInUse) as busy:
            OwnerLock(db).acquire()
        assert busy.value.pid == child.pid
        assert f"process {child.pid}" in str(busy.value)
        assert holder(db) == child.pid
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert holder(db) is None, "a crash releases the lock: no stale lock file to remove"
    with OwnerLock(db) as lock:
        assert lock.held


def test_read_only_commands_work_beside_the_owner_and_writers_are_refused(tmp_path, capsys):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act({"type": "score", "player": "p1", "points": 3})
    export = tmp_path / "one.json"
    assert main(["--db", str(db), "export", "--all", "--out", str(export)]) == 0
    child = hold_in_child(db)
    try:
        assert main(["--db", str(db), "stats", "--json"]) == 0
        assert main(["--db", str(db), "export", "--all"]) == 0
        capsys.readouterr()
        with pytest.raises(SystemExit) as exit_:
            main(["--db", str(db), "import", str(export)])
        assert exit_.value.code == 2
        assert f"open in another companion window (process {child.pid})" in capsys.readouterr().err
    finally:
        child.kill()
        child.wait()
    assert main(["--db", str(db), "import", str(export)]) == 0


async def test_the_second_window_offers_history_read_only_or_quit(tmp_path):
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
    app = make_app(db, in_use=DatabaseInUse(db, 4242))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        text = str(app.screen.query_one("#in-use-message").render())
        assert "process 4242" in text
        with pytest.raises(StoreError, match="process 4242"):
            app.resume_session(app.store.sessions()[0].id)
        await pilot.press("h")
        await pilot.pause()
        assert type(app.screen).__name__ == "HistoryScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert type(app.screen).__name__ == "InUseScreen"
        await pilot.press("q")
    assert app.store.readonly


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_two_real_app_windows(tmp_path):
    db = tmp_path / "db.sqlite3"
    env = {**os.environ, "COMPANION_DB": str(db), "TERM": "xterm-256color"}
    names = [f"owner{os.getpid()}a", f"owner{os.getpid()}b"]
    command = f"{sys.executable} -m companion --db {db} --lang en"
    tmux = ["tmux", "-L", f"companion-owner-{os.getpid()}"]  # our own server, not the user's

    def screen(name: str) -> str:
        return subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True
        ).stdout

    def wait_for(name: str, text: str) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            shown = screen(name)
            if text in shown:
                return shown
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never appeared:\n{screen(name)}")

    try:
        for name in names:
            subprocess.run(
                [*tmux, "new-session", "-d", "-s", name, "-x", "120", "-y", "30", command],
                env=env,
                check=True,
            )
            if name == names[0]:
                wait_for(name, "New session")
        shown = wait_for(names[1], "open in another companion window")
        owner_pid = holder(db)
        assert owner_pid is not None and str(owner_pid) in shown  # the message may wrap
        subprocess.run([*tmux, "send-keys", "-t", names[1], "q"], check=True)
        deadline = time.monotonic() + 15
        while (
            time.monotonic() < deadline
            and names[1] in subprocess.run([*tmux, "ls"], capture_output=True, text=True).stdout
        ):
            time.sleep(0.2)
        assert holder(db) == owner_pid, "the second window never took the lock"
    finally:
        for name in names:
            subprocess.run([*tmux, "kill-session", "-t", name], capture_output=True)
