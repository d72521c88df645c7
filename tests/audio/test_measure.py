"""Every music file is measured by decoding it (issue 21, item 3).

Files are made at test time with the encoders ``.ci/run`` installs (``lame``,
``flac``, ``oggenc``): a 90-second tone, then its first 20 KB — what a host gets
from a download that stopped. A header may keep claiming 1:30 (the MP3's Xing/Info
frame count, FLAC's STREAMINFO); the decoder finds ~1 s. Such a file is refused with
both numbers; one whose header says what it holds is taken at that length.
"""

from __future__ import annotations

import array
import math
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from companion.audio import decode
from companion.audio.choice import MusicChoiceError, parse_music_choice
from companion.audio.decode import measure_music, read_music_info
from companion.audio.errors import AudioFileError
from companion.games.meeple_circus import prepare

RATE = 44100
SECONDS = 90
CUT_BYTES = 20_000


def _tools() -> None:
    missing = [t for t in ("lame", "flac", "oggenc") if shutil.which(t) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install lame flac vorbis-tools)")


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    _tools()
    d = tmp_path_factory.mktemp("measure")
    wav = d / "song.wav"
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(
            array.array("h", (int(8000 * math.sin(i * 0.05)) for i in range(RATE * SECONDS)))
        )
    out = {"wav": wav}
    run = {
        "mp3": ["lame", "--quiet", "-b", "128", str(wav), str(d / "song.mp3")],
        "mp3-no-xing": ["lame", "--quiet", "-t", "-b", "128", str(wav), str(d / "plain.mp3")],
        "flac": ["flac", "-s", "-f", str(wav), "-o", str(d / "song.flac")],
        "ogg": ["oggenc", "-Q", str(wav), "-o", str(d / "song.ogg")],
    }
    for name, cmd in run.items():
        subprocess.run(cmd, check=True)
        out[name] = Path(cmd[-1])
    for name, path in list(out.items()):
        cut = d / f"truncated-{name}{path.suffix}"
        cut.write_bytes(path.read_bytes()[:CUT_BYTES])
        out[f"cut-{name}"] = cut
    return out


@pytest.mark.parametrize("name", ["mp3", "mp3-no-xing", "flac", "ogg", "wav"])
def test_a_whole_file_measures_its_header_s_length(files, name):
    info = measure_music(files[name])
    assert abs(info.duration_s - SECONDS) < 0.1


@pytest.mark.parametrize("name", ["mp3", "flac", "ogg"])
def test_a_cut_file_whose_header_claims_more_is_refused_with_both_numbers(files, name):
    path = files[f"cut-{name}"]
    with pytest.raises(AudioFileError) as caught:
        measure_music(path)
    text = str(caught.value)
    assert text.startswith(f"{path.name} holds ")
    held = float(text.split(" holds ")[1].split(" s ")[0])
    assert 0 < held < 15  # what 20 KB holds, counted by the decoder
    if name != "ogg":  # the MP3's Xing frame count, FLAC's STREAMINFO total
        assert text.endswith("its header says 1:30.")


def test_the_issue_s_truncated_mp3_says_1_2_s_against_1_30(files):
    with pytest.raises(AudioFileError) as caught:
        measure_music(files["cut-mp3"])
    assert str(caught.value) == "truncated-mp3.mp3 holds 1.2 s of sound, its header says 1:30."


def test_a_cut_mp3_without_a_xing_header_is_taken_at_what_it_holds(files):
    choice = parse_music_choice(str(files["cut-mp3-no-xing"]), measure=True)
    assert choice.length_s is not None and 1.0 < choice.length_s < 1.5  # never 1:30


def test_a_cut_wav_is_refused(files):
    with pytest.raises(AudioFileError, match="cut short"):
        measure_music(files["cut-wav"])


def test_the_form_refuses_the_cut_file_with_the_numbers(files):
    """The new-session form's machine check (run on the writer thread)."""
    problems = prepare.check_options(
        {"music_act1": str(files["cut-mp3"]), "music_act2": str(files["mp3"])}
    )
    assert problems == {
        "music_act1": "truncated-mp3.mp3 holds 1.2 s of sound, its header says 1:30."
    }
    with pytest.raises(Exception, match=r"holds 1\.2 s of sound, its header says 1:30"):
        prepare.music_choice(str(files["cut-mp3"]))  # the m pick, on the writer thread


def test_the_ui_thread_s_quick_read_never_decodes_and_takes_a_measured_length(
    files, monkeypatch, tmp_path
):
    path = tmp_path / "copy.mp3"
    path.write_bytes(files["mp3"].read_bytes())

    def no_decode(*args, **kwargs):
        raise AssertionError("decoded on a quick read")

    real = decode._miniaudio()
    monkeypatch.setattr(real, "stream_file", no_decode)
    quick = parse_music_choice(str(path))  # the m dialog's check: header only
    assert quick.length_s == pytest.approx(SECONDS, abs=0.1)
    monkeypatch.undo()
    measured = measure_music(path)
    monkeypatch.setattr(real, "stream_file", no_decode)
    assert read_music_info(path) == measured  # the measurement is remembered
    with pytest.raises(MusicChoiceError):  # a missing file is still said at once
        parse_music_choice(str(tmp_path / "gone.mp3"))
