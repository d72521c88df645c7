"""The simulator refuses devices no board could be; the host reads what the firmware reports."""

from __future__ import annotations

import contextlib

import pytest

from companion.hardware import protocol as proto
from companion.hardware import tadaa_logic as logic
from companion.hardware.simulator import SimDeviceConfig, Transport
from tests.hardware.conftest import wait_for


@pytest.mark.parametrize(
    "settings",
    [
        {"offset_us": -1},  # device time counts up from boot: it used to send t_us < 0
        {"buttons": 0},
        {"buttons": 9},
        {"drift_ppm": 5000.0},
        {"sample_us": 0},
        {"debounce_us": -5},
        {"ring_size": 0},
        {"hold_ms": 0},
        {"serial": "TWO WORDS"},
        {"serial": ""},
        {"to_host": Transport(base_us=-10.0)},
        {"to_device": Transport(drop_rate=1.5)},
    ],
)
def test_settings_a_real_device_cannot_have_are_refused(settings):
    with pytest.raises(ValueError, match="not a device a board could be"):
        SimDeviceConfig(**{"serial": "OK", **settings})


def test_heartbeat_carries_queue_overflows_and_the_worst_period():
    dev = logic.TadaaDevice(2, "B00710AD", "S")
    dev.note_loop(40)
    dev.note_loop(3)
    dev.queue_overflows = 5
    hb = [proto.parse_line(x[:-1]) for x in dev.poll(10)][1]
    assert isinstance(hb, proto.Heartbeat) and (hb.sample_us, hb.queue_overflows) == (40, 5)
    # A firmware that sends the older 5 fields is still understood.
    old = proto.parse_line(logic.frame("HB B00710AD 5 0 0 1")[:-1])
    assert isinstance(old, proto.Heartbeat) and old.queue_overflows == 0


def test_the_host_shows_the_firmware_queue_overflows(rig):
    r = rig([SimDeviceConfig("QFULL", buttons=2)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    r.sim.call(lambda: setattr(dev.device, "queue_overflows", 3))
    wait_for(lambda: r.status("QFULL").queue_overflows == 3, what="the overflow count shown")


def test_a_replug_between_the_simulators_select_and_its_read_does_not_hang_it(monkeypatch):
    """The simulator's thread selects on the masters it saw, then reads. A replug
    from another thread in between closes that master, and the number can come
    back as anything: a new master not yet made non-blocking (CI's hang in
    test_restart: the box stopped sampling presses), here a pipe nobody writes.
    The thread must read only a master that is still its device's."""
    import os
    import select as select_module
    import time

    from companion.hardware.simulator import Simulator

    real_select = select_module.select
    hijacked: list[int] = []
    pipe: list[int] = []

    with Simulator([SimDeviceConfig("BOXF", buttons=2)], seed=3) as sim:
        dev = sim.devices[0]

        def select_then_replug(rlist, wlist, xlist, timeout=None):
            ready, w, x = real_select(rlist, wlist, xlist, timeout)
            old = dev.master
            if not hijacked and old in rlist:
                # The other thread's replug, landed in between; whoever opened
                # a file meanwhile got the old number (here a pipe nobody writes).
                r, wr = os.pipe()
                sim.unplug(dev)
                os.dup2(r, old)
                os.close(r)
                sim.replug(dev)
                assert dev.master != old
                pipe.extend((old, wr))
                hijacked.append(old)
                return [old], w, x  # the old master, "ready" as select said
            return ready, w, x

        monkeypatch.setattr(select_module, "select", select_then_replug)
        try:
            wait_for(lambda: bool(hijacked), what="the replug between select and read")
            sim.press(dev, 1, time.monotonic_ns() + 20_000_000)
            wait_for(lambda: len(dev.device.ring) == 1, timeout=5, what="the press after it")
        finally:
            monkeypatch.setattr(select_module, "select", real_select)
            for fd in pipe[1:]:
                os.write(fd, b"x")  # unblock a thread stuck reading the pipe
            for fd in pipe:
                with contextlib.suppress(OSError):
                    os.close(fd)


def test_a_line_in_flight_at_a_replug_never_reaches_the_new_connection():
    """A line the device sent before a replug is lost with the old connection, as on
    a real cable. The simulator's thread checked the connection, then wrote: a replug
    from another thread in between put the old connection's line into the new one."""
    import os
    import select as select_module
    import threading

    from companion.hardware.simulator import Simulator

    with Simulator([SimDeviceConfig("BOXW", buttons=2)], seed=4) as sim:
        dev = sim.devices[0]
        caught: list[bytes] = []
        replugs: list[threading.Thread] = []

        class ReplugOnWrite(bytes):
            """The device's pending bytes; adding a line replugs from another thread
            (given half a second: the simulator may make it wait for its write)."""

            def __add__(self, line: bytes) -> bytes:  # type: ignore[override]
                caught.append(bytes(line))
                other = threading.Thread(target=sim.replug, args=(dev,))
                other.start()
                other.join(0.5)
                replugs.append(other)
                return bytes(self) + line

        with sim._lock:
            dev.outbuf = ReplugOnWrite()
        sim.inject(dev, "HELLO STALE-LINE")
        wait_for(lambda: bool(replugs), what="the write")
        replugs[0].join(5)
        assert not replugs[0].is_alive()
        got = b""
        while select_module.select([dev.slave], [], [], 0.3)[0]:
            chunk = os.read(dev.slave, 4096)
            if not chunk:
                break
            got += chunk
        assert caught and caught[0] not in got, got
