"""One view-model for the host screen and the board: the same gaps, places and verdicts.

Before it, the host's Tadaa table measured a gap from host times and wrote it with a
bare "+" ("+-10.4 ms" for a tie the host settled against the host-time order), while
the board measured it from the box clock and dropped the sign ("+10.400 ms"): the
same two presses, two different gaps.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mc_helpers import MS, SECOND, TRACK, Table, box, key
from rich.console import Console

from companion.games.meeple_circus import panels, view
from companion.games.meeple_circus.board import press_table
from companion.games.meeple_circus.rules.actions import (
    EndPerformance,
    SettleTie,
    StartPerformance,
)


def text(renderable: object) -> str:
    console = Console(width=160, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


def _settled_against_the_clock() -> Table:
    t = Table.of("Ann", "Bo", "Cy")
    t.start_game()
    t.do(StartPerformance(0, TRACK, "t"))
    t.do(key("p1", 20 * SECOND, 20 * MS), key("p2", 20 * SECOND + 10_400_000, 20 * MS))
    t.do(key("p3", 30 * SECOND, 20 * MS), EndPerformance(TRACK))
    t.do(SettleTie(("p2", "p1")))  # the host saw Bo first, 10.4 ms "later" by the clock
    return t


def test_a_settled_tie_shows_plus_minus_and_the_same_gap_on_screen_and_board() -> None:
    t = _settled_against_the_clock()
    rows = view.press_rows(t.state)
    assert [(r.name, r.place, r.gap) for r in rows] == [
        ("Bo", "1", ""),
        ("Ann", "2", "±10.4 ms"),
        ("Cy", "3", "+10.000 s"),  # from Ann, ranked just before
    ]
    host = text(panels.tadaa_table(t.state, with_tokens=True))
    board = text(press_table(rows))
    for row in rows[1:]:
        assert row.gap in host and row.gap in board
    assert "+-" not in host and "+-" not in board


def test_gaps_from_one_box_are_exact_on_both() -> None:
    t = Table.of("Ann", "Bo")
    t.start_game()
    t.do(StartPerformance(0, TRACK, "t"))
    t.do(box("p1", 12 * SECOND, 5_000_000, MS), box("p2", 12 * SECOND + 40 * MS, 5_040_123, MS))
    rows = view.press_rows(t.state)
    assert rows[1].gap == "+40.123 ms" and rows[1].gap_exact
    assert "+40.123 ms ⏱" in text(panels.tadaa_table(t.state, with_tokens=True))
    assert "+40.123 ms ⏱" in text(press_table(rows))


@settings(max_examples=150, deadline=None)
@given(
    presses=st.lists(
        st.tuples(
            st.sampled_from(["p1", "p2", "p3"]), st.integers(0, 3 * SECOND), st.integers(0, 50 * MS)
        ),
        max_size=8,
    ),
    host_order=st.booleans(),
)
def test_every_gap_is_plus_or_plus_minus_never_negative(
    presses: list[tuple[str, int, int]], host_order: bool
) -> None:
    t = Table.of("Ann", "Bo", "Cy")
    t.start_game()
    t.do(StartPerformance(0, TRACK, "t"))
    t.do(*(key(p, SECOND + at, u) for p, at, u in presses))
    for group in [g for g in t.state.verdict().order if len(g) > 1]:
        t.do(SettleTie(tuple(group) if host_order else tuple(reversed(group))))
    for row in view.press_rows(t.state):
        assert row.gap == "" or re.fullmatch(r"[+±]\d+\.\d+ (ms|s)", row.gap), row.gap
        assert (row.gap == "") == (row.place in ("", "1", "1="))


def test_the_countdown_is_the_same_instant_on_both() -> None:
    t = Table.of("Ann", "Bo")
    t.start_game()
    assert view.clock_view(t.state, 0, TRACK).label == "Waiting for the music"
    t.do(StartPerformance(0, TRACK, "t"))
    running = view.clock_view(t.state, 110 * SECOND + 250 * MS, TRACK)
    assert (running.remaining_ns, running.mode) == (9_750 * MS, "running")
    assert view.clock_text(running.remaining_ns) == "9.8"
    assert view.clock_view(t.state, TRACK + 1, TRACK).mode == "ended"


@pytest.mark.parametrize("width", [60, 70, 160])
def test_the_tadaa_order_shows_every_time_and_gap_whole(width: int) -> None:
    """Found on the tmux tour (docs/tour/meeple-circus.md row 9): at 160x48 with the log
    shown the Time column read "0:08.6…". Failed before the fix (at 60 and 70 columns)."""
    t = _settled_against_the_clock()
    console = Console(width=width, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(panels.tadaa_table(t.state, with_tokens=True))
    shown = console.export_text()
    for row in view.press_rows(t.state):
        assert row.time in shown, (row.time, shown)
        assert not row.gap or row.gap in shown, (row.gap, shown)
