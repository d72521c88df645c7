"""The new-session form at 80x24, as a host meets it (docs/tour/scorepad.md).

Found on the tmux tour: the column titles and option labels were cut at the
column's edge ("New player (enter to", "Target score that ends t"), and a target of
-5 was refused under the seats as "Option target must be at least 0" (the option's
internal name, far from the field). Both failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, Label

from companion.games import GAMES, find_game
from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.new_session import NewSessionScreen
from tests.screen_text import missing_characters, visible_text


async def _form(pilot, app, game: str) -> NewSessionScreen:  # type: ignore[no-untyped-def]
    await pilot.pause()
    app.push_screen(NewSessionScreen(find_game(game)))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, NewSessionScreen)
    return screen


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("game", [g.id for g in GAMES])
async def test_every_title_and_label_of_the_form_is_whole(
    tmp_path: Path, game: str, lang: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _form(pilot, app, game)
        for label in screen.query(".section-title, .option-label").results(Label):
            label.scroll_visible(animate=False)
            await pilot.pause()
            text = str(label.render())
            shown = visible_text(app)
            assert not missing_characters(text, shown), (text, shown)


async def test_a_number_out_of_range_is_refused_next_to_its_field(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _form(pilot, app, "scorepad")
        for name in ("Ann", "Bo"):
            screen.add_seat(name)
        screen.query_one("#opt-target", Input).value = "-5"
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.settle()
        assert app.screen is screen  # not started
        assert str(screen.query_one("#opt-error-target", Label).render()) == _(
            "At least {minimum}."
        ).format(minimum=0)
        assert "target" not in str(screen.query_one("#setup-error", Label).render())
