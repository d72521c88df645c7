"""米宝马戏团 Meeple Circus: three acts timed by music, Tadaa order, seven scoring sources.

The package splits the rules by reason to change: ``actions`` (the JSON surface,
including the ``Press`` interface the button box shares), ``timing`` (which presses
count, in what order), ``state`` and ``game`` (phases, scoring, tie-breaks).
"""

from __future__ import annotations

from companion.rules.meeple_circus.actions import Press, PressSource

__all__ = ["Press", "PressSource"]
