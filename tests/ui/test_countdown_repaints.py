"""The Meeple Circus countdown is drawn when what it shows changes (issue 26).

The screen recomputes it ten times a second from the clock; its digits change once a
second. Each tick set its remaining time (a new value every tick, so a repaint) and its
border title (a repaint whatever the title): the largest digits of the app were drawn
ten times a second for the same picture. Counted as the countdown's renders, not timed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.countdown import Countdown

NS = 1_000_000_000


async def test_a_running_countdown_is_drawn_once_a_second_not_at_every_tick(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = ManualClock(start_ns=100 * NS)
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock)
    async with app.run_test(size=(160, 48)) as pilot:
        app.start_session("meeple-circus", ["Ann", "Bo"], {})
        await app.settle()
        for key in ("1", "p", "p", "s"):  # act 1, its performers, the music started
            await pilot.press(key)
            await app.settle()
        screen = app.screen
        countdown = screen.query_one("#mc-countdown", Countdown)
        assert countdown.mode == "running", countdown.mode
        drawn: list[str] = []
        render = Countdown.render

        def counted(self: Countdown):  # type: ignore[no-untyped-def]
            drawn.append(self.text)
            return render(self)

        monkeypatch.setattr(Countdown, "render", counted)
        texts = set()
        for _tick in range(30):  # three seconds of ticks, a tenth of a second apart
            clock.advance(0.1)
            screen.tick()
            texts.add(countdown.text)
            await pilot.pause()
        await app.settle()
        assert len(texts) >= 3  # it did count down
        # Before: 30, one a tick. Now once a digit change (and a frame's worth slack).
        assert len(drawn) <= len(texts) + 2, (len(drawn), sorted(texts))
        assert drawn[-1] == countdown.text
