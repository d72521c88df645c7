"""One screen per game: ``companion.ui.games.<module>`` exports ``SCREEN``."""

from __future__ import annotations

import importlib
import importlib.util

from companion.rules import GameInfo
from companion.session.live import LiveSession
from companion.ui.game_screen import GameScreen


def playable(info: GameInfo) -> bool:
    """A game can be started once both its rules and its screen exist."""
    name = info.module.rsplit(".", 1)[-1]
    return info.available and importlib.util.find_spec(f"companion.ui.games.{name}") is not None


def screen_for(session: LiveSession) -> GameScreen:
    """The game screen for a live session (the module is named after the rules module)."""
    name = session.info.module.rsplit(".", 1)[-1]
    module = importlib.import_module(f"companion.ui.games.{name}")
    screen: GameScreen = module.SCREEN(session)
    return screen


def check_options(info: GameInfo, options: dict[str, object]) -> str | None:
    """A game screen module's own check of the setup options (``check_options``), if any.

    The rules check what they can; a screen module may check what only this machine
    knows (a music file exists and decodes). Returns the message, or None.
    """
    name = info.module.rsplit(".", 1)[-1]
    try:
        module = importlib.import_module(f"companion.ui.games.{name}")
    except ImportError:
        return None
    check = getattr(module, "check_options", None)
    return check(options) if callable(check) else None
