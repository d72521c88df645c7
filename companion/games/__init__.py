"""The registry: one plug-in record per game, listed here and nowhere else.

Adding a game = one folder ``companion/games/<name>/`` (rules, guide, view, preparer,
screen, board view, testing hook, catalogs, docs page; its ``__init__`` defines
``PLUGIN``), its import and one line below, and its tests ``tests/games/<name>/``:
``python scripts/new_game.py <id>`` writes all of it (``docs/adding-a-game.md``).
``tests/foundation/test_registry.py`` and the conformance suite (``tests/conformance``)
fail loudly when a registered game lacks a part or breaks the common contract.
"""

from __future__ import annotations

from companion.games.cat_box import PLUGIN as CAT_BOX
from companion.games.meeple_circus import PLUGIN as MEEPLE_CIRCUS
from companion.games.meowfia import PLUGIN as MEOWFIA
from companion.games.scorepad import PLUGIN as SCOREPAD
from companion.games.shadow_cats import PLUGIN as SHADOW_CATS
from companion.games.skull import PLUGIN as SKULL
from companion.rules.base import N_, SetupError
from companion.rules.plugin import GameInfo, Part

__all__ = ["GAMES", "GameInfo", "Part", "find_game"]

_REGISTERED: tuple[GameInfo, ...] = (
    MEEPLE_CIRCUS,
    MEOWFIA,
    SHADOW_CATS,
    CAT_BOX,
    SCOREPAD,
    SKULL,
)

GAMES: tuple[GameInfo, ...] = tuple(sorted(_REGISTERED, key=lambda g: g.catch_all))
"""Every game in the order Home lists them: as registered, the catch-all score pad
last whatever is added after it (``GameInfo.catch_all``)."""


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
