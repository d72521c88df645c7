"""A key that is none of a key-choice dialog's answers says so in the dialog.

Before the fix 'x' in "Which building does the Sheriff open? [n] [e] [s] [w]" did
nothing at all: the host could not tell a dead dialog from a wrong key. Failed before.
"""

from __future__ import annotations

import random

import pytest
from textual.widgets import Label

from companion.games.meowfia.rules import SmugglingDone, Start
from companion.i18n import catalog
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.key_choice import KeyChoiceDialog
from tests.screen_text import missing_characters, visible_text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_wrong_key_is_named_and_the_dialog_stays(tmp_path, lang):
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", ["Ann", "Bo", "Cy", "Di", "Ed", "Fa"], {})
        await pilot.pause()
        screen = app.screen
        for action in (Start("p1", "p2"), SmugglingDone()):
            screen.submit(action)
            await app.settle()
        await pilot.press("o")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, KeyChoiceDialog)
        await pilot.press("x")
        await pilot.pause()
        assert app.screen is dialog  # still asking
        said = str(dialog.query_one("#key-choice-error", Label).render())
        assert "x" in said and all(c.key_label in said for c in dialog.choices)
        first, second = (c.key_label for c in dialog.choices[:2])
        assert (f"{first}、{second}" if lang == "zh" else f"{first}, {second}") in said
        wanted = catalog(lang).gettext("{key} is not one of the answers: press {keys} or escape.")
        assert wanted.split("{")[0].strip() == "" or wanted.split("{")[0].strip() in said
        assert missing_characters(said, visible_text(app)) == ""
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, KeyChoiceDialog) and app.screen is not dialog  # next question
