"""How a Meeple Circus game ends (``Outcome.termination``).

The value is the string stored in logs and exports since the first version, so
older sessions read unchanged.
"""

from __future__ import annotations

from companion.rules.guide import Termination as BaseTermination


class Termination(BaseTermination):
    """The ways a game of 米宝马戏团 ends."""

    GRAND_SHOW_ENDED = "grand-show-ended"
    """Act 3 (盛大演出, the grand show) is evaluated: the highest total wins, equal
    best totals share the victory. The only way the game ends."""
