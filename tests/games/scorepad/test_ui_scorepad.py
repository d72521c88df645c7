"""Pilot: a score-pad game through the keys, undo, quit, restart, resume."""

from __future__ import annotations

from textual.widgets import DataTable, Label, OptionList

from companion.games import GAMES
from companion.games.scorepad.screen import ScorepadScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen, ResumeDialog
from companion.ui.new_session import NewSessionScreen
from companion.widgets.dialogs import PromptDialog

SIZE = (150, 45)


async def type_text(pilot, text):
    for ch in text:
        await pilot.press(ch)


async def test_play_undo_quit_restart_resume(tmp_path):
    db = tmp_path / "pad.sqlite3"
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        games = app.screen.query_one("#games", OptionList)
        assert games.option_count == len(GAMES)  # the score pad is last: "end" reaches it
        await pilot.press("end", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        await type_text(pilot, "Ann")
        await pilot.press("enter")
        await type_text(pilot, "Bo")
        await pilot.press("enter")
        await type_text(pilot, "ann")  # a duplicate is refused with a message
        await pilot.press("enter")
        await pilot.pause()
        assert "already seated" in str(app.screen.query_one("#setup-error", Label).render())
        await pilot.press("ctrl+s")
        await app.settle()  # the session is created on the writer thread
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ScorepadScreen)
        assert [p.name for p in screen.session.players] == ["Ann", "Bo"]

        await pilot.press("enter")  # points for Ann
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)
        await type_text(pilot, "abc")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)  # a non-number changes nothing
        assert "not a whole number" in str(app.screen.query_one("#prompt-error", Label).render())
        await pilot.press("end", "backspace", "backspace", "backspace", "plus", "5")
        await pilot.press("enter")
        await app.settle()
        await pilot.press("down", "plus", "plus", "plus")
        await app.settle()
        assert screen.session.state.totals() == {"p1": 5, "p2": 3}
        await pilot.press("ctrl+z")
        await app.settle()
        assert screen.session.state.totals() == {"p1": 5, "p2": 2}
        table = screen.query_one("#pad", DataTable)
        assert table.get_cell_at((1, len(table.columns) - 1)).plain == "2"
        session_id = screen.session.id
        await pilot.press("ctrl+q")

    app2 = make_app(db, lang="en", clock=ManualClock())
    async with app2.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app2.screen, ResumeDialog)
        await pilot.press("enter")
        await pilot.pause()
        screen = app2.screen
        assert isinstance(screen, ScorepadScreen)
        assert screen.session.id == session_id
        assert screen.session.state.totals() == {"p1": 5, "p2": 2}
        await pilot.press("ctrl+y")  # the undone point survives the restart as redo-able
        await app2.settle()
        assert screen.session.state.totals() == {"p1": 5, "p2": 3}
        await pilot.press("c")
        await app2.settle()
        assert screen.session.state.round_number == 2
        await pilot.press("E", "y")
        await app2.settle()
        outcome = screen.session.outcome
        assert outcome is not None and outcome.winners == ("p1",)
        assert "Ann wins with 5" in str(screen.query_one("#outcome-banner").render())
        await pilot.press("ctrl+z")  # undo reopens the game
        await app2.settle()
        assert screen.session.outcome is None
        assert app2.store.session(session_id).status == "active"


async def test_a_refused_action_shows_the_message_and_changes_nothing(tmp_path):
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", ["小明", "Ann"], {})
        await pilot.pause()
        await pilot.press("c")  # closing an empty round is refused: the guide says why
        await app.settle()
        assert live.entries == []
        line = app.screen.query_one("#message-line")
        assert "第 1 轮还没有记分" in str(line.render())
        assert "error" in line.classes
        # A refusal by the rules themselves lands in the same line (not a toast).
        app.screen.submit({"type": "score", "player": "p9", "points": 1})
        await app.settle()
        assert live.entries == []
        assert "p9" in str(line.render())
        assert not app._notifications


async def test_home_lists_every_game_in_chinese(tmp_path):
    app = make_app(tmp_path / "db.sqlite3", lang="zh")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        games = app.screen.query_one("#games", OptionList)
        labels = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
        assert len(labels) == len(GAMES)
        for info in GAMES:
            assert any(info.name_zh in label for label in labels), info.id
        assert "计分板" in labels[-1]


async def test_keys_typed_during_a_slow_commit_wait_and_run_in_order(tmp_path):
    import threading

    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", ["Ann", "Bo"], {})
        await pilot.pause()
        gate = threading.Event()
        screen = app.screen
        assert isinstance(screen, ScorepadScreen)
        app.write(gate.wait, lambda _future: None)  # the disk is slow right now
        await pilot.press("plus", "plus", "c")
        await pilot.pause()
        assert app.keys_waiting == 3 and live.entries == []  # waiting, not dropped
        gate.set()
        await app.settle()
        assert [e.payload["type"] for e in live.entries] == ["score", "score", "close-round"]
        assert live.state.round_number == 2
