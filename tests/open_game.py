"""Open a game's screen with as many (or as few) players as it accepts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.widgets.game_screen import GameScreen


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
