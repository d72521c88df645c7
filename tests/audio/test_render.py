"""The committed WAVs are exactly what ``sounds/render.py`` makes from the note data."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
SOUNDS = ROOT / "sounds"  # the renderer and its note data (a developer tool)
COMMITTED = ROOT / "companion" / "audio" / "sounds"  # what it wrote: package data


def load_render() -> ModuleType:
    spec = importlib.util.spec_from_file_location("companion_sounds_render", SOUNDS / "render.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


render = load_render()
NAMES = list(render.jobs())


@pytest.mark.parametrize("name", NAMES)
def test_fresh_render_is_byte_identical_to_the_committed_file(name: str, tmp_path: Path) -> None:
    fresh = render.render(name, tmp_path)
    committed = COMMITTED / fresh.relative_to(tmp_path)
    assert committed.is_file(), f"{committed} is not committed: run `make sounds`"
    assert fresh.read_bytes() == committed.read_bytes(), (
        f"{committed.name} differs from a fresh render: the note data or the synthesiser "
        "changed without re-rendering (run `make sounds` and commit the WAVs)"
    )


def test_every_catalogue_file_has_a_renderer() -> None:
    from companion.audio.tracks import CUES, TRACK_TABLE

    assert set(NAMES) == {s.id for s in TRACK_TABLE} | set(CUES)


def test_tables_hold_only_multiples_of_two_to_the_minus_24() -> None:
    """What makes the render portable: no last-bit libm difference survives."""
    for table in (render.SINE, render.EXP_TABLE):
        scaled = table * float(1 << 24)
        assert np.array_equal(scaled, np.round(scaled))


def test_notation() -> None:
    assert render.note_midi("c4") == 60
    assert render.note_midi("bb4") == 70
    assert render.note_midi("f#5") == 78
    notes = render.parse_melody("c5:.5 d5 e5:1 | r:2 |", 2.0, "t")
    assert [(n.beat, n.beats, n.midi) for n in notes] == [
        (0.0, 0.5, 72),
        (0.5, 0.5, 74),
        (1.0, 1.0, 76),
        (2.0, 2.0, None),
    ]
    with pytest.raises(ValueError, match="bar check failed"):
        render.parse_melody("c5:1.5 | d5:.5", 2.0, "t")
    chords = render.parse_chords("C | - G7^ C! _", 2.0, "t")
    assert chords[0].tones == (0, 4, 7)
    assert chords[1].root is None and chords[2].hit and chords[3].held and chords[4].cont


def test_master_never_reaches_full_scale() -> None:
    x = np.concatenate([np.zeros(1000), np.linspace(-50.0, 50.0, 20001)])
    y = render.master(x)
    assert float(np.abs(y).max()) == pytest.approx(render.PEAK)
