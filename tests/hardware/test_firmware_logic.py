"""The firmware, checked under CPython and under real MicroPython (WebAssembly).

``devices/tadaa-box/tests/logic_checks.py`` (the logic module) and
``firmware_checks.py`` (``main.py``, the hardware layer, on a faked board: GPIO
register, timer, pins, serial port) are written in the subset of Python both
interpreters share; here they run in CPython and in MicroPython 1.27 (npm
``@micropython/micropython-webassembly-pyscript``) through Node.js.
"""

from __future__ import annotations

import importlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BOX = ROOT / "companion" / "devices" / "tadaa-box"
JS_TESTS = BOX / "tests"


@pytest.fixture(scope="module")
def checks():
    sys.path[:0] = [str(BOX), str(JS_TESTS)]
    try:
        yield importlib.import_module("logic_checks")
    finally:
        for p in (str(BOX), str(JS_TESTS)):
            sys.path.remove(p)


def test_firmware_logic_is_the_host_module():
    """The firmware folder's logic file is the very file the host and simulator run.

    A plain copy, not a symbolic link (a ZIP download or a Windows checkout makes a
    link a text file holding a path).
    """
    firmware = BOX / "tadaa_logic.py"
    host = ROOT / "companion" / "hardware" / "tadaa_logic.py"
    assert not firmware.is_symlink(), "run: python scripts/sync_tadaa_logic.py"
    assert firmware.read_bytes() == host.read_bytes(), "run: python scripts/sync_tadaa_logic.py"


def test_checks_under_cpython(checks, capsys):
    failures = checks.run_all()
    out = capsys.readouterr().out
    assert failures == 0, out
    assert out.count("PASS ") == len(checks.CHECKS) >= 15


def test_hardware_layer_on_a_faked_board_under_cpython():
    # In a subprocess: the checks put fake ``machine``/``config`` modules in sys.modules.
    proc = subprocess.run(
        [sys.executable, "-c", "import firmware_checks, sys; sys.exit(firmware_checks.run_all())"],
        cwd=JS_TESTS,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONPATH": f"{BOX}:{JS_TESTS}", "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("PASS ") >= 4


def test_checks_under_micropython():
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed: cannot run the MicroPython WebAssembly build")
    if not (JS_TESTS / "node_modules" / "@micropython").exists():
        npm = shutil.which("npm")
        assert npm, "node_modules missing and npm not found: run `npm ci` in " + str(JS_TESTS)
        subprocess.run(
            [npm, "ci", "--no-audit", "--no-fund", "--silent"],
            cwd=JS_TESTS,
            check=True,
            timeout=300,
        )
    files = [
        BOX / "tadaa_logic.py",
        JS_TESTS / "logic_checks.py",
        BOX / "main.py",
        BOX / "fast_sampler.py",
    ]
    proc = subprocess.run(
        [
            node,
            "run_micropython.mjs",
            *map(str, files),
            "--",
            "import logic_checks; logic_checks.run_all()",
        ],
        cwd=JS_TESTS,
        capture_output=True,
        text=True,
        timeout=120,
    )
    out = proc.stdout + proc.stderr
    assert "MicroPython v1." in out, out  # really MicroPython, not CPython
    assert proc.returncode == 0, out
    assert "DONE" in out and ", 0 failed" in out, out
