"""Helpers importable by name (pytest runs with --import-mode=importlib) and the sounds fixture."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = str(Path(__file__).parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)

from mc_ui_helpers import CUES, TRACK_SECONDS, write_wav  # noqa: E402 - after the path


@pytest.fixture
def sounds(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Short WAVs for every track and cue (lengths in TRACK_SECONDS), via COMPANION_SOUNDS."""
    root = tmp_path / "sounds"
    for track_id, seconds in TRACK_SECONDS.items():
        write_wav(root / "tracks" / f"{track_id}.wav", seconds)
    for name in CUES:
        write_wav(root / "cues" / f"{name}.wav", 0.2)
    monkeypatch.setenv("COMPANION_SOUNDS", str(root))
    return root


from tests.board.conftest import start_writer, writers  # noqa: E402, F401 - the board's writer fixtures
