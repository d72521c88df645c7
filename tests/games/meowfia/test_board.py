"""The 喵喵咪呀 board shows the phase timer from the log, and "Time is up!" stays."""

from __future__ import annotations

import random

from companion.games.meowfia.board import MeowfiaView
from companion.games.meowfia.rules import SmugglingDone, Start, Timer
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.live import LiveSession
from companion.session.store import Store
from companion.ui.board import make_board

S = 1_000_000_000


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_the_board_shows_the_timer_and_time_is_up_stays(tmp_path) -> None:
    db = tmp_path / "c.db"
    clock = ManualClock(start_ns=100 * S)
    store = Store.open(db)
    live = LiveSession.start(
        store,
        "meowfia",
        seat_players(["Ann", "Bo", "Cy", "Di", "Ed"]),
        {"smuggling_seconds": 30},
        clock=clock,
        rng=random.Random(1),
    )
    live.act(Start("p1", "p2"))
    change = live.act(Timer("start", clock.monotonic_ns()))
    board_now = [100 * S]
    app = make_board(db, poll_interval=0.01, clock=lambda: board_now[0])
    async with app.run_test(size=(120, 40)) as pilot:
        await app.caught_up(change.entry.seq)
        await pilot.pause()
        assert isinstance(app.query_one(MeowfiaView), MeowfiaView)
        assert "Smuggling" in screen_text(app)
        view = app.query_one(MeowfiaView)
        board_now[0] = 131 * S
        view.tick(board_now[0])
        await pilot.pause()
        assert "Time is up!" in screen_text(app)
        board_now[0] = 500 * S
        await pilot.pause(0.3)  # the board's own ticks: it stays
        assert "Time is up!" in screen_text(app)
        change = live.act(SmugglingDone())
        await app.caught_up(change.entry.seq)
        await pilot.pause()
        assert "Time is up!" not in screen_text(app)
    store.close()
