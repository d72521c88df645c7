"""The host's music per act: a bad choice is refused and changes nothing."""

from __future__ import annotations

from pathlib import Path

import pytest
from audio_helpers import tone_frames, write_wav

from companion.audio.errors import AudioFileError
from companion.audio.settings import ActMusic, MusicPlan


def test_a_valid_wav_replaces_the_act_track(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "ours.wav", tone_frames(30.0, 8000), rate=8000)
    plan = MusicPlan.default().with_file(2, path)
    chosen, length = plan.timer(2)
    assert chosen is not None and chosen.path == path.resolve()
    assert length == 30.0
    assert plan.get(1) == MusicPlan.default().get(1)


def test_a_wrong_file_is_refused_and_the_plan_is_unchanged(tmp_path: Path) -> None:
    plan = MusicPlan.default()
    bad = tmp_path / "song.mp3"
    bad.write_bytes(b"ID3\x03" + bytes(200))
    with pytest.raises(AudioFileError, match="not a WAV file"):
        plan.with_file(1, bad)
    assert plan == MusicPlan.default()


def test_countdown_instead_of_music() -> None:
    plan = MusicPlan.default().with_countdown(3, 120)
    assert plan.timer(3) == (None, 120.0)
    for bad in (0, 14, 901, 2.5):
        with pytest.raises(AudioFileError, match="whole number of seconds"):
            plan.with_countdown(1, bad)  # type: ignore[arg-type]


def test_built_in_track_choice() -> None:
    plan = MusicPlan.default().with_track(1, "grand-finale")
    assert plan.get(1) == ActMusic(track_id="grand-finale")
    with pytest.raises(AudioFileError, match="no built-in track"):
        plan.with_track(1, "nope")
    with pytest.raises(ValueError):
        plan.with_track(4, "grand-finale")


def test_json_round_trip_and_a_vanished_file_falls_back(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "ours.wav", tone_frames(20.0, 8000), rate=8000)
    plan = MusicPlan.default().with_file(1, path).with_countdown(2, 90)
    data = plan.to_json()
    assert data["acts"]["2"] == {"countdown": 90}
    assert MusicPlan.from_json(data) == plan
    path.unlink()
    again = MusicPlan.from_json(data)
    assert again.get(1) == MusicPlan.default().get(1)
    assert again.get(2) == ActMusic(seconds=90)
    assert MusicPlan.from_json("garbage") == MusicPlan.default()
