"""Skull preparer (session side): the random draw of a lost disc, made into an action
on the writer thread (``GameScreen.submit(callable)``), so it is on disk before the
host sees it and a kill cannot give a second draw."""

from __future__ import annotations

import random

from companion.games.skull.rules import LoseDisc, SkullState


def lose_disc(state: SkullState, rng: random.Random) -> LoseDisc:
    """Which of the failed challenger's discs is lost: the ``drawn``-th of ``of``."""
    challenger = state.bidder if state.bidder is not None else 0
    have = state.discs[challenger]
    return LoseDisc(rng.randint(1, max(1, have)), have)
