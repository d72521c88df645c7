"""The new-session form: typed text lands where it was typed, nothing is lost by one key.

Issue 13, items 3, 7 and 8 (each failed before its fix).
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Input, Label

from companion.games import find_game
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen
from companion.ui.new_session import NewSessionScreen, PlayerDialog, SeatTable, check_birth_date
from companion.widgets.dialogs import ConfirmDialog

SIZE = (120, 36)


async def _form(pilot, app, game: str = "scorepad") -> NewSessionScreen:
    await pilot.pause()
    app.push_screen(NewSessionScreen(find_game(game)))
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, NewSessionScreen)
    return screen


async def test_every_tab_stop_is_a_field_that_shows_what_is_typed(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _form(pilot, app)
        seen = []
        for _ in range(8):
            focused = screen.focused
            assert focused is not None
            seen.append(focused)
            # A container or an empty list that takes focus swallows typed text.
            assert isinstance(focused, Input | SeatTable) or focused.__class__.__name__ in {
                "Switch",
                "Select",
                "SelectCurrent",
            }, f"invisible tab stop: {focused!r}"
            await pilot.press("tab")
        target = screen.query_one("#opt-target", Input)
        target.focus()
        await pilot.press("4", "2")
        assert target.value.endswith("42")


async def test_removing_a_seat_removes_the_highlighted_one(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _form(pilot, app)
        for name in ("Ann", "Bo", "Cy", "Di"):
            screen.add_seat(name)
        table = screen.query_one(SeatTable)
        table.focus()
        table.move_cursor(row=2)  # Cy
        await pilot.press("x")  # removes Cy; the cursor stays on the third seat (Di)
        await pilot.press("x")  # removes Di, not Ann
        await pilot.pause()
        assert [s.name for s in screen.seats] == ["Ann", "Bo"]


async def test_escape_with_seated_players_asks_first(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _form(pilot, app)
        screen.add_seat("Ann")
        screen.add_seat("Bo")
        screen.query_one(SeatTable).focus()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "2" in app.screen.question
        await pilot.press("enter")  # enter means no: the players stay
        await pilot.pause()
        assert app.screen is screen and len(screen.seats) == 2
        await pilot.press("escape", "y")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


def test_an_impossible_date_is_called_impossible() -> None:
    message = check_birth_date("2015-02-30")
    assert message is not None and "2015-02-30" in message and "YYYY" not in message
    assert "YYYY-MM-DD" in (check_birth_date("30.2.2015") or "")


async def test_a_colour_another_seat_has_is_refused_in_the_dialog(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _form(pilot, app)
        screen.add_seat("Ann")  # red
        screen.add_seat("Bo")  # yellow
        screen.query_one(SeatTable).move_cursor(row=1)
        screen.edit_seat(1)
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PlayerDialog)
        from textual.widgets import Select

        dialog.query_one("#player-colour", Select).value = "red"
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is dialog
        assert "Ann" in str(dialog.query_one("#player-error", Label).render())


async def test_n_on_home_opens_the_new_session_form(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)


async def test_same_table_again_prefills_seats_and_options(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo", "Cy"], {"target": 50, "highest_wins": False})
        await pilot.pause()
        await pilot.press("escape")  # home; the session stays unfinished
        await pilot.pause()
        await pilot.press("p")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        assert [s.name for s in form.seats] == ["Ann", "Bo", "Cy"]
        assert form.read_options() == ({"target": 50, "highest_wins": False, "game_name": ""}, {})
        assert form.query_one(SeatTable).row_count == 3
        await pilot.press("ctrl+s")
        await app.settle()
        assert len(app.store.sessions()) == 2


async def test_a_burst_of_names_and_enters_seats_each_name(tmp_path: Path) -> None:
    """tmux send-keys '大伟' Enter 'Ann' Enter in one call: every name its own seat.

    The Input's own Enter binding ran only after the focused widget's queue handed the
    key back, so in a burst the next name's letters were already in the field and the
    names ran together ("大伟Ann小明Bo" as one player)."""
    from textual import events

    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _form(pilot, app)
        for name in ("大伟", "Ann", "小明", "Bo"):
            for ch in name:
                app.post_message(events.Key(ch, ch))
            app.post_message(events.Key("enter", "\r"))
        for _ in range(10):
            await pilot.pause()
        assert [s.name for s in screen.seats] == ["大伟", "Ann", "小明", "Bo"]
        assert screen.query_one("#new-name", Input).value == ""


async def test_an_empty_or_blank_name_is_said_and_the_old_message_goes(tmp_path: Path) -> None:
    """Issue 22: Enter on an empty or spaces-only name said nothing, and the message of
    the seat before ("Ann is already seated.") stayed."""
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _form(pilot, app)
        name = screen.query_one("#new-name", Input)
        name.focus()
        await pilot.press(*"Ann", "enter", *"Ann", "enter")
        await app.settle()
        await pilot.pause()
        error = screen.query_one("#setup-error", Label)
        assert "already seated" in str(error.render())
        name.value = ""  # a refused name stays in the field to be corrected: clear it
        await pilot.press("space", "space", "enter")
        await app.settle()
        await pilot.pause()
        assert str(error.render()) == "A player needs a name: type it, then Enter."
        assert [s.name for s in screen.seats] == ["Ann"]


async def test_the_cat_box_start_player_lists_the_seated_names(tmp_path: Path) -> None:
    """Issue 22: the start-player option listed p1…p8 whatever the table."""
    from textual.widgets import Select

    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _form(pilot, app, "cat-box")
        for name in ("Ann", "Bo", "小明"):
            screen.add_seat(name)
        await pilot.pause()
        select = screen.query_one("#opt-start_player", Select)
        labels = [str(prompt) for prompt, _value in select._options]
        assert "1. Ann" in labels and "3. 小明" in labels, labels
        assert not any(label in ("p1", "p2", "p3") for label in labels), labels


async def test_eight_long_names_fit_the_seat_table_at_80x24(tmp_path: Path) -> None:
    """At 80x24 in Chinese with eight 16-cell names the seat table scrolled sideways: an
    empty birth date column took its last 12 cells (生日 off the edge). The column comes
    only once a seat has a date; without one every column is on screen, names whole."""
    from companion.i18n import set_language

    names = [c * 8 for c in "大小明红美强花伟"]
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _form(pilot, app, "meowfia")
            for name in names:
                assert screen.add_seat(name)
            await pilot.pause()
            table = screen.query_one(SeatTable)
            assert [str(c.label) for c in table.ordered_columns] == ["座位", "名字", "颜色"]
            assert table.virtual_size.width <= table.scrollable_content_region.width, (
                table.virtual_size,
                table.scrollable_content_region,
            )
            assert [table.get_row_at(i)[1] for i in range(8)] == names
            screen.add_seat("小小", birth_date="2012-05-31")
            await pilot.pause()
            assert str(table.ordered_columns[-1].label) == "生日"
            assert table.get_row_at(8)[-1] == "2012-05-31"
    finally:
        set_language("en")
