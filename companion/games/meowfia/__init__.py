"""喵喵咪呀 Meowfia: rounds, narration, weighted votes with the 1.5 ring, reveals, win checks.

Every part of this game lives in this folder: ``rules`` (pure), ``guide`` (pure: what is
allowed now, what to do next, a sentence per action), ``screen`` (the host's screen),
``board`` (the players' board view), ``view`` (pure: what both show), ``prepare`` (the
random first questioned player, the timer's clock stamp). The record below is what the
registry (``companion/games/__init__.py``) lists.
"""

from __future__ import annotations

from companion.games.meowfia.guide import GUIDE
from companion.games.meowfia.rules import GAME, Termination
from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="meowfia",
    name_en="Meowfia",
    name_zh="喵喵咪呀",
    rules=GAME,
    screen=Part("companion.games.meowfia.screen", "SCREEN"),
    board=Part("companion.games.meowfia.board", "VIEW"),
    prepare=Part("companion.games.meowfia.prepare"),
    guide=GUIDE,
    termination=Termination,
    aliases=("miaomiao",),
)
