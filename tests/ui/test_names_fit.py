"""Any name fits (issue 22): a width limit at seating, and one helper that shortens a
longer (old, imported) name with ``…`` in every table while numbers stay whole."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label

from companion.games import find_game
from companion.rules.names import MAX_NAME_CELLS, fit_name, name_cells
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.new_session import NewSessionScreen
from tests.screen_text import visible_text


def test_a_chinese_character_counts_two_cells() -> None:
    assert MAX_NAME_CELLS == 16
    assert name_cells("Annabelle") == 9
    assert name_cells("喵喵大王陛下") == 12
    assert fit_name("喵喵大王陛下陛下陛下") == "喵喵大王陛下陛…"
    assert name_cells(fit_name("喵喵大王陛下陛下陛下")) <= 16
    assert fit_name("Bartholomew-Longbottom") == "Bartholomew-Lon…"
    assert fit_name("Bo") == "Bo"
    for cells in range(1, 20):
        for name in ("喵喵大王陛下陛下陛下", "Ann喵Bo喵Cy喵Dee喵Eve", "x" * 30):
            fitted = fit_name(name, cells)
            assert name_cells(fitted) <= cells, (name, cells, fitted)


async def _type(pilot, text: str) -> None:  # type: ignore[no-untyped-def]
    for ch in text:
        await pilot.press(ch)


async def test_seating_refuses_a_name_wider_than_16_cells(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.push_screen(NewSessionScreen(find_game("scorepad")))
        await pilot.pause()
        screen = app.screen
        hint = str(screen.query_one("#name-limit", Label).render())
        assert hint == "最多 16 个字母或 8 个汉字。"  # said next to the field …
        left = "".join(line.split("│")[0] for line in visible_text(app).splitlines())
        assert "最多16个字母或8个汉字。" in left.replace(" ", "")  # … all of it (wrapped)
        await _type(pilot, "喵喵大王陛下陛下")  # 8 Chinese characters: 16 cells
        await pilot.press("enter")
        await pilot.pause()
        assert [s.name for s in screen.seats] == ["喵喵大王陛下陛下"]
        screen.query_one("#new-name", Input).value = "喵喵大王陛下陛下大"  # 18 cells
        await pilot.press("enter")
        await pilot.pause()
        assert [s.name for s in screen.seats] == ["喵喵大王陛下陛下"]
        error = str(screen.query_one("#setup-error", Label).render())
        assert "太长" in error
        # The refused name stays in the field, to be shortened.
        assert screen.query_one("#new-name", Input).value == "喵喵大王陛下陛下大"
        screen.query_one("#new-name", Input).value = "Bartholomew-Long"  # 16 letters
        await pilot.press("enter")
        await pilot.pause()
        assert [s.name for s in screen.seats] == ["喵喵大王陛下陛下", "Bartholomew-Long"]


LONG_NAMES = [
    "喵喵大王陛下陛下",
    "Bartholomew-Long",
    "小明小明小明小明",
    "Annabelle-Winter",
    "美美美美美美美美",
    "Cyrus-Montgomery",
]


async def test_home_rows_fit_80_columns_without_wrapping(tmp_path: Path) -> None:
    """Home at 80x24 wrapped each unfinished row over 3-4 lines and cut the titles
    (issue 22). Each row is one line now, titles whole, the entry count kept."""
    from rich.cells import cell_len

    from companion.ui.home import HomeScreen, SessionList

    db = tmp_path / "db.sqlite3"
    for lang in ("en", "zh"):
        app = make_app(db, lang=lang, clock=ManualClock())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            if lang == "en":
                for game in ("meowfia", "scorepad"):
                    app.start_session(game, LONG_NAMES, {})
                    await app.settle()
                    await pilot.pause()
                    app.screen.dismiss()
                    await pilot.pause()
            else:
                await pilot.press("escape")  # the resume dialog: not now
                await pilot.pause()
            home = app.screen
            assert isinstance(home, HomeScreen)
            unfinished = home.query_one("#unfinished", SessionList)
            room = unfinished.scrollable_content_region.width
            header = str(unfinished.header.render())
            assert room > 0
            for title in unfinished.titles:
                assert title in header, (title, header)
            assert unfinished.option_count == 2
            for i in range(unfinished.option_count):
                row = str(unfinished.get_option_at_index(i).prompt)
                assert cell_len(row) <= room, row
                assert row.rstrip().endswith(" 0"), row  # the entry count, whole
                assert "…" in row  # the names, cut


def test_a_board_cell_keeps_the_hp_of_a_long_name() -> None:
    """``喵喵大王陛下♥10…`` with real HP 100 (issue 22): the name gives way, not the HP."""
    import io

    from rich.console import Console

    from companion.games.shadow_cats.render import cell_panel
    from companion.games.shadow_cats.view import Cell, Piece

    pieces = (
        Piece("喵喵大王陛下陛下", 100, True, True),
        Piece("Bartholomew-Long", 85, True, False),
    )
    cell = Cell(slot=2, colour="Brown", location="kingdom", sums=(2, 3), pieces=pieces)
    for width in (14, 18, 22, 30):
        console = Console(width=width, file=io.StringIO(), color_system=None, record=True)
        console.print(cell_panel(cell, width, compact=True))
        shown = console.export_text()
        assert "♥100" in shown and "♥85" in shown, (width, shown)


async def test_history_shows_the_winner_whole_at_80_columns(tmp_path: Path) -> None:
    """History at 80x24 pushed the winners past the edge behind a wide players cell
    (``小明, 阿``, issue 22): the players cell gives way now."""
    from companion.games.scorepad.rules import EndGame, Score
    from companion.ui.history import HistoryScreen

    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        old = "小明" * 20  # stored before the limit (or imported): 80 cells
        app.start_session("scorepad", [old, *LONG_NAMES[1:], "Dorothea-Sunbeam"], {})
        await app.settle()
        screen = app.screen
        screen.submit(Score(player="p1", points=12))
        await app.settle()
        screen.submit(Score(player="p5", points=12))
        await app.settle()
        screen.submit(EndGame())
        await app.settle()
        await pilot.pause()
        app.push_screen(HistoryScreen())
        await pilot.pause()
        await pilot.pause()
        shown = visible_text(app)
        assert "小明小明小明小…、美美美美美美美美" in shown, shown  # both winners, a Chinese list
