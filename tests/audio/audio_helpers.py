"""Helpers for the audio tests: tones, WAV files, an ALSA sandbox for child processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import wave
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def tone_frames(seconds: float, rate: int = 22050, channels: int = 1) -> bytes:
    """A recognisable test signal: two partials and a sweep, 16-bit little-endian.

    Built with integer arithmetic on a counter so the bytes never vary.
    """
    n = int(seconds * rate)
    k = np.arange(n)
    x = (
        0.4 * np.sin(2 * np.pi * 440.0 * k / rate)
        + 0.2 * np.sin(2 * np.pi * 1234.5 * k / rate)
        + 0.2 * np.sin(2 * np.pi * (200.0 + 2000.0 * k / n) * k / rate)
    )
    mono = np.round(x * 20000).astype("<i2")
    if channels == 2:
        right = (-mono // 2).astype("<i2")
        return np.column_stack([mono, right]).astype("<i2").tobytes()
    return mono.tobytes()


def write_wav(
    path: Path, frames: bytes, rate: int = 22050, channels: int = 1, width: int = 2
) -> Path:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(width)
        w.setframerate(rate)
        w.writeframes(frames)
    return path


def alsa_env(tmp_path: Path, asoundrc: str) -> dict[str, str]:
    """Environment for a child whose ALSA configuration is only ``asoundrc``."""
    config = tmp_path / "xdg"
    (config / "alsa").mkdir(parents=True, exist_ok=True)
    (config / "alsa" / "asoundrc").write_text(asoundrc)
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)  # no ~/.asoundrc of the developer's machine
    env = dict(os.environ)
    env.update(
        XDG_CONFIG_HOME=str(config),
        HOME=str(home),
        PYTHONPATH=str(ROOT),
        PYTHONFAULTHANDLER="1",
    )
    env.pop("ALSA_CONFIG_PATH", None)
    env.pop("COMPANION_AUDIO", None)
    return env


def run_child(script: str, env: dict[str, str], *args: str) -> tuple[dict[str, object], bytes]:
    """Run ``script`` in a fresh interpreter; its last stdout line is JSON.

    A crash in the C extension fails the test here instead of killing pytest.
    Returns the JSON and everything the child wrote to file descriptor 2.
    """
    proc = subprocess.run(
        [sys.executable, "-c", script, *args],
        env=env,
        capture_output=True,
        timeout=60,
        cwd=ROOT,
    )
    assert proc.returncode == 0, (
        f"child exited {proc.returncode}\nstdout: {proc.stdout!r}\nstderr: {proc.stderr!r}"
    )
    lines = proc.stdout.decode().strip().splitlines()
    assert lines, f"child printed nothing; stderr: {proc.stderr!r}"
    return json.loads(lines[-1]), proc.stderr


ENCODERS = {
    # format: (Debian package, command with {src} and {out})
    "mp3": ("lame", ["lame", "--quiet", "-b", "192", "{src}", "{out}"]),
    "flac": ("flac", ["flac", "--silent", "--force", "{src}", "-o", "{out}"]),
    "ogg": ("vorbis-tools", ["oggenc", "--quiet", "-q", "6", "{src}", "-o", "{out}"]),
}


def encode(source: Path, fmt: str) -> Path:
    """``source`` (a WAV) encoded as MP3, FLAC or OGG with the Debian tools; skips if absent."""
    import shutil

    import pytest

    package, command = ENCODERS[fmt]
    if shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed (Debian package {package})")
    out = source.with_suffix(f".{fmt}")
    subprocess.run([part.format(src=source, out=out) for part in command], check=True, timeout=60)
    return out


def samples(frames: bytes, channels: int) -> np.ndarray:
    return np.frombuffer(frames, "<i2").astype(np.float64).reshape(-1, channels)


def likeness(a: np.ndarray, b: np.ndarray) -> float:
    """Correlation of two signals of the same shape (1.0: the same waveform)."""
    a, b = a.ravel(), b.ravel()
    return float(np.dot(a, b) / np.sqrt(np.dot(a, a) * np.dot(b, b)))
