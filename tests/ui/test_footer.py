"""The footer at 80x24: the phase's keys come first and no character is lost.

Found on the tmux tour (docs/tour/scorepad.md): at 80x24 the score pad's footer
began with undo, redo, home, help and log, and the keys that end a round and the
game ("c Close round", "E End game") were cut off; in Chinese the palette key read
"▏^p   令" (its 命 dropped where the keys below ran under it, Textual #6357).
Both failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import missing_characters, visible_text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_footer_shows_the_phase_keys_first_and_whole(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo"], {})
        await pilot.pause()
        await pilot.press("plus")  # a point in the round: closing it is allowed now
        await app.settle()
        await pilot.pause()
        footer = visible_text(app).splitlines()[-1]
        for word in (_("Score"), _("Close round")):
            assert word in footer, footer
        assert footer.index(_("Score")) < footer.index(_("Undo")), footer
        # The palette key is drawn whole or, where the game's keys need the room, left
        # out (ctrl+p still opens it): never with a character dropped under it (#6357).
        palette = "^p " + _("Commands")
        if "^p" in footer:
            assert not missing_characters(palette, footer.split("▏")[-1]), footer
        assert "? " + _("Help") in footer, footer


async def test_the_help_lists_the_games_keys_in_the_chosen_language(tmp_path: Path) -> None:
    """``?`` in Chinese listed Textual's "Focus Next", "Focus Previous" and "Copy
    selected text" in English (the tour, 80x24 zh). Failed before the fix."""
    import re

    from companion.widgets.help import HelpScreen

    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["安", "博"], {})
        await pilot.pause()
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = "\n".join(  # inside the dialog's frame only
            line[line.index("█") + 1 : line.rindex("█")]
            for line in visible_text(app).splitlines()
            if line.count("█") >= 2
        )
        words = set(re.findall(r"[A-Za-z]{3,}", shown)) - {"JSON", "Tab", "shift", "tab", "esc"}
        assert not words, shown


async def test_the_title_names_the_game_the_host_named(tmp_path: Path) -> None:
    """Home listed the session as "Carcassonne" but its screen's title said "Score pad"
    (the tour). Failed before the fix."""
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo"], {"game_name": "Carcassonne"})
        await pilot.pause()
        assert "Carcassonne ·" in visible_text(app).splitlines()[0]


async def test_a_resumed_score_pad_opens_on_the_next_seat(tmp_path: Path) -> None:
    """The tour (zh, after kill -9): Ann and Bo had scored, the resumed screen opened
    on Ann, and "s 12 Enter" gave Ann the points meant for Cy. Failed before the fix."""
    from companion.games.scorepad.rules import Score
    from companion.widgets.dialogs import PromptDialog

    db = tmp_path / "db.sqlite3"
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", ["Ann", "Bo", "Cy"], {})
        await pilot.pause()
        live.act(Score("p1", 6))
        live.act(Score("p2", 3))
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("enter")  # "Continue an unfinished session?" → resume
        for _i in range(3):
            await pilot.pause()
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)
        assert "Points for Cy" in str(app.screen.question)
