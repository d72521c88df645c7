"""The host link against simulated devices through real pseudo-terminals (pyserial).

Every scenario of the issue: exact gaps on one device whatever the transport,
cross-device order under clock offsets and 100 ppm drifts, too close to call,
ties, a corrupted line recovered by resend, unplug/replug with every press exactly
once, a new boot id, bounce, and presses at the music's start and end.
No assertion depends on how fast this machine is: timeouts only stop hangs.
"""

from __future__ import annotations

import time
from dataclasses import replace

from companion.games.meeple_circus.rules.timing import (
    Attempt,
    Performance,
    RecordedPress,
    judge,
    order_presses,
    tie_groups,
)
from companion.hardware.feed import to_press
from companion.hardware.link import DevicePress
from companion.hardware.simulator import FTDI, SimDeviceConfig, Transport
from tests.hardware.conftest import wait_for

SLOW = Transport(base_us=2000.0, jitter_us=3000.0, spike_prob=0.2, spike_us=20000.0)


def presses_of(dps: list[DevicePress], players: dict[tuple[str, int], str]):
    return [to_press(p, players[(p.serial, p.button)]) for p in dps]


def truth_contained(rig, dps: list[DevicePress], at: dict[tuple[str, int, int], int]) -> None:
    """Every mapped time's interval holds the true host time of the press."""
    for p in dps:
        true_ns = at[(p.serial, p.button, p.seq)]
        assert abs(p.host_ns - true_ns) <= p.uncertainty_ns, (p, true_ns)


def test_one_device_gaps_exact_whatever_the_transport(rig):
    # An FTDI-like 16 ms latency timer one way, slow and spiky the other.
    r = rig(
        [SimDeviceConfig("BOX1", buttons=6, offset_us=3_000_000_000, to_host=FTDI, to_device=SLOW)]
    )
    wait_for(lambda: r.hub.status() and r.status("BOX1").state != "disconnected", what="the box")
    t0 = r.soon(100)
    dev = r.sim.devices[0]
    stamps = {}
    for i, b in enumerate((1, 2, 3, 4)):
        stamps[b] = r.sim.press(dev, b, t0 + i * 50_000)  # 50 µs apart
    stamps[5] = r.sim.press(dev, 5, t0 + 150_000)  # same sample as button 4: a tie
    stamps[6] = r.sim.press(dev, 6, t0 + 150_000)
    got = r.wait_presses(6)
    by_button = {p.button: p for p in got}
    assert {b: p.device_us for b, p in by_button.items()} == stamps
    assert [by_button[b].device_us - by_button[1].device_us for b in (2, 3, 4, 5, 6)] == [
        50,
        100,
        150,
        150,
        150,
    ]
    assert by_button[5].tie != by_button[4].tie or by_button[6].tie  # flagged in the sample
    assert sum(p.tie for p in got) == 2  # buttons 5 and 6 came with 4 in one sample
    names = {("BOX1", b): f"p{b}" for b in range(1, 7)}
    groups = tie_groups(presses_of(got, names))
    assert [[p.player for p in g] for g in groups][:3] == [["p1"], ["p2"], ["p3"]]
    assert sorted(p.player for p in groups[3]) == ["p4", "p5", "p6"]  # a true tie
    assert len({p.seq for p in got}) == 6  # each once


def test_three_devices_order_and_too_close_to_call(rig):
    cfgs = [
        SimDeviceConfig("A", offset_us=1_000_000, drift_ppm=100.0),
        SimDeviceConfig("B", offset_us=9_876_543_210, drift_ppm=-100.0),
        SimDeviceConfig("C", offset_us=42, drift_ppm=60.0),
    ]
    r = rig(cfgs, seed=11)
    # Presses 2 ms apart can be ordered once each device is known within ±0.7 ms.
    r.wait_synced(max_uncertainty_ns=700_000, timeout=30)
    A, B, C = r.sim.devices
    at: dict[tuple[str, int, int], int] = {}
    t0 = r.soon(200)
    # Round 1: 2 ms apart, in the order C, A, B.
    for k, dev in enumerate((C, A, B)):
        r.sim.press(dev, 1, t0 + k * 2_000_000)
        at[(dev.config.serial, 1, 1)] = t0 + k * 2_000_000
    # Round 2: 20 µs apart, B, C, A - closer than any honest uncertainty here.
    t1 = t0 + 400_000_000
    for k, dev in enumerate((B, C, A)):
        r.sim.press(dev, 1, t1 + k * 20_000)
        at[(dev.config.serial, 1, 2)] = t1 + k * 20_000
    got = r.wait_presses(6)
    truth_contained(r, got, at)
    names = {("A", 1): "pa", ("B", 1): "pb", ("C", 1): "pc"}
    round1 = [p for p in got if p.seq == 1]
    groups = tie_groups(presses_of(round1, names))
    assert [[p.player for p in g] for g in groups] == [["pc"], ["pa"], ["pb"]]
    round2 = [p for p in got if p.seq == 2]
    groups = tie_groups(presses_of(round2, names))
    assert len(groups) == 1 and {p.player for p in groups[0]} == {"pa", "pb", "pc"}
    assert all(p.uncertainty_ns > 0 for p in got)


def test_corrupted_line_dropped_and_recovered_by_resend(rig):
    r = rig([SimDeviceConfig("BOX2", buttons=2)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    r.sim.damage_next_presses(dev, 1)
    stamp = r.sim.press(dev, 2, r.soon())
    got = r.wait_presses(1)
    wait_for(lambda: r.status("BOX2").corrupt >= 1, what="the corrupt line counted")
    assert [(p.button, p.device_us, p.seq) for p in got] == [(2, stamp, 1)]
    assert got[0].flags & 0x02  # it arrived as a resend
    # A lost line (a dropped byte keeps the newline: here the whole line goes) too.
    r.sim.damage_next_presses(dev, 1, drop=True)
    stamp2 = r.sim.press(dev, 1, r.soon())
    got = r.wait_presses(2)
    assert [(p.button, p.device_us) for p in got] == [(2, stamp), (1, stamp2)]
    wait_for(
        lambda: r.status("BOX2").duplicates >= 0 and dev.device.ring.acked == 2,
        what="both acknowledged",
    )
    assert len(r.of("BOX2")) == 2


def test_unplug_mid_performance_every_press_exactly_once(rig):
    r = rig([SimDeviceConfig("BOX3", buttons=4)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    boot = dev.boot_id
    r.sim.press(dev, 1, r.soon())
    r.wait_presses(1)
    # A press whose line is lost, then the cable goes before any retry.
    r.sim.damage_next_presses(dev, 1, drop=True)
    r.sim.press(dev, 2, r.soon(20))
    wait_for(lambda: len(dev.events) == 2, what="the second press made")
    r.sim.unplug(dev)
    wait_for(lambda: r.status("BOX3").state == "disconnected", what="the unplug seen")
    t = r.soon(50)
    r.sim.press(dev, 3, t)  # pressed while unplugged: the device keeps them
    r.sim.press(dev, 4, t + 300_000)
    wait_for(lambda: len(dev.events) == 4, what="presses while unplugged")
    r.sim.replug(dev)
    r.hub.poke()
    got = r.wait_presses(4)
    r.sim.press(dev, 1, r.soon(), hold_ms=10)
    got = r.wait_presses(5)
    assert dev.boot_id == boot
    assert sorted(p.seq for p in got) == [1, 2, 3, 4, 5]
    assert [(p.seq, p.button, p.device_us) for p in sorted(got, key=lambda p: p.seq)] == [
        (s, b, t_us) for s, b, t_us, _ in dev.events
    ]
    wait_for(lambda: dev.device.ring.acked == 5, what="all acknowledged")
    st = r.status("BOX3")
    assert st.state == "connected" and st.presses == 5 and st.lost == 0
    # Pressed while unplugged: mapped after the reconnect's fresh pings, truth inside.
    by_button = {p.button: p for p in got if p.seq in (3, 4)}
    for button, true_ns in ((3, t), (4, t + 300_000)):
        assert abs(by_button[button].host_ns - true_ns) <= by_button[button].uncertainty_ns


def test_new_boot_id_starts_a_new_record(rig):
    r = rig([SimDeviceConfig("BOX4", buttons=1, offset_us=5_000_000_000)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    old_boot = dev.boot_id
    r.sim.press(dev, 1, r.soon())
    r.wait_presses(1)
    r.sim.unplug(dev)
    wait_for(lambda: r.status("BOX4").state == "disconnected", what="the unplug seen")
    r.sim.replug(dev, reboot=True)  # power cycled: new boot id, clock from zero
    r.hub.poke()
    wait_for(lambda: r.status("BOX4").boot == dev.boot_id, what="the new boot")
    assert dev.boot_id != old_boot
    r.wait_synced(max_uncertainty_ns=5_000_000)
    t = r.soon()
    stamp = r.sim.press(dev, 1, t)
    got = r.wait_presses(2)
    new = got[1]
    assert (new.boot, new.seq, new.device_us) == (dev.boot_id, 1, stamp)
    assert stamp < 100_000_000  # the device's clock restarted
    assert abs(new.host_ns - t) <= new.uncertainty_ns  # and the new clock was re-fitted


def test_contact_bounce_filtered(rig):
    r = rig([SimDeviceConfig("BOX5", buttons=2, bounce_us=4000, hold_ms=60)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    t = r.soon()
    stamps = [
        r.sim.press(dev, 1, t),
        r.sim.press(dev, 2, t + 1_000_000),
        r.sim.press(dev, 1, t + 200_000_000),
    ]
    got = r.wait_presses(3)
    wait_for(lambda: dev.device.debouncer.rejected > 0, what="bounce seen")
    assert sorted(p.device_us for p in got) == sorted(stamps)
    wait_for(lambda: dev.device.ring.acked == 3, what="acknowledged")
    assert len(dev.events) == 3 and len(r.presses) == 3


def test_start_and_end_of_the_music_flagged_under_drift(rig):
    r = rig([SimDeviceConfig("BOX6", buttons=6, offset_us=86_400_000_000, drift_ppm=100.0)])
    r.wait_synced(max_uncertainty_ns=800_000)
    dev = r.sim.devices[0]
    start = r.soon(150)
    length = 300_000_000
    end = start + length
    plan = {  # button -> (host time of the press, the status the rules must give)
        1: (start - 3_000_000, "false-start"),
        2: (start + 10_000, "uncertain-start"),
        3: (start + 3_000_000, "counted"),
        4: (end - 3_000_000, "counted"),
        5: (end - 10_000, "uncertain-end"),
        6: (end + 3_000_000, "too-late"),
    }
    for b, (t, _) in plan.items():
        r.sim.press(dev, b, t, hold_ms=5)
    got = r.wait_presses(6)
    players = {("BOX6", b): f"p{b}" for b in plan}
    presses = order_presses(presses_of(got, players))
    perf = Performance(
        attempts=(Attempt(start, length, stop_ns=end, end_reason="music"),),
        presses=tuple(RecordedPress(p, 0) for p in presses),
    )
    verdict = judge(perf, speed_tokens=False)
    status = {j.press.button: j.status for j in verdict.presses}
    assert status == {b: s for b, (_, s) in plan.items()}
    for p in got:  # every interval holds the truth, under 100 ppm drift
        assert abs(p.host_ns - plan[p.button][0]) <= p.uncertainty_ns
    # The same presses stamped on arrival instead would be shifted by the transport:
    assert all(p.arrival_ns > plan[p.button][0] for p in got)


def test_resync_state_and_status_fields(rig):
    r = rig([SimDeviceConfig("BOX7", buttons=8, drift_ppm=-100.0)])
    r.wait_synced(max_uncertainty_ns=800_000)
    st = r.status("BOX7")
    assert st.buttons == 8 and st.firmware and st.rtt_ns and st.min_rtt_ns
    assert st.state == "connected" and st.consistent
    est = r.hub.devices["BOX7"].clock.estimate
    # The drift is known within the bound the fit reports (ppm = 1000 x ns per µs).
    assert abs(est.drift_ppm - (-100.0)) <= est.rate_error * 1000 * 1.001 + 0.01
    r.sim.unplug(r.sim.devices[0])
    wait_for(lambda: r.status("BOX7").state == "disconnected", what="unplugged")
    assert replace(r.status("BOX7"), port="").state == "disconnected"


def test_sustained_line_damage_both_ways_every_press_exactly_once(rig):
    # 15 % of lines damaged (a flipped bit or a lost byte) in BOTH directions: events,
    # acknowledgements, resend requests, pings and pongs all suffer.
    bad = Transport(base_us=150.0, jitter_us=200.0, corrupt_rate=0.1, drop_rate=0.05)
    bad_in = Transport(base_us=80.0, jitter_us=60.0, corrupt_rate=0.1, drop_rate=0.05)
    r = rig([SimDeviceConfig("NOISY", buttons=8, to_host=bad, to_device=bad_in)], seed=5)
    wait_for(lambda: r.hub.status() and r.status("NOISY").sync_samples >= 3, what="sync")
    dev = r.sim.devices[0]
    t = r.soon(50)
    for k in range(40):
        r.sim.press(dev, k % 8 + 1, t + k * 40_000_000, hold_ms=5)
    got = r.wait_presses(40, timeout=30)
    wait_for(lambda: dev.device.ring.acked == 40, timeout=30, what="everything acknowledged")
    assert sorted(p.seq for p in got) == list(range(1, 41))
    assert [(p.seq, p.button, p.device_us) for p in sorted(got, key=lambda p: p.seq)] == [
        (s, b, t_us) for s, b, t_us, _ in dev.events
    ]
    st = r.status("NOISY")
    assert st.corrupt > 0 and st.device_corrupt > 0  # the damage really happened
    assert st.lost == 0


def test_ring_overflow_while_unplugged_is_counted_as_lost_not_hidden(rig):
    r = rig([SimDeviceConfig("TINY", buttons=8, ring_size=4)])
    r.wait_synced(max_uncertainty_ns=5_000_000)
    dev = r.sim.devices[0]
    r.sim.unplug(dev)
    wait_for(lambda: r.status("TINY").state == "disconnected", what="the unplug seen")
    t = r.soon(20)
    for k in range(6):  # six presses, room for four
        r.sim.press(dev, k + 1, t + k * 40_000_000, hold_ms=5)
    wait_for(lambda: len(dev.events) == 6, what="six presses made")
    r.sim.replug(dev)
    r.hub.poke()
    got = r.wait_presses(4)
    wait_for(lambda: r.status("TINY").lost == 2, what="the loss counted")
    assert sorted(p.seq for p in got) == [3, 4, 5, 6]
    # The events whose arrival pushed older ones out say so (OVERFLOW flag).
    assert {p.seq for p in got if p.flags & 0x08} == {5, 6}


def test_device_plugged_in_later_is_picked_up():
    from companion.hardware.link import TadaaHub
    from companion.hardware.simulator import Simulator

    sim = Simulator([SimDeviceConfig("EARLY"), SimDeviceConfig("LATE")], seed=9).start()
    visible = [sim.devices[0].path]
    hub = TadaaHub(ports=lambda: list(visible)).start()
    try:
        wait_for(lambda: [s.serial for s in hub.status()] == ["EARLY"], what="the first")
        visible.append(sim.devices[1].path)  # hot-plug: a new port appears
        wait_for(
            lambda: {s.serial for s in hub.status()} == {"EARLY", "LATE"}, what="the second device"
        )
        got = []
        hub.on_press(got.append)
        wait_for(lambda: all(s.state == "connected" for s in hub.status()), what="synced")
        sim.press(sim.devices[1], 1, time.monotonic_ns() + 50_000_000)
        wait_for(lambda: [p.serial for p in got] == ["LATE"], what="its press")
    finally:
        hub.stop()
        sim.stop()
