"""The home screen's session lists: every key works on them, rows show what was typed.

The lists are ``OptionList`` rows under a line of column titles (lighter at start-up
than the ``DataTable``s they replaced, docs/PERFORMANCE.md); these tests hold the
behaviour the tables had: Enter on an unfinished row resumes it, ``r``/``a``/``p`` act
on the highlighted row of the list that has focus, and the cursor stays on its session
when the lists are refilled.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen, ResumeDialog, SessionList, aligned
from companion.ui.new_session import NewSessionScreen
from companion.widgets.dialogs import ConfirmDialog
from companion.widgets.game_screen import GameScreen

SIZE = (120, 34)


async def _seed(db: Path, tables: list[list[str]], finish_first: bool = False) -> list[str]:
    """Start one score-pad session per table of names; returns their ids, oldest first."""
    app = make_app(db, lang="en", clock=ManualClock())
    ids: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for names in tables:
            live = app.start_session("scorepad", names, {})
            ids.append(live.id)
            await pilot.pause()
            await app.settle()
            app.screen.dismiss()
            await pilot.pause()
        if finish_first:
            app.store.set_status(ids[0], "abandoned")
    return ids


def _rows(screen: HomeScreen, list_id: str) -> list[str]:
    table = screen.query_one(list_id, SessionList)
    return [str(table.get_option_at_index(i).prompt) for i in range(table.option_count)]


async def test_enter_on_an_unfinished_row_resumes_that_session(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    ids = await _seed(db, [["Ann", "Bo"], ["Cy", "Dee", "Eve"]])
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)
        await pilot.press("escape")  # not now
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        rows = _rows(home, "#unfinished")
        assert len(rows) == 2
        assert any("Cy, Dee, Eve" in row for row in rows)
        unfinished = home.query_one("#unfinished", SessionList)
        unfinished.focus()
        await pilot.pause()
        target = next(i for i, row in enumerate(rows) if "Ann, Bo" in row)
        unfinished.highlighted = target
        await pilot.press("enter")
        await app.settle()
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.id == ids[0]


async def test_keys_act_on_the_highlighted_row_of_the_focused_list(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    await _seed(db, [["Ann", "Bo"], ["Cy", "Dee"]], finish_first=True)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")  # the resume dialog: not now
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert len(_rows(home, "#past")) == 1
        assert "abandoned" in _rows(home, "#past")[0]
        home.query_one("#past", SessionList).focus()
        await pilot.pause()
        await pilot.press("p")  # same table again, from the past list
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        assert [seat.name for seat in app.screen.seats] == ["Ann", "Bo"]
        await pilot.press("escape")
        await pilot.pause()
        if isinstance(app.screen, ConfirmDialog):  # leaving a filled form asks first
            await pilot.press("y")
            await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await pilot.press("a")  # abandon acts on the unfinished list
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await app.settle()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert _rows(home, "#unfinished") == []
        assert len(_rows(home, "#past")) == 2


async def test_names_are_shown_as_typed_not_as_markup(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    await _seed(db, [["[b]Ann[/b]", "大伟"]])
    app = make_app(db, lang="zh", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert "[b]Ann[/b]、大伟" in _rows(home, "#unfinished")[0]  # the Chinese list


def test_columns_line_up_in_cells_for_chinese_names() -> None:
    widths = [4, 6, 3]
    first = aligned(["大伟", "x", "end"], widths)
    second = aligned(["Ann", "yy", "end"], widths)
    from rich.cells import cell_len

    assert cell_len(first.split("end")[0]) == cell_len(second.split("end")[0]) == 4 + 2 + 6 + 2


def test_home_start_up_imports_nothing_a_session_needs() -> None:
    """Starting on the home screen does not import the live-session machinery or a
    ``DataTable`` (they load when a session opens)."""
    code = (
        "import sys; import companion.ui.app, companion.ui.home; "
        "print(sorted(m for m in ('companion.session.live', 'companion.session.log', "
        "'textual.widgets._data_table') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"
