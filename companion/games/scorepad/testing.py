"""The score pad's testing hook for the conformance suite (``companion.rules.testing``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.scorepad.rules import CloseRound, EndGame, Score, ScorepadState
from companion.rules.base import Action, Game
from companion.rules.testing import GameTesting


class ScorepadTesting(GameTesting[ScorepadState]):
    tables = (1, 5)
    options = ({}, {"target": 30, "highest_wins": False, "game_name": "Carcassonne"})
    steps = 60

    def candidates(self, state: ScorepadState, rng: random.Random) -> Sequence[Action]:
        out: list[Action] = [CloseRound(), EndGame()]
        for p in state.players:
            out += [Score(p.id, rng.randint(-5, 12)), Score(p.id, 2_000_000)]
        out.append(Score("p99", 1))
        return out

    def random_step(
        self, game: Game[ScorepadState], state: ScorepadState, rng: random.Random
    ) -> Action | None:
        if state.ended is None and rng.random() < 0.97:  # ending now and then, not at once
            if state.current and rng.random() < 0.3:
                return CloseRound()
            return Score(rng.choice(state.players).id, rng.randint(-3, 12))
        return super().random_step(game, state, rng)


TESTING = ScorepadTesting()
