"""Whose stack a turned disc came from: the dialog offers only the stacks the rules take
(issue 21, item 7), and asks nothing when only one stack can be next."""

from __future__ import annotations

import random

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import ChoiceDialog


async def test_the_stack_dialog_offers_only_stacks_the_rules_take(tmp_path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("skull", ["Ann", "Bo", "Cy"], {})
        await app.settle()
        for key in ["p", "p", "p", "b", "backspace", "3", "enter", "s", "s"]:
            await pilot.press(key)
            await app.settle()
        state = app.screen.skull
        assert state.phase == "reveal" and state.bidder == 0, state.phase
        await pilot.press("f")  # Ann's own stack first: nothing to ask
        await app.settle()
        assert not isinstance(app.screen, ChoiceDialog)
        assert app.screen.skull.turned == ((0, "flower"),)
        await pilot.press("f")  # two stacks left: which one?
        await app.settle()
        dialog = app.screen
        assert isinstance(dialog, ChoiceDialog)
        assert [value for value, _label in dialog.choices] == ["p2", "p3"]
        await pilot.press("down", "enter")  # Cy's
        await app.settle()
        assert app.screen.skull.turned == ((0, "flower"), (2, "flower"))
        await pilot.press("f")  # Bo's is the one stack left: taken without asking
        await app.settle()
        assert not isinstance(app.screen, ChoiceDialog)
        assert app.screen.skull.wins[0] == 1
