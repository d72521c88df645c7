"""One phase timer for every game (Textual's stopwatch pattern: a paused interval).

Design decisions:

* The timer runs on the monotonic clock from a start time it is given (which a screen
  can take from the log), so a resumed session shows the same time left.
* "Time is up" stays on screen until the timer is started again or stopped: a host
  who looked away still sees it (a toast would have vanished).
* It posts ``PhaseTimer.Expired`` once, when the time runs out; the screen decides what
  to do (a cue, a prompt), the timer only tells.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.message import Message
from textual.reactive import reactive

from companion.i18n import _
from companion.widgets.shown import Shown

NS_PER_S = 1_000_000_000
TICK_S = 0.2


def clock_label(seconds_left: float) -> str:
    """``"1:05"`` for 65 s (rounded up: a timer shows 0:00 only when the time is up)."""
    whole = max(0, int(-(-seconds_left // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


class PhaseTimer(Shown):
    """A countdown of one phase. ``start(seconds)``; ``stop()``; posts ``Expired``."""

    DEFAULT_CSS = """
    PhaseTimer { width: auto; height: 1; padding: 0 1; }
    PhaseTimer.expired { background: $error; color: $text; text-style: bold; }
    """

    class Expired(Message):
        """The phase's time ran out."""

        def __init__(self, timer: PhaseTimer) -> None:
            super().__init__()
            self.timer = timer

        @property
        def control(self) -> PhaseTimer:
            return self.timer

    left_s: reactive[float | None] = reactive(None)
    """Seconds left, or None while no timer runs."""

    def __init__(self, clock_ns: Callable[[], int] = time.monotonic_ns, **kwargs: object) -> None:
        super().__init__("", **kwargs)  # type: ignore[arg-type]
        self._clock_ns = clock_ns
        self._deadline_ns: int | None = None
        self._expired = False

    def on_mount(self) -> None:
        self._ticker = self.set_interval(TICK_S, self.tick, pause=True)

    @property
    def running(self) -> bool:
        return self._deadline_ns is not None and not self._expired

    @property
    def expired(self) -> bool:
        return self._expired

    def start(self, seconds: float, started_ns: int | None = None) -> None:
        """Run for ``seconds`` from ``started_ns`` (default: now)."""
        begin = self._clock_ns() if started_ns is None else started_ns
        self._deadline_ns = begin + int(seconds * NS_PER_S)
        self._expired = False
        self.remove_class("expired")
        self._ticker.resume()
        self.tick()

    def stop(self) -> None:
        self._deadline_ns = None
        self._expired = False
        self.remove_class("expired")
        self._ticker.pause()
        self.left_s = None

    def tick(self) -> None:
        if self._deadline_ns is None or self._expired:
            return
        left = (self._deadline_ns - self._clock_ns()) / NS_PER_S
        if left <= 0:
            self._expired = True
            self._ticker.pause()
            self.add_class("expired")
            self.left_s = 0.0
            self.post_message(self.Expired(self))
        else:
            self.left_s = left

    def watch_left_s(self, left: float | None) -> None:
        if left is None:
            self.update("")
        elif self._expired:
            self.update("⏰ " + _("Time is up"))
        else:
            self.update("⏱ " + clock_label(left))
