"""Through ALSA for real: libasound reads an asoundrc and plays (or fails) for real.

A ``file`` PCM (slave ``null``) writes every frame ALSA is given into a WAV, so the
bytes that each player (simpleaudio, miniaudio) handed to the device can be compared
with the decoded source. The ``null`` slave has no clock: these tests check bytes and
messages, never timing. miniaudio's device runs on until it is closed, so its capture
is the frames followed by the silence it wrote meanwhile.
"""

from __future__ import annotations

import wave
from pathlib import Path

import pytest
from audio_helpers import alsa_env, encode, run_child, tone_frames, write_wav

from companion.audio.decode import cut_pcm, decode_music

PLAY = r"""
import json, sys, time
from pathlib import Path
from companion.audio.backend import open_backend

backend = open_backend()
result = {"name": backend.name, "available": backend.available, "reason": backend.reason,
          "latency": backend.latency_s}
if backend.available:
    cut = float(sys.argv[2]) if len(sys.argv) > 2 else None
    if cut is None:
        backend.play(Path(sys.argv[1]))
    else:
        backend.play(Path(sys.argv[1]), cut_s=cut)
    deadline = time.monotonic() + 30
    while backend.is_playing() and time.monotonic() < deadline:
        time.sleep(0.005)
    result["finished"] = not backend.is_playing()
print(json.dumps(result))
"""

OPEN_ONLY = r"""
import json
from companion.audio.backend import open_backend
from companion.i18n import set_language

backend = open_backend()
result = {"name": backend.name, "available": backend.available, "reason_en": backend.reason}
set_language("zh")
result["reason_zh"] = backend.reason
print(json.dumps(result, ensure_ascii=True))
"""

# The same failing open without our handler: what would have reached the terminal.
UNGUARDED = r"""
import json
import miniaudio
try:
    miniaudio.PlaybackDevice(nchannels=1, sample_rate=22050, backends=[miniaudio.Backend.ALSA])
    print(json.dumps({"opened": True}))
except Exception as exc:
    print(json.dumps({"opened": False, "error": str(exc)}))
"""

NO_SUCH_CARD = (
    'pcm.!default { type hw; card "NoSuchCard" }\nctl.!default { type hw; card "NoSuchCard" }\n'
)


def file_pcm(capture: Path) -> str:
    return f'pcm.!default {{ type file; slave.pcm "null"; file "{capture}"; format "wav" }}\n'


def captured_frames(capture: Path, channels: int, rate: int) -> bytes:
    with wave.open(str(capture), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (channels, 2, rate)
        return w.readframes(w.getnframes())


def assert_played(name: str, captured: bytes, frames: bytes) -> None:
    """simpleaudio writes exactly the frames; miniaudio the frames, then only silence."""
    if name == "simpleaudio":
        assert captured == frames
    else:
        assert captured[: len(frames)] == frames
        assert not captured[len(frames) :].strip(b"\0"), "after the song, only silence"


BOTH = ["simpleaudio", "miniaudio"]


def backend_env(tmp_path: Path, asoundrc: str, name: str) -> dict[str, str]:
    env = alsa_env(tmp_path, asoundrc)
    env["COMPANION_AUDIO"] = name
    if name == "simpleaudio":
        pytest.importorskip(
            "simpleaudio", reason="the companion[simpleaudio] extra is not installed"
        )
    return env


@pytest.mark.parametrize(
    ("rate", "channels", "seconds"),
    [(22050, 1, 0.75), (44100, 2, 0.4), (48000, 1, 0.3)],
    ids=["22k-mono", "44k-stereo", "48k-mono"],
)
@pytest.mark.parametrize("name", BOTH)
def test_each_player_writes_the_exact_frames_to_the_alsa_device(
    tmp_path: Path, rate: int, channels: int, seconds: float, name: str
) -> None:
    frames = tone_frames(seconds, rate, channels)
    source = write_wav(tmp_path / "source.wav", frames, rate, channels)
    capture = tmp_path / "capture.wav"
    env = backend_env(tmp_path, file_pcm(capture), name)

    result, stderr = run_child(PLAY, env, str(source))

    assert result["name"] == name
    assert result["available"] is True
    assert result["reason"] == ""
    assert isinstance(result["latency"], float) and result["latency"] >= 0.0
    assert result["finished"] is True
    assert stderr == b""
    with wave.open(str(capture), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (channels, 2, rate)
        captured = w.readframes(w.getnframes())
    # The device saw exactly our frames: not the start-up probe, nothing dropped.
    assert_played(name, captured, frames)


@pytest.mark.parametrize("name", BOTH)
def test_a_committed_track_reaches_the_device_unchanged(tmp_path: Path, name: str) -> None:
    cue = Path(__file__).resolve().parents[2] / "companion/audio/sounds/cues/tadaa.wav"
    capture = tmp_path / "capture.wav"
    result, stderr = run_child(PLAY, backend_env(tmp_path, file_pcm(capture), name), str(cue))
    assert result["available"] is True and stderr == b""
    with wave.open(str(cue), "rb") as a, wave.open(str(capture), "rb") as b:
        assert_played(name, b.readframes(b.getnframes()), a.readframes(a.getnframes()))


def test_without_a_device_the_backend_is_silent_says_why_and_prints_nothing(
    tmp_path: Path,
) -> None:
    env = alsa_env(tmp_path, NO_SUCH_CARD)

    result, stderr = run_child(OPEN_ONLY, env)

    assert result["name"] == "silent"
    assert result["available"] is False
    assert "countdown" in str(result["reason_en"])
    assert "倒计时" in str(result["reason_zh"])
    # libasound's own complaints went to our handler, not to file descriptor 2.
    assert stderr == b""


APP = r"""
import asyncio, json, sys
from companion.ui.app import make_app

async def main() -> None:
    app = make_app(sys.argv[1], lang="zh")
    async with app.run_test(size=(160, 50)) as pilot:
        app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
        await app.settle()
        audio = app.audio  # opened by the app on a thread, inside the running screen
        audio.wait_ready(30)
        await pilot.pause()
        print(json.dumps({"name": audio.name, "available": audio.available,
                          "reason": audio.reason}, ensure_ascii=True))

asyncio.run(main())
"""


def test_the_app_without_a_device_runs_silent_with_a_chinese_reason_and_a_clean_terminal(
    tmp_path: Path,
) -> None:
    env = alsa_env(tmp_path, NO_SUCH_CARD)
    result, stderr = run_child(APP, env, str(tmp_path / "app.sqlite3"))
    assert result == {
        "name": "silent",
        "available": False,
        "reason": "未找到声卡：不播放音乐，倒计时照常进行。",
    }
    assert stderr == b""


def test_the_same_failure_without_the_handler_would_scribble_on_the_terminal(
    tmp_path: Path,
) -> None:
    """The control for the test above: this ALSA setup does print when unguarded."""
    env = alsa_env(tmp_path, NO_SUCH_CARD)
    result, stderr = run_child(UNGUARDED, env)
    assert result["opened"] is False
    assert b"ALSA lib" in stderr


def test_forced_silence_never_touches_the_device(tmp_path: Path) -> None:
    script = (
        "import json, sys\n"
        "from companion.audio.backend import open_backend\n"
        "b = open_backend('silent')\n"
        "print(json.dumps({'name': b.name, 'available': b.available, 'reason': b.reason,"
        " 'sa': 'simpleaudio' in sys.modules or 'miniaudio' in sys.modules}))\n"
    )
    capture = tmp_path / "capture.wav"
    result, stderr = run_child(script, alsa_env(tmp_path, file_pcm(capture)))
    assert result == {
        "name": "silent",
        "available": False,
        "reason": "Sound is turned off; the countdown still runs.",
        "sa": False,
    }
    assert not capture.exists()
    assert stderr == b""


@pytest.mark.parametrize("name", BOTH)
@pytest.mark.parametrize("fmt", ["mp3", "flac", "ogg", "wav"])
def test_each_player_sends_the_decoded_frames_of_any_file_to_the_device(
    tmp_path: Path, name: str, fmt: str
) -> None:
    source = write_wav(tmp_path / "song.wav", tone_frames(0.6, 44100, 2), 44100, 2)
    song = source if fmt == "wav" else encode(source, fmt)
    frames = decode_music(song).frames
    capture = tmp_path / "capture.wav"

    result, stderr = run_child(PLAY, backend_env(tmp_path, file_pcm(capture), name), str(song))

    assert (result["name"], result["available"], result["finished"]) == (name, True, True)
    assert stderr == b""
    assert_played(name, captured_frames(capture, 2, 44100), frames)


@pytest.mark.parametrize("name", BOTH)
def test_each_player_plays_a_cut_song_faded_to_the_cut(tmp_path: Path, name: str) -> None:
    song = encode(write_wav(tmp_path / "song.wav", tone_frames(4.0), 22050), "flac")
    expected = cut_pcm(decode_music(song), 2.5).frames
    assert len(expected) == 2 * round(2.5 * 22050)
    capture = tmp_path / "capture.wav"

    result, stderr = run_child(
        PLAY, backend_env(tmp_path, file_pcm(capture), name), str(song), "2.5"
    )

    assert result["finished"] is True and stderr == b""
    assert_played(name, captured_frames(capture, 1, 22050), expected)


@pytest.mark.parametrize("name", BOTH)
def test_each_player_without_a_device_is_silent_with_the_reason(tmp_path: Path, name: str) -> None:
    result, stderr = run_child(OPEN_ONLY, backend_env(tmp_path, NO_SUCH_CARD, name))
    assert result == {
        "name": "silent",
        "available": False,
        "reason_en": "No sound card found: no music, the countdown still runs.",
        "reason_zh": "未找到声卡：不播放音乐，倒计时照常进行。",
    }
    assert stderr == b""


# simpleaudio "not installed": an import of it fails, as in a venv without the extra.
WITHOUT_SIMPLEAUDIO = r"""
import json, sys
sys.modules["simpleaudio"] = None
from companion.audio.backend import open_backend
b = open_backend()
print(json.dumps({"name": b.name, "available": b.available, "reason": b.reason}))
"""


def test_without_simpleaudio_miniaudio_plays(tmp_path: Path) -> None:
    capture = tmp_path / "capture.wav"
    result, stderr = run_child(WITHOUT_SIMPLEAUDIO, alsa_env(tmp_path, file_pcm(capture)))
    assert result == {"name": "miniaudio", "available": True, "reason": ""}
    assert stderr == b""


def test_without_simpleaudio_and_no_device_it_is_silent_with_the_reason(tmp_path: Path) -> None:
    result, stderr = run_child(WITHOUT_SIMPLEAUDIO, alsa_env(tmp_path, NO_SUCH_CARD))
    assert result == {
        "name": "silent",
        "available": False,
        "reason": "No sound card found: no music, the countdown still runs.",
    }
    assert stderr == b""


def test_with_simpleaudio_installed_it_is_the_player(tmp_path: Path) -> None:
    pytest.importorskip("simpleaudio", reason="the companion[simpleaudio] extra is not installed")
    script = (
        "import json\nfrom companion.audio.backend import open_backend\n"
        "print(json.dumps({'name': open_backend().name}))\n"
    )
    result, _ = run_child(script, alsa_env(tmp_path, file_pcm(tmp_path / "c.wav")))
    assert result == {"name": "simpleaudio"}


def test_asking_for_simpleaudio_when_it_is_missing_says_so(tmp_path: Path) -> None:
    script = WITHOUT_SIMPLEAUDIO.replace("open_backend()", "open_backend('simpleaudio')")
    result, _ = run_child(script, alsa_env(tmp_path, file_pcm(tmp_path / "c.wav")))
    assert result["name"] == "silent"
    assert "simpleaudio module cannot be loaded" in str(result["reason"])
