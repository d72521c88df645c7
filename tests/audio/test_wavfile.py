"""The WAV header reader of the built-in sounds: every wrong kind of file gets a clear message.

A host's own files go through the decoder instead (``test_decode.py``).
"""

from __future__ import annotations

import struct
import wave
from pathlib import Path

import pytest
from audio_helpers import tone_frames, write_wav

from companion.audio.errors import AudioFileError
from companion.audio.tracks import load_track
from companion.audio.wavfile import read_info, read_pcm, wav_duration
from companion.i18n import _, set_language


def float_wav(path: Path) -> Path:
    """IEEE float WAV (format tag 3), which ``wave`` and simpleaudio cannot play."""
    data = struct.pack("<4f", 0.0, 0.5, -0.5, 0.0)
    fmt = struct.pack("<HHIIHH", 3, 1, 22050, 22050 * 4, 4, 32)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def test_duration_comes_from_the_header(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "t.wav", tone_frames(1.5, 44100, 2), 44100, 2)
    assert wav_duration(path) == 1.5
    info = read_info(path)
    assert (info.channels, info.sample_width, info.sample_rate, info.n_frames) == (
        2,
        2,
        44100,
        66150,
    )
    assert read_pcm(path).frames == tone_frames(1.5, 44100, 2)


def test_load_track_names_the_file_and_measures_it(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "my march.wav", tone_frames(2.0))
    track = load_track(path)
    assert track.title == "my march"
    assert track.path == path
    assert track.duration_s == 2.0


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_text("just text, no sound"), "is not a WAV file"),
        (lambda p: p.write_bytes(b""), "is not a WAV file"),
        (lambda p: p.write_bytes(b"ID3\x04" + bytes(100)), "is not a WAV file"),  # an MP3
        (float_wav, "this player cannot read"),
        (lambda p: write_wav(p, bytes(64), channels=4), "4 channels"),
        (lambda p: write_wav(p, bytes(64), width=4), "32-bit samples"),
        (lambda p: write_wav(p, bytes(64), rate=12345), "12345 Hz"),
        (lambda p: write_wav(p, b""), "holds no sound"),
    ],
    ids=["text", "empty", "mp3", "float", "4ch", "32bit", "odd-rate", "no-frames"],
)
def test_a_file_that_cannot_play_is_refused_with_the_reason(tmp_path: Path, make, message) -> None:
    path = tmp_path / "chosen.wav"
    make(path)
    with pytest.raises(AudioFileError, match=message) as info:
        read_info(path)
    assert str(path) in str(info.value)


def test_a_file_cut_short_is_refused_when_read(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "cut.wav", tone_frames(1.0))
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])  # header still promises one second
    with pytest.raises(AudioFileError, match="cut short"):
        read_pcm(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(AudioFileError, match="does not exist"):
        read_info(tmp_path / "nope.wav")
    with pytest.raises(AudioFileError, match="is a folder"):
        read_info(tmp_path)


def test_messages_are_translated_when_shown(tmp_path: Path) -> None:
    path = tmp_path / "x.wav"
    path.write_text("text")
    with pytest.raises(AudioFileError) as info:
        read_info(path)
    try:
        set_language("zh")
        assert str(info.value) == f"{path} 不是 WAV 文件。"
        assert info.value.render(_) == f"{path} 不是 WAV 文件。"
    finally:
        set_language("en")
    assert str(info.value) == f"{path} is not a WAV file."


def test_eight_and_twenty_four_bit_pcm_are_accepted(tmp_path: Path) -> None:
    for width in (1, 3):
        path = write_wav(tmp_path / f"w{width}.wav", bytes(width * 100), width=width)
        assert read_info(path).sample_width == width
    with wave.open(str(tmp_path / "w3.wav")) as w:
        assert w.getnframes() == 100
