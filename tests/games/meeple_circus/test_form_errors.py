"""The evaluation form shows every refused field at once and counts only the accepted
ones (issue 22, "Typing").

Before the fix, ``5 Tab -1 Tab 1.5 Tab 8 Enter`` showed one error (the first the form
met) and a breakdown with ``Blue -1`` and ``Red 8``; an act-3 challenge of 21 showed
``挑战 21 / 本幕 33``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mc_ui_helpers import FakeAudio, Table, plain, type_text
from textual.app import App
from textual.widgets import Label, Static

from companion.games.meeple_circus.dialogs import SOURCE_LABELS, ScoreDialog
from companion.games.meeple_circus.rules.game import field_problems
from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import missing_characters, visible_text


def breakdown(dialog: ScoreDialog) -> dict[str, str]:
    """The breakdown's rows: label → points."""
    rows = {}
    for line in plain(dialog.query_one("#mc-breakdown", Static)).splitlines():
        label, _sep, points = line.rstrip().rpartition(" ")
        if label.strip():
            rows[label.strip()] = points
    return rows


def field_error(dialog: ScoreDialog, fid: str) -> str:
    label = dialog.query_one(f"#mc-{fid}-error", Label)
    return str(label.render()) if label.display else ""


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_refused_field_says_why_and_counts_nothing(
    tmp_path: Path, sounds: Path, lang: str
) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        await t.later(31)
        await t.keys("f", "1")
        dialog = app.screen
        assert isinstance(dialog, ScoreDialog)
        for key in ("5", "tab", "-", "1", "tab", "1", ".", "5", "tab", "8", "enter"):
            await pilot.press(key)
        await pilot.pause()
        assert app.screen is dialog, "a refused entry is not saved"
        assert field_error(dialog, "demands") == ""
        for fid in ("blue", "yellow", "red"):
            assert field_error(dialog, fid), fid
        shown = visible_text(app)
        for fid in ("blue", "yellow", "red"):
            assert not missing_characters(field_error(dialog, fid), shown), (fid, shown)
        rows = breakdown(dialog)
        assert rows[_(SOURCE_LABELS["demands"])] == "5"
        assert rows[_(SOURCE_LABELS["blue"])] == "0"
        assert rows[_(SOURCE_LABELS["red"])] == "0"
        assert rows[_("This act")] == "5"
        # Fixing them one by one clears their messages; then enter saves.
        for fid, text in (("blue", "1"), ("yellow", "2"), ("red", "4")):
            field = dialog.query_one(f"#mc-{fid}")
            field.value = ""  # type: ignore[attr-defined]
            field.focus()
            await type_text(pilot, text)
            await pilot.pause()
            assert field_error(dialog, fid) == ""
        await pilot.press("enter")
        await app.settle()
        assert app.screen is not dialog


class FormApp(App[None]):
    def __init__(self, dialog: ScoreDialog) -> None:
        super().__init__()
        self.dialog = dialog

    def on_mount(self) -> None:
        self.push_screen(self.dialog)


async def test_an_act_3_challenge_of_21_is_refused_and_not_counted() -> None:
    def check(action):  # type: ignore[no-untyped-def]
        return {name: err.render(_) for name, err in field_problems(action, 7).items()}

    dialog = ScoreDialog("p1", "Ann", 3, 0, 10, lambda _a: None, field_check=check)
    app = FormApp(dialog)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        dialog.query_one("#mc-demands").value = "3 3 2"  # type: ignore[attr-defined]
        dialog.query_one("#mc-challenges").value = "21"  # type: ignore[attr-defined]
        await pilot.pause()
        assert "21" in field_error(dialog, "challenges")
        rows = breakdown(dialog)
        assert rows[_(SOURCE_LABELS["challenges"])] == "0"
        assert rows[_("This act")] == "8"
        assert rows[_("Running total")] == "18"
