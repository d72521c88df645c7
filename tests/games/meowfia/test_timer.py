"""The phase timer is in the log: start, pause, resume, time up, and it ends with its phase."""

from __future__ import annotations

import pytest
from meowfia_play import intercept, play, started

from companion.games.meowfia.rules import GAME, SmugglingDone, Timer, Vote
from companion.rules.base import IllegalActionError, action_from_json, action_to_json

S = 1_000_000_000


def test_start_pause_resume_and_time_up() -> None:
    state = started(smuggling_seconds=30)
    state = play(state, Timer("start", 100 * S))
    timer = state.timer
    assert timer is not None and timer.running
    assert timer.remaining_ns(110 * S) == 20 * S
    state = play(state, Timer("pause", 110 * S))
    assert state.timer is not None and state.timer.remaining_ns(500 * S) == 20 * S
    assert not state.timer.is_up(500 * S)  # a paused timer is never up
    state = play(state, Timer("resume", 500 * S))
    assert state.timer is not None and state.timer.remaining_ns(515 * S) == 5 * S
    assert state.timer.is_up(520 * S) and state.timer.is_up(9999 * S)  # and it stays up
    with pytest.raises(IllegalActionError):
        GAME.apply(state, Timer("pause", 521 * S))  # nothing left to pause
    restarted = play(state, Timer("start", 521 * S))  # after time is up it may start again
    assert restarted.timer is not None and restarted.timer.remaining_ns(521 * S) == 30 * S


def test_refusals() -> None:
    state = started(smuggling_seconds=30)
    with pytest.raises(IllegalActionError, match="not paused"):
        GAME.apply(state, Timer("resume", 0))
    with pytest.raises(IllegalActionError, match="not running"):
        GAME.apply(state, Timer("pause", 0))
    state = play(state, Timer("start", 0))
    with pytest.raises(IllegalActionError, match="already set"):
        GAME.apply(state, Timer("start", S))
    inspection = play(state, SmugglingDone())
    with pytest.raises(IllegalActionError, match="smuggling and a reckoning"):
        GAME.apply(inspection, Timer("start", S))
    with pytest.raises(IllegalActionError, match="session options"):
        GAME.apply(started(), Timer("start", 0))  # no seconds set for this phase


def test_the_timer_ends_with_its_phase_and_a_revote_starts_afresh() -> None:
    state = play(started(smuggling_seconds=30, discussion_seconds=60), Timer("start", 0))
    reckoning = intercept(state)  # smuggling done, contraband: the timer is gone
    assert reckoning.timer is None
    reckoning = play(reckoning, Timer("start", 5 * S))
    assert reckoning.timer is not None and reckoning.timer.length_ns == 60 * S
    voted = play(reckoning, Vote("p2", "p3"))
    assert voted.timer == reckoning.timer  # a vote does not touch the discussion timer


def test_json_form() -> None:
    action = action_from_json(
        GAME.action_types, {"type": "timer", "command": "pause", "host_ns": 12}
    )
    assert action == Timer("pause", 12)
    assert action_to_json(action) == {"type": "timer", "command": "pause", "host_ns": 12}
