"""Issue 21, item 1, replayed with the issue's own keys from a new database.

A Police win whose end banner says "press u to enter who was the Undercover": escape
from the ``u`` dialog and from the game screen (or a kill) must leave the session
unfinished — listed for resume on Home, offered at the next start, resumed on ``r``
with the ``u`` dialog's entry still to make. Before the fix Home listed it finished and
``r`` said there was no unfinished game.
"""

from __future__ import annotations

import random
from pathlib import Path

from companion.games.meowfia.screen import MeowfiaScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen, ResumeDialog, SessionList

SIZE = (80, 24)
NAMES = ["甲", "乙", "丙", "丁", "戊"]


async def _police_win(db: Path) -> str:
    app = make_app(db, lang="zh", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("down", "enter")  # 喵喵咪呀 → the new-session form
        for name in NAMES:
            await pilot.press(name, "enter")
        await pilot.press("ctrl+s")
        await app.settle()
        assert isinstance(app.screen, MeowfiaScreen)
        for key in ["1", "d", "o", "n", "c", "m", "c", "i", "3", *"测试", "enter"]:
            await pilot.press(key)
            await app.settle()
        for key in ["4", "4", "2", "4", "v", "m", "enter"]:
            await pilot.press(key)
            await app.settle()
        screen = app.screen
        assert isinstance(screen, MeowfiaScreen)
        live = screen.session
        assert live.outcome is not None and live.outcome.termination == "intercepts"
        await pilot.press("u")  # who was the Undercover? …
        await pilot.pause()
        await pilot.press("escape")  # … not now
        await pilot.pause()
        await pilot.press("escape")  # back home
        await app.settle()
        home = app.screen
        assert isinstance(home, HomeScreen)
        unfinished = home.query_one("#unfinished", SessionList)
        assert unfinished.option_count == 1  # listed for resume, not among the finished
        past = home.query_one("#past", SessionList)
        assert past.option_count == 0
        return live.id


async def test_escape_at_the_undercover_leaves_the_session_unfinished(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    sid = await _police_win(db)
    app = make_app(db, lang="zh", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)  # offered at start
        await pilot.press("down", "enter")  # not now
        await pilot.pause()
        await pilot.press("r")  # resume from Home
        await app.settle()
        screen = app.screen
        assert isinstance(screen, MeowfiaScreen) and screen.session.id == sid
        await pilot.press("u", "3")  # 丙 was the Undercover
        await app.settle()
        assert screen.session.finished
        assert app.store.session(sid).status == "finished"
        assert set(screen.session.outcome.winners) == {"p1", "p3"}
