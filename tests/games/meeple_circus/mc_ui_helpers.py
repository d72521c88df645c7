"""Shared pieces of the Meeple Circus Pilot tests: fake audio, sounds, a table driver."""

from __future__ import annotations

import wave
from pathlib import Path

from rich.console import Console
from textual.widgets import Input, Static

from companion.games.meeple_circus.dialogs import ReviewDialog, ScoreDialog
from companion.games.meeple_circus.rules.state import CircusState
from companion.games.meeple_circus.screen import MeepleCircusScreen
from companion.session.clock import ManualClock
from companion.widgets.countdown import Countdown

SIZE = (160, 50)
TRACK_SECONDS = {
    "big-top-march": 60,
    "jugglers-galop": 45,
    "tightrope-waltz": 30,
    "clown-car-polka": 40,
    "grand-finale": 50,
}
CUES = ("start", "warning", "end", "tadaa", "tie")


def write_wav(path: Path, seconds: float) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(8000)
        w.writeframes(b"\x80" * int(8000 * seconds))


class FakeAudio:
    """An audio backend that records what it was asked to do."""

    name = "fake-audio"
    available = True
    reason = ""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.current: str | None = None

    def play(self, path: Path) -> None:
        self.current = Path(path).stem
        self.calls.append(f"play:{self.current}")

    def stop(self) -> None:
        self.current = None
        self.calls.append("stop")

    def is_playing(self) -> bool:
        return self.current is not None


def plain(widget: Static) -> str:
    console = Console(width=150, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(widget.content)
    return console.export_text()


async def type_text(pilot, text: str) -> None:
    for ch in text:
        await pilot.press(ch)


class Table:
    """The running app, its screen and the fake clock and audio."""

    def __init__(self, app, pilot, clock: ManualClock, audio: FakeAudio) -> None:
        self.app, self.pilot, self.clock, self.audio = app, pilot, clock, audio

    @property
    def screen(self) -> MeepleCircusScreen:
        screen = self.app.screen
        assert isinstance(screen, MeepleCircusScreen), screen
        return screen

    @property
    def state(self) -> CircusState:
        return self.screen.circus

    async def keys(self, *keys: str) -> None:
        for key in keys:
            await self.pilot.press(key)
            await self.app.settle()

    async def later(self, seconds: float) -> None:
        """Let ``seconds`` pass on the fake clock, then tick the countdown."""
        screen = self.screen
        self.clock.advance(seconds)
        screen.tick()
        await self.app.settle()
        await screen.audio_settled()
        await self.app.settle()

    async def start_music(self) -> None:
        screen = self.screen
        await self.pilot.press("s")
        await screen.audio_settled()
        await self.app.settle()

    @property
    def countdown(self) -> Countdown:
        return self.screen.query_one("#mc-countdown", Countdown)

    async def score(self, key: str, *fields: str, typed: bool = False) -> None:
        """Open the form with a player's key and fill the fields in order.

        ``typed``: key by key (slow on a small machine); otherwise each field's text
        is put in at once, as a paste would.
        """
        await self.keys(key)
        dialog = self.app.screen
        assert isinstance(dialog, ScoreDialog)
        inputs = list(dialog.query(Input))
        for field, widget in zip(fields, inputs, strict=False):
            if typed:
                widget.focus()
                await self.pilot.pause()
                await type_text(self.pilot, field)
            else:
                widget.value = field
        await self.pilot.pause()
        await self.pilot.press("enter")
        await self.app.settle()
        if isinstance(self.app.screen, ReviewDialog):  # the act's last evaluation: close it
            await self.pilot.press("enter")
            await self.app.settle()
        assert isinstance(self.app.screen, MeepleCircusScreen), "the form did not close"
