"""The start-up recovery path never leaves a dead screen (issue 13, item 1).

"Continue an unfinished session?" -> "Not now" (Down, Enter) used to pop the home
screen too (the shared choice dialog and the resume dialog both dismissed), leaving
an empty screen where only ctrl+q worked; resuming and then leaving the game did the
same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen, ResumeDialog
from companion.widgets.game_screen import GameScreen

SIZE = (100, 30)


async def _unfinished(db: Path) -> None:
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo"], {})
        await pilot.pause()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_not_now_lands_on_a_working_home_screen(tmp_path: Path, lang: str) -> None:
    db = tmp_path / "db.sqlite3"
    await _unfinished(db)
    app = make_app(db, lang=lang, clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)
        await pilot.press("down", "enter")  # "Not now"
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.focused is not None
        await pilot.press("r")  # the home screen still works: resume from its table
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)


async def test_resume_then_leave_the_game_lands_on_home(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    await _unfinished(db)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # the first unfinished session
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert [type(s) for s in app.screen_stack][-1] is HomeScreen
        assert app.screen.focused is not None
