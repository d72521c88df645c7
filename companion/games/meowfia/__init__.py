"""喵喵咪呀 Meowfia: rounds, narration, weighted votes with the 1.5 ring, reveals, win checks.

Every part of this game lives in this folder: ``rules`` (pure), ``guide`` (pure: what is
allowed now, what to do next, a sentence per action), ``view`` (pure: what the screen
and the board both show), ``prepare`` (the random first questioned player, the timer's
clock stamp), ``screen`` (the host's screen), ``board`` (the players' board view). The
record below is what the registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.rules.base import N_
from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="meowfia",
    name_en="Meowfia",
    name_zh="喵喵咪呀",
    rules_part=Part("companion.games.meowfia.rules", "GAME"),
    screen=Part("companion.games.meowfia.screen", "SCREEN"),
    board=Part("companion.games.meowfia.board", "VIEW"),
    testing_part=Part("companion.games.meowfia.testing", "TESTING"),
    prepare=Part("companion.games.meowfia.prepare"),
    guide_part=Part("companion.games.meowfia.guide", "GUIDE"),
    termination_part=Part("companion.games.meowfia.rules.termination", "Termination"),
    aliases=("miaomiao",),
    # The Sheriff and the Undercover against the Meowfia members.
    side_labels={"police": N_("police"), "meowfia": N_("meowfia")},
)
