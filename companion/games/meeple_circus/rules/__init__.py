"""米宝马戏团 Meeple Circus: three acts timed by music, Tadaa order, seven scoring sources.

The package splits the rules by reason to change: ``actions`` (the JSON surface,
including the ``Press`` interface the button box shares), ``timing`` (which presses
count, in what order), ``state`` (acts, phases, totals) and ``game`` (the rules).
"""

from __future__ import annotations

from companion.games.meeple_circus.rules.actions import Press, PressSource
from companion.games.meeple_circus.rules.game import MeepleCircus
from companion.games.meeple_circus.rules.state import CircusState
from companion.games.meeple_circus.rules.termination import Termination

GAME = MeepleCircus()

__all__ = ["GAME", "CircusState", "MeepleCircus", "Press", "PressSource", "Termination"]
