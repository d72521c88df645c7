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
