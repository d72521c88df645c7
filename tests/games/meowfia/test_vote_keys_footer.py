"""The ballot's footer names as many seat keys as the table has: "1–8" at eight seats,
not "1–0 Vote: seat 1–9, 0" (seen at 80x24 and 160x48 in a Meowfia reckoning with 8)."""

from __future__ import annotations

import random

import pytest

from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gus", "Hal", "Ivy", "Jo"]


@pytest.mark.parametrize(("players", "keys"), [(8, "1–8"), (10, "1–0")])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_ballot_footer_names_the_seats_of_this_table(
    tmp_path, players, keys, lang
) -> None:  # type: ignore[no-untyped-def]
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    try:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            app.start_session("meowfia", NAMES[:players], {})
            await app.settle()
            for key in ("1", "d", "o", "e", "c"):
                await pilot.press(key)
                await app.settle()
            await pilot.pause()
            await pilot.pause()
            footer = visible_text(app).rstrip().splitlines()[-1]
            assert f"{keys} " in footer, footer
            assert "1–9" not in footer, footer
            await pilot.press("ctrl+q")
    finally:
        set_language("en")
