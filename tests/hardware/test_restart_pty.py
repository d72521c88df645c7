"""kill -9 of the real app during an act-2 performance, a press while it is down.

The app runs as its own process on a real pseudo-terminal (``python -m companion``,
the terminal a host has), reading the simulated box through the box's own pty;
the test kills it with SIGKILL while a press is pending in the box (its line lost
on the way), presses another button while it is down, starts it again, resumes
(Enter on the offer) and reads the database: every press the box numbered during
the performance is in the performance exactly once, in device-time order, with
its device stamp (issue 21, item 5).
"""

from __future__ import annotations

import json
import os
import pty
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.games.meeple_circus.rules.actions import (
    ChooseFirstPlayer,
    EndAct,
    EndPerformance,
    FinishPerformance,
    Prepare,
    ScorePlayer,
    StartPerformance,
)
from companion.hardware.config import TadaaConfig
from companion.hardware.simulator import SimDeviceConfig, Simulator
from companion.rules.base import seat_players
from companion.session.live import LiveSession
from companion.session.store import Store
from tests.hardware.conftest import wait_for

NAMES = ["Ann", "Bo", "Cy", "Dee"]
SERIAL = "BOXKILL9"


class AppProcess:
    """``python -m companion`` on a pty of its own; its screen output is drained."""

    def __init__(self, db: Path, env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "--db", str(db), "--lang", "en"],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.screen = bytearray()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            self.screen += data
            del self.screen[:-200_000]

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        os.close(self.master)


def entries(db: Path, sid: str) -> list[tuple[str, dict]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        rows = con.execute(
            "SELECT kind, payload FROM entries WHERE session_id = ? ORDER BY seq", (sid,)
        ).fetchall()
    finally:
        con.close()
    return [(kind, json.loads(payload)) for kind, payload in rows]


def box_presses(db: Path, sid: str) -> list[dict]:
    return [
        p
        for kind, p in entries(db, sid)
        if kind == "action" and p.get("type") == "press" and p.get("source") == "button-box"
    ]


def act_two_performance(db: Path) -> str:
    """A session in act 2's performance, its music started now for two minutes."""
    with Store.open(db) as store:
        live = LiveSession.start(store, "meeple-circus", seat_players(NAMES), {})
        live.act(ChooseFirstPlayer("p1"))
        for pid in live.state.preparation_order():
            live.act(Prepare(pid))
        t = time.monotonic_ns() - 600 * 10**9
        live.act(StartPerformance(t, 30 * 10**9, None))
        live.act(EndPerformance(t + 30 * 10**9))
        live.act(FinishPerformance())
        for n, pid in enumerate(live.state.player_ids(), start=1):
            live.act(ScorePlayer(pid, blue=n))
        live.act(EndAct())
        for pid in live.state.preparation_order():
            live.act(Prepare(pid))
        live.act(StartPerformance(time.monotonic_ns(), 120 * 10**9, None))
        assert live.state.phase == "performance" and live.state.act_number == 2
        return live.id


@pytest.mark.slow
def test_kill_9_with_a_press_pending_and_a_press_while_down(tmp_path: Path) -> None:
    if not hasattr(os, "openpty"):
        pytest.skip("needs pseudo-terminals")
    db = tmp_path / "kill9.sqlite3"
    link_dir = tmp_path / "links"
    config_path = tmp_path / "tadaa.json"
    sid = act_two_performance(db)
    config = TadaaConfig(path=config_path, ports=[str(link_dir / "tadaa-*")])
    for button, name in enumerate(NAMES, start=1):
        config.assign(SERIAL, button, name)
    config.save()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(sys.path),
        "COMPANION_TADAA_CONFIG": str(config_path),
        "COMPANION_TADAA": "on",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "TERM": "xterm-256color",
        "COLUMNS": "120",
        "LINES": "40",
    }
    cfg = SimDeviceConfig(SERIAL, buttons=4, offset_us=5_000_000, drift_ppm=60.0)
    with Simulator([cfg], seed=21, link_dir=link_dir) as sim:
        dev = sim.devices[0]
        app = AppProcess(db, env)
        try:
            wait_for(lambda: b"Continue an unfinished session" in app.screen, 30, "the offer")
            app.send(b"\r")
            wait_for(lambda: dev.device.armed, 30, "the app met the box (it arms it)")
            stamps = [sim.press(dev, 1, time.monotonic_ns() + 300_000_000)]
            stamps.append(sim.press(dev, 2, time.monotonic_ns() + 400_000_000))
            wait_for(lambda: len(box_presses(db, sid)) == 2, 30, "two presses in the game")
            wait_for(lambda: len(dev.device.ring) == 0, 15, "both acknowledged")
            # Cy presses; the line is lost on the way: the box holds it. kill -9.
            sim.damage_next_presses(dev, 1, drop=True)
            stamps.append(sim.press(dev, 3, time.monotonic_ns() + 20_000_000))
            wait_for(lambda: len(dev.device.ring) == 1, 15, "Cy's press pending in the box")
        finally:
            app.kill()
        # Dee presses while the app is down.
        stamps.append(sim.press(dev, 4, time.monotonic_ns() + 50_000_000))
        wait_for(lambda: len(dev.device.ring) == 2, 15, "Dee's press in the box")
        before = entries(db, sid)

        app = AppProcess(db, env)
        try:
            wait_for(lambda: b"Continue an unfinished session" in app.screen, 30, "the offer")
            app.send(b"\r")
            wait_for(lambda: len(box_presses(db, sid)) >= 4, 30, "all four in the game")
            wait_for(lambda: len(dev.device.ring) == 0, 15, "acknowledged after the restart")
            time.sleep(1.0)  # the box's resends in flight must not make a fifth
            presses = box_presses(db, sid)
        finally:
            app.kill()
    assert len(before) < len(entries(db, sid))
    assert [(p["player"], p["device_us"]) for p in presses] == list(
        zip(["p1", "p2", "p3", "p4"], stamps, strict=True)
    )
    # Mapped by device time onto the first process's timeline: in order, honest.
    hosts = [p["host_ns"] for p in presses]
    assert hosts == sorted(hosts)
    raw = [p for kind, p in entries(db, sid) if kind == "hw" and p["kind"] == "tadaa-press"]
    assert sorted(p["seq"] for p in raw) == [1, 2, 3, 4]  # each raw event once
    assert not [p for kind, p in entries(db, sid) if p.get("kind") == "tadaa-lost"]
    with Store.open(db) as store:
        state = LiveSession.resume(store, sid).state
    assert len(state.performance.presses) == 4
