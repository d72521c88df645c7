"""喵窩暗影 Shadow Cats: HP, board and ranges, 2d6 moves, d100 damage, team and Neutral wins.

Every part of this game lives in this folder: ``rules`` (pure), ``screen`` (the host's
screen), ``board`` (the players' board view), ``prepare`` (deals and reads the roster file).
The record below is what the registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="shadow-cats",
    name_en="Shadow Cats",
    name_zh="喵窩暗影",
    rules_part=Part("companion.games.shadow_cats.rules", "GAME"),
    screen=Part("companion.games.shadow_cats.screen", "SCREEN"),
    board=Part("companion.games.shadow_cats.board", "VIEW"),
    prepare=Part("companion.games.shadow_cats.prepare"),
    aliases=("shadow", "cats"),
)
