"""The score pad's highlight after an entry, and the arrow keys from there (issue 22).

After points are written the highlight moves on to the next seat. Seen in tmux:
``Enter 12 Enter Down Enter 8 …`` gave the points to the seats one off (Bo +4, Cy +8):
the arrows must start from the seat the highlight shows.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import PromptDialog
from tests.screen_text import visible_text


async def write(pilot, app, points: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(app.screen, PromptDialog)
    for ch in points:
        await pilot.press(ch)
    await pilot.press("enter")
    await app.settle()
    await pilot.pause()


@pytest.mark.parametrize("burst", [False, True])
async def test_arrows_move_from_the_seat_the_entry_moved_the_highlight_to(
    tmp_path: Path, burst: bool
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo", "Cy", "Di"], {})
        await app.settle()
        await pilot.pause()
        screen = app.screen
        if burst:  # typed as fast as a host types: every key in one go
            await pilot.press(
                "enter", "1", "2", "enter", "enter", "4", "enter", "up", "enter", "8", "enter"
            )
            await app.settle()
            await pilot.pause()
        else:
            await write(pilot, app, "12")  # Ann; the highlight moves on to Bo
            table = screen.query_one("#pad", DataTable)
            assert table.cursor_row == 1  # Bo, where the arrows start from
            hint = " ".join(visible_text(app).split())
            assert "the highlight then moves on to the next player" in hint, hint
            await write(pilot, app, "4")  # Bo, as the highlight said; on to Cy
            assert table.cursor_row == 2
            await pilot.press("up")  # back to Bo
            await pilot.pause()
            assert table.cursor_row == 1
            await write(pilot, app, "8")
        totals = screen.session.state.totals()
        assert totals == {"p1": 12, "p2": 12, "p3": 0, "p4": 0}, totals
