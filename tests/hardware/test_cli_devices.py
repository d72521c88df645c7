"""``companion devices simulate | monitor | list`` as a host would run them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

import pytest

from companion.cli.devices import parse_script, parse_unplug


def test_script_syntax():
    assert parse_script("1.1@0, 1.2@50us,2.1@2ms,1.3@1.5s,1.4@7") == [
        (1, 1, 0),
        (1, 2, 50_000),
        (2, 1, 2_000_000),
        (1, 3, 1_500_000_000),
        (1, 4, 7_000_000),
    ]
    assert parse_unplug("2@5-8.5") == (2, 5.0, 8.5)
    for bad in ("1@0", "x.1@0", "1.1@-3"):
        with pytest.raises(ValueError):
            parse_script(bad)


def test_simulate_then_monitor_and_list_in_other_processes(tmp_path):
    links = tmp_path / "links"
    env_cmd = [sys.executable, "-m", "companion", "--lang", "en", "devices"]
    sim = subprocess.Popen(
        [
            *env_cmd,
            "simulate",
            "--players",
            "3",
            "--script",
            "1.1@0,1.2@50us,1.3@2ms",
            "--start-in",
            "4",
            "--duration",
            "14",
            "--link-dir",
            str(links),
            "--quiet",
            "--seed",
            "5",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 10
        while not list(links.glob("tadaa-*")):
            assert time.monotonic() < deadline and sim.poll() is None, "simulator did not start"
            time.sleep(0.05)
        listed = subprocess.run(
            [*env_cmd, "list", "--port", str(links / "tadaa-*")],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert listed.returncode == 0, listed.stdout + listed.stderr
        assert re.search(r"Tadaa device SIM[0-9A-F]{8}, 3 buttons", listed.stdout)
        mon = subprocess.run(
            [
                *env_cmd,
                "monitor",
                "--port",
                str(links / "tadaa-*"),
                "--duration",
                "5",
                "--every",
                "1",
            ],
            capture_output=True,
            text=True,
            timeout=30,
        )
        out = mon.stdout
        presses = re.findall(r"press SIM\w+/(\d) #\d+: device (\d+) µs", out)
        assert [b for b, _ in presses] == ["1", "2", "3"], out
        t = [int(d) for _, d in presses]
        assert t[1] - t[0] == 50  # exact, whatever the transport
        assert 1999 <= t[2] - t[0] <= 2001  # 2 ms on a clock off by at most 100 ppm
        assert re.search(r"connected on .*round trip", out)
    finally:
        sim.terminate()
        sim.wait(10)


def test_map_assigns_buttons_by_pressing(tmp_path):
    links = tmp_path / "links"
    config = tmp_path / "tadaa.json"
    env = {**os.environ, "COMPANION_TADAA_CONFIG": str(config)}
    cmd = [sys.executable, "-m", "companion", "--lang", "en", "devices"]
    sim = subprocess.Popen(
        [
            *cmd,
            "simulate",
            "--players",
            "4",
            "--script",
            "1.3@0,1.1@600ms",
            "--start-in",
            "3",
            "--duration",
            "10",
            "--link-dir",
            str(links),
            "--quiet",
            "--seed",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 10
        while not list(links.glob("tadaa-*")):
            assert time.monotonic() < deadline and sim.poll() is None, "simulator did not start"
            time.sleep(0.05)
        done = subprocess.run(
            [*cmd, "map", "Ann", "Bo", "--port", str(links / "tadaa-*"), "--timeout", "15"],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        saved = json.loads(config.read_text(encoding="utf-8"))
        ((serial, buttons),) = saved["buttons"].items()
        assert buttons == {"3": "Ann", "1": "Bo"}
        assert f"Ann: button 3 of {serial}" in done.stdout
    finally:
        sim.terminate()
        sim.wait(10)


def _drawn_drift(seed: int, bound: float) -> tuple[float, bool]:
    """The drift ``simulate --seed seed --drift bound`` draws, and whether it is refused."""
    import argparse
    import random

    from companion.cli.devices import sim_configs

    args = argparse.Namespace(
        transport="usb", corrupt=0.0, drop=0.0, layout="box", players=4, drift=bound, bounce=0
    )
    try:
        (config,) = sim_configs(args, random.Random(seed))
    except ValueError as exc:
        found = re.search(r"drift_ppm (-?[0-9.e+-]+)", str(exc))
        assert found, exc  # refused for its drift, nothing else
        return float(found.group(1)), True
    return config.drift_ppm, False


def test_every_drift_the_board_cannot_follow_is_refused():
    """The property behind the CLI test below (issue 25: that test drew its drift
    unseeded in ±5000 ppm and, one run in five, drew one a clock can have): over many
    seeds, a drawn drift is refused exactly when it lies outside ±1000 ppm."""
    refused = accepted = 0
    for seed in range(300):
        drift, was_refused = _drawn_drift(seed, 5000.0)
        assert was_refused == (abs(drift) > 1000.0), (seed, drift)
        refused += was_refused
        accepted += not was_refused
    assert refused and accepted  # both sides of the bound were drawn


def test_simulate_refuses_a_device_no_board_could_be(tmp_path):
    seed = next(s for s in range(100) if _drawn_drift(s, 5000.0)[1])  # seeded: always refused
    cmd = [sys.executable, "-m", "companion", "--lang", "en", "devices", "simulate"]
    cmd += ["--drift", "5000", "--seed", str(seed), "--duration", "1"]
    proc = subprocess.run(
        [*cmd, "--link-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "cannot simulate that: not a device a board could be" in proc.stderr
    assert "drift_ppm" in proc.stderr and "Traceback" not in proc.stderr
