"""A refused value keeps its dialog open with the typed text and says why next to it
(issue 22, "Typing"): a role name over 40 characters closed the dialog, threw the text
away and said "少于 40" where the docs say "up to 40"."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Label

from companion.games.meowfia.dialogs import ask_tile
from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import PromptDialog
from tests.screen_text import visible_text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_too_long_role_name_stays_in_its_dialog(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    answers: list[object] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.start_session("meowfia", ["Ann", "Bo", "Cy", "Dee", "Eve"], {})
            await app.settle()
            await pilot.pause()
            screen = app.screen

            async def ask() -> None:
                answers.append(await ask_tile(screen, "Which tile?", "Ann"))

            screen.run_worker(ask())
            await pilot.pause()
            await pilot.press("m")
            await pilot.pause()
            assert isinstance(app.screen, PromptDialog)
            long_name = "x" * 41
            await pilot.press(*long_name, "enter")
            await pilot.pause()
            assert isinstance(app.screen, PromptDialog), "the dialog closed"
            assert app.screen.query_one(Input).value == long_name
            error = str(app.screen.query_one("#prompt-error", Label).render())
            if lang == "en":
                assert error == "A role name is at most 40 characters (this one has 41).", error
            else:
                assert error == "角色名最多 40 个字符（现在是 41 个）。", error
            assert error in visible_text(app).replace("\n", "") or "41" in visible_text(app)
            await pilot.press("backspace", "enter")
            await pilot.pause()
            await app.settle()
            assert answers == [("meowfia", "x" * 40)]
    finally:
        set_language("en")
