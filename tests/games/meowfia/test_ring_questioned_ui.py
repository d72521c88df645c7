"""Issue 21, item 2, with the issue's keys: ``1``, six ``space``, one ``q``, ``o n c``.

Before: "Ring: 6 Fay … counts 1.5" — the last of the order, never questioned. Now the
building dialog first says who was questioned and asks to open now; ``n`` (a building)
is the yes, and the ring goes to the one player questioned.
"""

from __future__ import annotations

import random

import pytest

from companion.games.meowfia.screen import MeowfiaScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.key_choice import KeyChoiceDialog

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay"]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_ring_goes_to_the_one_player_questioned(tmp_path, lang) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES, {})
        await pilot.pause()
        for key in ["1", *["space"] * 6, "d", "q", "o"]:
            await pilot.press(key)
            await app.settle()
        dialog = app.screen
        assert isinstance(dialog, KeyChoiceDialog)
        screen = app.screen_stack[-2]
        assert isinstance(screen, MeowfiaScreen)
        state = screen.session.state
        (asked,) = state.current_round.questioned
        who = state.name(asked.player)
        text = " ".join(str(w.render()) for w in dialog.query("Static"))
        if lang == "en":
            assert f"Only {who} has been questioned; open a building now?" in text
            assert f"If it holds the contraband, {who} takes the ring." in text
        else:
            assert f"只有 {who} 被盘问过；现在就打开建筑吗？" in text
        for key in ["n", "c"]:
            await pilot.press(key)
            await app.settle()
        state = screen.session.state
        assert state.phase == "reckoning"
        assert state.ring == asked.player != state.current_round.order[-1]
        assert state.ballot.weight(asked.player) == 1.5


async def test_escape_at_the_question_opens_nothing(tmp_path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = app.start_session("meowfia", NAMES, {})
        await pilot.pause()
        for key in ["1", "d", "o", "escape"]:
            await pilot.press(key)
            await app.settle()
        assert live.state.phase == "inspection" and live.state.current_round.result is None


async def test_the_counter_dialog_offers_only_values_the_rules_accept(tmp_path) -> None:
    """Issue 21, item 7: ``m c i 3`` during the smuggling was offered, then refused after
    the host had typed a reason. The value list comes from ``GUIDE.choices`` now."""
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(5))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = app.start_session("meowfia", NAMES, {})
        await pilot.pause()
        for key in ["1", "m", "c", "i"]:
            await pilot.press(key)
            await app.settle()
        dialog = app.screen
        assert isinstance(dialog, KeyChoiceDialog)
        assert [c.id for c in dialog.choices] == ["0", "1", "2"]  # no 3rd intercept here
        await pilot.press("3")  # not offered: nothing happens, no reason is asked
        await app.settle()
        assert app.screen is dialog and live.state.intercepts == 0
