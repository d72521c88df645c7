"""One screen per game: ``companion.ui.games.<module>`` exports ``SCREEN``."""

from __future__ import annotations

import importlib

from companion.session.live import LiveSession
from companion.ui.game_screen import GameScreen


def screen_for(session: LiveSession) -> GameScreen:
    """The game screen for a live session (the module is named after the rules module)."""
    name = session.info.module.rsplit(".", 1)[-1]
    module = importlib.import_module(f"companion.ui.games.{name}")
    screen: GameScreen = module.SCREEN(session)
    return screen
