"""Skull testing hook of the conformance suite (companion/rules/testing.py)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.skull.prepare import lose_disc
from companion.games.skull.rules import Bid, LoseDisc, Pass, Place, SkullState, TurnOver
from companion.rules.base import Action, Game
from companion.rules.testing import GameTesting, accepts


class SkullTesting(GameTesting[SkullState]):
    tables = (3, 6)
    steps = 200

    def candidates(self, state: SkullState, rng: random.Random) -> Sequence[Action]:
        out: list[Action] = [lose_disc(state, rng), LoseDisc(9, 9)]
        total = max(1, state.total_placed())
        for p in state.players:
            out += [Place(p.id), Pass(p.id), Bid(p.id, state.bid + 1), Bid(p.id, total)]
            out += [Bid(p.id, 0), TurnOver(p.id, "flower"), TurnOver(p.id, "skull")]
        out.append(Place("p99"))
        return out

    def random_step(
        self, game: Game[SkullState], state: SkullState, rng: random.Random
    ) -> Action | None:
        legal = [a for a in self.candidates(state, rng) if accepts(game, state, a)]
        if not legal:
            return None
        skulls = [a for a in legal if isinstance(a, TurnOver) and a.face == "skull"]
        if skulls and rng.random() < 0.2:  # a skull now and then: discs are lost, players out
            return rng.choice(skulls)
        flowers = [a for a in legal if isinstance(a, TurnOver) and a.face == "flower"]
        return rng.choice(flowers or legal)

    def hidden_texts(self, state: SkullState) -> frozenset[str]:
        """The draw of a lost disc is the host's: the board never says which one."""
        if state.lost is None:
            return frozenset()
        drawn, of = state.lost
        return frozenset({f"{drawn} of {of}", f"{drawn}/{of}", f"第 {drawn} 张"})


TESTING = SkullTesting()
