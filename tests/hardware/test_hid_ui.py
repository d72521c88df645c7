"""A HID press reaches the Meeple Circus screen's Tadaa order (the real app, a Pilot).

The kernel's side is a pipe carrying the real ``struct input_event`` bytes (see
test_hid.py); everything after the fd is the app's own path: ``HidSource`` ->
the panel's hub listeners -> ``PressFeed`` -> ``receive_press`` on the UI thread
-> the ``Press`` action -> the rules' order -> the photo finish.
"""

from __future__ import annotations

import time

import pytest
from rich.console import Console

from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer, Prepare, StartPerformance
from companion.games.meeple_circus.rules.timing import judge
from companion.hardware.config import TadaaConfig
from companion.hardware.hid import HidSource
from companion.hardware.link import TadaaHub
from companion.ui.app import make_app
from companion.widgets.device_status import DeviceStatusLine

from .test_hid import KEY_1, KEY_2, KEY_3, PipeKernel, pad, report
from .test_ui_tadaa import order_rows

SIZE = (160, 50)
MS = 1_000_000


def plain(widget) -> str:
    console = Console(width=150, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(widget.content)
    return console.export_text()


async def until(pilot, predicate, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await pilot.pause(0.05)


async def test_hid_presses_reach_the_tadaa_order(tmp_path, monkeypatch):
    config_path = tmp_path / "tadaa.json"
    monkeypatch.setenv("COMPANION_TADAA_CONFIG", str(config_path))
    shared, pedal = pad(1, interval_ns=1 * MS), pad(2, uniq="CY", interval_ns=8 * MS)
    config = TadaaConfig(path=config_path)
    config.assign(shared.stable_id, KEY_1, "Ann")  # one key per player on a keypad
    config.assign(shared.stable_id, KEY_2, "Bo")
    config.assign(pedal.stable_id, 0, "Cy")  # a whole device for Cy
    config.save()
    kernel = PipeKernel()
    kernel.plug(shared)
    kernel.plug(pedal)
    hid = HidSource(lambda info: True, devices=kernel.devices, opener=kernel.open).start()
    hub = TadaaHub(ports=lambda: []).start()  # no serial device at this table
    app = make_app(tmp_path / "hid.sqlite3", lang="en")
    app.tadaa_hub = hub
    app.tadaa_hid = hid
    try:
        async with app.run_test(size=SIZE) as pilot:
            app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
            await app.settle()
            screen = app.screen
            screen.submit(ChooseFirstPlayer("p1"))
            await app.settle()
            for pid in screen.circus.preparation_order():
                screen.submit(Prepare(pid))
                await app.settle()
            screen.submit(StartPerformance(time.monotonic_ns(), 60_000_000_000, None))
            await app.settle()
            await until(
                pilot,
                lambda: [s.state for s in hid.status()] == ["connected", "connected"],
                what="both HID devices open",
            )
            t0 = time.monotonic_ns()
            kernel.write(pedal, report(t0, (KEY_3, 1)))  # Cy first, by 20 ms
            # Ann and Bo in one report of the keypad: one poll, a tie declared.
            kernel.write(shared, report(t0 + 20 * MS, (KEY_2, 1), (KEY_1, 1)))
            await until(
                pilot,
                lambda: len(screen.circus.performance.presses) == 3,
                what="three presses in the game",
            )
            perf = screen.circus.performance
            assert {rp.press.device for rp in perf.presses} == {
                shared.stable_id,
                pedal.stable_id,
            }
            order = judge(perf, speed_tokens=False).order
            assert [set(group) for group in order] == [{"p3"}, {"p1", "p2"}]

            await until(pilot, lambda: len(order_rows(screen)) == 3, what="the Tadaa! order")
            first, *tied = order_rows(screen)
            assert first.split()[1] == "Cy"
            assert "HID CY/4" in first  # the pedal's serial number and key code
            assert all("too close to call" in row for row in tied)
            await until(
                pilot,
                lambda: "Pad 1" in plain(screen.query_one(DeviceStatusLine)),
                what="the HID devices in the status line",
            )
            await until(
                pilot,
                lambda: len([e for e in screen.session.entries if e.kind == "hw"]) == 3,
                what="the raw events",
            )
            raw = [e.payload for e in screen.session.entries if e.kind == "hw"]
            assert {r["kind"] for r in raw} == {"hid-press"}
            assert {r["routed"] for r in raw} == {"game"}
    finally:
        hub.stop()
        hid.stop()
        kernel.close()
