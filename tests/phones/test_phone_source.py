"""A phone's press in Meeple Circus: the same rules as a box's, labelled "phone"."""

from __future__ import annotations

import pytest

from companion.games.meeple_circus.rules.actions import Press, StartPerformance
from companion.games.meeple_circus.rules.timing import definitely_before, tie_groups
from companion.rules.base import BadActionError, action_to_json
from companion.ui.history_format import source_label
from tests.games.meeple_circus.mc_helpers import Table

MS = 1_000_000
TRACK = 60_000 * MS


def phone(player: str, t: int, unc: int, device_us: int, device: str = "phone:aa:b1") -> Press:
    return Press(player, t, unc, "phone", device=device, device_us=device_us)


def _started() -> Table:
    t = Table.of("A", "B", "C")
    t.start_game()
    t.do(StartPerformance(0, TRACK))
    return t


def test_phone_presses_are_ordered_tied_and_counted_like_any_other() -> None:
    t = _started()
    t.do(phone("p1", 10_000 * MS, 2 * MS, 1), phone("p2", 10_003 * MS, 2 * MS, 2, "phone:bb:b1"))
    t.do(Press("p3", 10_100 * MS, 20 * MS, "keyboard"))
    verdict = t.state.verdict()
    assert verdict is not None
    assert [j.status for j in verdict.presses] == ["counted"] * 3
    performance = t.state.performance
    assert performance is not None
    groups = tie_groups([r.press for r in performance.presses])
    assert [[p.player for p in g] for g in groups] == [["p1", "p2"], ["p3"]]  # 3 ms < 2 + 2


def test_one_phones_presses_follow_its_own_clock() -> None:
    a = phone("p1", 1_000 * MS, 3 * MS, 500_000)
    b = phone("p1", 999 * MS, 3 * MS, 500_900)  # mapped earlier, stamped later
    assert definitely_before(a, b) and not definitely_before(b, a)


def test_a_phone_press_needs_its_clock() -> None:
    t = _started()
    with pytest.raises(BadActionError, match="phone and its clock"):
        t.do(Press("p1", 5, 0, "phone"))


def test_history_and_exports_name_the_source() -> None:
    assert source_label("phone") == "phone"
    assert action_to_json(phone("p1", 1, 1, 1))["source"] == "phone"
