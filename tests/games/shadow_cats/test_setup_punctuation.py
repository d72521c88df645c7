"""The Chinese setup panel punctuates like Chinese: the deal reads 「安：小红 / 诺莉」 and the
equipment deck 「武器（12）：…」, not the ASCII ``安: …`` and ``武器 (12): …`` seen at 80x24."""

from __future__ import annotations

import random
import re

from textual.widgets import Static

from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app

NAMES = ["安", "博", "西", "迪"]


def _setup(screen) -> str:  # type: ignore[no-untyped-def]
    return str(screen.query_one("#sc-setup", Static).render())


async def test_the_chinese_setup_panel_has_chinese_punctuation(tmp_path) -> None:  # type: ignore[no-untyped-def]
    app = make_app(tmp_path / "zh.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(3))
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            app.start_session("shadow-cats", NAMES, {})
            await app.settle()
            screen = app.screen
            dealt = _setup(screen)
            for name in NAMES:
                assert f"{name}：" in dealt, dealt
            assert not re.search(r"[\u4e00-\u9fff]: ", dealt), dealt
            await pilot.press("s")
            await app.settle()
            deck = _setup(screen)
            assert re.search(r"武器（\d+）：", deck), deck
            assert re.search(r"防具（\d+）：", deck), deck
            assert " (" not in deck and "): " not in deck, deck
            await pilot.press("ctrl+q")
    finally:
        set_language("en")
