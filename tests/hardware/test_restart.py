"""Presses survive a restart of the app (issue 21, item 5).

Real ptys, the real simulator and two hubs one after the other: the first is the
app before the kill, the second the restarted app, restored from what the first
wrote to the session log (the feed's raw entries, here a list). Every press is
delivered exactly once, or counted lost; the counters are true.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from companion.hardware.link import DevicePress, TadaaHub, link_views
from companion.hardware.simulator import SimDeviceConfig, Simulator
from tests.hardware.conftest import wait_for


class Log:
    """The session's raw hardware log as the feed writes it (presses and link facts)."""

    def __init__(self) -> None:
        self.payloads: list[dict[str, Any]] = []
        self.lock = threading.Lock()

    def press(self, p: DevicePress) -> None:
        with self.lock:
            self.payloads.append(p.to_json())

    def fact(self, payload: dict[str, Any]) -> None:
        with self.lock:
            self.payloads.append(dict(payload))

    def presses(self) -> list[dict[str, Any]]:
        with self.lock:
            return [p for p in self.payloads if p["kind"] == "tadaa-press"]


def app_hub(sim: Simulator, log: Log, restore: bool = True) -> TadaaHub:
    """A hub as the app starts it: restored from the log, listening, then started."""
    hub = TadaaHub(ports=sim.paths)
    if restore:
        hub.restore(link_views(log.payloads))
    hub.on_press(log.press)
    hub.on_link(log.fact)
    for fact in hub.link_facts():
        log.fact(fact)
    return hub.start()


def status(hub: TadaaHub, serial: str):
    return next(s for s in hub.status() if s.serial == serial)


def synced(hub: TadaaHub, serial: str) -> bool:
    return any(s.serial == serial and s.state == "connected" for s in hub.status())


def test_a_press_made_while_the_app_was_down_is_delivered_once_after_the_restart():
    with Simulator([SimDeviceConfig("BOXR", buttons=4, drift_ppm=40.0)], seed=11) as sim:
        dev = sim.devices[0]
        # Two presses before the app ever met the box: they predate it.
        for i, button in enumerate((1, 2)):
            sim.press(dev, button, time.monotonic_ns() + (i + 1) * 50_000_000)
        wait_for(lambda: len(dev.device.ring) == 2, what="the box numbered two presses")
        log = Log()
        first = app_hub(sim, log)
        wait_for(lambda: synced(first, "BOXR"), what="the box")
        sim.press(dev, 3, time.monotonic_ns() + 30_000_000)
        sim.press(dev, 4, time.monotonic_ns() + 100_000_000)
        wait_for(lambda: len(log.presses()) == 2, what="two presses in the log")
        wait_for(lambda: len(dev.device.ring) == 0, what="acknowledged")
        # The app dies with a press pending (its line lost on the way), and a
        # second press is made while it is down.
        sim.damage_next_presses(dev, 1, drop=True)
        pending_us = sim.press(dev, 1, time.monotonic_ns() + 20_000_000)
        wait_for(lambda: len(dev.device.ring) == 1, what="the pending press")
        first.stop()
        down_us = sim.press(dev, 2, time.monotonic_ns() + 20_000_000)
        wait_for(lambda: len(dev.device.ring) == 2, what="the press while down")

        second = app_hub(sim, log)
        try:
            wait_for(lambda: len(log.presses()) == 4, what="both presses after the restart")
            wait_for(lambda: len(dev.device.ring) == 0, what="acknowledged after the restart")
            time.sleep(0.3)  # a resend in flight must not make a fifth
            presses = log.presses()
            assert [p["seq"] for p in presses] == [3, 4, 5, 6]
            assert [p["device_us"] for p in presses[2:]] == [pending_us, down_us]
            st = status(second, "BOXR")
            assert (st.lost, st.predating, st.presses) == (0, 2, 4)
            # Mapped by device time into the host timeline the first process used.
            for p in presses[2:]:
                assert p["uncertainty_ns"] > 0
        finally:
            second.stop()


def test_without_the_log_the_restarted_app_takes_the_box_for_a_first_meeting():
    """The bug as it was, kept as a contrast: no restore, the presses predate."""
    with Simulator([SimDeviceConfig("BOXN", buttons=4)], seed=12) as sim:
        dev = sim.devices[0]
        log = Log()
        first = app_hub(sim, log)
        wait_for(lambda: synced(first, "BOXN"), what="the box")
        first.stop()
        sim.press(dev, 2, time.monotonic_ns() + 20_000_000)
        wait_for(lambda: len(dev.device.ring) == 1, what="the press while down")
        second = app_hub(sim, log, restore=False)
        try:
            wait_for(lambda: len(dev.device.ring) == 0, what="acknowledged unseen")
            assert log.presses() == []
            assert status(second, "BOXN").predating == 1
        finally:
            second.stop()


def test_presses_the_box_could_not_keep_while_the_app_was_down_are_counted_lost():
    with Simulator([SimDeviceConfig("BOXL", buttons=4, ring_size=3)], seed=13) as sim:
        dev = sim.devices[0]
        log = Log()
        first = app_hub(sim, log)
        wait_for(lambda: synced(first, "BOXL"), what="the box")
        sim.press(dev, 1, time.monotonic_ns() + 30_000_000)
        wait_for(lambda: len(log.presses()) == 1, what="a press")
        wait_for(lambda: len(dev.device.ring) == 0, what="acknowledged")
        first.stop()
        t = time.monotonic_ns() + 200_000_000  # button 1 is released by then
        for i in range(5):  # five presses, the ring keeps three
            sim.press(dev, 1 + i % 4, t + i * 60_000_000)
        wait_for(lambda: dev.device.ring.next_seq == 7, what="five presses while down")
        second = app_hub(sim, log)
        try:
            wait_for(lambda: len(log.presses()) == 4, what="the three the box kept")
            wait_for(lambda: status(second, "BOXL").lost == 2, what="two counted lost")
            assert [p["seq"] for p in log.presses()] == [1, 4, 5, 6]
            lost = [p for p in log.payloads if p["kind"] == "tadaa-lost"]
            assert [r for p in lost for r in p["seqs"]] == [[2, 3]]
            # The count survives the next restart too (it is in the log).
            second.stop()
            third = app_hub(sim, log)
            try:
                wait_for(lambda: synced(third, "BOXL"), what="the box again")
                st = status(third, "BOXL")
                assert (st.lost, st.presses) == (2, 4)
            finally:
                third.stop()
        finally:
            second.stop()


def test_a_box_restarted_while_the_app_was_down_counts_every_press_of_its_new_boot():
    with Simulator([SimDeviceConfig("BOXB", buttons=4)], seed=14) as sim:
        dev = sim.devices[0]
        log = Log()
        first = app_hub(sim, log)
        wait_for(lambda: synced(first, "BOXB"), what="the box")
        sim.press(dev, 1, time.monotonic_ns() + 30_000_000)
        wait_for(lambda: len(log.presses()) == 1, what="a press")
        first.stop()
        sim.replug(dev, reboot=True)
        sim.press(dev, 3, time.monotonic_ns() + 50_000_000)
        wait_for(lambda: len(dev.device.ring) == 1, what="a press of the new boot")
        second = app_hub(sim, log)
        try:
            wait_for(lambda: len(log.presses()) == 2, what="the new boot's press")
            assert log.presses()[1]["boot"] == dev.boot_id != log.presses()[0]["boot"]
            assert status(second, "BOXB").predating == 0
        finally:
            second.stop()


def test_a_press_is_acknowledged_only_after_the_log_has_it():
    with Simulator([SimDeviceConfig("BOXA", buttons=2)], seed=15) as sim:
        dev = sim.devices[0]
        hub = TadaaHub(ports=sim.paths)
        entered = threading.Event()
        release = threading.Event()

        def slow_log(p: DevicePress) -> None:  # the fsync of the raw log, held
            entered.set()
            release.wait(10)

        hub.on_press(slow_log)
        hub.start()
        try:
            wait_for(lambda: synced(hub, "BOXA"), what="the box")
            sim.press(dev, 1, time.monotonic_ns() + 20_000_000)
            wait_for(entered.is_set, what="the listener")
            time.sleep(0.3)
            assert len(dev.device.ring) == 1  # not acknowledged while being written
            release.set()
            wait_for(lambda: len(dev.device.ring) == 0, what="acknowledged once written")
        finally:
            release.set()
            hub.stop()


def test_link_views_read_old_and_damaged_logs():
    old = [  # written before tadaa-link existed
        {
            "kind": "tadaa-press",
            "device": "X",
            "boot": "B1",
            "seq": 7,
            "host_ns": 5,
            "uncertainty_ns": 0,
            "device_us": 1,
        },
        {"kind": "tadaa-press", "device": "X", "boot": "B1", "seq": "junk"},
        {"kind": "hid-press", "device": "K"},
    ]
    (view,) = link_views(old)
    assert (view.boot, view.done, view.baseline, view.presses) == ("B1", ((1, 7),), 6, 1)
    later = [
        *old,
        {"kind": "tadaa-link", "device": "X", "boot": "B2", "baseline": 0, "settled": 0},
        {
            "kind": "tadaa-press",
            "device": "X",
            "boot": "B2",
            "seq": 2,
            "host_ns": 9,
            "uncertainty_ns": 3,
            "device_us": 4,
        },
    ]
    (view,) = link_views(later)
    assert (view.boot, view.done, view.gone) == ("B2", ((2, 2),), ())
    assert [(s.sent_ns, s.recv_ns, s.device_us) for s in view.samples] == [(6, 12, 4)]


def test_the_hub_leaves_dtr_up_when_it_closes_so_an_uno_is_not_reset_by_a_restart():
    import os
    import pty
    import termios

    from companion.hardware.link import _open_serial

    master, slave = pty.openpty()
    try:
        path = os.ttyname(slave)
        attrs = termios.tcgetattr(slave)
        attrs[2] |= termios.HUPCL  # the kernel's default on a USB serial port
        termios.tcsetattr(slave, termios.TCSANOW, attrs)
        ser = _open_serial(path)
        ser.close()
        assert not termios.tcgetattr(slave)[2] & termios.HUPCL
    finally:
        os.close(slave)
        os.close(master)


async def test_a_press_logged_raw_but_killed_before_its_action_reaches_the_game_on_resume(
    tmp_path, monkeypatch
):
    """The kill fell between the raw entry (on the reader thread, after which the
    box's press is acknowledged) and the ``press`` action (on the writer thread):
    the resumed screen gives the game that press, once."""
    from companion.games.meeple_circus.rules.actions import (
        ChooseFirstPlayer,
        Prepare,
        StartPerformance,
    )
    from companion.games.meeple_circus.tadaa_panel import performance_tag
    from companion.rules.base import seat_players
    from companion.session.live import LiveSession
    from companion.session.store import Store
    from companion.ui.app import make_app

    monkeypatch.setenv("COMPANION_TADAA", "off")
    db = tmp_path / "half.sqlite3"
    with Store.open(db) as store:
        live = LiveSession.start(store, "meeple-circus", seat_players(["Ann", "Bo"]), {})
        live.act(ChooseFirstPlayer("p1"))
        for pid in live.state.preparation_order():
            live.act(Prepare(pid))
        start = time.monotonic_ns()
        live.act(StartPerformance(start, 60 * 10**9, None))
        raw = DevicePress("BOXH", "B1", 1, 2, 777, 0, start + 10**9, start + 10**9, 300_000)
        payload = {**raw.to_json(), "player": "p2", "routed": "game"}
        payload["perf"] = performance_tag(live.state)
        live.record_hardware(payload, start + 10**9)
        sid = live.id
    for _ in range(2):  # resumed twice: delivered once
        app = make_app(db, lang="en")
        async with app.run_test(size=(160, 50)) as pilot:
            app.resume_session(sid)
            await app.settle()
            screen = app.screen
            deadline = time.monotonic() + 20
            while not screen.circus.performance.presses:
                assert time.monotonic() < deadline, "the press never reached the game"
                await pilot.pause(0.05)
            await app.settle()
            presses = [rp.press for rp in screen.circus.performance.presses]
            assert [(p.player, p.device, p.device_us, p.host_ns) for p in presses] == [
                ("p2", "BOXH", 777, start + 10**9)
            ]
