"""``?`` / F1 on Home, the new-session form and the history, not only on game screens
(issue 13, "help on every screen"). The tour found ``?`` on Home did nothing.

Each help says what the screen is for and lists the keys that work there, in the chosen
language, every character on screen at 80x24 (the text scrolls inside the dialog, so the
check reads the dialog's own text, then what the terminal shows of its first lines).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import Static

from companion.games import find_game
from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.history import HISTORY_ABOUT, HistoryScreen
from companion.ui.home import HOME_ABOUT, HomeScreen
from companion.ui.new_session import NEW_SESSION_ABOUT, NewSessionScreen
from companion.widgets.help import HelpScreen
from tests.screen_text import missing_characters, visible_text


async def open_help(app, pilot, key: str) -> HelpScreen:  # type: ignore[no-untyped-def]
    await pilot.press(key)
    await pilot.pause()
    help_screen = app.screen
    assert isinstance(help_screen, HelpScreen), help_screen
    return help_screen


def shown_text(help_screen: HelpScreen) -> str:
    """The dialog's keys table and text, as plain lines (wide: nothing folded away)."""
    console = Console(width=400, file=io.StringIO(), record=True, color_system=None)
    console.print(help_screen.keys_table())
    rules = str(help_screen.query_one("#help-rules", Static).render())
    return console.export_text() + "\n" + rules


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_on_home_the_form_and_the_history(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        for key in ("question_mark", "f1"):
            help_screen = await open_help(app, pilot, key)
            text = shown_text(help_screen)
            assert not missing_characters(_(HOME_ABOUT), text)
            for label in ("New session", "Rematch", "History"):
                assert _(label) in text, (label, text)
            top = visible_text(app)
            assert _("Keys now") in top and _("Home") in top, top
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)

        app.push_screen(NewSessionScreen(find_game("scorepad")))
        await pilot.pause()
        help_screen = await open_help(app, pilot, "f1")  # the name field keeps "?" as text
        text = shown_text(help_screen)
        assert not missing_characters(_(NEW_SESSION_ABOUT), text)
        assert _("Start") in text and _("Back") in text, text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        await pilot.press("escape")  # nobody seated: straight back home
        await pilot.pause()

        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        help_screen = await open_help(app, pilot, "f1")
        text = shown_text(help_screen)
        assert not missing_characters(_(HISTORY_ABOUT), text)
        assert _("Statistics") in text and _("Export") in text, text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
