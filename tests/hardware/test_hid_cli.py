"""``companion devices list | map --hid`` on a sysfs and event nodes of the test's own.

``COMPANION_HID_ROOT`` puts a folder in place of ``/`` for the HID discovery: a
sysfs laid out as Linux lays out a USB arcade encoder, and ``dev/input/eventN``
as FIFOs that the test writes the real ``struct input_event`` bytes into. The
commands run as a host runs them, in their own process, with the real opener.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from companion.hardware.hid import encode

from .test_hid import KEY_1, KEY_2, fake_sysfs, report

ROOT = Path(__file__).resolve().parents[2]
KEY_LEFTCTRL = 29


def env_for(tmp_path: Path) -> dict[str, str]:
    return {
        **os.environ,
        "COMPANION_HID_ROOT": str(tmp_path),
        "COMPANION_TADAA_CONFIG": str(tmp_path / "tadaa.json"),
        "PYTHONPATH": str(ROOT),
    }


def command(*args: str) -> list[str]:
    return [sys.executable, "-m", "companion", "--lang", "en", "devices", *args]


def test_list_shows_hid_devices_with_id_interval_and_mapping(tmp_path):
    fake_sysfs(tmp_path / "sys", 4, uniq="A1B2", interval="1ms")
    fake_sysfs(tmp_path / "sys", 5, interval=None, b_interval="0a", phys_port="3")
    (tmp_path / "dev" / "input").mkdir(parents=True)
    for n in (4, 5):
        (tmp_path / "dev" / "input" / f"event{n}").touch()
    (tmp_path / "tadaa.json").write_text(
        json.dumps({"buttons": {"hid:16c0:05e1:A1B2:input0": {"2": "Ann", "0": "Bo"}}})
    )
    run = subprocess.run(
        command("list"), capture_output=True, text=True, env=env_for(tmp_path), timeout=60
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = run.stdout.splitlines()
    assert "USB HID devices with keys: 2" in lines
    first = next(line for line in lines if "event4" in line)
    assert "Xin-Mo Xin-Mo Dual Arcade, id hid:16c0:05e1:A1B2:input0, 3 keys" in first
    assert "polls every 1 ms (presses ±0.625 ms)" in first
    assert "Bo: any key, Ann: key 2" in first
    second = next(line for line in lines if "event5" in line)
    assert "id hid:16c0:05e1@usb-0000:00:14.0-3/input0" in second
    assert "polls every 10 ms (presses ±5.125 ms)" in second


def _write_when_open(fifo: Path, data: bytes, timeout: float = 20.0) -> None:
    """Write once the command has the FIFO open (ENXIO until then)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO or time.monotonic() > deadline:
                raise
            time.sleep(0.02)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _read_until(proc: subprocess.Popen, text: str, seen: list[str], timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if text in line:
            return
    raise AssertionError(f"no {text!r} in {''.join(seen)!r}")


def test_map_learns_a_pad_per_player_by_stable_id(tmp_path):
    fake_sysfs(tmp_path / "sys", 4, uniq="A1B2")
    fake_sysfs(tmp_path / "sys", 5, phys_port="3")
    dev = tmp_path / "dev" / "input"
    dev.mkdir(parents=True)
    for n in (4, 5):
        os.mkfifo(dev / f"event{n}")
    proc = subprocess.Popen(
        command("map", "--hid", "--whole-device", "--timeout", "20", "Ann", "Bo"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env_for(tmp_path),
    )
    seen: list[str] = []
    try:
        _read_until(proc, "Ann, press your button now.", seen)
        # A modifier first (Ctrl of a Ctrl-C): never a player's key. In one write with
        # Ann's key, so the reader meets them in this order.
        now = time.time_ns()
        ann = [*report(now, (KEY_LEFTCTRL, 1)), *report(now + 1000, (KEY_2, 1))]
        _write_when_open(dev / "event5", encode(ann))
        _read_until(proc, "Bo, press your button now.", seen)
        _write_when_open(dev / "event4", encode(report(time.time_ns(), (KEY_1, 1))))
        assert proc.wait(timeout=30) == 0, "".join(seen) + proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    saved = json.loads((tmp_path / "tadaa.json").read_text(encoding="utf-8"))
    assert saved["buttons"] == {
        "hid:16c0:05e1:A1B2:input0": {"0": "Bo"},
        "hid:16c0:05e1@usb-0000:00:14.0-3/input0": {"0": "Ann"},
    }


def test_monitor_shows_hid_presses_and_status(tmp_path):
    fake_sysfs(tmp_path / "sys", 4, uniq="A1B2")
    dev = tmp_path / "dev" / "input"
    dev.mkdir(parents=True)
    os.mkfifo(dev / "event4")
    proc = subprocess.Popen(
        command("monitor", "--hid", "--duration", "6", "--every", "0.5"),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env_for(tmp_path),
    )
    seen: list[str] = []
    try:
        _read_until(proc, "Watching for Tadaa devices", seen)
        _write_when_open(dev / "event4", encode(report(time.time_ns(), (KEY_1, 1), (KEY_2, 1))))
        _read_until(proc, "press hid:16c0:05e1:A1B2:input0/3 #2", seen)
        _read_until(proc, "hid:16c0:05e1:A1B2:input0 connected on", seen)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    out = "".join(seen)
    assert "press hid:16c0:05e1:A1B2:input0/2 #1" in out
    assert "tie (same sample)" in out  # two keys in one report
