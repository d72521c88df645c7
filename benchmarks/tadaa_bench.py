"""Tadaa buttons: host arrival stamping versus device time, latency, clock sync, hostile lines.

    .venv/bin/python benchmarks/tadaa_bench.py [--finishes 2000] [--skip-latency]
        [--fuzz 1000000]

1. Ordering (simulated time, the real clock sync, the hub's ping schedule and the
   real rules): thousands of close finishes (2–8 players, gaps 0–20 ms), 30 s and
   10 min after plug-in, on the default USB model and a jittery link (round trips
   0.2–6 ms), with faults (corrupt lines recovered by resend 250 ms later, unplug
   episodes replayed on replug), both layouts — one box, and one device per player
   (each with its own offset and ±100 ppm drift). For each: wrong orders, pairs
   declared too close to call, finishes whose speed tokens are left to the host,
   error of the shown gaps, wrong "before the music ended" decisions.
2. Host latency (real ptys, real hub, real Textual app): from a line's arrival (read
   returns) to the press reaching the screen's ``receive_press`` (median, p99); the
   hub's worst lock hold in that run and under hostile lines.
3. Stated uncertainty and error 30 s and 10 min after plug-in (10,000 presses per
   row, simulated time, ``simulate_sync``), beside arrival-time stamping.
4. Fuzzing: ``--fuzz`` lines through the parser and the hub (default 10^6).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import sys
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.meeple_circus.rules.actions import Press  # noqa: E402
from companion.games.meeple_circus.rules.timing import (  # noqa: E402
    definitely_before,
    tie_groups,
)
from companion.hardware import link  # noqa: E402
from companion.hardware.clocksync import ClockSync, SyncSample  # noqa: E402
from companion.hardware.simulator import (  # noqa: E402
    DEVICE_TO_HOST,
    FRAMED_BOTH,
    FTDI,
    HOST_TO_DEVICE,
    JITTERY,
    Transport,
    fuzz_hub,
    simulate_sync,
)

MS = 1_000_000


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# --------------------------------------------------------------------------- 1. ordering


@dataclass
class Device:
    serial: str
    offset_us: int
    ppm: float
    rng: random.Random
    sync: ClockSync
    last_arrival: int = 0
    next_ping: int = 0
    pings: int = 0

    def dev_us(self, t_ns: float) -> int:
        return int(self.offset_us + t_ns / 1000.0 * (1 + self.ppm * 1e-6))

    def stamp(self, t_ns: float) -> int:
        # The next 1 µs sample after the edge.
        return -int(-(self.offset_us + t_ns / 1000.0 * (1 + self.ppm * 1e-6)) // 1)


def make_device(i: int, rng: random.Random) -> Device:
    ppm = rng.uniform(-100, 100)
    offset = rng.randrange(10**11)
    return Device(f"D{i}", offset, ppm, random.Random(rng.getrandbits(32)), ClockSync())


def ping(dev: Device, t_ns: int, out: Transport, back: Transport) -> int:
    at_dev = out.delay_ns(dev.rng, t_ns, 0)
    recv = back.delay_ns(dev.rng, at_dev, 0)
    dev.sync.add(SyncSample(t_ns, recv, dev.dev_us(at_dev)))
    return recv


def ping_until(dev: Device, until: int, performing: bool, out: Transport, back: Transport) -> None:
    """The hub's schedule (``link``): a burst after plug-in (t = 0), every
    ``FAST_PING_NS`` for ``FAST_AFTER_CONNECT_NS`` and while performing, else
    ``PING_EVERY_NS``; the next ping after the pong, on the hub's 5 ms tick."""
    while dev.next_ping < until:
        recv = ping(dev, dev.next_ping, out, back)
        dev.pings += 1
        hurry = performing or recv < link.FAST_AFTER_CONNECT_NS
        gap = link.ping_gap_ns(dev.pings, hurry, dev.rng)
        dev.next_ping = recv + gap + dev.rng.randrange(5 * MS)


@dataclass
class Outcome:
    pairs: int = 0
    wrong: int = 0
    flagged: int = 0
    gap_err_us: list[float] = None  # type: ignore[assignment]
    end_decisions: int = 0
    end_wrong: int = 0
    end_flagged: int = 0
    finishes: int = 0
    tokens_wrong: int = 0  # the two speed tokens given to the wrong players, silently
    tokens_to_host: int = 0  # the order of the first two left to the host (too close)
    tokens_true_tie: int = 0  # ... of which a true tie (same instant): the host must decide
    unc_ns: list[float] = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        self.gap_err_us = []
        self.unc_ns = []


def run_finishes(
    layout: str,
    n: int,
    seed: int,
    corrupt: float,
    unplug: float,
    to_host: Transport = DEVICE_TO_HOST,
    to_dev: Transport = HOST_TO_DEVICE,
    after_s: float = 30.0,
) -> tuple[Outcome, Outcome]:
    """Returns (host arrival stamping, device time) outcomes over ``n`` finishes,
    the first ``after_s`` after plug-in (one finish every ~2.5 s from there)."""
    rng = random.Random(seed)
    arrival, ours = Outcome(), Outcome()
    devices = [make_device(0, rng)] if layout == "box" else [make_device(i, rng) for i in range(8)]
    t = int(after_s * 1e9) - 1_000 * MS
    for d in devices:
        ping_until(d, t, False, to_dev, to_host)
    for _ in range(n):
        players = rng.randint(2, 8)
        # True press times: gaps 0–20 ms (ties happen: gap 0 within one sample).
        times = []
        base = t + 1_000 * MS
        for k in range(players):
            base += 0 if (k and rng.random() < 0.03) else int(rng.uniform(0, 20) * MS)
            times.append(base)
        # The performance is on from 1 s before the first press: the hub pings fast.
        for d in devices:
            ping_until(d, times[0], True, to_dev, to_host)
        # Who presses on what: box = one device, buttons 1..8; single = device k.
        who = [(devices[0], k + 1) if layout == "box" else (devices[k], 1) for k in range(players)]
        down = rng.random() < unplug
        down_from = times[0] - rng.randrange(200 * MS)
        down_to = times[-1] + rng.randrange(300 * MS, 2_000 * MS)
        presses = []
        for (dev, button), t_true in zip(who, times, strict=True):
            stamp = dev.stamp(t_true)
            # Transport of the event line: in order per device; faults delay it.
            sent = t_true + 20_000  # firmware loop: framing and USB write
            first = to_host.delay_ns(dev.rng, sent, 0)
            if rng.random() < corrupt:
                first = to_host.delay_ns(dev.rng, sent + 250 * MS, 0)  # resend
            if down and down_from <= sent <= down_to:
                first = to_host.delay_ns(dev.rng, down_to + 50 * MS, 0)  # replayed
            first = max(first, dev.last_arrival)
            dev.last_arrival = first
            est = dev.sync.estimate  # (the pings up to the first press: conservative)
            assert est is not None
            host, unc = est.to_host(stamp, extra_ns=500.0)
            ours.unc_ns.append(unc)
            presses.append(
                (
                    t_true,
                    first,
                    Press(
                        f"p{len(presses) + 1}", host, unc, "button-box", dev.serial, stamp, button
                    ),
                )
            )
        t = times[-1] + 1_500 * MS
        for d in devices:
            ping_until(d, times[-1] + 500 * MS, True, to_dev, to_host)
            ping_until(d, t, False, to_dev, to_host)
        truth = sorted(presses, key=lambda p: p[0])
        for a, b in itertools.pairwise(truth):
            true_gap = b[0] - a[0]
            if true_gap == 0:
                continue  # a true tie: no order to get right
            # host arrival stamping
            arrival.pairs += 1
            if b[1] < a[1]:
                arrival.wrong += 1
            arrival.gap_err_us.append(abs((b[1] - a[1]) - true_gap) / 1000)
            # device time (ours)
            ours.pairs += 1
            pa, pb = a[2], b[2]
            if definitely_before(pb, pa):
                ours.wrong += 1
            elif not definitely_before(pa, pb):
                ours.flagged += 1
            if pa.device == pb.device:
                shown = (pb.device_us - pa.device_us) * 1000
            else:
                shown = pb.host_ns - pa.host_ns
            ours.gap_err_us.append(abs(shown - true_gap) / 1000)
        # The speed tokens (2 and 1) go to the first two: right, wrong, or left to the host.
        true_top = [p[2].player for p in truth[:2]]
        true_tie = truth[0][0] == truth[1][0] or (len(truth) > 2 and truth[1][0] == truth[2][0])
        for o in (arrival, ours):
            o.finishes += 1
        by_arrival = [p[2].player for p in sorted(presses, key=lambda p: p[1])[:2]]
        if by_arrival != true_top and not true_tie:
            arrival.tokens_wrong += 1
        groups = tie_groups([p[2] for p in presses])
        if len(groups[0]) > 1 or (len(groups) > 1 and len(groups[1]) > 1):
            ours.tokens_to_host += 1
            ours.tokens_true_tie += true_tie
        elif [g[0].player for g in groups[:2]] != true_top and not true_tie:
            ours.tokens_wrong += 1
        # "Did this press come before the music ended?" with the end near a press.
        target = rng.choice(presses)
        end = target[0] + int(rng.uniform(-5, 5) * MS)
        for t_true, first, p in presses:
            truly_before = t_true < end
            arrival.end_decisions += 1
            if (first < end) != truly_before:
                arrival.end_wrong += 1
            ours.end_decisions += 1
            if p.host_ns + p.uncertainty_ns < end:
                said = True
            elif p.host_ns - p.uncertainty_ns > end:
                said = False
            else:
                ours.end_flagged += 1
                continue
            if said != truly_before:
                ours.end_wrong += 1
    return arrival, ours


def report_finishes(n: int) -> None:
    print(f"\n## 1. Ordering over {n} close finishes per row (gaps 0–20 ms)\n")
    print(
        "Faults in every row: 2 % of event lines corrupt (resent after 250 ms), 3 % of "
        "finishes with an unplug.\n"
    )
    print(
        "| layout | link | after plug-in | stamping | wrong order | too close to call | "
        "speed tokens: wrong / left to the host (true ties) | gap error p50 / p99 | "
        "end decisions: wrong / flagged | stated ± median / p99 |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    rows = (
        ("box", "USB", (HOST_TO_DEVICE, DEVICE_TO_HOST), 30.0),
        ("single", "USB", (HOST_TO_DEVICE, DEVICE_TO_HOST), 30.0),
        ("single", "USB", (HOST_TO_DEVICE, DEVICE_TO_HOST), 600.0),
        ("single", "jittery", (JITTERY, JITTERY), 30.0),
        ("single", "jittery", (JITTERY, JITTERY), 600.0),
    )
    for layout, name, (out, back), after in rows:
        started = time.perf_counter()
        arr, ours = run_finishes(
            layout,
            n,
            seed=zlib.crc32(f"{layout}/{name}/{after}".encode()) & 0xFFFF,
            corrupt=0.02,
            unplug=0.03,
            to_host=back,
            to_dev=out,
            after_s=after,
        )
        took = time.perf_counter() - started
        when = "30 s" if after < 60 else f"{after / 60:.0f} min"
        for label, o in (("host arrival", arr), ("device time (ours)", ours)):
            unc = (
                f"{pct(o.unc_ns, 0.5) / 1000:.0f} / {pct(o.unc_ns, 0.99) / 1000:.0f} µs"
                if o.unc_ns
                else "—"
            )
            print(
                f"| {layout} | {name} | {when} | {label} | "
                f"{o.wrong / o.pairs:.2%} ({o.wrong}/{o.pairs}) | "
                f"{o.flagged / o.pairs:.2%} | "
                f"{o.tokens_wrong / o.finishes:.1%} / {o.tokens_to_host / o.finishes:.1%} "
                f"({o.tokens_true_tie / o.finishes:.1%}) | "
                f"{pct(o.gap_err_us, 0.5):.1f} µs / {pct(o.gap_err_us, 0.99):.1f} µs | "
                f"{o.end_wrong}/{o.end_decisions} / {o.end_flagged} | {unc} |"
            )
        print(f"<!-- {layout}/{name}/{when}: {took:.1f} s -->", file=sys.stderr)


# --------------------------------------------------------------------------- 2. latency


def bench_latency(presses: int) -> tuple[list[float], list[float]]:
    """(line arrival -> hub callback, line arrival -> receive_press on the UI thread) in µs."""
    import tempfile

    from companion.games.meeple_circus.rules.actions import (
        AbortPerformance,
        ChooseFirstPlayer,
        Prepare,
        StartPerformance,
    )
    from companion.games.meeple_circus.tadaa_panel import TadaaPanel
    from companion.hardware.config import TadaaConfig
    from companion.hardware.link import DevicePress, TadaaHub
    from companion.hardware.simulator import SimDeviceConfig, Simulator
    from companion.ui.app import make_app

    hub_lat: list[float] = []
    ui_lat: list[float] = []
    arrivals: dict[tuple[str, int], int] = {}
    with tempfile.TemporaryDirectory(dir=ROOT) as tmp:
        import os

        os.environ["COMPANION_TADAA_CONFIG"] = str(Path(tmp) / "tadaa.json")
        config = TadaaConfig.load()
        for b, name in enumerate(("Ann", "Bo", "Cy", "Di"), start=1):
            config.assign("LAT", b, name)
        config.save()
        sim = Simulator([SimDeviceConfig("LAT", buttons=4, hold_ms=5)], seed=1).start()
        hub = TadaaHub(ports=sim.paths).start()

        def on_press(dp: DevicePress) -> None:
            now = time.monotonic_ns()
            arrivals[(dp.serial, dp.device_us)] = dp.arrival_ns
            hub_lat.append((now - dp.arrival_ns) / 1000)

        hub.on_press(on_press)
        app = make_app(Path(tmp) / "lat.sqlite3", lang="en")
        app.tadaa_hub = hub

        async def main() -> None:
            async with app.run_test(size=(160, 50)) as pilot:
                app.start_session("meeple-circus", ["Ann", "Bo", "Cy", "Di"], {})
                await app.settle()
                screen = app.screen
                screen.submit(ChooseFirstPlayer("p1"))
                await app.settle()
                for pid in screen.circus.preparation_order():
                    screen.submit(Prepare(pid))
                    await app.settle()
                screen.submit(StartPerformance(time.monotonic_ns(), 3_600 * 10**9, None))
                await app.settle()
                panel = screen.query_one(TadaaPanel)
                inner: Callable[[Press], None] = panel.receive_press

                def timed(press: Press) -> None:
                    now = time.monotonic_ns()
                    got = arrivals.get((press.device or "", press.device_us or -1))
                    if got is not None:
                        ui_lat.append((now - got) / 1000)
                    inner(press)

                panel.receive_press = timed
                while not (hub.status() and hub.status()[0].state == "connected"):
                    await pilot.pause(0.05)
                for k in range(presses):
                    if k and k % 8 == 0:
                        # A table has at most 8 presses per attempt: start a new one
                        # (abort + start), as a host would after a knocked-over tower.
                        screen.submit(AbortPerformance(time.monotonic_ns(), "bench"))
                        await app.settle()
                        screen.submit(StartPerformance(time.monotonic_ns(), 3_600 * 10**9, None))
                        await app.settle()
                    sim.press(sim.devices[0], k % 4 + 1, time.monotonic_ns() + 5 * MS)
                    await pilot.pause(0.25)
                deadline = time.monotonic() + 10
                while len(ui_lat) < presses and time.monotonic() < deadline:
                    await pilot.pause(0.05)

        asyncio.run(main())
        LAST_HOLD[:] = [hub.worst_hold_ns, hub.worst_work]
        hub.stop()
        sim.stop()
    return hub_lat, ui_lat


LAST_HOLD = [0, 0]  # the latency run's worst lock hold (ns) and worst work (steps)


# --------------------------------------------------------------------------- 3. clock sync


def baseline_clock_sync(ref: str) -> type:
    """``ClockSync`` as it was at git ``ref`` (a module loaded from ``git show``)."""
    import importlib.util
    import subprocess
    import tempfile

    source = subprocess.run(
        ["git", "show", f"{ref}:companion/hardware/clocksync.py"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "baseline_clocksync.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("baseline_clocksync", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_clocksync"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module.ClockSync  # type: ignore[no-any-return]


def baseline_schedule(pings: int, recv: int, rng: random.Random) -> int:
    """The hub's ping schedule before issue 15: 10 pings 20 ms apart, 50 at 100 ms,
    then one every 500 ms (plus the 2 ms of phase drift the old tests gave it)."""
    del recv
    gap = 20 * MS if pings < 10 else 100 * MS if pings < 60 else 500 * MS
    return gap + int(rng.uniform(0, 2 * MS))


def report_sync(seeds: int = 20, per_seed: int = 500, baseline: str = "") -> None:
    print(
        f"\n## 3. Stated uncertainty after plug-in ({seeds * per_seed:,} presses per row; "
        "hub schedule, drift ±100 ppm)\n"
    )
    old_sync = baseline_clock_sync(baseline) if baseline else None
    print(
        "| link | after | stamping | error median / p99 | stated ± median / p99 / max | "
        "truths outside | best round trip |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    models = (
        ("USB (OUT on 1 ms frames)", (HOST_TO_DEVICE, DEVICE_TO_HOST)),
        ("jittery (round trips 0.2–6 ms)", (JITTERY, JITTERY)),
        ("both directions on 1 ms frames", (FRAMED_BOTH, FRAMED_BOTH)),
        ("FTDI 16 ms latency timer", (HOST_TO_DEVICE, FTDI)),
    )
    for name, (out, back) in models:
        for after in (30.0, 600.0):
            errs: list[float] = []
            uncs: list[float] = []
            arrival_err: list[float] = []
            outside = 0
            best = []
            old_uncs: list[float] = []
            old_errs: list[float] = []
            old_outside = 0
            for seed in range(seeds):
                rng = random.Random(seed * 7919 + int(after))
                at = sorted(int((after + rng.uniform(0, 5)) * 1e9) for _ in range(per_seed))
                after_ns = after * 1e9
                mapped, cs = simulate_sync(
                    seed, out, back, at, fast=lambda t, a=after_ns: t >= a - 2e9
                )
                best.append(cs.estimate.min_rtt_ns if cs.estimate else 0)
                if old_sync is not None:
                    old, _ = simulate_sync(
                        seed, out, back, at, clock_sync=old_sync, schedule=baseline_schedule
                    )
                    for p in old:
                        old_uncs.append(p.uncertainty_ns)
                        old_outside += abs(p.host_ns - p.true_ns) > p.uncertainty_ns
                        old_errs.append(abs(p.host_ns - p.true_ns))
                for p in mapped:
                    errs.append(abs(p.host_ns - p.true_ns))
                    uncs.append(p.uncertainty_ns)
                    outside += abs(p.host_ns - p.true_ns) > p.uncertainty_ns
                    # Arrival stamping: the line's transport plus the firmware's 20 µs.
                    arrival_err.append(back.delay_ns(rng, p.true_ns + 20_000, 0) - p.true_ns)
            when = "30 s" if after < 60 else "10 min"
            print(
                f"| {name} | {when} | host arrival | {pct(arrival_err, 0.5) / 1000:.0f} µs / "
                f"{pct(arrival_err, 0.99) / 1000:.0f} µs | none stated | — | — |"
            )
            if old_uncs:
                print(
                    f"| {name} | {when} | device time, before ({baseline}) | "
                    f"{pct(old_errs, 0.5) / 1000:.0f} µs / {pct(old_errs, 0.99) / 1000:.0f} µs | "
                    f"{pct(old_uncs, 0.5) / 1000:.0f} / {pct(old_uncs, 0.99) / 1000:.0f} / "
                    f"{max(old_uncs) / 1000:.0f} µs | {old_outside}/{len(old_uncs)} | — |"
                )
            print(
                f"| {name} | {when} | **device time** | {pct(errs, 0.5) / 1000:.0f} µs / "
                f"{pct(errs, 0.99) / 1000:.0f} µs | **{pct(uncs, 0.5) / 1000:.0f}** / "
                f"{pct(uncs, 0.99) / 1000:.0f} / {max(uncs) / 1000:.0f} µs | "
                f"{outside}/{len(uncs)} | {min(best) / 1000:.0f} µs |"
            )


# --------------------------------------------------------------------------- hostile lines


def bench_hostile() -> tuple[int, int, int]:
    """Real ptys, a real hub: two devices, one sends the hostile lines of issue 15
    (and 2,000 fuzzed lines); returns (worst lock hold ns, worst work, lines handled)."""
    from companion.hardware import tadaa_logic as logic
    from companion.hardware.link import TadaaHub
    from companion.hardware.simulator import SimDeviceConfig, Simulator, fuzz_line

    sim = Simulator([SimDeviceConfig("VICTIM"), SimDeviceConfig("OTHER")], seed=2).start()
    hub = TadaaHub(ports=sim.paths).start()
    try:
        while not (len(hub.status()) == 2 and all(s.state == "connected" for s in hub.status())):
            time.sleep(0.05)
        victim = sim.device("VICTIM")
        boot = victim.boot_id
        now_us = victim.device_us(time.monotonic_ns())
        for body in (
            f"P {boot} {10**12} 1 {now_us} 8",
            f"P {boot} {10**18} 1 {now_us} 8",
            f"HB {boot} {now_us} {10**15} 0 1",
            f"HB {boot} {now_us} 60 60 1",
        ):
            sim.inject(victim, body)
        sim.rewrite_next(victim, "PONG", lambda f: [*f[:3], str(2**62)])
        rng = random.Random(1)
        valid = [logic.frame(f"P {boot} 1 1 5 0"), logic.frame(f"HB {boot} 5 1 0 1")]
        lines = [fuzz_line(rng, boot, valid) for _ in range(2000)]
        sim.call(lambda: sim._send(victim, lines))
        time.sleep(3)
        return hub.worst_hold_ns, hub.worst_work, hub.lines_handled
    finally:
        hub.stop()
        sim.stop()


def report_fuzz(n: int) -> None:
    started = time.perf_counter()
    counts = fuzz_hub(n, seed=8)
    took = time.perf_counter() - started
    print(f"\n## 4. {n:,} fuzzed lines through the parser and the hub\n")
    print(
        "| lines | parse errors | handled | of which protocol errors | exceptions | "
        "worst work per line | time |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(
        f"| {counts['lines']:,} | {counts['parse_errors']:,} | {counts['handled']:,} | "
        f"{counts['protocol_errors']:,} | {counts['exceptions']} | {counts['worst_work']} | "
        f"{took:.1f} s ({took / n * 1e6:.1f} µs a line) |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--finishes", type=int, default=2000)
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--skip-latency", action="store_true")
    parser.add_argument("--fuzz", type=int, default=1_000_000)
    parser.add_argument(
        "--baseline",
        default="",
        help="a git ref: section 3 also runs that ref's ClockSync with the old ping schedule",
    )
    parser.add_argument(
        "--only", default="", help="comma-separated sections to run (1,2,3,4); default all"
    )
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else {"1", "2", "3", "4"}
    if "1" in only:
        report_finishes(args.finishes)
    if not args.skip_latency and "2" in only:
        hub_lat, ui_lat = bench_latency(args.presses)
        print(
            f"\n## 2. Host latency over {len(ui_lat)} presses (real ptys, hub, Textual app; "
            "8 presses per attempt)\n"
        )
        print("| from a line's arrival to | median | p99 | max |")
        print("| --- | --- | --- | --- |")
        for name, lat in (
            ("the hub's press callback (parsed, deduplicated, acknowledged, mapped)", hub_lat),
            ("receive_press on the UI thread", ui_lat),
        ):
            print(
                f"| {name} | {statistics.median(lat):.0f} µs | {pct(lat, 0.99):.0f} µs | "
                f"{max(lat):.0f} µs |"
            )
        hold, work, lines = bench_hostile()
        print(
            f"\nHub lock, worst hold for one line: **{LAST_HOLD[0] / 1000:.0f} µs** (work "
            f"{LAST_HOLD[1]} steps) over the latency run; **{hold / 1000:.0f} µs** "
            f"(work {work} steps) over {lines:,} parsed "
            "lines, the hostile ones of issue 15 among them (and 2,000 fuzzed lines, most "
            "unparsable)."
        )
    if "3" in only:
        report_sync(baseline=args.baseline)
    if "4" in only:
        report_fuzz(args.fuzz)


if __name__ == "__main__":
    main()
