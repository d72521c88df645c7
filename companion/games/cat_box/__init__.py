"""九张牌：喵喵开箱 Cat Box: dice, hiss checks, tokens on slots, opening boxes, the 20-point win.

Every part of this game lives in this folder: ``rules`` (pure), ``screen`` (the host's
screen), ``board`` (the players' board view), ``prepare`` (reads the card file, rolls).
The record below is what the registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="cat-box",
    name_en="Nine Cards: Cat Box",
    name_zh="九张牌：喵喵开箱",
    rules_part=Part("companion.games.cat_box.rules", "GAME"),
    screen=Part("companion.games.cat_box.screen", "SCREEN"),
    board=Part("companion.games.cat_box.board", "VIEW"),
    prepare=Part("companion.games.cat_box.prepare"),
    aliases=("catbox", "box"),
)
