"""米宝马戏团 Meeple Circus: three acts timed by music, Tadaa order, seven scoring sources.

The package splits the rules by reason to change: ``actions`` (the JSON surface,
including the ``Press`` interface the button box shares), ``timing`` (which presses
count, in what order), ``state`` (acts, phases, totals) and ``game`` (the rules).
"""

from __future__ import annotations

from companion.rules.meeple_circus.actions import Press, PressSource
from companion.rules.meeple_circus.game import MeepleCircus
from companion.rules.meeple_circus.state import CircusState

GAME = MeepleCircus()

__all__ = ["GAME", "CircusState", "MeepleCircus", "Press", "PressSource"]
