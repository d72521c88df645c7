"""Tadaa buttons: host arrival stamping versus device time, latency, clock-sync error.

    .venv/bin/python benchmarks/tadaa_bench.py [--finishes 2000] [--skip-latency]

1. Ordering (simulated time, the real firmware logic, clock sync and rules): thousands
   of close finishes (2–8 players, gaps 0–20 ms), realistic USB transport per line
   (bytes in order), fault injection (corrupt lines recovered by resend 250 ms later,
   unplug episodes replayed on replug), both layouts — one box, and one device per
   player (each with its own offset and ±100 ppm drift, synced by ping/pong). For
   each: share of wrong orders, error of the shown gaps (p50, p99), and wrong
   "before the music ended" decisions (silently wrong vs flagged for the host).
2. Host latency (real ptys, real hub, real Textual app): from a line's arrival (read
   returns) to the press reaching the screen's ``receive_press`` (median, p99).
3. Clock-sync error after 1 and 10 minutes with 100 ppm drift (simulated time).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.meeple_circus.rules.actions import Press  # noqa: E402
from companion.games.meeple_circus.rules.timing import definitely_before  # noqa: E402
from companion.hardware.clocksync import ClockSync, SyncSample  # noqa: E402
from companion.hardware.simulator import (  # noqa: E402
    DEVICE_TO_HOST,
    FRAMED_BOTH,
    FTDI,
    HOST_TO_DEVICE,
    Transport,
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

    def dev_us(self, t_ns: float) -> int:
        return int(self.offset_us + t_ns / 1000.0 * (1 + self.ppm * 1e-6))

    def stamp(self, t_ns: float) -> int:
        # The next 1 µs sample after the edge.
        return -int(-(self.offset_us + t_ns / 1000.0 * (1 + self.ppm * 1e-6)) // 1)


def make_device(i: int, rng: random.Random) -> Device:
    ppm = rng.uniform(-100, 100)
    offset = rng.randrange(10**11)
    return Device(f"D{i}", offset, ppm, random.Random(rng.getrandbits(32)), ClockSync())


def ping(dev: Device, t_ns: int, out: Transport, back: Transport) -> None:
    at_dev = out.delay_ns(dev.rng, t_ns, 0)
    recv = back.delay_ns(dev.rng, at_dev, 0)
    dev.sync.add(SyncSample(t_ns, recv, dev.dev_us(at_dev)))


@dataclass
class Outcome:
    pairs: int = 0
    wrong: int = 0
    flagged: int = 0
    gap_err_us: list[float] = None  # type: ignore[assignment]
    end_decisions: int = 0
    end_wrong: int = 0
    end_flagged: int = 0

    def __post_init__(self) -> None:
        self.gap_err_us = []


def run_finishes(
    layout: str,
    n: int,
    seed: int,
    corrupt: float,
    unplug: float,
    to_host: Transport = DEVICE_TO_HOST,
    to_dev: Transport = HOST_TO_DEVICE,
) -> tuple[Outcome, Outcome]:
    """Returns (host arrival stamping, device time) outcomes over ``n`` finishes."""
    rng = random.Random(seed)
    arrival, ours = Outcome(), Outcome()
    devices = [make_device(0, rng)] if layout == "box" else [make_device(i, rng) for i in range(8)]
    t = 0
    # Warm-up: a minute of pings (what the hub does after a connect).
    while t < 60_000 * MS:
        for d in devices:
            ping(d, t + d.rng.randrange(2 * MS), to_dev, to_host)
        t += 500 * MS if t > 2_000 * MS else 100 * MS
    for _ in range(n):
        players = rng.randint(2, 8)
        # True press times: gaps 0–20 ms (ties happen: gap 0 within one sample).
        times = []
        base = t + 1_000 * MS
        for k in range(players):
            base += 0 if (k and rng.random() < 0.03) else int(rng.uniform(0, 20) * MS)
            times.append(base)
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
            est = dev.sync.estimate
            assert est is not None
            host, unc = est.to_host(stamp)
            presses.append(
                (
                    t_true,
                    first,
                    Press(
                        f"p{len(presses) + 1}", host, unc, "button-box", dev.serial, stamp, button
                    ),
                )
            )
        # keep syncing between finishes (pings every 0.5 s while the music plays)
        t = times[-1] + 2_000 * MS
        for d in devices:
            for k in range(4):
                ping(d, times[0] + k * 500 * MS + d.rng.randrange(2 * MS), to_dev, to_host)
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
        "| layout | faults | stamping | wrong order | flagged | gap error p50 / p99 | "
        "end decisions: silently wrong / flagged |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for layout in ("box", "single"):
        for label, corrupt, unplug in (
            ("none", 0.0, 0.0),
            ("2 % corrupt lines, 3 % unplugs", 0.02, 0.03),
        ):
            started = time.perf_counter()
            arr, ours = run_finishes(
                layout, n, seed=hash((layout, label)) & 0xFFFF, corrupt=corrupt, unplug=unplug
            )
            took = time.perf_counter() - started
            for name, o in (("host arrival", arr), ("device time (ours)", ours)):
                print(
                    f"| {layout} | {label} | {name} | "
                    f"{o.wrong / o.pairs:.2%} ({o.wrong}/{o.pairs}) | "
                    f"{o.flagged / o.pairs:.2%} | "
                    f"{pct(o.gap_err_us, 0.5):.1f} µs / {pct(o.gap_err_us, 0.99):.1f} µs | "
                    f"{o.end_wrong}/{o.end_decisions} / {o.end_flagged} |"
                )
            print(f"<!-- {layout}/{label}: {took:.1f} s -->", file=sys.stderr)


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
        hub.stop()
        sim.stop()
    return hub_lat, ui_lat


# --------------------------------------------------------------------------- 3. clock sync


def sync_error(
    transport: tuple[Transport, Transport], minutes: float, seed: int, ppm: float = 100.0
) -> tuple[float, float]:
    """|error| and reported uncertainty (µs) of a press mapped after ``minutes``."""
    rng = random.Random(seed)
    cs = ClockSync()
    offset = rng.randrange(10**10)

    def dev(t: float) -> int:
        return int(offset + t / 1000.0 * (1 + ppm * 1e-6))

    t = 0.0
    n = 0
    while t < minutes * 60e9:
        at = transport[0].delay_ns(rng, int(t), 0)
        recv = transport[1].delay_ns(rng, at, 0)
        cs.add(SyncSample(int(t), recv, dev(at)))
        n += 1
        t += (20 * MS if n < 10 else 100 * MS if n < 60 else 500 * MS) + rng.uniform(0, 2 * MS)
    press = t + rng.uniform(0, 500 * MS)
    est = cs.estimate
    assert est is not None
    host, unc = est.to_host(dev(press))
    return abs(host - press) / 1000, unc / 1000


def report_sync() -> None:
    print("\n## 3. Clock sync after 1 and 10 minutes, device 100 ppm fast (10 seeds)\n")
    print("| transport | after | error median / max | reported ± median | truth inside ± |")
    print("| --- | --- | --- | --- | --- |")
    for name, tr in (
        ("USB (OUT on 1 ms frames)", (HOST_TO_DEVICE, DEVICE_TO_HOST)),
        ("both directions on 1 ms frames", (FRAMED_BOTH, FRAMED_BOTH)),
        ("FTDI 16 ms latency timer", (HOST_TO_DEVICE, FTDI)),
    ):
        for minutes in (1, 10):
            runs = [sync_error(tr, minutes, seed) for seed in range(10)]
            errs = [e for e, _ in runs]
            uncs = [u for _, u in runs]
            inside = sum(e <= u for e, u in runs)
            print(
                f"| {name} | {minutes} min | {statistics.median(errs):.0f} µs / "
                f"{max(errs):.0f} µs | {statistics.median(uncs):.0f} µs | {inside}/10 |"
            )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--finishes", type=int, default=2000)
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args()
    report_finishes(args.finishes)
    if not args.skip_latency:
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
    report_sync()


if __name__ == "__main__":
    main()
