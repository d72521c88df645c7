"""Clock sync in simulated time: the uncertainty it reports always holds the truth."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.meeple_circus.rules.actions import Press
from companion.games.meeple_circus.rules.timing import tie_groups
from companion.hardware.clocksync import ClockSync, SyncSample
from companion.hardware.simulator import (
    DEVICE_TO_HOST,
    FRAMED_BOTH,
    FTDI,
    HOST_TO_DEVICE,
    JITTERY,
    Transport,
    simulate_sync,
)


def run(
    ppm: float,
    offset_us: int,
    out: Transport,
    back: Transport,
    seconds: float,
    seed: int,
    every_s: float = 0.5,
    check_from_s: float = 0.0,
):
    """Ping for ``seconds``; after each pong map a press made just then and check it."""
    rng = random.Random(seed)
    cs = ClockSync()

    def dev(t_ns: float) -> int:
        return int(offset_us + t_ns / 1000.0 * (1 + ppm * 1e-6))

    t = 1_000_000_000.0
    worst_ratio = 0.0
    last = None
    n = 0
    while t < seconds * 1e9 + 1e9:
        sent = int(t)
        at_dev = out.delay_ns(rng, sent, 0)
        stamp = dev(at_dev)
        recv = back.delay_ns(rng, at_dev, 333_000)
        est = cs.add(SyncSample(sent, recv, stamp))
        press_ns = recv + rng.uniform(0, every_s * 1e9)
        host, unc = est.to_host(dev(press_ns))
        if t >= check_from_s * 1e9:
            n += 1
            err = abs(host - press_ns)
            worst_ratio = max(worst_ratio, err / unc)
        last = (est, abs(host - press_ns), unc)
        t += (every_s * 1e9 if n > 10 else 0.02e9) + rng.uniform(0, 2e6)  # pings drift in phase
    return worst_ratio, last, cs


@pytest.mark.parametrize(
    ("transport", "ppm", "minutes"),
    [
        ((HOST_TO_DEVICE, DEVICE_TO_HOST), 100.0, 10),
        ((HOST_TO_DEVICE, DEVICE_TO_HOST), -100.0, 10),
        ((FRAMED_BOTH, FRAMED_BOTH), 100.0, 3),
        ((HOST_TO_DEVICE, FTDI), -100.0, 3),
    ],
    ids=["usb+100ppm", "usb-100ppm", "framed", "ftdi"],
)
def test_truth_always_inside_the_reported_interval(transport, ppm, minutes):
    worst, (est, _err, _unc), _ = run(
        ppm, 123_456_789, *transport, seconds=minutes * 60, seed=int(ppm)
    )
    assert worst <= 1.0  # never outside: honest
    assert est.consistent
    assert abs(est.drift_ppm - ppm) < 2.0  # drift measured within 2 ppm


def test_usb_uncertainty_after_one_minute_is_well_under_a_millisecond():
    worst, (est, _err, unc), cs = run(100.0, 5, HOST_TO_DEVICE, DEVICE_TO_HOST, 60, seed=3)
    assert worst <= 1.0
    assert unc < 500_000
    # The recent samples bound the offset; one anchor per second of the minute the rate.
    assert est.samples == len(cs.samples) >= 30 and len(cs.anchors) >= 55


@settings(max_examples=30, deadline=None)
@given(ppm=st.floats(-500, 500), offset=st.integers(0, 2**50), seed=st.integers(0, 2**32))
def test_any_drift_and_offset_stay_honest(ppm, offset, seed):
    worst, _, _ = run(ppm, offset, HOST_TO_DEVICE, DEVICE_TO_HOST, 30, seed=seed)
    assert worst <= 1.0


def test_time_running_backwards_is_rejected_and_reset_forgets():
    cs = ClockSync()
    cs.add(SyncSample(0, 1000_000, 5000))
    cs.add(SyncSample(2_000_000, 3_000_000, 4000))  # earlier device time: another boot
    assert cs.outliers == 1 and len(cs.samples) == 1
    cs.reset()
    assert cs.estimate is None and not cs.samples


def test_a_clock_jump_is_an_outlier_then_a_restart_never_hidden():
    cs = ClockSync()
    t = 0
    for _i in range(30):
        cs.add(SyncSample(t, t + 300_000, t // 1000 + 150))
        t += 100_000_000
    assert cs.estimate is not None and cs.estimate.consistent
    kept = cs.estimate
    # The device clock jumps by 5 ms: its stamps no longer fit the model. The
    # first ones are outliers (the model is kept, not bent to them)...
    for _i in range(cs.outlier_run - 1):
        cs.add(SyncSample(t, t + 300_000, t // 1000 + 150 + 5000))
        t += 100_000_000
    assert cs.outliers == cs.outlier_run - 1 and cs.restarts == 0
    assert cs.estimate is kept
    # ...until enough agree with each other: then the clock really changed, and the
    # model restarts from them (counted, shown as a restart).
    cs.add(SyncSample(t, t + 300_000, t // 1000 + 150 + 5000))
    assert cs.restarts == 1 and len(cs.samples) == cs.outlier_run
    host, unc = cs.estimate.to_host(t // 1000 + 150 + 5000)
    assert abs(host - (t + 150_000)) <= unc


def test_an_absurd_pong_is_an_outlier_and_the_clock_is_kept():
    """One PONG with t_us = 2**62 used to make every later real sample "run
    backwards" and be rejected: the device's clock was frozen for the evening."""
    cs = ClockSync()
    t = 0
    for _i in range(40):
        cs.add(SyncSample(t, t + 300_000, t // 1000 + 150))
        t += 50_000_000
    cs.add(SyncSample(t, t + 300_000, 2**62))
    assert cs.outliers == 1
    for _i in range(40):
        cs.add(SyncSample(t, t + 300_000, t // 1000 + 150))
        t += 50_000_000
    assert cs.outliers == 1 and cs.restarts == 0
    assert cs.samples[-1].device_us == (t - 50_000_000) // 1000 + 150  # still learning
    host, unc = cs.estimate.to_host(t // 1000 + 150)
    assert abs(host - (t + 150_000)) <= unc <= 200_000


# --------------------------------------------------------------------------- at the limit


def presses_after_plugin(seed: int, n: int, from_s: float = 30.0, span_s: float = 5.0):
    rng = random.Random(seed)
    return sorted(int((from_s + rng.uniform(0, span_s)) * 1e9) for _ in range(n))


def test_jittery_link_30_s_after_plugin_is_near_the_physical_limit():
    """Round trips spread over 0.2-6 ms: 30 s after plug-in (the hub pings every
    50 ms then), over 10,000 presses the stated uncertainty has a median
    <= 0.30 ms and a p99 <= 0.8 ms, and holds every truth. (Before: median
    ±0.83 ms, max ±3.5 ms with the old schedule and fit.)"""
    mapped = []
    best_rtt = []
    for seed in range(20):
        got, cs = simulate_sync(seed, JITTERY, JITTERY, presses_after_plugin(seed, 500))
        mapped += got
        best_rtt.append(cs.estimate.min_rtt_ns)
    assert len(mapped) >= 10_000
    unc = sorted(p.uncertainty_ns for p in mapped)
    assert unc[len(unc) // 2] <= 300_000 and unc[int(0.99 * len(unc))] <= 800_000
    assert sum(abs(p.host_ns - p.true_ns) > p.uncertainty_ns for p in mapped) == 0
    assert min(best_rtt) >= 200_000  # the link really is that slow at its best


def test_presses_3_ms_apart_on_three_jittery_devices_are_ordered_not_tied():
    rounds = 45
    rng = random.Random(3)
    orders = [rng.sample(range(3), 3) for _ in range(rounds)]
    at = {d: [] for d in range(3)}
    for r, order in enumerate(orders):
        base = int(30e9 + r * 0.4e9)
        for slot, d in enumerate(order):
            at[d].append(base + slot * 3_000_000)
    mapped = {d: simulate_sync(100 + d, JITTERY, JITTERY, at[d])[0] for d in range(3)}
    by_true = {(d, p.true_ns): p for d in range(3) for p in mapped[d]}
    for r, order in enumerate(orders):
        base = int(30e9 + r * 0.4e9)
        presses = []
        for slot, d in enumerate(order):
            p = by_true[(d, base + slot * 3_000_000)]
            presses.append(Press(f"p{d}", p.host_ns, p.uncertainty_ns, "button-box", f"D{d}"))
        groups = tie_groups(presses)
        assert [[p.player for p in g] for g in groups] == [[f"p{d}"] for d in order], r


def test_default_usb_is_tighter_still_and_honest():
    mapped = []
    for seed in range(5):
        got, _ = simulate_sync(
            seed, HOST_TO_DEVICE, DEVICE_TO_HOST, presses_after_plugin(seed, 400)
        )
        mapped += got
    unc = sorted(p.uncertainty_ns for p in mapped)
    assert unc[len(unc) // 2] <= 250_000
    assert sum(abs(p.host_ns - p.true_ns) > p.uncertainty_ns for p in mapped) == 0


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), forged=st.floats(0.005, 0.05))
def test_forged_pongs_among_real_ones_never_move_the_truth_outside(seed, forged):
    """A share of PONGs carry a random t_us (corrupted firmware, a forged line):
    each is an outlier, the model is never restarted by them, and every press
    mapped in between keeps its truth inside its interval."""
    rng = random.Random(seed)
    cs = ClockSync()
    ppm = rng.uniform(-100, 100)
    offset = rng.randrange(10**9)

    def dev(t_ns: float) -> int:
        return int(offset + t_ns / 1000.0 * (1 + ppm * 1e-6))

    t = 0.0
    bad = 0
    while t < 60e9:
        at = JITTERY.delay_ns(rng, int(t), 0)
        recv = JITTERY.delay_ns(rng, at, 0)
        if cs.estimate is not None and rng.random() < forged:
            bad += 1
            cs.add(SyncSample(int(t), recv, rng.randrange(2**62)))
        else:
            cs.add(SyncSample(int(t), recv, dev(at)))
        if cs.estimate is not None and len(cs.samples) >= 3:
            press = recv + rng.uniform(0, 50e6)
            host, unc = cs.estimate.to_host(dev(press))
            assert abs(host - press) <= unc
        t = recv + 50e6 * rng.uniform(0.6, 1.4)
    assert cs.outliers == bad and cs.restarts == 0
