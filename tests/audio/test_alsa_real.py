"""Through ALSA for real: libasound reads an asoundrc and plays (or fails) for real.

A ``file`` PCM (slave ``null``) writes every frame ALSA is given into a WAV, so the
bytes that simpleaudio handed to the device can be compared with the source. The
``null`` slave has no clock: these tests check bytes and messages, never timing.
"""

from __future__ import annotations

import wave
from pathlib import Path

import pytest
from audio_helpers import alsa_env, run_child, tone_frames, write_wav

PLAY = r"""
import json, sys, time
from pathlib import Path
from companion.audio.backend import open_backend

backend = open_backend()
result = {"name": backend.name, "available": backend.available, "reason": backend.reason,
          "latency": backend.latency_s}
if backend.available:
    backend.play(Path(sys.argv[1]))
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
import simpleaudio
try:
    simpleaudio.play_buffer(bytes(882), 1, 2, 22050)
    print(json.dumps({"opened": True}))
except Exception as exc:
    print(json.dumps({"opened": False, "error": str(exc)}))
"""

NO_SUCH_CARD = (
    'pcm.!default { type hw; card "NoSuchCard" }\nctl.!default { type hw; card "NoSuchCard" }\n'
)


def file_pcm(capture: Path) -> str:
    return f'pcm.!default {{ type file; slave.pcm "null"; file "{capture}"; format "wav" }}\n'


@pytest.mark.parametrize(
    ("rate", "channels", "seconds"),
    [(22050, 1, 0.75), (44100, 2, 0.4), (48000, 1, 0.3)],
    ids=["22k-mono", "44k-stereo", "48k-mono"],
)
def test_simpleaudio_writes_the_exact_frames_to_the_alsa_device(
    tmp_path: Path, rate: int, channels: int, seconds: float
) -> None:
    frames = tone_frames(seconds, rate, channels)
    source = write_wav(tmp_path / "source.wav", frames, rate, channels)
    capture = tmp_path / "capture.wav"
    env = alsa_env(tmp_path, file_pcm(capture))

    result, stderr = run_child(PLAY, env, str(source))

    assert result["name"] == "simpleaudio"
    assert result["available"] is True
    assert result["reason"] == ""
    assert isinstance(result["latency"], float) and result["latency"] >= 0.0
    assert result["finished"] is True
    assert stderr == b""
    with wave.open(str(capture), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (channels, 2, rate)
        captured = w.readframes(w.getnframes())
    # The device saw exactly our frames: not the start-up probe, nothing dropped.
    assert len(captured) == len(frames)
    assert captured == frames


def test_a_committed_track_reaches_the_device_unchanged(tmp_path: Path) -> None:
    cue = Path(__file__).resolve().parents[2] / "sounds" / "cues" / "tadaa.wav"
    capture = tmp_path / "capture.wav"
    result, stderr = run_child(PLAY, alsa_env(tmp_path, file_pcm(capture)), str(cue))
    assert result["available"] is True and stderr == b""
    with wave.open(str(cue), "rb") as a, wave.open(str(capture), "rb") as b:
        assert b.readframes(b.getnframes()) == a.readframes(a.getnframes())


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
        audio = app.audio  # opened by the app, inside the running screen
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
        " 'sa': 'simpleaudio' in sys.modules}))\n"
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
