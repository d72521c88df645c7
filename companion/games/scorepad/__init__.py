"""计分板 Score pad: a plain score sheet for any other game.

Every part of this game lives in this folder: ``rules`` (pure), ``guide`` (pure: what
the host may do now, the log's sentences), ``view`` (pure: what screen and board show),
``render`` (its words, for both), ``screen`` (the host's screen), ``board`` (the
players' board view). It deals nothing and rolls nothing, so it has no preparer.
The record below is what the registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="scorepad",
    name_en="Score pad",
    name_zh="计分板",
    rules_part=Part("companion.games.scorepad.rules", "GAME"),
    guide_part=Part("companion.games.scorepad.guide", "GUIDE"),
    termination_part=Part("companion.games.scorepad.rules", "Termination"),
    screen=Part("companion.games.scorepad.screen", "SCREEN"),
    board=Part("companion.games.scorepad.board", "VIEW"),
    testing_part=Part("companion.games.scorepad.testing", "TESTING"),
    aliases=("pad", "score"),
    catch_all=True,
)
