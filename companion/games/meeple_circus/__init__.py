"""米宝马戏团 Meeple Circus: three acts timed by music, Tadaa order from the buttons, scoring.

Every part of this game lives in this folder: ``rules``, ``guide`` and ``view``
(pure), ``prepare`` (draws with the session's rng), ``screen`` (the host's screen),
``board`` (the players' board view). The record below is what the
registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="meeple-circus",
    name_en="Meeple Circus",
    name_zh="米宝马戏团",
    rules_part=Part("companion.games.meeple_circus.rules", "GAME"),
    screen=Part("companion.games.meeple_circus.screen", "SCREEN"),
    board=Part("companion.games.meeple_circus.board", "VIEW"),
    testing_part=Part("companion.games.meeple_circus.testing", "TESTING"),
    prepare=Part("companion.games.meeple_circus.prepare"),
    guide_part=Part("companion.games.meeple_circus.guide", "GUIDE"),
    termination_part=Part("companion.games.meeple_circus.rules", "Termination"),
    aliases=("meeple", "circus", "mc"),
    bgg_id=193214,
)
