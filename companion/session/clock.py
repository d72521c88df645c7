"""The one clock source of a session, and a manual one for tests and replays.

Ordering never uses wall-clock time: ``monotonic_ns`` is the shared timeline of
music, countdown and presses; ``now`` is only the human-readable stamp of an entry.
"""

from __future__ import annotations

import time
from typing import Protocol

from companion.session.store import utc_now


class Clock(Protocol):
    """Where the session reads time."""

    def monotonic_ns(self) -> int: ...

    def now(self) -> str: ...


class SystemClock:
    """The host's monotonic clock (``time.monotonic_ns``, shared by all processes)."""

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()

    def now(self) -> str:
        return utc_now()


class ManualClock:
    """A clock that moves only when told to (tests, benchmarks, deterministic demos).

    >>> c = ManualClock(); c.advance(1.5); c.monotonic_ns()
    1500000000
    """

    def __init__(self, start_ns: int = 0, wall: str = "2026-01-01T20:00:00") -> None:
        self.ns = start_ns
        self.wall = wall

    def advance(self, seconds: float = 0.0, *, ns: int = 0) -> None:
        self.ns += round(seconds * 1e9) + ns

    def monotonic_ns(self) -> int:
        return self.ns

    def now(self) -> str:
        seconds = self.ns // 1_000_000_000
        ms = (self.ns // 1_000_000) % 1000
        hh, rem = divmod(20 * 3600 + seconds, 3600)
        mm, ss = divmod(rem, 60)
        return f"{self.wall[:10]}T{hh % 24:02d}:{mm:02d}:{ss:02d}.{ms:03d}Z"
