"""喵窩暗影 Shadow Cats: HP, board and ranges, 2d6 moves, d100 damage, team and Neutral wins.

Every part of this game lives in this folder: ``rules`` (pure), ``guide`` (pure: what is
allowed now, the next step, a sentence per entry), ``view`` (pure: what the screen and the
board show), ``screen`` (the host's screen), ``board`` (the players' board view),
``prepare`` (reads the roster file, deals and rolls).
The record below is what the registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.rules.base import N_
from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="shadow-cats",
    name_en="Shadow Cats",
    name_zh="喵窩暗影",
    rules_part=Part("companion.games.shadow_cats.rules", "GAME"),
    screen=Part("companion.games.shadow_cats.screen", "SCREEN"),
    board=Part("companion.games.shadow_cats.board", "VIEW"),
    testing_part=Part("companion.games.shadow_cats.testing", "TESTING"),
    prepare=Part("companion.games.shadow_cats.prepare"),
    guide_part=Part("companion.games.shadow_cats.guide", "GUIDE"),
    termination_part=Part("companion.games.shadow_cats.rules.termination", "Termination"),
    aliases=("shadow", "cats"),
    # The two teams and the neutrals.
    side_labels={"red": N_("red"), "blue": N_("blue"), "neutral": N_("neutral")},
)
