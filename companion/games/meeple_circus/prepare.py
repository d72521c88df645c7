"""Meeple Circus draws, with the session's randomness, returned as actions to record.

The only draw in the game is act 1's first player when the host leaves it to
chance (``r``). It runs on the writer thread (``LiveSession.rng``) and goes straight
into a ``choose-first-player`` action with ``random: true``, committed before the
screen shows it: a kill right after ``r`` resumes to the same first player.
"""

from __future__ import annotations

import random

from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer
from companion.games.meeple_circus.rules.state import CircusState


def random_first_player(rng: random.Random, state: CircusState) -> ChooseFirstPlayer:
    """Draw act 1's first player among every seat."""
    return ChooseFirstPlayer(rng.choice(state.player_ids()), random=True)
