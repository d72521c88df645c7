"""An act's music setting, checked in one place: what the form and the ``m`` dialog accept."""

from __future__ import annotations

from pathlib import Path

import pytest
from audio_helpers import encode, tone_frames, write_wav
from hypothesis import given
from hypothesis import strategies as st

from companion.audio import choice as choice_module
from companion.audio.choice import (
    MusicChoiceError,
    check_act_music,
    parse_music_choice,
    parse_music_file,
)
from companion.games.meeple_circus.rules import game as circus_rules
from companion.i18n import set_language


@pytest.fixture
def song(tmp_path: Path) -> Path:
    """A 30-second MP3."""
    return encode(write_wav(tmp_path / "song.wav", tone_frames(30.0, 22050), 22050), "mp3")


def test_empty_is_the_default_track() -> None:
    assert parse_music_choice("  ").kind == "default"


def test_a_countdown() -> None:
    c = parse_music_choice(" countdown:120 ")
    assert (c.kind, c.length_s, c.text) == ("countdown", 120.0, "countdown:120")


@given(st.integers(15, 900))
def test_every_countdown_in_bounds_parses_to_its_seconds(seconds: int) -> None:
    assert parse_music_choice(f"countdown:{seconds}").length_s == seconds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("countdown:5", "15 to 900 seconds"),
        ("countdown:901", "15 to 900 seconds"),
        ("countdown: 2:00", "countdown:SECONDS"),
        ("countdown:abc", "countdown:SECONDS"),
        ("countdown:", "countdown:SECONDS"),
        ("倒计时:20", "neither a music file nor a countdown"),
        ("Countdown:90", "neither a music file nor a countdown"),
        ("timer: 2:00", "neither a music file nor a countdown"),
    ],
)
def test_a_countdown_written_another_way_is_refused(text: str, message: str) -> None:
    with pytest.raises(MusicChoiceError, match=message):
        parse_music_choice(text)


def test_the_bounds_are_the_rules_bounds() -> None:
    assert choice_module.COUNTDOWN_MIN_S == circus_rules.COUNTDOWN_MIN_S
    assert choice_module.COUNTDOWN_MAX_S == circus_rules.COUNTDOWN_MAX_S


def test_every_setting_the_choice_accepts_the_rules_accept_too(song: Path) -> None:
    for text in ("", "countdown:60", str(song), f"{song} @ 0:20"):
        parse_music_choice(text)
        circus_rules.parse_music_setting(text)  # raises if the rules disagree


def test_a_song_times_the_act_by_its_decoded_length(song: Path) -> None:
    c = parse_music_choice(str(song))
    assert (c.kind, c.path, c.cut_s, c.title) == ("file", song, None, "song")
    assert c.length_s == 30.0
    assert c.info is not None and c.info.format == "mp3"


@pytest.mark.parametrize(("cut", "seconds"), [("0:20", 20), ("20", 20), (" 0:15", 15)])
def test_a_cut_song_times_the_act_by_the_cut(song: Path, cut: str, seconds: int) -> None:
    c = parse_music_choice(f"{song} @{cut}")
    assert (c.kind, c.path, c.cut_s, c.length_s) == ("file", song, seconds, float(seconds))


def test_a_cut_longer_than_the_song_is_refused(song: Path) -> None:
    with pytest.raises(MusicChoiceError, match="lasts only 0:30; a cut of 2:00"):
        parse_music_choice(f"{song} @ 2:00")


@pytest.mark.parametrize(
    ("cut", "message"),
    [("0:05", "15 to 900"), ("1:75", "not a length"), ("two minutes", "not a length")],
)
def test_a_bad_cut_is_refused(song: Path, cut: str, message: str) -> None:
    with pytest.raises(MusicChoiceError, match=message):
        parse_music_choice(f"{song} @ {cut}")


def test_a_file_whose_name_has_an_at_sign_is_a_file(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "live @ 20.wav", tone_frames(1.0))
    c = parse_music_choice(str(path))
    assert (c.path, c.cut_s, c.length_s) == (path, None, 1.0)


def test_a_missing_or_undecodable_file_is_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(MusicChoiceError, match="does not exist"):
        parse_music_choice(str(tmp_path / "nope.mp3"))
    with pytest.raises(MusicChoiceError, match="does not exist"):
        parse_music_choice(f"{tmp_path / 'nope.mp3'} @ 2:00")
    notes = tmp_path / "notes.txt"
    notes.write_text("la la la")
    with pytest.raises(MusicChoiceError, match="the decoder says"):
        parse_music_choice(str(notes))


def test_a_wav_cut_short_is_refused(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "cut.wav", tone_frames(1.0))
    path.write_bytes(path.read_bytes()[:1000])
    with pytest.raises(MusicChoiceError, match="cut short"):
        parse_music_choice(str(path))


def test_the_file_prompt_wants_a_file() -> None:
    with pytest.raises(MusicChoiceError, match="path of a music file"):
        parse_music_file("countdown:120")


def test_the_form_check_names_the_act_and_speaks_chinese(tmp_path: Path) -> None:
    assert [c.kind for c in check_act_music(["", "countdown:30", ""])] == [
        "default",
        "countdown",
        "default",
    ]
    with pytest.raises(MusicChoiceError) as info:
        check_act_music(["", "倒计时:20", ""])
    assert str(info.value).startswith("Act 2 music: '倒计时:20' is neither")
    try:
        set_language("zh")
        with pytest.raises(MusicChoiceError) as zh:
            check_act_music([str(tmp_path / "nope.mp3"), "", ""])
        assert str(zh.value) == f"第 1 幕音乐：{tmp_path / 'nope.mp3'} 不存在。"
    finally:
        set_language("en")


@pytest.fixture(scope="module")
def long_wav(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 15-minute silent WAV (8 kHz, 8-bit: 7 MB), so every cut fits."""
    path = tmp_path_factory.mktemp("choice") / "long.wav"
    return write_wav(path, bytes([128]) * (8000 * 900), rate=8000, width=1)


@given(minutes=st.integers(0, 15), seconds=st.integers(0, 59), spaces=st.sampled_from(["", " "]))
def test_every_cut_in_bounds_is_its_minutes_and_seconds(
    long_wav: Path, minutes: int, seconds: int, spaces: str
) -> None:
    total = minutes * 60 + seconds
    text = f"{long_wav} @{spaces}{minutes}:{seconds:02d}"
    if 15 <= total <= 900:
        c = parse_music_choice(text)
        assert (c.cut_s, c.length_s) == (total, float(total))
        assert parse_music_choice(f"{long_wav} @ {total}").cut_s == total
    else:
        with pytest.raises(MusicChoiceError, match="15 to 900"):
            parse_music_choice(text)
