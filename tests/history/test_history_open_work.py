"""Opening History does only the work the first screenful needs (issue 26).

Measured (docs/PERFORMANCE.md, "History of 10,000 sessions"): a bare Textual screen
with History's widgets takes ~130 ms more with 100 rows in its table than with none,
though at 160x48 only about 40 of them can be seen; the player-name suggestions (a
query over every player of every session) were read before anyone typed a name; and
the first open read History's style sheet, which re-parses every style sheet of the
app and restyles every node of Home. Counted here, not timed.
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from history_builders import T0, stamp
from textual.css.stylesheet import Stylesheet
from textual.widgets import DataTable, Label

from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.store import SessionRow, Store
from companion.ui.app import make_app
from companion.ui.history import HISTORY_CSS, PAGE, HistoryScreen

SESSIONS = 130


def build(db: Path, count: int = SESSIONS) -> None:
    """``count`` unfinished score-pad sessions, one a day, in one transaction."""
    from datetime import timedelta

    rows = [
        (
            SessionRow(
                id=str(uuid.UUID(int=n + 1)),
                game="scorepad",
                options={"highest_wins": True, "target": 0},
                players=tuple(seat_players([f"Ann{n % 7}", f"Bo{n % 5}"])),
                started_at=stamp(T0 + timedelta(days=n)),
                ended_at=None,
                outcome=None,
                status="active",
            ),
            [],
        )
        for n in range(count)
    ]
    with Store.open(db) as store:
        store.import_sessions(rows)


async def open_history(pilot: Any) -> HistoryScreen:
    app = pilot.app
    await pilot.pause()
    if app.screen.__class__.__name__ == "ResumeDialog":
        await pilot.press("escape")
        await pilot.pause()
    await pilot.press("h")
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, HistoryScreen)
    return screen


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_first_fill_is_a_screenful_and_scrolling_loads_the_rest(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    build(tmp_path / "db.sqlite3")
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=size) as pilot:
        screen = await open_history(pilot)
        table = screen.query_one("#history-table", DataTable)
        first = table.row_count
        assert first == len(screen.results)
        # Every row the table can show is there, and no more than a screenful.
        assert table.size.height - 1 <= first <= size[1], (first, table.size)
        count = str(screen.query_one("#history-count", Label).render())
        assert f"{SESSIONS} sessions" in count and f"newest {first}" in count, count
        # The cursor reaching the last row loads the next page (ctrl+end, page down)…
        await pilot.press("ctrl+end")
        await pilot.pause()
        assert table.row_count == min(SESSIONS, first + PAGE)
        while table.row_count < SESSIONS:
            await pilot.press("pagedown")
            await pilot.pause()
        assert len(screen.results) == SESSIONS
        assert len({r.id for r in screen.results}) == SESSIONS
        assert "newest" not in str(screen.query_one("#history-count", Label).render())


async def test_scrolling_the_table_to_its_end_loads_more(tmp_path: Path) -> None:
    """The mouse wheel scrolls without moving the cursor: reaching the end of the
    rows loaded (a screenful at first) loads the next page too."""
    build(tmp_path / "db.sqlite3")
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_history(pilot)
        table = screen.query_one("#history-table", DataTable)
        first = table.row_count
        for _ in range(first):  # as the wheel does: three lines a notch
            table.scroll_relative(y=3, animate=False)
            await pilot.pause()
            if table.row_count > first:
                break
        assert table.cursor_row == 0
        assert table.row_count == first + PAGE


async def test_a_reload_keeps_the_rows_down_to_the_cursor(tmp_path: Path) -> None:
    """Abandon (and every write that reloads) at row 60 of a 24-row terminal: the
    refilled table still holds row 60, with the cursor on it."""
    build(tmp_path / "db.sqlite3")
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_history(pilot)
        table = screen.query_one("#history-table", DataTable)
        await pilot.press("m")
        await pilot.pause()
        table.move_cursor(row=60)
        await pilot.pause()
        chosen = screen.selected()
        screen.reload()
        await pilot.pause()
        assert table.cursor_row == 60
        assert screen.selected() == chosen


async def test_player_names_are_read_when_a_name_is_typed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import companion.ui.history as history

    build(tmp_path / "db.sqlite3", 5)
    reads: list[int] = []
    names = history.player_names

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return names(*args, **kwargs)

    monkeypatch.setattr(history, "player_names", counted)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await open_history(pilot)
        assert reads == [], "the names were read before anyone typed one"
        await pilot.press("p")
        for ch in "an":
            await pilot.press(ch)
        await pilot.pause()
        assert len(reads) == 1
        field = screen.query_one("#filter-player")
        assert field._suggestion == "Ann0", field._suggestion  # type: ignore[attr-defined]


async def test_the_first_open_reads_no_style_sheet(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """History's style sheet is read while Home waits for the host's first key, so
    ``h`` re-parses nothing and restyles no node of Home."""
    build(tmp_path / "db.sqlite3", 5)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await app.settle()
        for _ in range(100):  # read once Home is up (READ_AHEAD_S), not in its first frames
            if app.stylesheet.has_source(str(HISTORY_CSS), ""):
                break
            await pilot.pause(0.05)
        assert app.stylesheet.has_source(str(HISTORY_CSS), "")
        reparsed: list[int] = []
        reparse = Stylesheet.reparse

        def counted(self: Stylesheet) -> None:
            reparsed.append(1)
            reparse(self)

        monkeypatch.setattr(Stylesheet, "reparse", counted)
        await open_history(pilot)
        assert reparsed == []
        # …and History looks as it did when it read its own sheet.
        filters = app.screen.query_one("#history-filters")
        assert filters.styles.height is not None and filters.styles.height.value == 3


def test_a_page_is_read_through_an_index_not_a_sort_of_every_session(tmp_path: Path) -> None:
    """History's page (and Home's newest sessions) sorted every session by its start
    before taking the first rows: 18 ms of the open at 10,000 sessions. An index on
    the start walks to them (0.4 ms)."""
    from companion.session.results import query_results

    build(tmp_path / "db.sqlite3", 30)
    with Store.open(tmp_path / "db.sqlite3") as store:
        executed: list[str] = []
        store.conn.set_trace_callback(executed.append)
        query_results(store, limit=24)
        store.sessions(limit=10)
        store.conn.set_trace_callback(None)
        for sql in (s for s in executed if "LIMIT" in s):
            plan = [row[3] for row in store.conn.execute("EXPLAIN QUERY PLAN " + sql)]
            assert any("USING INDEX sessions_by_start" in step for step in plan), plan
            # Only the final order of the page's own rows, if any, needs a sort.
            assert plan.count("USE TEMP B-TREE FOR ORDER BY") <= ("FROM (" in sql), plan


async def test_the_read_ahead_waits_for_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a style sheet restyles every node on screen: a game opened within the
    first half second (the snapshots, a host quick on the keys) had its table restyled
    under it and its columns measured anew (the 80x24 score pad snapshots under load).
    It waits for Home, and happens once the host is back there. The timer is put off
    and the read-ahead called at the two moments, so no machine's load decides which
    comes first."""
    import companion.ui.app as app_module
    from companion.ui.home import HomeScreen

    monkeypatch.setattr(app_module, "READ_AHEAD_S", 3600.0)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo"], {})
        await app.settle()  # (the score pad's own sheet is read as it opens)
        restyled: list[str] = []
        update = Stylesheet.update

        def counted(self: Stylesheet, root: Any, animate: bool = False) -> None:
            restyled.append(type(app.screen).__name__)
            update(self, root, animate=animate)

        monkeypatch.setattr(Stylesheet, "update", counted)
        app._read_style_sheets_ahead()  # the timer's moment, under a game screen
        await pilot.pause()
        assert restyled == []
        assert not app.stylesheet.has_source(str(HISTORY_CSS), "")
        await pilot.press("escape")
        await app.settle()
        assert isinstance(app.screen, HomeScreen)
        app._read_style_sheets_ahead()  # the next try, at Home
        assert app.stylesheet.has_source(str(HISTORY_CSS), "")
        assert restyled == ["HomeScreen"]
