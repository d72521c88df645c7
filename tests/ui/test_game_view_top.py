"""A game screen opens at the top of its view: focusing a game widget below the fold
does not scroll the phase banner and the top of the board away.

Before the fix the Shadow Cats setup at 80x24 opened scrolled down (its players table
takes focus and Textual scrolled the game view to show it whole): the phase banner, the
top row of the ring and the top of the last-attack box were off screen. Failed before.
"""

from __future__ import annotations

import random

import pytest

from companion.games.shadow_cats.screen import ShadowCatsScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_shadow_cats_setup_opens_with_its_banner_on_screen(tmp_path, lang):
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", ["Ann", "Bo", "Cy", "Di"], {})
        await app.settle()
        for _ in range(5):
            await pilot.pause(0.05)
        screen = app.screen
        assert isinstance(screen, ShadowCatsScreen)
        assert screen.focused is screen.query_one("#sc-players")
        assert screen.query_one("#game-view").scroll_y == 0
        banner = str(screen.query_one("#sc-phase").render()).strip()
        assert banner and banner in visible_text(app)
