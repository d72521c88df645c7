"""Any music file a host has: MP3, FLAC, OGG and WAV decoded by miniaudio, length from the decoder.

The compressed files are made at test time from a known WAV with Debian's encoders
(``lame``, ``flac``, ``vorbis-tools``); FLAC must give the frames back bit for bit,
the lossy formats the same length and the same waveform.
"""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np
import pytest
from audio_helpers import encode, likeness, samples, tone_frames, write_wav
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.audio.decode import (
    FADE_S,
    Pcm,
    cut_pcm,
    decode_music,
    read_music_info,
)
from companion.audio.errors import AudioFileError
from companion.audio.tracks import load_track
from companion.i18n import set_language

FORMATS = ["mp3", "flac", "ogg"]
LAYOUTS = [(44100, 2), (22050, 1), (48000, 2)]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(
    ("rate", "channels"), LAYOUTS, ids=["44k-stereo", "22k-mono", "48k-stereo"]
)
def test_compressed_files_decode_to_the_source_length_and_waveform(
    tmp_path: Path, fmt: str, rate: int, channels: int
) -> None:
    frames = tone_frames(1.5, rate, channels)
    encoded = encode(write_wav(tmp_path / "song.wav", frames, rate, channels), fmt)

    info = read_music_info(encoded)
    pcm = decode_music(encoded)

    assert info.format == {"ogg": "vorbis"}.get(fmt, fmt)
    assert (info.channels, info.sample_rate) == (channels, rate)
    n = len(frames) // (2 * channels)
    assert info.n_frames == n == pcm.n_frames
    assert info.duration_s == pytest.approx(1.5)
    assert (pcm.channels, pcm.sample_rate) == (channels, rate)
    if fmt == "flac":
        assert pcm.frames == frames  # lossless: bit for bit
    else:
        assert likeness(samples(pcm.frames, channels), samples(frames, channels)) > 0.99


def test_a_track_of_any_format_is_measured_by_the_decoder(tmp_path: Path) -> None:
    encoded = encode(
        write_wav(tmp_path / "my march.wav", tone_frames(2.0, 44100, 2), 44100, 2), "mp3"
    )
    track = load_track(encoded)
    assert (track.title, track.path, track.duration_s) == ("my march", encoded, 2.0)


def test_the_format_is_read_from_the_bytes_not_the_name(tmp_path: Path) -> None:
    frames = tone_frames(0.5, 44100, 2)
    flac = encode(write_wav(tmp_path / "a.wav", frames, 44100, 2), "flac")
    misnamed = flac.rename(tmp_path / "really-a-flac.mp3")
    assert read_music_info(misnamed).format == "flac"
    assert decode_music(misnamed).frames == frames


def test_a_wav_decodes_to_exactly_its_frames(tmp_path: Path) -> None:
    frames = tone_frames(0.7, 22050, 1)
    pcm = decode_music(write_wav(tmp_path / "a.wav", frames))
    assert (pcm.channels, pcm.sample_rate, pcm.frames) == (1, 22050, frames)


def float_wav(path: Path, values: list[float], rate: int = 22050) -> Path:
    data = struct.pack(f"<{len(values)}f", *values)
    fmt = struct.pack("<HHIIHH", 3, 1, rate, rate * 4, 4, 32)
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
    body += b"data" + struct.pack("<I", len(data)) + data
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    return path


def test_wavs_the_old_reader_refused_now_play_converted(tmp_path: Path) -> None:
    """Float, 32-bit, four channels, an odd rate: the decoder converts instead of refusing."""
    flt = decode_music(float_wav(tmp_path / "f.wav", [0.0, 0.5, -0.5, 0.25] * 50))
    assert (flt.channels, flt.sample_rate, flt.n_frames) == (1, 22050, 200)
    got = np.frombuffer(flt.frames, "<i2")[:4].astype(int)
    assert np.abs(got - [0, 16384, -16384, 8192]).max() <= 1  # miniaudio's rounding

    four = decode_music(write_wav(tmp_path / "4.wav", tone_frames(0.2) * 4, channels=4))
    assert four.channels == 2 and four.n_frames == len(tone_frames(0.2)) // 2

    wide = decode_music(write_wav(tmp_path / "32.wav", bytes(4 * 300), width=4))
    assert (wide.sample_width, wide.n_frames) == (2, 300)

    odd = write_wav(tmp_path / "odd.wav", tone_frames(1.0, 12345), rate=12345)
    assert read_music_info(odd).duration_s == pytest.approx(1.0)
    pcm = decode_music(odd)
    assert pcm.sample_rate == 48000
    assert pcm.duration_s == pytest.approx(1.0, abs=0.01)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda p: p.write_text("just text, no sound"), "cannot be decoded"),
        (lambda p: p.write_bytes(b""), "cannot be decoded"),
        (lambda p: p.write_bytes(b"ID3\x04" + bytes(100)), "cannot be decoded"),
        (lambda p: p.write_bytes(b"fLaC" + bytes(100)), "cannot be decoded"),
        (lambda p: p.write_bytes(b"OggS" + bytes(100)), "cannot be decoded"),
        (lambda p: write_wav(p, b""), "holds no sound"),
    ],
    ids=["text", "empty", "bare-id3", "bad-flac", "bad-ogg", "no-frames"],
)
def test_a_file_the_decoder_refuses_says_why(tmp_path: Path, make, message) -> None:
    path = tmp_path / "chosen.mp3"
    make(path)
    with pytest.raises(AudioFileError, match=message) as info:
        read_music_info(path)
    assert str(path) in str(info.value)
    if message == "cannot be decoded":
        assert "the decoder says: could not open/decode" in str(info.value)
    with pytest.raises(AudioFileError, match=message):
        decode_music(path)


def test_a_wav_cut_short_is_refused_when_chosen(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "cut.wav", tone_frames(1.0))
    raw = path.read_bytes()
    path.write_bytes(raw[: len(raw) // 2])  # the header still promises one second
    with pytest.raises(AudioFileError, match="cut short"):
        read_music_info(path)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(AudioFileError, match="does not exist"):
        read_music_info(tmp_path / "nope.ogg")
    with pytest.raises(AudioFileError, match="is a folder"):
        read_music_info(tmp_path)


def test_the_decoders_reason_is_shown_in_chinese_too(tmp_path: Path) -> None:
    path = tmp_path / "x.mp3"
    path.write_text("text")
    with pytest.raises(AudioFileError) as info:
        read_music_info(path)
    try:
        set_language("zh")
        text = str(info.value)
    finally:
        set_language("en")
    assert text.startswith(str(path)) and "解码" in text
    assert "could not open/decode file" in text  # the decoder's own words, as it said them


def test_decoding_is_cached_until_the_file_changes(tmp_path: Path) -> None:
    path = write_wav(tmp_path / "a.wav", tone_frames(0.3))
    assert decode_music(path) is decode_music(path)
    write_wav(path, tone_frames(0.6))
    assert decode_music(path).duration_s == pytest.approx(0.6)


def test_a_cut_keeps_the_start_fades_out_and_ends_silent() -> None:
    frames = tone_frames(5.0, 22050, 2)
    pcm = Pcm(2, 22050, frames)
    cut = cut_pcm(pcm, 3.0)
    assert cut.n_frames == 3 * 22050
    fade_start = round((3.0 - FADE_S) * 22050)
    assert cut.frames[: fade_start * 4] == frames[: fade_start * 4]
    tail = samples(cut.frames, 2)
    assert np.all(tail[-1] == 0)
    early = np.abs(tail[fade_start : fade_start + 2205]).mean()
    late = np.abs(tail[-2205:]).mean()
    assert late < early / 5


def test_a_cut_longer_than_the_song_plays_it_whole() -> None:
    pcm = Pcm(1, 22050, tone_frames(1.0))
    assert cut_pcm(pcm, 2.0) is pcm


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 3000),
    channels=st.sampled_from([1, 2]),
    cut=st.floats(0.0, 0.2, allow_nan=False),
    fade=st.floats(0.0, 0.1, allow_nan=False),
)
def test_a_cut_never_lengthens_nor_louder_and_keeps_the_unfaded_part(
    n: int, channels: int, cut: float, fade: float
) -> None:
    rate = 8000
    rng = np.random.default_rng(n)
    frames = rng.integers(-32768, 32767, n * channels, dtype="<i2").tobytes()
    pcm = Pcm(channels, rate, frames)
    out = cut_pcm(pcm, cut, fade)
    expect = min(n, round(cut * rate))
    assert out.n_frames == expect or out is pcm
    a, b = samples(frames, channels)[: out.n_frames], samples(out.frames, channels)
    assert np.all(np.abs(b) <= np.abs(a))
    if out is not pcm:
        keep = out.n_frames - min(out.n_frames, round(fade * rate))
        assert np.array_equal(a[:keep], b[:keep])
