"""`make run` and `make test` never stop for missing ALSA headers: sound then plays via miniaudio.

``ALSA_HEADER`` points the header check elsewhere, so "a machine without
libasound2-dev" is checked on this one; ``VENV`` puts a fresh venv in a temporary
folder (pip installs from its cache).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HINT = "sudo apt-get install -y libasound2-dev"

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def make(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "-C", str(ROOT), *args], capture_output=True, text=True, timeout=timeout
    )


@needs_make
def test_missing_alsa_headers_give_the_optional_line_and_do_not_stop(tmp_path: Path) -> None:
    result = make("-s", "audio-player", f"ALSA_HEADER={tmp_path}/nope.h")
    assert result.returncode == 0
    assert "plays through miniaudio" in result.stdout
    assert HINT in result.stdout
    assert "error:" not in result.stdout.lower()  # a message, not a compiler trace


@needs_make
def test_without_headers_the_install_leaves_out_the_simpleaudio_extra(tmp_path: Path) -> None:
    for target in (".venv/.installed", ".venv/.installed-dev"):
        result = make("-n", "-W", "pyproject.toml", target, f"ALSA_HEADER={tmp_path}/nope.h")
        assert result.returncode == 0, result.stderr
        installs = [line for line in result.stdout.splitlines() if "pip install" in line]
        assert installs and not any("simpleaudio" in line for line in installs), installs
        assert result.stdout.index("miniaudio") < result.stdout.index(installs[-1])


@needs_make
def test_without_a_compiler_the_install_leaves_out_the_simpleaudio_extra() -> None:
    result = make("-n", "-W", "pyproject.toml", ".venv/.installed", "CC=no-such-compiler")
    installs = [line for line in result.stdout.splitlines() if "pip install" in line]
    assert installs and not any("simpleaudio" in line for line in installs)


@needs_make
def test_with_headers_and_a_compiler_the_simpleaudio_extra_is_added(tmp_path: Path) -> None:
    header = tmp_path / "asoundlib.h"
    header.write_text("/* stands in for the ALSA header */\n")
    result = make("-n", "-W", "pyproject.toml", ".venv/.installed-dev", f"ALSA_HEADER={header}")
    if "simpleaudio player is built" not in result.stdout:
        pytest.skip("no C compiler or Python headers on this machine")
    # The project's own install (in a checkout without .venv, pip's upgrade comes first).
    installs = [line for line in result.stdout.splitlines() if "pip install" in line]
    project = [line for line in installs if "-e '." in line]
    assert project, installs
    assert "-e '.[dev,simpleaudio]'" in project[0]
    assert "installing without it" in project[0]  # a failed build still does not stop


PLAYER_CHECK = r"""
import json
from companion.audio.backend import open_backend
b = open_backend()
try:
    import simpleaudio  # noqa: F401
    has_sa = True
except ImportError:
    has_sa = False
print(json.dumps({"name": b.name, "available": b.available, "simpleaudio": has_sa}))
"""


@needs_make
def test_make_run_in_a_fresh_venv_without_alsa_headers_starts_with_miniaudio(
    tmp_path: Path,
) -> None:
    """The install path of `make run` on a machine without libasound2-dev, for real."""
    venv = tmp_path / "venv"
    hidden = f"ALSA_HEADER={tmp_path}/no-alsa/asoundlib.h"
    env_python = f"PYTHON={sys.executable}"
    result = make("run", f"VENV={venv}", hidden, env_python, "ARGS=--help", timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "plays through miniaudio" in result.stdout
    assert "usage: companion" in result.stdout  # the app itself ran

    config = tmp_path / "xdg" / "alsa"
    config.mkdir(parents=True)
    capture = tmp_path / "capture.wav"
    (config / "asoundrc").write_text(
        f'pcm.!default {{ type file; slave.pcm "null"; file "{capture}"; format "wav" }}\n'
    )
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    env.pop("COMPANION_AUDIO", None)
    check = subprocess.run(
        [str(venv / "bin" / "python"), "-c", PLAYER_CHECK],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
    )
    assert check.returncode == 0, check.stderr
    assert json.loads(check.stdout.splitlines()[-1]) == {
        "name": "miniaudio",
        "available": True,
        "simpleaudio": False,
    }
    assert check.stderr == ""

    again = make("run", f"VENV={venv}", hidden, env_python, "ARGS=--help", timeout=120)
    assert again.returncode == 0
    assert "pip install" not in again.stdout  # the stamp holds: no second install
