"""A seat's notes (Sheriff, the markers) stay readable however narrow the seat list is:
with the log shown at 80x24, 8 players with 16-cell names left the notes one cell and
the Sheriff note read 「…」 on two lines (seen in tmux). A note that does not fit beside
the name goes on the line below it."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from companion.games.meowfia import panels
from companion.games.meowfia.view import table_view
from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.games.snapshots import BUSY_NAMES
from tests.screen_text import visible_text


def _lines(renderable, width: int) -> list[str]:  # type: ignore[no-untyped-def]
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return [line.rstrip() for line in console.export_text().splitlines()]


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_sheriff_note_is_whole_beside_the_log(tmp_path, lang) -> None:  # type: ignore[no-untyped-def]
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    sheriff = "警长" if lang == "zh" else "Sheriff"
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.start_session("meowfia", BUSY_NAMES, {})
            await app.settle()
            for key in ("1", "l"):
                await pilot.press(key)
                await app.settle()
            await pilot.pause()
            text = visible_text(app)
            assert sheriff in text, text
            assert "…\n" not in text.replace(" ", "").replace("│", ""), text
            await pilot.press("ctrl+q")
    finally:
        set_language("en")


def test_every_seat_number_name_and_note_at_any_width() -> None:
    from meowfia_play import play

    from companion.games.meowfia.rules import GAME, Start
    from companion.rules.base import seat_players

    state = play(GAME.setup(seat_players(BUSY_NAMES), {}), Start("p1", "p2"))
    view = table_view(state)
    for width in (22, 24, 30, 60):
        lines = _lines(panels.seats(view), width)
        text = "\n".join(lines)
        assert "Sheriff" in text, (width, text)
        for seat, name in enumerate(BUSY_NAMES, start=1):
            assert f"{seat} {name}" in text, (width, text)
        assert "…" not in text, (width, text)
