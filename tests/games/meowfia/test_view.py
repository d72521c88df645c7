"""The 喵喵咪呀 view-model: one tally for screen and board, public facts only on the table."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from meowfia_play import ballot, intercept, next_action, play, started

from companion.games.meowfia.rules import (
    GAME,
    MoveMarker,
    Reveal,
    Revote,
    SetWeight,
    Timer,
    Vote,
)
from companion.games.meowfia.view import TableView, host_view, table_view, tally
from companion.rules.base import RuleError, seat_players

S = 1_000_000_000


def test_the_tally_counts_the_ring_as_one_and_a_half() -> None:
    state = intercept(started())  # ring: the last questioned of round 1
    ring = state.ring
    assert ring is not None
    others = [v for v in state.voters if v != ring]
    a, b = others[0], others[1]
    state = ballot(state, {ring: a, b: a})
    view = tally(state, state.ballot)
    totals = {t.who.pid: (t.total, t.mark) for t in view.totals}
    assert totals[a] == ("2.5", "leads")
    assert view.ring is not None and view.ring.pid == ring
    assert (view.voted, view.voters, view.best) == (2, 5, "2.5")
    rows = {r.who.pid: r for r in host_view(state).voters}
    assert rows[ring].weight == "1.5" and rows[ring].ring and rows[ring].target_leads


def test_a_tie_marks_every_leader_and_the_revote_names_it() -> None:
    state = intercept(started())
    state = play(state, MoveMarker("ring", None, "given away"))
    state = ballot(state, {"p2": "p3", "p3": "p2", "p4": None, "p5": None, "p6": None})
    view = tally(state, state.ballot)
    assert view.result == "tie" and {s.pid for s in view.tied} == {"p2", "p3"}
    assert sorted(t.mark for t in view.totals) == ["", "", "", "tie", "tie"]
    state = play(state, Revote())
    again = tally(state, state.ballot)
    assert again.number == 2 and again.earlier_tie is not None
    assert again.earlier_tie[0] == "1" and [s.name for s in again.earlier_tie[1]] == ["Bo", "Cy"]
    assert all(t.mark == "" for t in again.totals)  # nobody leads before a vote


def test_a_weight_change_shows_in_the_totals() -> None:
    state = intercept(started())
    state = play(state, SetWeight("p2", Fraction(1, 2), "halved"), Vote("p2", "p4"))
    assert {t.who.pid: t.total for t in tally(state, state.ballot).totals}["p4"] == "0.5"


def test_time_is_up_stays_until_the_phase_ends() -> None:
    state = play(started(smuggling_seconds=30), Timer("start", 10 * S))
    assert table_view(state, 25 * S).timer.clock == "0:15"
    for later in (40 * S, 41 * S, 4000 * S):
        timer = table_view(state, later).timer
        assert timer is not None and timer.status == "up"
        assert timer.label.render() == "Time is up!"
    paused = play(state, Timer("pause", 20 * S))
    assert table_view(paused, 999 * S).timer.label.render() == "Timer paused: 0:20"
    assert table_view(intercept(state), 50 * S).timer is None  # a new phase, no timer


def test_the_table_view_has_no_field_for_who_voted_whom() -> None:
    fields = {f.name for f in dataclasses.fields(TableView)}
    assert "voters" not in fields
    tally_fields = {f.name for f in dataclasses.fields(type(tally(*_ballot_state())))}
    assert not tally_fields & {"casts", "voters_rows", "votes"}


def _ballot_state():
    state = intercept(started())
    return state, state.ballot


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 10))
def test_the_table_view_names_only_public_identities(seed: int, n: int) -> None:
    rnd = random.Random(seed)
    state = GAME.setup(seat_players([f"P{i}" for i in range(n)]), {})
    for _ in range(120):
        view = table_view(state, 0)
        for row in view.players:
            known = state.side_of(row.who.pid) is not None
            if not known:
                assert row.identity in (None, "unknown"), (row, state.phase)
            if row.identity == "undercover":
                assert row.who.pid == state.undercover
        action = next_action(state, rnd)
        if action is None:
            break
        try:
            state = GAME.apply(state, action)
        except RuleError:
            continue


def test_sides_known_at_the_end_are_not_shown_as_revealed_tiles() -> None:
    state = intercept(started())
    state = ballot(state, {v: ("p3" if v != "p3" else "p2") for v in state.voters})
    state = play(state, Reveal("p3", "undercover"))
    rows = {r.who.pid: r for r in table_view(state, 0).players}
    assert rows["p3"].identity == "undercover" and rows["p3"].revealed
    assert rows["p2"].identity == "meowfia" and not rows["p2"].revealed
