"""喵喵咪呀 (Meowfia): the rules module. ``GAME`` is what the registry loads.

``actions`` holds the action dataclasses (their JSON forms), ``state`` the game
record, ``game`` the rules that fold one into the other.
"""

from __future__ import annotations

from companion.games.meowfia.rules.actions import (
    BUILDINGS,
    Abstain,
    Building,
    Identify,
    Inspect,
    MoveMarker,
    Question,
    Retract,
    Reveal,
    RevealTile,
    Revote,
    SetCounter,
    SetWeight,
    SmugglingDone,
    Start,
    Timer,
    Vote,
)
from companion.games.meowfia.rules.game import MAX_PLAYERS, MIN_PLAYERS, Meowfia
from companion.games.meowfia.rules.state import (
    RING_WEIGHT,
    TARGET,
    Adjustment,
    Ballot,
    Cast,
    MeowfiaState,
    PhaseTimer,
    Questioned,
    RevealRecord,
    RoundRecord,
    WeightChange,
    format_weight,
)
from companion.games.meowfia.rules.termination import Termination

GAME = Meowfia()

__all__ = [
    "BUILDINGS",
    "GAME",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "RING_WEIGHT",
    "TARGET",
    "Abstain",
    "Adjustment",
    "Ballot",
    "Building",
    "Cast",
    "Identify",
    "Inspect",
    "Meowfia",
    "MeowfiaState",
    "MoveMarker",
    "PhaseTimer",
    "Question",
    "Questioned",
    "Retract",
    "Reveal",
    "RevealRecord",
    "RevealTile",
    "Revote",
    "RoundRecord",
    "SetCounter",
    "SetWeight",
    "SmugglingDone",
    "Start",
    "Termination",
    "Timer",
    "Vote",
    "WeightChange",
    "format_weight",
]
