"""The abort question: "no" by default, names what it discards, never discards a
performance that ended while it was open (issue 13, item 7).

Before: a yes/no dialog where enter meant yes; and the countdown ran on behind it,
so a "y" typed after the music had ended discarded the finished performance.
"""

from __future__ import annotations

from pathlib import Path

from mc_ui_helpers import SIZE, FakeAudio, Table
from textual.widgets import Label

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import ConfirmDialog


async def _performing(tmp_path: Path):  # type: ignore[no-untyped-def]
    clock = ManualClock(start_ns=1_000 * 1_000_000_000)
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock, audio=FakeAudio())
    return app, clock


def question(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one(".dialog-question", Label).render())


async def test_enter_and_escape_keep_the_performance_and_the_question_names_it(
    tmp_path: Path, sounds: Path
) -> None:
    app, clock = await _performing(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        await t.later(5)
        await t.keys("2")  # Bo: Tadaa!
        for answer in ("enter", "escape", "n"):
            await t.keys("a")
            assert isinstance(app.screen, ConfirmDialog)
            assert "1 press (1. Bo)" in question(app)
            await pilot.press(answer)
            await app.settle()
            assert not t.state.performance.attempts[-1].aborted, answer
        await t.keys("a", "y")
        assert t.state.performance.attempts[-1].aborted


async def test_a_performance_that_ends_behind_the_question_is_not_discarded(
    tmp_path: Path, sounds: Path
) -> None:
    app, clock = await _performing(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        game = t.screen
        await t.later(25)
        await t.keys("1")
        await t.keys("a")
        assert isinstance(app.screen, ConfirmDialog)
        clock.advance(10)  # the countdown runs on behind the question: time is up
        game.tick()
        await app.settle()
        assert game.circus.performance.current.end_reason == "music"
        await pilot.press("y")
        await app.settle()
        attempt = game.circus.performance.attempts[-1]
        assert not attempt.aborted and attempt.end_reason == "music"
        # Asked again once it has ended, the question says it discards a finished show.
        await t.keys("a")
        assert "already ended" in question(app)
        await t.keys("y")
        assert game.circus.performance.attempts[-1].aborted
