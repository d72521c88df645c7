"""The 喵喵咪呀 preparer: the first questioned player is drawn into ``start``; the timer toggle."""

from __future__ import annotations

import random

import pytest
from meowfia_play import new_game, play, started

from companion.games.meowfia import prepare
from companion.games.meowfia.rules import Timer
from companion.rules.base import RuleError

S = 1_000_000_000


def test_the_draw_goes_into_start_and_never_picks_the_sheriff() -> None:
    state = new_game()
    firsts = {prepare.start(state, "p3", random.Random(seed)).first for seed in range(60)}
    assert firsts == {"p1", "p2", "p4", "p5", "p6"}
    a = prepare.start(state, "p3", random.Random(9))
    b = prepare.start(state, "p3", random.Random(9))
    assert a == b and a.sheriff == "p3"
    with pytest.raises(RuleError):
        prepare.start(state, "p99", random.Random(1))


def test_the_timer_key_means_start_pause_resume_then_start_again() -> None:
    state = started(smuggling_seconds=10)
    assert prepare.timer(state, 0) == Timer("start", 0)
    state = play(state, prepare.timer(state, 0))
    assert prepare.timer(state, 3 * S) == Timer("pause", 3 * S)
    state = play(state, prepare.timer(state, 3 * S))
    assert prepare.timer(state, 50 * S) == Timer("resume", 50 * S)
    state = play(state, prepare.timer(state, 50 * S))
    assert prepare.timer(state, 70 * S) == Timer("start", 70 * S)  # it ran out
