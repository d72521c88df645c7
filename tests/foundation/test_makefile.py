"""`make` stops with the exact apt-get line when the ALSA headers are missing."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_missing_alsa_headers_stop_make_with_the_install_line(tmp_path):
    result = subprocess.run(
        ["make", "-s", "-C", str(ROOT), "check-alsa", f"ALSA_HEADER={tmp_path}/nope.h"],
        capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "sudo apt-get install -y libasound2-dev" in result.stdout
    assert "error:" not in result.stdout.lower()  # a message, not a compiler trace


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_dry_run_checks_alsa_before_creating_the_venv():
    result = subprocess.run(["make", "-n", "-C", str(ROOT), "-W", "pyproject.toml",
                             ".venv/.installed-dev"], capture_output=True, text=True, timeout=60)
    out = result.stdout
    assert "asoundlib.h" in out
    assert "pip install" in out
    assert out.index("asoundlib.h") < out.index("pip install")
