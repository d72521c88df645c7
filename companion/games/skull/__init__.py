"""Skull (骷髅): one folder holds the whole game.

``rules`` (pure), ``guide`` (pure: what is allowed now, what to do next, a sentence
per action), ``view`` (pure: what the screen and the board both show), ``prepare``
(random draws, made on the writer thread), ``screen`` (the host's screen), ``board``
(the players' board), ``testing`` (the conformance suite's hook), ``locale/`` (its
catalogs, read before the shared ones), ``README.md`` (its docs page).
"""

from __future__ import annotations

from companion.rules.plugin import GameInfo, Part

PLUGIN = GameInfo(
    id="skull",
    name_en="Skull",
    name_zh="骷髅",
    bgg_id=92415,  # boardgamegeek.com/boardgame/92415/skull: BG Stats matches the plays
    rules_part=Part("companion.games.skull.rules", "GAME"),
    screen=Part("companion.games.skull.screen", "SCREEN"),
    board=Part("companion.games.skull.board", "VIEW"),
    testing_part=Part("companion.games.skull.testing", "TESTING"),
    prepare=Part("companion.games.skull.prepare"),
    guide_part=Part("companion.games.skull.guide", "GUIDE"),
    termination_part=Part("companion.games.skull.rules", "Termination"),
)
