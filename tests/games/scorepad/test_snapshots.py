"""Snapshots of the scorepad screen (pictures in ``__snapshots__/test_snapshots/``)."""

from __future__ import annotations

from tests.games.snapshots import (  # noqa: F401 - fixture
    busiest_screen_test,
    frozen_header_clock,
    game_screen_test,
)

test_game_screen = game_screen_test("scorepad")

# From the opening screen to the busiest one: entries for the log, then a dialog open.
test_busiest_screen = busiest_screen_test(
    "scorepad", ["plus", "down", "plus", "plus", "down", "plus", "c", "enter"]
)
