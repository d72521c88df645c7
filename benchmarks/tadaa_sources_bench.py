"""Tadaa sources side by side: the same close finishes through each kind of input.

    .venv/bin/python benchmarks/tadaa_sources_bench.py [--finishes 2000] [--seed 16]

One set of finishes (2–8 players, gaps uniform 0–20 ms, 3 % exact ties), drawn once,
then stamped by each source type as that hardware stamps a press, and judged by
the real rules (``tie_groups`` / ``definitely_before``):

* **keyboard**: the players share the host's keyboard (USB, polled every 8 ms); the
  app stamps a key when the UI thread handles it (a delay of 1 ms + exponential,
  mean 3 ms, and 1 % of keys caught behind a 0–300 ms stall: the collector pauses
  measured in docs/PERFORMANCE.md), ±20 ms as the screen declares
  (``KEYBOARD_UNCERTAINTY_NS``).
* **HID, 1 ms / 8 ms polling**: one pad per player (each its own polling phase), or
  one shared keypad (a key per player). The device reports a change at the next
  poll (its own scan adds 0–50 µs); the kernel stamps the report 20–150 µs after the
  poll. The real decoder (``EventDecoder``: the ``struct input_event`` bytes),
  ``press_interval`` and the feed's ``to_press`` make the ``Press``.
* **Arduino box** (one per table, a button per player): ``micros()`` ticks 4 µs, the
  pins are read every 12 µs (loop or pin-change interrupt); a CH340/FTDI-style
  serial line (16 ms latency timer) carries the clock sync. **RP2040 box**: 1 µs
  tick and sampling, native USB. Both synced by the real ``ClockSync`` (a minute of
  pings first), mapped as the hub maps them (``to_host`` + half a sampling period).

Columns: wrong orders (a pair shown in the wrong order), ties declared (pairs shown
as too close to call: the host settles them), finishes left to the host (at least
one tie group), the stated ± (median), and presses whose true time lies outside
their stated interval (a lie the rules would trust).
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.meeple_circus.rules.actions import Press  # noqa: E402
from companion.games.meeple_circus.rules.timing import definitely_before, tie_groups  # noqa: E402
from companion.hardware import hid  # noqa: E402
from companion.hardware.clocksync import ClockSync, SyncSample  # noqa: E402
from companion.hardware.feed import to_press  # noqa: E402
from companion.hardware.simulator import (  # noqa: E402
    DEVICE_TO_HOST,
    FTDI,
    HOST_TO_DEVICE,
    Transport,
)

MS = 1_000_000
US = 1_000
KEYBOARD_UNCERTAINTY_NS = 20 * MS  # as companion/games/meeple_circus/screen.py declares
KEY_1 = 2  # KEY_1..KEY_8: player k presses key k


def draw_finishes(n: int, seed: int) -> list[list[int]]:
    """True press times (ns) of ``n`` finishes, seconds apart, one list per finish."""
    rng = random.Random(seed)
    finishes = []
    t = 60_000 * MS
    for _ in range(n):
        players = rng.randint(2, 8)
        base = t
        times = []
        for k in range(players):
            base += 0 if (k and rng.random() < 0.03) else int(rng.uniform(0, 20) * MS)
            times.append(base)
        finishes.append(times)
        t = times[-1] + rng.randrange(2_000 * MS, 6_000 * MS)
    return finishes


Source = Callable[[list[int]], list[Press]]
"""True times of one finish (player k presses at times[k]) -> the presses as judged."""


# --------------------------------------------------------------------------- keyboard


def keyboard(seed: int, poll_ns: int = 8 * MS) -> Source:
    rng = random.Random(seed)
    phase = rng.randrange(poll_ns)
    busy_until = 0

    def stamp(times: list[int]) -> list[Press]:
        nonlocal busy_until
        # Keys reach the terminal by report (one poll), in key order within a report.
        arrivals = []
        for k, t in enumerate(times):
            report = math.ceil((t - phase) / poll_ns) * poll_ns + phase
            arrivals.append((report, k))
        presses = []
        last = 0
        for report, k in sorted(arrivals):
            delay = 1 * MS + rng.expovariate(1 / (3 * MS))
            if rng.random() < 0.01:
                busy_until = max(busy_until, report + rng.randrange(300 * MS))
            handled = max(report + int(delay), busy_until, last)  # one UI thread, in order
            last = handled
            presses.append(Press(f"p{k + 1}", handled, KEYBOARD_UNCERTAINTY_NS, "keyboard"))
        return sorted(presses, key=lambda p: int(p.player[1:]))

    return stamp


# --------------------------------------------------------------------------- HID


@dataclass
class Pad:
    info: hid.HidDeviceInfo
    phase: int
    decoder: hid.EventDecoder = field(default_factory=hid.EventDecoder)
    seq: int = 0


def hid_source(seed: int, interval_ns: int, shared: bool) -> Source:
    rng = random.Random(seed)

    def make(n: int) -> Pad:
        info = hid.HidDeviceInfo(
            f"/dev/input/event{n}",
            f"pad {n}",
            f"usb-bench-{n}/input0",
            "",
            3,
            0x16C0,
            0x05E1,
            interval_ns=interval_ns,
        )
        return Pad(info, rng.randrange(interval_ns))

    pads = [make(1)] if shared else [make(n) for n in range(1, 9)]

    def stamp(times: list[int]) -> list[Press]:
        reports: dict[tuple[int, int], list[int]] = {}
        for k, t in enumerate(times):
            pad = pads[0] if shared else pads[k]
            seen = t + rng.randrange(50 * US)  # the device's own scan
            poll = math.ceil((seen - pad.phase) / interval_ns) * interval_ns + pad.phase
            reports.setdefault((pads.index(pad), poll), []).append(k)
        presses = []
        for (i, poll), ks in sorted(reports.items(), key=lambda item: item[0][1]):
            pad = pads[i]
            kernel = poll + rng.randrange(20 * US, 150 * US)
            downs = [(KEY_1 + k, 1) for k in ks]
            ups = [(KEY_1 + k, 0) for k in ks]
            data = hid.encode([*_report(kernel, downs), *_report(kernel + 80 * MS, ups)])
            for down in pad.decoder.feed(data):
                pad.seq += 1
                centre, half = hid.press_interval(down.stamp_ns, interval_ns)
                dp = hid.HidPress(
                    serial=pad.info.stable_id,
                    boot="",
                    seq=pad.seq,
                    button=down.code,
                    device_us=down.stamp_ns // 1000,
                    flags=int(down.same_report),
                    arrival_ns=down.stamp_ns,
                    host_ns=centre,
                    uncertainty_ns=half,
                )
                presses.append(to_press(dp, f"p{down.code - KEY_1 + 1}"))
        return sorted(presses, key=lambda p: int(p.player[1:]))

    return stamp


def _report(t_ns: int, keys: list[tuple[int, int]]) -> list[hid.InputEvent]:
    sec, usec = t_ns // 10**9, t_ns % 10**9 // 1000
    events = [hid.InputEvent(sec, usec, hid.EV_KEY, code, value) for code, value in keys]
    return [*events, hid.InputEvent(sec, usec, hid.EV_SYN, hid.SYN_REPORT, 0)]


# --------------------------------------------------------------------------- serial boxes


def serial_box(
    seed: int, tick_us: int, sample_us: int, to_host: Transport, to_dev: Transport
) -> Source:
    rng = random.Random(seed)
    offset_us = rng.randrange(10**10)
    ppm = rng.uniform(-100, 100)
    sync = ClockSync()

    def dev_us(t_ns: float) -> float:
        return offset_us + t_ns / 1000.0 * (1 + ppm * 1e-6)

    def ping(t: int) -> None:
        at_dev = to_dev.delay_ns(rng, t, 0)
        recv = to_host.delay_ns(rng, at_dev, 0)
        sync.add(SyncSample(t, recv, int(dev_us(at_dev)) // tick_us * tick_us))

    clock = [0]

    def pings_until(t_end: int) -> None:
        while clock[0] < t_end:
            ping(clock[0])
            clock[0] += 100 * MS if clock[0] < 60_000 * MS else 500 * MS

    def stamp(times: list[int]) -> list[Press]:
        pings_until(times[0] - 1_000 * MS)  # the hub keeps pinging between finishes
        est = sync.estimate
        assert est is not None
        phase = rng.randrange(sample_us * US)
        presses = []
        for k, t in enumerate(times):
            # The next sample after the edge, stamped with the clock's tick.
            sampled = math.ceil((t - phase) / (sample_us * US)) * sample_us * US + phase
            device = int(dev_us(sampled)) // tick_us * tick_us
            half_period = sample_us * 500.0
            host, unc = est.to_host(device, extra_ns=half_period + tick_us * 1000)
            presses.append(
                Press(
                    f"p{k + 1}", round(host - half_period), unc, "button-box", "BOX", device, k + 1
                )
            )
        return presses

    return stamp


# --------------------------------------------------------------------------- judging


@dataclass
class Row:
    pairs: int = 0
    wrong: int = 0
    tied: int = 0
    finishes: int = 0
    left_to_host: int = 0
    outside: int = 0
    presses: int = 0
    unc: list[int] = field(default_factory=list)


def judge_source(source: Source, finishes: list[list[int]]) -> Row:
    row = Row()
    for times in finishes:
        presses = source(times)
        row.finishes += 1
        row.presses += len(presses)
        truth = dict(zip((f"p{k + 1}" for k in range(len(times))), times, strict=True))
        for p in presses:
            row.unc.append(p.uncertainty_ns)
            if abs(p.host_ns - truth[p.player]) > p.uncertainty_ns:
                row.outside += 1
        by_truth = sorted(presses, key=lambda p: truth[p.player])
        for a, b in itertools.pairwise(by_truth):
            if truth[a.player] == truth[b.player]:
                continue  # a true tie: no order to get right
            row.pairs += 1
            if definitely_before(b, a):
                row.wrong += 1
            elif not definitely_before(a, b):
                row.tied += 1
        if any(len(group) > 1 for group in tie_groups(presses)):
            row.left_to_host += 1
    return row


def ms(ns: float) -> str:
    return f"{ns / 1e6:.2f} ms" if ns >= 100_000 else f"{ns / 1e3:.0f} µs"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--finishes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=16)
    args = parser.parse_args()
    finishes = draw_finishes(args.finishes, args.seed)
    sources: list[tuple[str, Source]] = [
        ("keyboard (shared, 8 ms USB + UI thread)", keyboard(args.seed + 1)),
        ("HID 1 ms polling, a pad per player", hid_source(args.seed + 2, 1 * MS, False)),
        ("HID 8 ms polling, a pad per player", hid_source(args.seed + 3, 8 * MS, False)),
        ("HID 1 ms polling, one shared keypad", hid_source(args.seed + 4, 1 * MS, True)),
        ("HID 8 ms polling, one shared keypad", hid_source(args.seed + 5, 8 * MS, True)),
        (
            "Arduino box (4 µs tick, 12 µs sampling, CH340/FTDI)",
            serial_box(args.seed + 6, 4, 12, FTDI, HOST_TO_DEVICE),
        ),
        (
            "RP2040 box (1 µs tick and sampling, native USB)",
            serial_box(args.seed + 7, 1, 1, DEVICE_TO_HOST, HOST_TO_DEVICE),
        ),
    ]
    players = sum(len(f) for f in finishes)
    true_ties = sum(len(set(f)) < len(f) for f in finishes)
    print(
        f"\n{args.finishes} finishes ({players} presses), gaps 0–20 ms, seed {args.seed}; "
        f"{true_ties} finishes ({true_ties / len(finishes):.1%}) hold a true tie (two "
        "presses at the same instant), which every source must leave to the host\n"
    )
    print(
        "| source | wrong orders | ties declared | finishes left to the host | "
        "stated ± (median) | truth outside ± |"
    )
    print("| --- | --- | --- | --- | --- | --- |")
    for name, source in sources:
        started = time.perf_counter()
        row = judge_source(source, finishes)
        took = time.perf_counter() - started
        print(
            f"| {name} | {row.wrong} / {row.pairs:,} | {row.tied / row.pairs:.1%} "
            f"({row.tied:,}) | {row.left_to_host / row.finishes:.1%} "
            f"({row.left_to_host:,}) | ±{ms(statistics.median(row.unc))} | "
            f"{row.outside} / {row.presses:,} |"
        )
        print(f"<!-- {name}: {took:.1f} s -->", file=sys.stderr)


if __name__ == "__main__":
    main()
