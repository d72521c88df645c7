"""The supervised link, through real ptys: no unplug, hang-up or dead reader loses a press.

Before the companion owned its reader loop, pyserial's ``ReaderThread`` called
``in_waiting`` (an ioctl) outside its ``except SerialException``: a hang-up
between a read and that ioctl raised a bare ``OSError``, the thread died without
``connection_lost``, and the hub kept the dead link "connected" for the rest of
the evening, its presses silently lost.
"""

from __future__ import annotations

import errno
import random
import threading
import time

import pytest
import serial.serialposix

from companion.hardware.simulator import SimDeviceConfig
from tests.hardware.conftest import wait_for


class FlakyIoctl:
    """``fcntl`` for pyserial, whose ``TIOCINQ`` ioctl fails once on a chosen fd."""

    def __init__(self, real) -> None:
        self.real = real
        self.fail_fd: int | None = None
        self.failed = 0

    def __getattr__(self, name: str):
        return getattr(self.real, name)

    def ioctl(self, fd, request, *args):
        if fd == self.fail_fd and request == serial.serialposix.TIOCINQ:
            self.fail_fd = None
            self.failed += 1
            raise OSError(errno.EIO, "Input/output error")
        return self.real.ioctl(fd, request, *args)


def expect_exactly_once(r, dev) -> None:
    got = sorted(r.of(dev.config.serial), key=lambda p: p.seq)
    assert [(p.seq, p.button, p.device_us) for p in got] == [
        (s, b, t_us) for s, b, t_us, _ in dev.events
    ]


def test_reader_killed_inside_the_ioctl_comes_back_by_itself(rig, monkeypatch):
    flaky = FlakyIoctl(serial.serialposix.fcntl)
    monkeypatch.setattr(serial.serialposix, "fcntl", flaky)
    r = rig([SimDeviceConfig("IOCTL", buttons=4)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    states: list[str] = []
    r.hub.on_status(lambda sts: states.extend(s.state for s in sts))
    r.sim.press(dev, 1, r.soon(10), hold_ms=5)
    r.wait_presses(1)
    port = dev.path
    flaky.fail_fd = r.hub.links[port].serial.fd  # the next in_waiting of that reader fails
    wait_for(lambda: flaky.failed == 1, what="the injected OSError")
    # A press while the link is down, and one after: both arrive, once each.
    r.sim.press(dev, 2, r.soon(1), hold_ms=5)
    wait_for(lambda: r.status("IOCTL").reader_deaths == 1, what="the dead reader reported")
    wait_for(lambda: r.status("IOCTL").state == "connected", what="the device back by itself")
    r.sim.press(dev, 3, r.soon(20), hold_ms=5)
    r.wait_presses(3)
    wait_for(lambda: dev.device.ring.acked == 3, what="all acknowledged")
    expect_exactly_once(r, dev)
    st = r.status("IOCTL")
    assert st.lost == 0 and st.reconnects == 1 and st.port == port  # the same port, reopened
    assert "reconnecting" in states  # what the status said while it was down
    assert any("reader ended: OSError" in e for e in r.hub.errors)


def test_a_silent_link_is_declared_dead_and_reopened(rig, monkeypatch):
    """A link that stays open but hears nothing (a wedged adapter) is reopened."""
    import companion.hardware.link as link_mod

    monkeypatch.setattr(link_mod, "SILENT_NS", 400_000_000)
    r = rig([SimDeviceConfig("MUTE", buttons=2)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    # The device stops answering and sending (its lines go nowhere) for a while.
    real_send = r.sim._send
    mute = threading.Event()
    mute.set()

    def send(d, lines, at_ns=None):
        if d is dev and mute.is_set():
            return
        real_send(d, lines, at_ns)

    r.sim._send = send  # type: ignore[method-assign]
    wait_for(lambda: r.status("MUTE").state in ("dead", "reconnecting"), what="declared dead")
    mute.clear()
    wait_for(lambda: r.status("MUTE").state == "connected", what="reopened and heard again")
    assert r.status("MUTE").reader_deaths >= 1


@pytest.mark.slow
def test_1000_unplug_replug_cycles_under_presses_none_lost_none_twice(rig):
    r = rig([SimDeviceConfig("CYCLE", buttons=8, hold_ms=5)], seed=3)
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    rng = random.Random(15)
    stop = threading.Event()

    def presser() -> None:  # a press every 50–300 ms, whatever the cable does
        k = 0
        while not stop.is_set():
            r.sim.press(dev, k % 8 + 1, time.monotonic_ns() + 1_000_000, hold_ms=5)
            k += 1
            stop.wait(rng.uniform(0.05, 0.3))

    def fast_wait(pred, what: str) -> None:
        deadline = time.monotonic() + 15
        while not pred():
            assert time.monotonic() < deadline, f"cycle {cycles[0]}: timed out waiting for {what}"
            time.sleep(0.001)

    cycles = [0]
    thread = threading.Thread(target=presser, daemon=True)
    thread.start()
    try:
        for cycle in range(1000):
            cycles[0] = cycle
            r.sim.unplug(dev)
            # Status says what is true: the unplug is seen, nothing is lost.
            fast_wait(lambda: r.status("CYCLE").state != "connected", "the unplug seen")
            st = r.status("CYCLE")
            assert st.state == "disconnected" and st.lost == 0, st  # unplugged, and says so
            time.sleep(rng.uniform(0, 0.01))
            r.sim.replug(dev)
            r.hub.poke()
            fast_wait(lambda: r.status("CYCLE").state == "connected", "the device back")
            assert r.status("CYCLE").lost == 0
            time.sleep(rng.uniform(0, 0.02))
    finally:
        stop.set()
        thread.join(2)
    n = len(dev.events)
    assert n >= 100  # presses really happened across the cycles
    r.wait_presses(n, timeout=30)
    wait_for(lambda: dev.device.ring.acked == n, timeout=30, what="everything acknowledged")
    expect_exactly_once(r, dev)
    st = r.status("CYCLE")
    assert st.lost == 0 and st.presses == n and st.reconnects == 1000 and st.state == "connected"
    assert st.reader_deaths == 0  # unplugs, every one: no reader died with its port there
    assert len({p.seq for p in r.presses}) == len(r.presses) == n  # none delivered twice


def test_three_jittery_devices_3_ms_apart_are_ordered_not_tied_through_ptys(rig):
    """Round trips 0.2–6 ms (plus the ptys' own): once each device's stated
    uncertainty is under ±1 ms, presses 3 ms apart are ordered, never a tie, and
    every truth lies inside its interval."""
    from companion.games.meeple_circus.rules.timing import tie_groups
    from companion.hardware.feed import to_press
    from companion.hardware.simulator import JITTERY

    cfgs = [
        SimDeviceConfig(name, offset_us=off, drift_ppm=ppm, to_host=JITTERY, to_device=JITTERY)
        for name, off, ppm in (
            ("J1", 5_000_000, 80.0),
            ("J2", 7_777_777_777, -90.0),
            ("J3", 1, 0.0),
        )
    ]
    r = rig(cfgs, seed=13)
    r.hub.set_performing(True)
    r.wait_synced(max_uncertainty_ns=1_000_000, timeout=30)
    devs = r.sim.devices
    rng = random.Random(2)
    truth: dict[tuple[str, int], int] = {}
    rounds = []
    for k in range(10):
        order = rng.sample(range(3), 3)
        t0 = r.soon(40) + k * 120_000_000
        for slot, d in enumerate(order):
            stamp = r.sim.press(devs[d], 1, t0 + slot * 3_000_000, hold_ms=5)
            truth[(devs[d].config.serial, stamp)] = t0 + slot * 3_000_000
        rounds.append([devs[d].config.serial for d in order])
    got = r.wait_presses(30, timeout=30)
    for p in got:
        assert abs(p.host_ns - truth[(p.serial, p.device_us)]) <= p.uncertainty_ns, p
    by_round: dict[int, list] = {}
    for p in got:
        k = sorted(truth.values()).index(truth[(p.serial, p.device_us)]) // 3
        by_round.setdefault(k, []).append(to_press(p, p.serial))
    for k, expected in enumerate(rounds):
        groups = tie_groups(by_round[k])
        assert [[q.player for q in g] for g in groups] == [[s] for s in expected], k


def test_a_port_that_cannot_be_reopened_is_dead_then_comes_back(rig, monkeypatch):
    flaky = FlakyIoctl(serial.serialposix.fcntl)
    monkeypatch.setattr(serial.serialposix, "fcntl", flaky)
    r = rig([SimDeviceConfig("BUSY", buttons=2)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    real_open = r.hub.open_port
    attempts = []

    def busy(port: str):  # another program holds the port (exclusive)
        attempts.append(port)
        raise serial.SerialException(f"could not exclusively lock port {port}")

    r.hub.open_port = busy
    flaky.fail_fd = r.hub.links[dev.path].serial.fd
    wait_for(lambda: r.status("BUSY").state == "dead", what="declared dead")
    assert len(attempts) >= 5 and any("cannot be opened" in e for e in r.hub.errors)
    r.sim.press(dev, 1, r.soon(1), hold_ms=5)  # pressed while dead: kept by the device
    r.hub.open_port = real_open  # the other program let go
    wait_for(lambda: r.status("BUSY").state == "connected", what="back by itself")
    r.wait_presses(1)
    expect_exactly_once(r, dev)
