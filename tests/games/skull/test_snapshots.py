"""Snapshots of the skull screen (pictures in ``__snapshots__/test_snapshots/``)."""

from __future__ import annotations

from tests.games.snapshots import (  # noqa: F401 - fixture
    busiest_screen_test,
    frozen_header_clock,
    game_screen_test,
)

test_game_screen = game_screen_test("skull")

# From the opening screen to the busiest one: six discs placed in the opening, a
# seventh in play, a bid for four, then the next bid's dialog open.
test_busiest_screen = busiest_screen_test(
    "skull", ["p", "p", "p", "p", "p", "p", "p", "b", "backspace", "4", "enter", "b"]
)
