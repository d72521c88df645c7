"""What a game screen may ask of the app that hosts it (the app shell lives above).

Design decision: the shared widgets sit *below* ``companion.ui`` (the shell imports the
games, the games import the widgets), so a screen reaches the app through this
protocol instead of importing ``companion.ui.app``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any, Protocol, TypeVar

from companion.session.clock import Clock
from companion.session.store import Store

T = TypeVar("T")


class HostApp(Protocol):
    """The app as a game screen sees it."""

    store: Store
    lang: str
    clock: Clock
    rng: random.Random | None

    @property
    def audio(self) -> Any: ...

    def write(self, fn: Callable[[], T], done: Callable[[Future[T]], None]) -> None: ...

    def writes_pending(self) -> bool: ...
