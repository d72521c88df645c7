"""The Tadaa panel in the Meeple Circus performance view, fed by simulated devices.

Real ptys, the real hub, the real app (system clock: the hub maps device time to
``time.monotonic_ns``, the session's clock). Presses travel: simulator -> pty ->
hub -> raw log entry -> ``receive_press`` on the UI thread -> ``Press`` action.
"""

from __future__ import annotations

import json
import time

import pytest
from rich.console import Console

from companion.games.meeple_circus.photo_finish import PhotoFinish
from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer, Prepare, StartPerformance
from companion.hardware.config import TadaaConfig
from companion.hardware.link import TadaaHub
from companion.hardware.simulator import SimDeviceConfig, Simulator
from companion.ui.app import make_app
from companion.widgets.button_map import ButtonMapScreen
from companion.widgets.device_status import DeviceStatusLine

SIZE = (160, 50)


def plain(widget) -> str:
    console = Console(width=150, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(widget.content)
    return console.export_text()


def order_rows(screen) -> list[str]:  # type: ignore[no-untyped-def]
    """The press rows of the Tadaa! order (the one list of presses; the photo finish
    above it draws them on a time line), each without its colour dot."""
    text = plain(screen.query_one("#mc-tadaa"))
    return [
        " ".join(t for t in line.split() if t != "●")
        for line in text.splitlines()
        if line.split() and line.split()[0].rstrip("=").isdigit()
    ]


async def until(pilot, predicate, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await pilot.pause(0.05)


@pytest.fixture
def setup(tmp_path, monkeypatch):
    config_path = tmp_path / "tadaa.json"
    monkeypatch.setenv("COMPANION_TADAA_CONFIG", str(config_path))
    sim = Simulator(
        [
            SimDeviceConfig(
                "BOXUI", buttons=4, offset_us=77_000_000, drift_ppm=100.0, bounce_us=1500
            )
        ],
        seed=3,
    ).start()
    hub = TadaaHub(ports=sim.paths).start()
    yield sim, hub, config_path
    hub.stop()
    sim.stop()


def presses_in(screen) -> list[dict]:
    """The raw press entries of the session's log (not the link's facts)."""
    hw = [e.payload for e in screen.session.entries if e.kind == "hw"]
    return [p for p in hw if p["kind"] == "tadaa-press"]


async def start_performance(app, names):
    app.start_session("meeple-circus", names, {})
    await app.settle()
    screen = app.screen
    screen.submit(ChooseFirstPlayer("p1"))
    await app.settle()
    for pid in screen.circus.preparation_order():
        screen.submit(Prepare(pid))
        await app.settle()
    screen.submit(StartPerformance(time.monotonic_ns(), 60_000_000_000, None))
    await app.settle()
    assert screen.circus.phase == "performance"
    return screen


async def test_presses_reach_the_game_with_exact_gaps_and_the_raw_log(tmp_path, setup):
    sim, hub, config_path = setup
    config = TadaaConfig(path=config_path)
    for button, name in ((1, "Ann"), (2, "Bo"), (3, "Cy")):
        config.assign("BOXUI", button, name)
    config.save()
    app = make_app(tmp_path / "ui.sqlite3", lang="en")
    app.tadaa_hub = hub
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_performance(app, ["Ann", "Bo", "Cy"])
        await until(
            pilot, lambda: hub.status() and hub.status()[0].state == "connected", what="the box"
        )
        dev = sim.devices[0]
        t0 = time.monotonic_ns() + 100_000_000
        sim.press(dev, 2, t0)  # Bo first
        sim.press(dev, 1, t0 + 50_000)  # Ann 50 µs later
        sim.press(dev, 3, t0 + 2_000_000)  # Cy 2 ms later
        sim.press(dev, 4, t0 + 3_000_000)  # nobody's button
        await until(
            pilot,
            lambda: len(screen.circus.performance.presses) == 3,
            what="three presses in the game",
        )
        await app.settle()
        presses = [rp.press for rp in screen.circus.performance.presses]
        assert {p.player for p in presses} == {"p1", "p2", "p3"}
        assert all(p.source == "button-box" and p.device == "BOXUI" for p in presses)
        by = {p.player: p for p in presses}
        assert by["p1"].device_us - by["p2"].device_us == 50

        # The Tadaa panel refreshes on its own timer: wait for it, however slow the machine.
        await until(pilot, lambda: len(order_rows(screen)) == 3, what="all three in the order")
        assert hub.performing  # while the performance is on, the hub pings every 50 ms
        assert "Photo finish" in plain(screen.query_one(PhotoFinish))
        assert "+50 µs" in plain(screen.query_one("#mc-tadaa"))
        assert [row.split()[1] for row in order_rows(screen)] == ["Bo", "Ann", "Cy"]
        # The first finisher's LED lit steadily, the second's blinking, the rest dark.
        await until(pilot, lambda: dev.device.led_modes == [2, 1, 0, 0], what="LEDs")
        status = plain(screen.query_one(DeviceStatusLine))
        assert "connected" in status and "4 buttons" in status

        # Every press is in the raw log, the unassigned one too.
        def raw_presses() -> list[dict]:
            hw = [e.payload for e in screen.session.entries if e.kind == "hw"]
            return [p for p in hw if p["kind"] == "tadaa-press"]

        await until(pilot, lambda: len(raw_presses()) == 4, what="raw events")
        raw = raw_presses()
        # Beside them, the link's own fact (which boot, what is settled) for a restart.
        links = [e.payload for e in screen.session.entries if e.payload.get("kind") == "tadaa-link"]
        assert [(f["device"], f["boot"]) for f in links] == [("BOXUI", dev.boot_id)]
        assert sorted(r["routed"] for r in raw) == ["game", "game", "game", "unassigned"]
        assert all(
            {"device_us", "host_ns", "uncertainty_ns", "arrival_ns"} <= r.keys() for r in raw
        )


async def test_mapping_dialog_assigns_by_pressing(tmp_path, setup):
    sim, hub, config_path = setup
    app = make_app(tmp_path / "ui2.sqlite3", lang="en")
    app.tadaa_hub = hub
    async with app.run_test(size=SIZE) as pilot:
        app.start_session("meeple-circus", ["Ann", "Bo"], {})
        await app.settle()
        screen = app.screen
        await until(
            pilot, lambda: hub.status() and hub.status()[0].state == "connected", what="the box"
        )
        await pilot.press("B")
        await until(pilot, lambda: isinstance(app.screen, ButtonMapScreen), what="dialog")
        dev = sim.devices[0]
        sim.press(dev, 3, time.monotonic_ns() + 50_000_000)  # Ann takes button 3
        await until(pilot, lambda: app.screen.index == 1, what="Ann assigned")
        sim.press(dev, 1, time.monotonic_ns() + 50_000_000)  # Bo takes button 1
        await until(
            pilot, lambda: not isinstance(app.screen, ButtonMapScreen), what="dialog closed"
        )
        saved = json.loads(config_path.read_text(encoding="utf-8"))
        # By seat (Ann sits first, Bo second): any table seated so gets these buttons.
        assert saved["buttons"] == {"BOXUI": {"1": "seat:2", "3": "seat:1"}}
        await until(
            pilot,
            lambda: len(presses_in(screen)) == 2,
            what="raw events",
        )
        raw = presses_in(screen)
        assert [r["routed"] for r in raw] == ["mapping", "mapping"]
