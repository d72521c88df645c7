"""Entering and leaving the reckoning restyles what changes, not the whole screen
(issue 26: "no restyle storms"). The screen's ``-reckoning`` class hid the top panels
and showed the status line through a screen-wide selector, so each toggle (every ballot
opened, every undo across one) restyled every node of the screen: counted here as
``Stylesheet.apply`` calls, not timed."""

from __future__ import annotations

import random

import pytest
import textual.css.stylesheet as stylesheet

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.games.meowfia.test_screen import SIZE, press, smuggle_and_open, start, state_of


async def test_a_ballot_opening_restyles_a_few_nodes_not_the_screen(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    applied: list[object] = []
    apply = stylesheet.Stylesheet.apply

    def counted(self, node, *args, **kwargs):  # type: ignore[no-untyped-def]
        applied.append(node)
        return apply(self, node, *args, **kwargs)

    monkeypatch.setattr(stylesheet.Stylesheet, "apply", counted)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app)
        await press(pilot, app, "1")
        await smuggle_and_open(pilot, app, screen, "e", "contraband", full=True)
        assert state_of(screen).phase == "reckoning"
        for key, phase in (("ctrl+z", "inspection"), ("ctrl+y", "reckoning")):
            applied.clear()
            await press(pilot, app, key)
            assert state_of(screen).phase == phase
            # Before: 115 (every node of the screen). Now about 42: the three panels
            # shown or hidden with what is inside them, and the footer's keys (redo
            # comes or goes).
            assert len(applied) <= 60, (key, len(applied))
