"""The Arduino firmware on an emulated ATmega328P beside the simulated RP2040 box.

Both run under the real hub (real ptys, real clock sync) with the same press
schedule; the truth of every press is known (the emulator's pin edge cycle, the
simulator's scheduled instant). Reported per source:

* stamp error on the device: for the Arduino, ``t_us`` minus the edge's cycle
  in µs (spread over all presses: what the interrupt latency and the 4 µs
  micros() tick add; the constant boot offset is removed);
* |mapped host time - true host time| and the reported uncertainty;
* whether the truth was inside every reported interval;
* for the emulator: its CPU use and its largest lag behind real time.

    python benchmarks/arduino_sim_bench.py [--presses 60] [--seconds-between 0.15]

Needs gcc-avr, avr-libc, arduino-core-avr, simavr, libsimavr-dev, libelf-dev.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.hardware.link import DevicePress, TadaaHub  # noqa: E402
from companion.hardware.simulator import SimDeviceConfig, Simulator  # noqa: E402
from tests.hardware.test_arduino_sim import FIRMWARE_DIR, FREQ, AvrSim  # noqa: E402


def collect(hub: TadaaHub) -> tuple[list[DevicePress], threading.Lock]:
    got: list[DevicePress] = []
    lock = threading.Lock()

    def on_press(p: DevicePress) -> None:
        with lock:
            got.append(p)

    hub.on_press(on_press)
    return got, lock


def wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise SystemExit(f"timed out waiting for {what}")
        time.sleep(0.01)


def synced(hub: TadaaHub) -> bool:
    st = hub.status()
    return bool(st) and st[0].state == "connected" and st[0].sync_samples >= 10


def schedule(n: int, gap_s: float, seed: int) -> list[tuple[int, float]]:
    """(button, seconds from start): each button rests 8 gaps before its next press."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        out.append(((k % 8) + 1, k * gap_s + rng.uniform(0, gap_s / 2)))
    return out


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def row(name: str, errs: list[float], uncs: list[float], inside: int, n: int) -> str:
    return (
        f"| {name} | {n} | {statistics.median(errs):.0f} µs / {max(errs):.0f} µs | "
        f"{statistics.median(uncs):.0f} µs / {max(uncs):.0f} µs | {inside}/{n} |"
    )


def run_arduino(build: Path, plan: list[tuple[int, float]]) -> tuple[str, str]:
    sim = AvrSim(build, "A1B2C3D4E5F60718")
    hub = TadaaHub(ports=sim.paths)
    got, lock = collect(hub)
    hub.start()
    try:
        wait(lambda: synced(hub), 30, "the Arduino synced")
        cpu0, wall0 = cpu_s(sim.proc.pid), time.monotonic()
        t0 = time.monotonic_ns() + 200_000_000
        for button, s in plan:
            sim.press(button, t0 + int(s * 1e9), hold_ms=40)
        wait(lambda: len(got) >= len(plan), 60 + plan[-1][1], "every press")
        cpu = (cpu_s(sim.proc.pid) - cpu0) / (time.monotonic() - wall0)
        lag = sim.lag_us()
        with lock:
            presses = sorted(got, key=lambda p: p.seq)
        edges = {b: sim.edges(b) for b in range(1, 9)}
        used = {b: 0 for b in edges}
        stamp, errs, uncs, inside = [], [], [], 0
        for p in presses:
            cycle = edges[p.button][used[p.button]]
            used[p.button] += 1
            stamp.append(p.device_us - cycle / (FREQ / 1e6))
            true_ns = sim.host_ns(cycle)
            errs.append(abs(p.host_ns - true_ns) / 1000)
            uncs.append(p.uncertainty_ns / 1000)
            inside += abs(p.host_ns - true_ns) <= p.uncertainty_ns
        base = min(stamp)
        spread = [s - base for s in stamp]
        text = row("Arduino Uno (emulated, 115200 baud UART)", errs, uncs, inside, len(presses))
        extra = (
            f"Arduino stamp spread (t_us − edge, offset removed): median "
            f"{statistics.median(spread):.1f} µs, max {max(spread):.1f} µs; emulator CPU "
            f"{100 * cpu:.0f} % of one core, largest lag behind real time {lag / 1000:.1f} ms"
        )
        return text, extra
    finally:
        hub.stop()
        sim.close()


def run_box(plan: list[tuple[int, float]]) -> str:
    sim = Simulator([SimDeviceConfig("BOX", buttons=8, offset_us=5_000_000)], seed=3).start()
    hub = TadaaHub(ports=sim.paths)
    got, lock = collect(hub)
    hub.start()
    try:
        wait(lambda: synced(hub), 30, "the box synced")
        dev = sim.devices[0]
        t0 = time.monotonic_ns() + 200_000_000
        truth = {}
        for k, (button, s) in enumerate(plan):
            at = t0 + int(s * 1e9)
            sim.press(dev, button, at, hold_ms=40)
            truth[k + 1] = at
        wait(lambda: len(got) >= len(plan), 60 + plan[-1][1], "every press")
        with lock:
            presses = sorted(got, key=lambda p: p.seq)
        errs = [abs(p.host_ns - truth[p.seq]) / 1000 for p in presses]
        uncs = [p.uncertainty_ns / 1000 for p in presses]
        inside = sum(abs(p.host_ns - truth[p.seq]) <= p.uncertainty_ns for p in presses)
        return row("RP2040 box (simulated, USB CDC model)", errs, uncs, inside, len(presses))
    finally:
        hub.stop()
        sim.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--presses", type=int, default=60)
    ap.add_argument("--seconds-between", type=float, default=0.15)
    args = ap.parse_args()
    plan = schedule(args.presses, args.seconds_between, seed=1)
    with tempfile.TemporaryDirectory() as tmp:
        build = Path(tmp)
        subprocess.run(
            ["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={build}", "-j2", "sim"],
            check=True,
            capture_output=True,
        )
        arduino, extra = run_arduino(build, plan)
        box = run_box(plan)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    print("| source | presses | error median / max | reported ± median / max | truth inside |")
    print("| --- | --- | --- | --- | --- |")
    print(arduino)
    print(box)
    print()
    print(extra)


if __name__ == "__main__":
    main()
