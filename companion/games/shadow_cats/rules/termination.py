"""How a game of 喵窩暗影 ends (``Outcome.termination``).

The values are the strings stored in logs and exports before this enum existed, so
older sessions read unchanged (a ``StrEnum`` member equals its value).
"""

from __future__ import annotations

from companion.rules.guide import Termination as BaseTermination


class Termination(BaseTermination):
    """The two ways the rules end play (docs/games/shadow-cats.md, "Victory")."""

    TEAM_WIPE = "team-wipe"
    """Every character of one team is dead by their turned identity cards: the other
    team wins (every member, dead or alive)."""

    NEUTRAL_WIN = "neutral-win"
    """The host declared that one or more Neutrals met their character's condition;
    they win (declared at the same moment as a team wipe, this replaces it)."""
