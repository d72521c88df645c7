"""The 喵喵咪呀 screen at 80x24 and 100x30: the vote grid keeps names, weights, votes, totals.

Before: at 100x30 the grid showed only its seat column (a 48-column totals panel and
the log took the width); the phase timer and "Time is up" were not on the screen's
body at all.
"""

from __future__ import annotations

import random
import re

import pytest

from companion.session.clock import ManualClock
from companion.ui.app import make_app

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gus", "Hal", "Ivy", "Jo"]
S = 1_000_000_000


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def play_keys(pilot, app, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await app.settle()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
@pytest.mark.parametrize("players", [6, 10])
async def test_the_vote_grid_fits(tmp_path, size, players) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES[:players], {})
        await pilot.pause()
        await play_keys(pilot, app, "1", "d", "o", "e", "c", "3", "a")  # Bo → 3 Cy; Cy abstains
        state = app.screen.session.state
        text = screen_text(app)
        lines = text.splitlines()
        for voter in state.voters:
            name = state.name(voter)
            seat = voter[1:] if voter != "p10" else "0"
            pattern = re.compile(rf"^\W*{seat} +{name} ")
            row = next((line for line in lines if pattern.search(line.strip(" │▎▊"))), "")
            assert row, (name, text)
            weight = "1.5" if voter == state.ring else "1"
            assert f" {weight} " in row, (name, row)
        assert "→ 3 Cy" in text and "abstains" in text
        assert "Votes received" in text and "leads" in text
        assert "2 of" in text  # the count of entries


async def test_the_timer_and_time_is_up_stay_on_the_screen(tmp_path) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=clock, rng=random.Random(3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES[:6], {"smuggling_seconds": 20})
        await pilot.pause()
        await play_keys(pilot, app, "1", "t")
        assert "Timer: 0:20" in screen_text(app)
        clock.advance(21)
        for _ in range(50):
            await pilot.pause(0.1)
            if "Time is up!" in screen_text(app):
                break
        assert "Time is up!" in screen_text(app)
        clock.advance(600)
        await pilot.pause(0.5)
        await play_keys(pilot, app, "m", "c", "s", "1", *"typo", "enter")  # another commit
        assert app.screen.session.state.smuggles == 1
        assert "Time is up!" in screen_text(app)  # still there: a fact, not a toast


async def test_every_phase_says_what_to_do_and_help_has_the_rules(tmp_path) -> None:
    """Before: the screen's only help was "请按警长的座位号" (press the Sheriff's seat)."""
    from companion.games.meowfia.guide import GUIDE
    from companion.i18n import catalog
    from companion.widgets.help import HelpScreen

    zh = catalog("zh").gettext
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES[:6], {})
        await pilot.pause()
        screen = app.screen
        prompts = set()
        for keys in ([], ["1"], ["d"], ["q"] * 5 + ["o", "e", "c"], ["3"]):
            await play_keys(pilot, app, *keys)
            expected = GUIDE.prompt(screen.session.state).render(zh)
            # The prompt wraps (Chinese between characters): compare without the breaks.
            assert re.sub(r"\s+", "", expected) in re.sub(r"\s+", "", screen_text(app)), expected
            prompts.add(expected)
        assert len(prompts) == 5  # one sentence per phase, each different
        await play_keys(pilot, app, "question_mark")
        assert isinstance(app.screen, HelpScreen)
        rules = str(app.screen.query_one("#help-rules").render())
        assert "戒指持有者计 1.5 票" in rules


@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_the_seat_numbers_are_on_screen_when_the_sheriff_is_named(tmp_path, size) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES[:10], {})
        await pilot.pause()
        text = screen_text(app)
        for seat, name in enumerate(NAMES[:10], start=1):
            assert re.search(rf"\b{seat % 10} +{name}\b", text), (seat, name, text)
