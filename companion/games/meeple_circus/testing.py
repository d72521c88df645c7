"""Meeple Circus's testing hook for the conformance suite (``companion.rules.testing``)."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

from companion.games.meeple_circus.rules.actions import (
    AbortPerformance,
    ChooseFirstPlayer,
    ChooseMusic,
    CorrectScore,
    EndAct,
    EndPerformance,
    FinishPerformance,
    HostPick,
    Prepare,
    Press,
    ScorePlayer,
    SettlePress,
    SettleTie,
    StartPerformance,
    VoidPress,
)
from companion.games.meeple_circus.rules.state import CircusState
from companion.rules.base import Action
from companion.rules.testing import GameTesting

SECOND = 1_000_000_000
TRACK = 120 * SECOND


def latest_ns(value: Any) -> int:
    """The latest host time recorded anywhere in the state (fields named ``*_ns``)."""
    best = 0
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.name.endswith("_ns") and isinstance(item, int):
                best = max(best, item)
            elif isinstance(item, tuple) or dataclasses.is_dataclass(item):
                best = max(best, latest_ns(item))
    elif isinstance(value, tuple):
        for item in value:
            best = max(best, latest_ns(item))
    return best


class MeepleCircusTesting(GameTesting[CircusState]):
    tables = (2, 4)
    steps = 160

    def candidates(self, state: CircusState, rng: random.Random) -> Sequence[Action]:
        pids = state.player_ids()
        now = latest_ns(state) + rng.choice([1, SECOND // 50, 5 * SECOND, TRACK])
        pid = rng.choice(pids)
        perf = state.performance
        attempt = perf.current if perf is not None else None
        presses = len(perf.presses) if perf is not None else 0

        verdict = state.verdict()
        tied = [g for g in (verdict.order if verdict else ()) if len(g) > 1]
        order = tied[0] if tied else (pid,)
        end = attempt.scheduled_end_ns if attempt is not None else now + TRACK
        points = rng.randint(0, 5)
        unscored = state.unscored()
        scored = [p for p in pids if p not in unscored] or [pid]
        pending = state.pending_pick.candidates if state.pending_pick else pids
        return [
            ChooseFirstPlayer(pid),
            HostPick(rng.choice(pending)),
            Prepare(state.next_to_prepare() or pid),
            *(ChooseMusic(m) for m in ("countdown:45", "track:grand-finale", "")),
            StartPerformance(now, TRACK, "t"),
            Press(pid, rng.choice([now, now - 1, end, end + 1]), 0, "keyboard"),
            *(EndPerformance(t) for t in (now, max(now, end), end + 1)),
            AbortPerformance(now, "host"),
            *(VoidPress(i) for i in range(presses + 1)),
            *(SettlePress(i, b) for i in range(presses + 1) for b in (True, False)),
            SettleTie(order),
            FinishPerformance(),
            ScorePlayer(unscored[0] if unscored else pid, blue=points),
            CorrectScore(rng.choice(scored), yellow=points),
            EndAct(),
        ]


TESTING = MeepleCircusTesting()
