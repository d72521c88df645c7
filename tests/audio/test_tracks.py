"""The built-in music: enough tracks for every act, about two minutes, never clipping."""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np
import pytest

from companion.audio.tracks import CUES, catalogue, cue, track, tracks_for_act, wav_duration
from companion.i18n import set_language

ROOT = Path(__file__).resolve().parents[2]
ALL_WAVS = sorted((ROOT / "companion" / "audio" / "sounds").glob("*/*.wav"))


def samples(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (1, 2, 22050)
        return np.frombuffer(w.readframes(w.getnframes()), "<i2").astype(np.int32)


def test_every_act_has_its_tracks() -> None:
    assert len(tracks_for_act(1)) >= 1
    assert len(tracks_for_act(2)) >= 1
    assert len(tracks_for_act(3)) >= 3
    ids = [t.id for t in catalogue()]
    assert len(ids) == len(set(ids)) == 5
    with pytest.raises(ValueError):
        tracks_for_act(4)


def test_tracks_last_about_two_minutes_as_the_header_says() -> None:
    for t in catalogue():
        assert t.path.is_file()
        assert 110.0 <= t.duration_s <= 135.0, t
        with wave.open(str(t.path)) as w:
            assert t.duration_s == w.getnframes() / w.getframerate()
        assert wav_duration(t.path) == t.duration_s


def test_cues_exist_and_are_short() -> None:
    assert set(CUES) == {"start", "warning", "end", "tadaa", "tie"}
    for name in CUES:
        assert 0.5 < wav_duration(cue(name)) < 4.0
    with pytest.raises(ValueError):
        cue("fanfare")


def test_titles_are_translated() -> None:
    try:
        set_language("zh")
        assert track("big-top-march").title == "大帐篷进行曲"
    finally:
        set_language("en")
    assert track("big-top-march").title == "Big Top March"


@pytest.mark.parametrize("path", ALL_WAVS, ids=[p.stem for p in ALL_WAVS])
def test_no_clipping_and_not_silent(path: Path) -> None:
    x = samples(path)
    peak = int(np.abs(x).max())
    assert peak < 32767 * 0.9, "peak must stay below full scale (render.py aims at 0.89)"
    assert peak > 32767 * 0.5
    rms = float(np.sqrt(np.mean(x.astype(np.float64) ** 2)))
    assert rms > 32767 * 0.05


@pytest.mark.parametrize("t", catalogue(), ids=lambda t: t.id)
def test_each_track_ends_on_a_flourish_then_falls_quiet(t) -> None:
    x = samples(t.path).astype(np.float64)
    rate = 22050
    body = float(np.sqrt(np.mean(x[: -5 * rate] ** 2)))
    # The final held chord: the last seconds before the tail are as loud as the music.
    final = float(np.sqrt(np.mean(x[-4 * rate : -1 * rate] ** 2)))
    assert final > 0.5 * body
    # ...and the file ends in near silence, not cut off mid-note.
    assert float(np.abs(x[-rate // 20 :]).max()) < 0.02 * 32767


def test_each_act_has_tracks_whose_length_is_the_wav_length() -> None:
    for act in (1, 2, 3):
        tracks = tracks_for_act(act)
        assert tracks, act
        for chosen in tracks:
            assert chosen.duration_s == wav_duration(chosen.path)
