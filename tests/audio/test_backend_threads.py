"""The simpleaudio backend's promises, with a stand-in for the C extension.

The real extension's ``stop()`` blocks while ALSA drains; the stand-in blocks until
the test lets it go, so "stop never blocks the caller" is checked without clocks.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from audio_helpers import tone_frames, write_wav

from companion.audio.backend import AudioBackend, SilentBackend, SimpleaudioBackend, open_backend
from companion.audio.errors import AudioFileError
from companion.i18n import set_language


class FakePlay:
    def __init__(self, frames: bytes, args: tuple[int, int, int], release: threading.Event):
        self.frames = frames
        self.args = args
        self.playing = True
        self.stop_entered = threading.Event()
        self._release = release

    def stop(self) -> None:
        self.stop_entered.set()
        self._release.wait(10)  # ALSA draining, until the test says it is done
        self.playing = False

    def is_playing(self) -> bool:
        return self.playing


class FakeSimpleaudio:
    def __init__(self) -> None:
        self.release = threading.Event()
        self.plays: list[FakePlay] = []
        self.fail: Exception | None = None

    def play_buffer(self, data: bytes, channels: int, width: int, rate: int) -> FakePlay:
        if self.fail is not None:
            raise self.fail
        play = FakePlay(bytes(data), (channels, width, rate), self.release)
        self.plays.append(play)
        return play


@pytest.fixture
def fake() -> FakeSimpleaudio:
    return FakeSimpleaudio()


@pytest.fixture
def wav(tmp_path: Path) -> Path:
    return write_wav(tmp_path / "a.wav", tone_frames(0.2))


def test_both_backends_satisfy_the_interface(fake: FakeSimpleaudio) -> None:
    assert isinstance(SimpleaudioBackend(fake), AudioBackend)
    assert isinstance(SilentBackend(), AudioBackend)


def test_play_hands_the_wav_frames_and_format_to_simpleaudio(
    fake: FakeSimpleaudio, tmp_path: Path
) -> None:
    frames = tone_frames(0.1, 44100, 2)
    path = write_wav(tmp_path / "s.wav", frames, 44100, 2)
    backend = SimpleaudioBackend(fake)
    backend.play(path)
    assert fake.plays[0].frames == frames
    assert fake.plays[0].args == (2, 2, 44100)
    assert backend.is_playing() and backend.available and backend.reason == ""


def test_stop_returns_while_alsa_is_still_draining(fake: FakeSimpleaudio, wav: Path) -> None:
    backend = SimpleaudioBackend(fake)
    backend.play(wav)
    backend.stop()  # would hang here if the drain ran on the caller's thread
    assert fake.plays[0].stop_entered.wait(10)
    assert backend.is_playing(), "the tail still sounds while ALSA drains"
    fake.release.set()
    assert backend.wait_stopped(10)
    assert not backend.is_playing()


def test_play_after_stop_waits_for_the_drain_then_plays(fake: FakeSimpleaudio, wav: Path) -> None:
    backend = SimpleaudioBackend(fake)
    backend.play(wav)
    backend.stop()
    assert fake.plays[0].stop_entered.wait(10)
    second = threading.Thread(target=backend.play, args=(wav,))
    second.start()
    second.join(0.2)
    assert second.is_alive() and len(fake.plays) == 1, "opened the device while it drained"
    fake.release.set()
    second.join(10)
    assert len(fake.plays) == 2 and fake.plays[1].is_playing()


def test_play_replaces_what_was_playing(fake: FakeSimpleaudio, wav: Path) -> None:
    fake.release.set()
    backend = SimpleaudioBackend(fake)
    backend.play(wav)
    backend.play(wav)
    assert fake.plays[0].stop_entered.is_set()
    assert not fake.plays[0].is_playing() and fake.plays[1].is_playing()


def test_stop_with_nothing_playing_is_harmless(fake: FakeSimpleaudio) -> None:
    backend = SimpleaudioBackend(fake)
    backend.stop()
    backend.stop()
    assert not backend.is_playing()


def test_a_bad_file_raises_and_leaves_the_music_playing(
    fake: FakeSimpleaudio, wav: Path, tmp_path: Path
) -> None:
    backend = SimpleaudioBackend(fake)
    backend.play(wav)
    text = tmp_path / "notes.txt"
    text.write_text("not music")
    with pytest.raises(AudioFileError, match="cannot be decoded"):
        backend.play(text)
    assert not fake.plays[0].stop_entered.is_set()
    assert backend.is_playing()


def test_a_device_lost_mid_evening_turns_silent_with_a_reason_and_recovers(
    fake: FakeSimpleaudio, wav: Path
) -> None:
    fake.release.set()
    backend = SimpleaudioBackend(fake)
    fake.fail = RuntimeError(
        "Error opening PCM device. -- CODE: -16 -- MSG: Device or resource busy"
    )
    backend.play(wav)  # never raises for device trouble
    assert not backend.available
    assert "Device or resource busy" in backend.reason
    assert not backend.is_playing()
    fake.fail = None
    backend.play(wav)
    assert backend.available and backend.reason == ""


def test_silent_backend_records_what_would_play_and_checks_files(wav: Path, tmp_path: Path) -> None:
    backend = SilentBackend()
    backend.play(wav)
    backend.stop()
    assert backend.played == [wav]
    assert not backend.is_playing() and not backend.available
    with pytest.raises(AudioFileError):
        backend.play(tmp_path / "missing.wav")


def test_silent_reason_follows_the_language() -> None:
    backend = open_backend("silent")
    try:
        assert backend.reason == "Sound is turned off; the countdown still runs."
        set_language("zh")
        assert backend.reason == "声音已关闭；倒计时照常进行。"
    finally:
        set_language("en")


def test_unknown_backend_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown audio backend"):
        open_backend("pulse")


def test_environment_variable_forces_silence(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COMPANION_AUDIO", "silent")
    assert open_backend().name == "silent"
    monkeypatch.setenv("COMPANION_AUDIO", "bogus")
    with pytest.raises(ValueError, match="unknown audio backend"):
        open_backend()


def test_the_background_probe_reads_silent_until_done_then_hands_over(wav: Path) -> None:
    from companion.audio.backend import BackgroundBackend

    release, ready = threading.Event(), threading.Event()
    opened = SilentBackend("No sound card found: no music, the countdown still runs.")

    def opener(prefer: str | None) -> AudioBackend:
        release.wait(10)
        return opened

    bg = BackgroundBackend(on_ready=ready.set, opener=opener)
    assert isinstance(bg, AudioBackend)
    assert (bg.ready, bg.name, bg.available) == (False, "…", False)
    assert bg.reason == "Checking the sound device…"
    assert not bg.is_playing()
    player = threading.Thread(target=bg.play, args=(wav,), kwargs={"cut_s": 0.1})
    player.start()
    player.join(0.2)
    assert player.is_alive() and opened.played == [], "played before the device was known"
    release.set()
    assert ready.wait(10)
    player.join(10)
    assert opened.played == [wav] and opened.cuts == [0.1]
    assert opened.lengths == [pytest.approx(0.1)]
    assert (bg.name, bg.reason) == ("silent", opened.reason)


def test_a_probe_that_raises_leaves_a_silent_backend_with_the_reason() -> None:
    from companion.audio.backend import BackgroundBackend

    bg = BackgroundBackend(prefer="pulse")
    backend = bg.wait_ready(10)
    assert backend is not None and backend.name == "silent"
    assert "unknown audio backend 'pulse'" in bg.reason
