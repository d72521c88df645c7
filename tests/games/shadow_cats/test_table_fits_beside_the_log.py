"""The players table fits the room beside the log: with the log shown at 80x24 (``l``) or
after a resize, the names give way (cut with …) and every column stays on screen —
Distance was off screen and Identity cut to 「身」 (seen in tmux, 8 players, 16-cell names)."""

from __future__ import annotations

import random

import pytest

from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.games.snapshots import BUSY_NAMES
from tests.screen_text import visible_text

TITLES = {
    "zh": ["玩家", "角色", "生命值", "场地", "身份", "距离"],
    "en": ["Player", "Character", "HP", "Location", "Ident", "Dist"],
}


def _header(app, first: str) -> str:  # type: ignore[no-untyped-def]
    return next(line for line in visible_text(app).splitlines() if first in line)


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_every_column_is_on_screen_beside_the_log(tmp_path, lang) -> None:  # type: ignore[no-untyped-def]
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(7))
    titles = TITLES[lang]
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.start_session("shadow-cats", BUSY_NAMES, {})
            await app.settle()
            await pilot.press("s")
            await app.settle()
            await pilot.press("l")  # the log, folded at 80 columns, is shown
            await app.settle()
            await pilot.pause()
            await pilot.pause()
            header = _header(app, titles[0])
            for title in titles:
                assert title in header, header
            await pilot.resize_terminal(100, 30)
            await app.settle()
            await pilot.pause()
            await pilot.pause()
            header = _header(app, titles[0])
            for title in titles:
                assert title in header, header
            await pilot.press("ctrl+q")
    finally:
        set_language("en")
