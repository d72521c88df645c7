"""The review before an act closes shows every player's Act and Total at every size
(issue 22: the dialog was 64 columns wide, Act and Total missing at 80x24, Total at
120x30 and 160x48). Failed before the fix.

One act per language is played up to its last evaluation; at each size the terminal is
resized, and the last player's form and the review are opened afresh (``escape`` leaves
the review without saving, so the act stays open for the next size): the review's name
width is chosen when it opens, from the size at that moment, as in a table played at
that size from the start."""

from __future__ import annotations

from pathlib import Path

import pytest
from mc_ui_helpers import FakeAudio, Table
from textual.widgets import Input

from companion.games.meeple_circus.dialogs import ReviewDialog, ScoreDialog
from companion.games.meeple_circus.screen import MeepleCircusScreen
from companion.i18n import catalog
from companion.rules.base import Player
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text

PLAYERS = (
    Player("p1", "喵喵大王陛下陛下", None, "2010-01-01"),
    Player("p2", "Bartholomew-Long", None, "2011-01-01"),
    Player("p3", "小明小明小明小明", None, "2012-01-01"),
    Player("p4", "Annabelle-Winter", None, "2013-01-01"),
    Player("p5", "美美美美美美美美", None, "2014-01-01"),
)
SIZES = ((80, 24), (120, 30), (160, 48))


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_review_shows_act_and_total(tmp_path: Path, sounds: Path, lang: str) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=SIZES[0]) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", PLAYERS, {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p", "p", "p", "p")
        await t.start_music()
        await t.later(31)
        await t.keys("f")
        for key, blue in zip("1234", ("1", "2", "3", "4"), strict=True):
            await t.score(key, "", blue)
        gettext = catalog(lang).gettext
        for size in SIZES:
            if app.size != size:
                await pilot.resize_terminal(*size)
                await app.settle()
            assert tuple(app.size) == size
            await t.keys("5")  # the last evaluation opens the review
            form = app.screen
            assert isinstance(form, ScoreDialog), size
            form.query_one("#mc-blue", Input).value = "9"
            await pilot.pause()
            await pilot.press("enter")
            await app.settle()
            assert isinstance(app.screen, ReviewDialog), (size, visible_text(app))
            await pilot.pause()
            shown = visible_text(app)
            for word in (gettext("Act"), gettext("Total")):
                assert word in shown, (size, word, shown)
            assert "9" in shown, (size, shown)
            await pilot.press("escape")  # back, the last evaluation not saved
            await app.settle()
            assert isinstance(app.screen, MeepleCircusScreen), size
            assert t.state.unscored() == ("p5",), size
