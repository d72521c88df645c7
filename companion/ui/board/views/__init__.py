"""Board views per game: ``companion.ui.board.views.<module>`` exports ``VIEW``.

The module is named after the game's rules module (``scorepad``, ``meeple_circus``…).
A game without a view of its own — or whose view cannot be imported — gets the
generic view (players, scores, outcome, the latest entries) rather than nothing.
"""

from __future__ import annotations

import importlib
import importlib.util

from companion.rules import GameInfo
from companion.ui.board.views.base import BoardView


def view_class(info: GameInfo | None) -> type[BoardView]:
    """The view class for a game (the generic view when it has none)."""
    from companion.ui.board.views.generic import GenericView

    if info is None:
        return GenericView
    name = f"{__name__}.{info.module.rsplit('.', 1)[-1]}"
    if importlib.util.find_spec(name) is None:
        return GenericView
    cls: type[BoardView] = importlib.import_module(name).VIEW
    return cls
