"""A game screen's footer at 80 columns: every key it shows is whole, and ``?`` is there.

Seen in tmux at 80x24 (issue 22): with every key that applies shown, compact and all,
the Chinese footers still ran past the edge and the last key was cut in the middle
(Meowfia's ``? 帮``, Shadow Cats' ``n 中…``), so the one key that lists all the others
was the one lost. Every game, both languages, at the opening screen (most keys) with
eight players where the game takes them. Failed before the fix for games whose keys
did not fit.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.widgets._footer import FooterKey

from companion.games import GAMES
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.footer import KeyFooter
from tests.open_game import open_game

NAMES = ["大伟大伟大伟大伟", "小明", "Ann", "美美", "阿强", "Bo", "小红", "Cy"]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_every_footer_key_whole_and_help_kept_at_80_columns(
    tmp_path: Path,
    info,
    lang: str,  # type: ignore[no-untyped-def]
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(2))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = await open_game(app, info, NAMES)
        footer = screen.query_one(KeyFooter)
        line = [strip.text for strip in app.screen._compositor.render_strips()][-1]
        keys = list(footer.query(FooterKey))
        assert keys, line
        for key in keys:
            assert key.region.right <= 80, (key.key_display, key.description, line)
            assert f"{key.key_display} {key.description}" in line, (key.description, line)
        assert any(key.action.endswith("help") for key in keys), line
        await pilot.press("ctrl+q")
