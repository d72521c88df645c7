"""Pilot: a host's own music at the Meeple Circus table — an MP3 act track, a cut song.

The clock is a ManualClock and the countdown is recomputed with ``screen.tick()``, so
the end of the music is exact. The audio backend decodes for real (the same
``load_pcm`` both players use) and records what it was asked to play; the device
itself is tested through ALSA in ``test_alsa_real.py``.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from audio_helpers import encode, tone_frames, write_wav
from textual.widgets import Input, Label, Static

from companion.audio import backend as backend_module
from companion.audio.backend import SilentBackend, load_pcm
from companion.games import find_game
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.new_session import NewSessionScreen
from companion.widgets.countdown import Countdown
from companion.widgets.dialogs import ChoiceDialog, PromptDialog

SIZE = (160, 50)
NS = 1_000_000_000


class RecordingAudio:
    """Decodes what it is asked to play (as a real player does) and records it."""

    name = "recording"
    available = True
    reason = ""
    latency_s = None

    def __init__(self) -> None:
        self.calls: list[tuple[str, float | None, float]] = []  # (what, cut, decoded length)
        self.playing = False

    def play(self, path: Path, cut_s: float | None = None) -> None:
        pcm = load_pcm(path, cut_s)
        self.calls.append((Path(path).stem, cut_s, pcm.duration_s))
        self.playing = True

    def stop(self) -> None:
        self.calls.append(("stop", None, 0.0))
        self.playing = False

    def is_playing(self) -> bool:
        return self.playing


def plain(widget: Static) -> str:
    return str(widget.render())


@pytest.fixture
def song(tmp_path: Path) -> Path:
    """A 40-second MP3, made with lame."""
    return encode(write_wav(tmp_path / "circus song.wav", tone_frames(40.0, 22050), 22050), "mp3")


async def perform(tmp_path: Path, music: str, audio: RecordingAudio) -> list[str]:
    """Act 1 with ``music``: start, let the countdown run out; the countdown's texts."""
    clock = ManualClock(start_ns=100 * NS)
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock, audio=audio)
    seen: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": music})
        await app.settle()
        for key in ("1", "p", "p"):
            await pilot.press(key)
            await app.settle()
        screen = app.screen
        countdown = screen.query_one("#mc-countdown", Countdown)
        seen.append(countdown.text)
        await pilot.press("s")
        await screen.audio_settled()
        await app.settle()
        seen.append(plain(screen.query_one("#mc-track", Static)))
        for step in (10.0, 10.0, 100.0):
            clock.advance(step)
            screen.tick()
            await app.settle()
            await screen.audio_settled()
            await app.settle()
            seen.append(countdown.text)
        attempt = screen.circus.performance.current
        seen.append(f"{attempt.end_reason}:{(attempt.end_ns - attempt.start_ns) / NS}")
    return seen


async def test_an_mp3_act_track_times_the_act_by_its_decoded_length(
    tmp_path: Path, song: Path
) -> None:
    audio = RecordingAudio()
    seen = await perform(tmp_path, str(song), audio)
    assert seen[0] == "0:40"
    assert "Music: circus song (0:40)" in seen[1]
    assert seen[2:5] == ["0:30", "0:20", "0:00"]
    assert seen[5] == "music:40.0"
    assert audio.calls[0] == ("circus song", None, 40.0)
    assert [c[0] for c in audio.calls[1:]] == ["stop", "end"]  # then the end cue


async def test_a_cut_song_plays_for_the_cut_and_the_countdown_is_the_cut(
    tmp_path: Path, song: Path
) -> None:
    audio = RecordingAudio()
    seen = await perform(tmp_path, f"{song} @ 0:25", audio)
    assert seen[0] == "0:25"
    assert "Music: circus song (0:25)" in seen[1]
    assert seen[2:5] == ["0:15", "0:05", "0:00"]
    assert seen[5] == "music:25.0"
    assert audio.calls[0] == ("circus song", 25, 25.0)  # decoded, cut to 25 s
    assert [c[0] for c in audio.calls[1:]] == ["stop", "end"]


async def test_the_m_dialog_takes_a_cut_song(tmp_path: Path, song: Path) -> None:
    clock = ManualClock(start_ns=100 * NS)
    audio = RecordingAudio()
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock, audio=audio)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {})
        await app.settle()
        for key in ("1", "p", "p", "m"):
            await pilot.press(key)
            await app.settle()
        assert isinstance(app.screen, ChoiceDialog)
        dialog = app.screen
        dialog.dismiss("file")
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PromptDialog)
        field = prompt.query_one(Input)
        for bad, message in [
            (str(tmp_path / "nope.mp3"), "does not exist"),
            (f"{song} @ 2:00", "lasts only 0:40"),
            ("倒计时:20", "neither a music file"),
            ("countdown:120", "path of a music file"),
        ]:
            field.value = bad
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is prompt
            assert message in str(prompt.query_one("#prompt-error", Label).render())
        field.value = f"{song} @ 0:30"
        await pilot.press("enter")
        await app.settle()
        screen = app.screen
        assert screen.query_one("#mc-countdown", Countdown).text == "0:30"
        await pilot.press("s")
        await screen.audio_settled()
        assert audio.calls[-1] == ("circus song", 30, 30.0)


@pytest.mark.parametrize(
    ("music", "message"),
    [
        ("倒计时:20", "'倒计时:20' is neither a music file nor a countdown"),
        ("{missing}", "does not exist"),
        ("{song} @ 5:00", "lasts only 0:40"),
    ],
)
async def test_the_new_session_form_refuses_music_that_would_fail_at_the_table(
    tmp_path: Path, song: Path, music: str, message: str
) -> None:
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=ManualClock(), audio=SilentBackend())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        form = NewSessionScreen(find_game("meeple-circus"))
        await app.push_screen(form)
        await pilot.pause()
        form.add_seat("Ann")
        form.add_seat("Bo")
        form.query_one("#opt-music_act1", Input).value = music.format(
            missing=tmp_path / "missing.mp3", song=song
        )
        form.action_start()
        await app.settle()
        await pilot.pause()
        assert app.screen is form, "the session started with music that cannot play"
        # The problem stands next to the act's own field.
        assert message in str(form.query_one("#opt-error-music_act1", Label).render())


async def test_the_device_probe_does_not_hold_up_the_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The app opens the backend on a thread: the screen shows "checking", then the result."""
    release = threading.Event()
    entered = threading.Event()

    def slow_open(prefer: str | None = None) -> SilentBackend:
        entered.set()
        release.wait(30)  # a probe that takes its time
        return SilentBackend("No sound card found: no music, the countdown still runs.")

    monkeypatch.setattr(backend_module, "open_backend", slow_open)
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        for key in ("1", "p", "p"):
            await pilot.press(key)
            await app.settle()
        screen = app.screen
        assert entered.wait(10)
        track = screen.query_one("#mc-track", Static)
        assert "Checking the sound device" in plain(track)  # rendered while the probe runs
        release.set()
        assert app.audio.wait_ready(10) is not None
        for _ in range(50):
            await pilot.pause()
            if "No sound card found" in plain(track):
                break
        assert "No sound card found" in plain(track)  # redrawn once the probe answered
