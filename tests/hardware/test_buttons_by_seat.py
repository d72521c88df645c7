"""Buttons from the docs alone (issue 22): by seat, the simulator tells the app, no restart.

A button is mapped to a seat (``seat:N``), so a table of Chinese names gets the
buttons a table of English names had; ``companion devices simulate`` writes its
ports and seats into the settings file, and a running app takes a changed file
within a refresh (no restart).
"""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer, Prepare, StartPerformance
from companion.games.meeple_circus.tadaa_panel import TadaaPanel
from companion.hardware.config import TadaaConfig, seat_owner
from companion.hardware.feed import PressFeed
from companion.hardware.link import DevicePress, TadaaHub
from companion.hardware.simulator import SimDeviceConfig, Simulator
from companion.rules.base import seat_players
from companion.ui.app import make_app
from tests.hardware.test_ui_tadaa import presses_in, until

ZH = ["小明", "小红", "阿强"]


def press(button: int) -> DevicePress:
    return DevicePress("BOXS", "B0071234", button, button, 1000 * button, 0, 5, 6, 7)


def test_a_button_mapped_to_a_seat_is_that_seat_s_whatever_the_names():
    config = TadaaConfig(
        buttons={"BOXS": {1: seat_owner(1), 2: seat_owner(3), 3: "Ann", 4: seat_owner(7)}}
    )
    got: list = []
    feed = PressFeed(
        TadaaHub(ports=lambda: []), config, players=lambda: seat_players(ZH), deliver=got.append
    )
    for b in (1, 2, 3, 4):
        feed._on_press(press(b))
    assert [p.player for p in got] == ["p1", "p3"]  # Ann is no one here; seat 7 is empty
    assert config.button_of("小明", seat=1) == ("BOXS", 1)
    assert config.button_of("Ann") == ("BOXS", 3)


def test_simulate_tells_the_app_its_ports_and_seats(tmp_path, monkeypatch):
    from companion.cli.devices import register_simulated

    path = tmp_path / "tadaa.json"
    monkeypatch.setenv("COMPANION_TADAA_CONFIG", str(path))
    old = TadaaConfig(path=path, ports=["/dev/ttyACM*"])
    old.assign("E6614103E7452D2F", 1, "Ann")  # a real box stays
    old.assign("SIM00000001", 2, seat_owner(1))  # an earlier simulator goes
    old.save()
    devices = [SimpleNamespace(config=SimpleNamespace(serial="SIMABCDEF01", buttons=3))]
    assert register_simulated(devices, tmp_path / "links") == path
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["ports"] == ["/dev/ttyACM*", str(tmp_path / "links" / "tadaa-*")]
    assert saved["buttons"] == {
        "E6614103E7452D2F": {"1": "Ann"},
        "SIMABCDEF01": {"1": "seat:1", "2": "seat:2", "3": "seat:3"},
    }
    register_simulated(devices, tmp_path / "links")  # again: the port is not doubled
    assert json.loads(path.read_text(encoding="utf-8"))["ports"] == saved["ports"]


async def test_a_running_app_takes_a_changed_button_map_without_a_restart(tmp_path, monkeypatch):
    config_path = tmp_path / "tadaa.json"
    monkeypatch.setenv("COMPANION_TADAA_CONFIG", str(config_path))
    with Simulator([SimDeviceConfig("BOXZH", buttons=3)], seed=4) as sim:
        hub = TadaaHub(ports=sim.paths).start()
        try:
            app = make_app(tmp_path / "zh.sqlite3", lang="zh")
            app.tadaa_hub = hub
            async with app.run_test(size=(160, 50)) as pilot:
                app.start_session("meeple-circus", ZH, {})
                await app.settle()
                screen = app.screen
                screen.submit(ChooseFirstPlayer("p1"))
                await app.settle()
                for pid in screen.circus.preparation_order():
                    screen.submit(Prepare(pid))
                    await app.settle()
                screen.submit(StartPerformance(time.monotonic_ns(), 60 * 10**9, None))
                await app.settle()
                await until(
                    pilot,
                    lambda: hub.status() and hub.status()[0].state == "connected",
                    what="the box",
                )
                dev = sim.devices[0]
                sim.press(dev, 2, time.monotonic_ns() + 30_000_000)
                await until(pilot, lambda: len(presses_in(screen)) == 1, what="a press")
                assert presses_in(screen)[0]["routed"] == "unassigned"
                # The map is written while the app runs (as simulate or another app does).
                config = TadaaConfig(path=config_path)
                for b in (1, 2, 3):
                    config.assign("BOXZH", b, seat_owner(b))
                config.save()
                panel = screen.query_one(TadaaPanel)
                await until(
                    pilot,
                    lambda: panel.feed.config.player_for("BOXZH", 3) == "seat:3",
                    what="the panel took the new map",
                )
                sim.press(dev, 3, time.monotonic_ns() + 30_000_000)
                await until(
                    pilot, lambda: len(screen.circus.performance.presses) == 1, what="delivered"
                )
                assert screen.circus.performance.presses[0].press.player == "p3"  # 阿强
        finally:
            hub.stop()
