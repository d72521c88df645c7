"""Issue 21, item 7: the manual dialogs offer only what the guide allows, for the player
whose turn it is. Before, ``x`` (copy) acted on the row selected last — a dead player —
and offered the copier's own character; ``n`` listed a Neutral already declared."""

from __future__ import annotations

import random

from shadow_helpers import SUM_FOR, setup_action
from textual.widgets import OptionList

from companion.games.shadow_cats.rules.actions import ChangeHp, DeclareNeutralWin, Place, Reveal
from companion.games.shadow_cats.screen import ShadowCatsScreen
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.live import LiveSession
from companion.ui.app import make_app
from companion.widgets.dialogs import ChoiceDialog

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
SIZE = (160, 50)


def _game(store) -> str:
    """Six players; Fay (p6) plays the copier ("mimic"); p1 starts; Ann is killed."""
    live = LiveSession.start(
        store, "shadow-cats", seat_players(NAMES), {}, clock=ManualClock(), rng=random.Random(1)
    )
    chars = ["metal", "wood", "water", "fire", "earth", "mimic"]
    live.act(setup_action(6, characters=chars, counts=(2, 2, 2)))
    while live.state.phase == "start":
        live.act(Place(live.state.next_to_place, (SUM_FOR["library"],)))
    live.act(ChangeHp("p1", -200, "a fall"))  # Ann dies …
    live.act(Reveal("p1", "red"))  # … and her card is turned
    return live.id


def _items(app) -> list[str]:
    dialog = app.screen
    assert isinstance(dialog, ChoiceDialog), dialog
    options = dialog.query_one(OptionList)
    return [str(options.get_option_at_index(i).id) for i in range(options.option_count)]


async def test_copy_acts_on_the_copier_and_never_offers_itself(tmp_path) -> None:
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(2))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        sid = _game(app.store)
        app.resume_session(sid)
        await app.settle()
        screen = app.screen
        assert isinstance(screen, ShadowCatsScreen)
        table = screen.query_one("#sc-players")
        table.focus()
        await pilot.press("up", "up", "up", "up", "up", "up")  # select Ann's row (dead)
        await pilot.pause()
        assert table.cursor_row == 0
        await pilot.press("x")
        await pilot.pause()
        items = _items(app)
        assert "mimic" not in items and items  # the copier's own character is not offered
        question = " ".join(str(w.render()) for w in app.screen.query("Static, Label"))
        assert "Whose attack and element does Fay copy?" in question  # the copier acts
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("h")  # not the dead player selected: the one whose turn it is
        await pilot.pause()
        question = " ".join(str(w.render()) for w in app.screen.query("Static, Label"))
        assert "HP change for Bo" in question and "Ann" not in question


async def test_neutral_lists_only_who_can_still_be_declared(tmp_path) -> None:
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(2))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        sid = _game(app.store)
        live = LiveSession.resume(app.store, sid)
        live.act(DeclareNeutralWin(("p2",), "condition met"))
        app.resume_session(sid)
        await app.settle()
        await pilot.press("n")
        await pilot.pause()
        items = _items(app)
        assert "p2" not in items  # declared already
        assert "p1" not in items  # turned red
        assert set(items) == {"p3", "p4", "p5", "p6"}
