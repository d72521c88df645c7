"""Keyboard presses are stamped when the key arrives, not when it is handled
(issue 21, item 4).

The app delivers a typed key only once the one before it has landed (its commit
saved and shown). A press's time must not include that wait: two keys typed in one
burst are within each other's ±20 ms and too close to call; two keys 100 ms apart
(by their events' own times, not by sleeping) are ordered. The session's commits
are made slow on purpose (150 ms each): before the fix the second key of a burst
was stamped after the first key's commit, so it came out a clear second.
"""

from __future__ import annotations

import time

import pytest
from textual import events

from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer, Prepare, StartPerformance
from companion.games.meeple_circus.rules.timing import judge
from companion.session.store import Store
from companion.ui.app import make_app

SLOW_COMMIT_S = 0.15


@pytest.fixture
def slow_commits(monkeypatch):
    real = Store.append_next

    def slow(self, session_id, kind, payload, *args, **kwargs):
        if kind == "action" and payload.get("type") == "press":
            time.sleep(SLOW_COMMIT_S)  # a slow disk: the next key waits for this one
        return real(self, session_id, kind, payload, *args, **kwargs)

    monkeypatch.setattr(Store, "append_next", slow)


async def performing(app, pilot):
    app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
    await app.settle()
    screen = app.screen
    screen.submit(ChooseFirstPlayer("p1"))
    await app.settle()
    for pid in screen.circus.preparation_order():
        screen.submit(Prepare(pid))
        await app.settle()
    screen.submit(StartPerformance(time.monotonic_ns() - 10**9, 60 * 10**9, None))
    await app.settle()
    assert screen.circus.phase == "performance"
    return screen


def typed(app, key: str, at: float) -> None:
    """A key as the terminal driver makes it, arrived at ``at`` (Textual's clock)."""
    event = events.Key(key, key)
    event.time = at
    event.set_sender(app)
    app._driver.send_message(event)


async def two_keys(tmp_path, monkeypatch, gap_s: float):
    monkeypatch.setenv("COMPANION_TADAA", "off")
    app = make_app(tmp_path / "keys.sqlite3", lang="en")
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await performing(app, pilot)
        from textual import _time

        now = _time.get_time()
        typed(app, "1", now - gap_s)
        typed(app, "3", now)  # in one send: the gate holds it behind the first
        deadline = time.monotonic() + 20
        while len(screen.circus.performance.presses) < 2:
            assert time.monotonic() < deadline, "the two presses never landed"
            await pilot.pause(0.02)
        await app.settle()
        perf = screen.circus.performance
        presses = {rp.press.player: rp.press for rp in perf.presses}
        return perf, presses


async def test_two_keys_typed_in_one_burst_are_too_close_to_call(
    tmp_path, monkeypatch, slow_commits
):
    perf, presses = await two_keys(tmp_path, monkeypatch, gap_s=0.0)
    # The second key was handled after the first one's slow commit, yet stamped
    # when it arrived: within the keyboard's stated uncertainty of the first.
    gap = presses["p3"].host_ns - presses["p1"].host_ns
    assert abs(gap) < presses["p1"].uncertainty_ns
    order = judge(perf, speed_tokens=False).order
    assert len(order) == 1 and sorted(order[0]) == ["p1", "p3"]  # one tie, for the host


async def test_two_keys_100_ms_apart_are_ordered(tmp_path, monkeypatch, slow_commits):
    perf, presses = await two_keys(tmp_path, monkeypatch, gap_s=0.1)
    gap = presses["p3"].host_ns - presses["p1"].host_ns
    assert 99_000_000 <= gap <= 101_000_000  # the events' own times, not the handling
    assert judge(perf, speed_tokens=False).order == (("p1",), ("p3",))
