"""The registry: one plug-in record per game, listed here and nowhere else.

Adding a game = one folder ``companion/games/<name>/`` (rules, guide, view, preparer,
screen, board view; its ``__init__`` defines ``PLUGIN``), one line below, its
``docs/games/<id>.md`` and its tests. ``tests/foundation/test_registry.py`` fails
loudly when a registered game lacks a part.
"""

from __future__ import annotations

from companion.games.cat_box import PLUGIN as CAT_BOX
from companion.games.meeple_circus import PLUGIN as MEEPLE_CIRCUS
from companion.games.meowfia import PLUGIN as MEOWFIA
from companion.games.scorepad import PLUGIN as SCOREPAD
from companion.games.shadow_cats import PLUGIN as SHADOW_CATS
from companion.rules.base import N_, SetupError
from companion.rules.plugin import GameInfo, Part

__all__ = ["GAMES", "GameInfo", "Part", "find_game"]

GAMES: tuple[GameInfo, ...] = (MEEPLE_CIRCUS, MEOWFIA, SHADOW_CATS, CAT_BOX, SCOREPAD)


def find_game(name: str) -> GameInfo:
    """The record for an id or alias (case-insensitive), or ``SetupError``.

    >>> find_game("Pad").id
    'scorepad'
    """
    key = name.strip().lower()
    for info in GAMES:
        if key == info.id or key in info.aliases:
            return info
    raise SetupError(
        N_("Unknown game {name!r}. Known games: {known}."),
        name=name,
        known=", ".join(g.id for g in GAMES),
    )
