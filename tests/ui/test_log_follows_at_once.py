"""The log follows its newest line in the same frame as the commit (issue 26).

``scroll_end`` defaults to scrolling after the next frame; the log's lines are written
and counted at once, so waiting cost every key a second frame (and a burst a frame a
key). Checked without any frame in between: right after the log is refreshed."""

from __future__ import annotations

from pathlib import Path

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.log_panel import LogPanel


async def test_the_log_is_at_its_newest_line_before_the_next_frame(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 30)) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", ["Ann", "Bo"], {})
        await app.settle()
        for n in range(40):  # more lines than the panel is tall
            live.act({"type": "score", "player": f"p{n % 2 + 1}", "points": n})
        app.screen._refresh_all()  # type: ignore[attr-defined]
        await app.settle()
        log = app.screen.query_one(LogPanel)
        assert log.max_scroll_y > 0 and log.scroll_y == log.max_scroll_y
        live.act({"type": "score", "player": "p1", "points": 99})
        app.screen._refresh_all()  # type: ignore[attr-defined]
        # No frame yet: the new line is counted and already scrolled to.
        assert log.scroll_y == log.max_scroll_y, (log.scroll_y, log.max_scroll_y)
