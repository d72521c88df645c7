"""Open a game's screen with as many (or as few) players as it accepts."""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from typing import Any

from companion.rules.base import seat_players
from companion.session.live import LiveSession
from companion.widgets.game_screen import GameScreen

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]


async def open_game(
    app: Any, info: Any, names: Sequence[str], *, most: bool = True, least: int = 0
) -> GameScreen:
    """Start a session of ``info`` with the most players it takes (``most``) or the
    fewest (at least ``least``), from ``names``; settled, its screen returned."""
    low = max(info.rules.min_players, least)
    counts = range(info.rules.max_players, low - 1, -1) if most else range(low, 99)
    for count in counts:
        try:
            app.start_session(info.id, list(names[:count]), {})
            break
        except Exception:
            continue
    await app.settle()
    screen = app.screen
    assert isinstance(screen, GameScreen), info.id
    return screen


def mid_game(app: Any, info: Any, steps: int = 24) -> LiveSession:
    """A session of ``info``'s game (up to four of ``NAMES``) played ``steps`` seeded
    random legal steps in (its ``testing`` hook), stopped short of its end: a step that
    ended the game is taken back. The same session for the tests of a key's work and
    ``benchmarks/key_to_paint.py``."""
    testing = importlib.import_module(f"companion.games.{info.id.replace('-', '_')}.testing")
    count = max(info.rules.min_players, min(4, info.rules.max_players))
    rng = random.Random(26)
    live = LiveSession.start(
        app.store, info.id, seat_players(NAMES[:count]), {}, clock=app.clock, rng=rng
    )
    for _ in range(steps):
        action = testing.TESTING.random_step(live.game, live.state, rng)
        if action is None:
            break
        live.act(action)
        if live.outcome is not None:
            live.undo()
            break
    return live
