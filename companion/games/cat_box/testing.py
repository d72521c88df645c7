"""Cat Box's testing hook for the conformance suite (``companion.rules.testing``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.cat_box.prepare import deal_for
from companion.games.cat_box.rules import (
    AdjustTokens,
    CatBoxState,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    UseEnvy,
)
from companion.rules.base import Action
from companion.rules.testing import GameTesting


class CatBoxTesting(GameTesting[CatBoxState]):
    tables = (3, 6)
    steps = 150

    def candidates(self, state: CatBoxState, rng: random.Random) -> Sequence[Action]:
        group = state.players
        out: list[Action] = [deal_for(group, {}, rng)]
        pid = state.current or group[0].id
        other = next(p.id for p in group if p.id != pid)
        dice = tuple(rng.randint(1, 6) for _ in range(3))
        out += [
            Roll(pid, dice, (rng.randint(1, 6),)),
            Roll(other, dice, (1,)),
            Pass(pid),
            Retire(pid),
            SetDice(pid, dice, (rng.randint(1, 6),), "fix"),
            AdjustTokens(pid, 1, "fix"),
            AdjustTokens(other, -1, "fix"),
        ]
        for shown in state.display:
            out.append(Open(pid, shown.card))
            out.append(UseEnvy(pid, shown.card))
            for slot, holders in enumerate(shown.tokens, start=1):
                out.append(Place(pid, shown.card, slot))
                out.append(Place(pid, shown.card, slot, override="host"))
                out += [RemoveToken(h, shown.card, slot, "fix") for h in holders]
        for seat in state.seats:
            out += [UseEnvy(pid, c) for c in seat.won]
        return out


TESTING = CatBoxTesting()
