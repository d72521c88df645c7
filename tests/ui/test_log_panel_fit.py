"""The log panel wraps at its real width and keeps following new entries (issue 22).

Seen in tmux: entries added while the panel was folded away (80 columns), or before a
resize from 80 to 160 columns, wrapped at ~20 columns inside a ~50-column panel
(``投票结束：Davi`` / ``d 以 3.5 票被指认。``); in a long game it stopped following
(showed #9–#31 while #50+ existed). Both failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

from rich.cells import cell_len

from companion.games.scorepad.rules import Score
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.log_panel import LogPanel

LONG = "Annabelle-Longname"


async def _entries(app, pilot, count: int) -> None:  # type: ignore[no-untyped-def]
    screen = app.screen
    for i in range(count):
        screen.submit(Score(player=f"p{1 + i % 2}", points=i + 1))
        await app.settle()
    await pilot.pause()


def _widest(log: LogPanel) -> int:
    return max(cell_len(strip.text.rstrip()) for strip in log.lines)


async def test_entries_added_while_folded_wrap_at_the_panel_width(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", [LONG, "Bo"], {})
        await app.settle()
        await pilot.pause()
        log = app.screen.query_one(LogPanel)
        assert not log.display  # folded away at 80 columns
        await _entries(app, pilot, 6)
        await pilot.resize_terminal(160, 48)  # the panel unfolds at 160 columns
        await pilot.pause()
        await pilot.pause()
        assert log.display
        width = log.scrollable_content_region.width
        assert width > 30
        # Every entry's sentence fits on as few lines as the panel's width allows: a
        # line wrapped at 20 columns leaves the panel two-thirds empty.
        assert _widest(log) > 25, [s.text for s in log.lines]
        assert _widest(log) <= width


async def test_entries_added_while_hidden_by_l_wrap_at_the_panel_width(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", [LONG, "Bo"], {})
        await app.settle()
        await pilot.pause()
        log = app.screen.query_one(LogPanel)
        assert log.display
        await pilot.press("l")  # fold it away …
        await _entries(app, pilot, 6)
        await pilot.press("l")  # … and back
        await pilot.pause()
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert 25 < _widest(log) <= width, [s.text for s in log.lines]


async def test_the_log_follows_new_entries_in_a_long_game(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", [LONG, "Bo"], {})
        await app.settle()
        await pilot.pause()
        log = app.screen.query_one(LogPanel)
        await _entries(app, pilot, 20)
        await pilot.resize_terminal(160, 48)
        await pilot.pause()
        await _entries(app, pilot, 20)
        await pilot.press("l")  # folded while the game goes on …
        await _entries(app, pilot, 20)
        await pilot.press("l")  # … and shown again
        await pilot.pause()
        await _entries(app, pilot, 3)
        await pilot.pause()
        await pilot.pause()
        last = app.screen.session.entries[-1].seq
        shown = "".join(strip.text for strip in log.render_lines(log.region.reset_offset))
        assert f"#{last} " in shown, shown
