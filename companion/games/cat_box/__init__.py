"""九张牌：喵喵开箱 Cat Box: dice, hiss checks, tokens on slots, opening boxes, the 20-point win.

Every part of this game lives in this folder: ``rules`` (pure), ``guide`` (pure: what
the host may do now, the log's sentences), ``view`` (pure: what screen and board show),
``screen`` (the host's screen), ``board`` (the players' board view), ``prepare``
(reads the card file, deals, rolls).
The record below is what the registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="cat-box",
    name_en="Nine Cards: Cat Box",
    name_zh="九张牌：喵喵开箱",
    rules_part=Part("companion.games.cat_box.rules", "GAME"),
    guide_part=Part("companion.games.cat_box.guide", "GUIDE"),
    termination_part=Part("companion.games.cat_box.rules", "Termination"),
    screen=Part("companion.games.cat_box.screen", "SCREEN"),
    board=Part("companion.games.cat_box.board", "VIEW"),
    testing_part=Part("companion.games.cat_box.testing", "TESTING"),
    prepare=Part("companion.games.cat_box.prepare"),
    aliases=("catbox", "box"),
)
