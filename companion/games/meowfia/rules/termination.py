"""How a game of 喵喵咪呀 ends: one member per win path (``Outcome.termination``).

The values are the strings stored in logs and exports since the first version, so
older sessions read unchanged; the docstrings say what each member means at the table.
"""

from __future__ import annotations

from companion.rules.guide import Termination as BaseTermination


class Termination(BaseTermination):
    """The four ways a game of 喵喵咪呀 ends (listed in ``docs/games/meowfia.md``)."""

    SMUGGLES = "smuggles"
    """The Meowfia win: the 3rd empty box was opened (3 smuggles, 走私成功 3 次)."""

    UNDERCOVER_CAUGHT = "undercover-caught"
    """The Meowfia win: a reckoning accused the Undercover and their tile was turned
    (this takes priority over the Police's 3rd intercept in the same reckoning)."""

    UNDERCOVER_REVEALED = "undercover-revealed"
    """The Meowfia win: the Undercover's tile was revealed outside a vote (a manual
    reveal, by a role ability or by mistake): the Police win only while it stays hidden."""

    INTERCEPTS = "intercepts"
    """The Police win: a reckoning after the 3rd intercept ended without revealing
    the Undercover."""
