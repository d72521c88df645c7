"""A screen covered by an opaque one repaints nothing of what is shown (issue 26).

Textual counts the screen right under the top one as visible whatever the top one's
background, so its refreshes are passed up: Home's header clock, ticking under a game
screen, made the whole game screen repaint once a second (its ring, its tables, its
log) while nothing of Home could be seen. Counted here as the widgets the top screen
renders, not timed. A dialog, which lets its screen show through, still has it drawn
beneath."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen
from textual.widgets._header import HeaderClock

from companion.games import GAMES
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen
from companion.widgets.game_screen import GameScreen
from tests.open_game import mid_game


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_homes_clock_under_a_game_screen_repaints_nothing_of_it(
    tmp_path: Path, info: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    passed_up: list[tuple[Any, ...]] = []
    refresh = Screen.refresh

    def watched(self, *regions, **kwargs):  # type: ignore[no-untyped-def]
        if regions and self is self.app.screen:
            passed_up.append(regions)  # a screen beneath asks the top one to redraw
        return refresh(self, *regions, **kwargs)

    monkeypatch.setattr(Screen, "refresh", watched)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=(160, 48)) as pilot:
        app.open_session(mid_game(app, info))
        await app.settle()
        await pilot.pause(0.2)
        assert isinstance(app.screen, GameScreen)
        home = next(s for s in app.screen_stack if isinstance(s, HomeScreen))
        home_clock = home.query_one(HeaderClock)
        for _tick in range(3):
            passed_up.clear()
            home_clock.refresh()  # what its one-second timer does
            await pilot.pause(0.1)
            # Before: Home's regions, the whole screen among them, at every tick.
            assert passed_up == [], (info.id, passed_up)
        await pilot.press("escape")  # back to Home: it shows what it is now
        await app.settle()
        assert app.screen is home
        assert home.query_one("#games").option_count


async def test_a_dialog_still_shows_its_screen_beneath(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=(80, 24)) as pilot:
        app.open_session(mid_game(app, GAMES[-1]))
        await app.settle()
        game = app.screen
        await pilot.press("question_mark")  # the help, a screen over the game
        await app.settle()
        assert app.screen is not game
        if app.screen.styles.background.a < 1:
            assert game in app._background_screens
        else:
            assert app._background_screens == []
