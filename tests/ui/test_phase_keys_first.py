"""At 80x24 the footer and the help show the keys of the phase first.

Before the fix the footer listed the screen's own keys (undo, redo, home, help, log)
and then every game key in declaration order, dimmed ones included, so at 80 columns
the key that ends the phase ("d Placement done" in 喵喵咪呀's smuggling, "v Turn the
tile" after an accusation, "m Move / roll" in Shadow Cats' start) was cut off; and
``?`` began with Textual's "Focus Next" and listed the seat keys as ``seat('2')``.
"""

from __future__ import annotations

import random

import pytest

from companion.games.meowfia.rules import Inspect, SmugglingDone, Start, Vote
from companion.games.meowfia.screen import MeowfiaScreen
from companion.games.shadow_cats.screen import ShadowCatsScreen
from companion.i18n import catalog
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.help import HelpScreen
from tests.screen_text import visible_text

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa"]


def footer(app) -> str:
    return visible_text(app).rstrip("\n").splitlines()[-1]


def tr(lang: str, text: str) -> str:
    return catalog(lang).gettext(text)


async def submit(app, screen, *actions) -> None:
    for action in actions:
        screen.submit(action)
        await app.settle()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_meowfia_footer_shows_the_key_that_ends_the_phase(tmp_path, lang):
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES, {})
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MeowfiaScreen)
        await submit(app, screen, Start("p1", "p2"))
        await pilot.pause()
        assert tr(lang, "Placement done") in footer(app)
        await submit(app, screen, SmugglingDone(), Inspect("E", "contraband"))
        ballot = screen.session.state.ballot
        await submit(app, screen, *[Vote(v, "p2" if v == "p3" else "p3") for v in ballot.voters])
        await pilot.pause()
        assert screen.session.state.ballot.result == "accused"
        assert tr(lang, "Turn the tile") in footer(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_shadow_cats_footer_shows_the_keys_of_the_phase(tmp_path, lang):
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", NAMES[:4], {})
        await app.settle()
        screen = app.screen
        assert isinstance(screen, ShadowCatsScreen)
        await pilot.pause()
        assert tr(lang, "Start game") in footer(app)
        await pilot.press("s")
        await app.settle()
        await pilot.pause()
        assert screen.session.state.phase == "start"
        assert tr(lang, "Move / roll") in footer(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_lists_the_phase_keys_first_and_no_action_names(tmp_path, lang):
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES, {})
        await pilot.pause()
        screen = app.screen
        await submit(app, screen, Start("p1", "p2"))
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = visible_text(app)
        assert "seat(" not in shown and "Focus Next" not in shown
        assert tr(lang, "Next field") not in shown and tr(lang, "Submit") not in shown
        first, undo = shown.find(tr(lang, "Next prompt")), shown.find(tr(lang, "Undo"))
        assert 0 <= first < undo, shown


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_leaves_out_a_focused_tables_navigation_keys(tmp_path, lang):
    """The Shadow Cats players table is focused: its hidden cursor/page keys (English
    words from Textual, "Cursor up") are no game's keys and stay out of the help."""
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", NAMES[:4], {})
        await app.settle()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = visible_text(app)
        assert "Cursor up" not in shown and "Page up" not in shown
        assert tr(lang, "Start game") in shown
