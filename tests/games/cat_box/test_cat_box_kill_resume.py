"""Kill after every key: a scripted Cat Box game through the keys, and after each key a
fresh app on the same database file (new Store, new app, the start-up resume dialog,
``LiveSession.resume``) must show the same view-model and the same screen.

This is the model of a kill that really reopens the database: the second app sees
only what the first one committed. A roll the companion made at key k is on disk at
key k, so the resumed game has the same dice (no free re-roll); typed dice are
committed the moment enter accepts them.
"""

from __future__ import annotations

import random
from pathlib import Path

from test_cat_box_ui import quick_cards
from textual.widgets import DataTable, Static

from companion.games.cat_box.dialogs import RollDialog
from companion.games.cat_box.rules import CatBoxState
from companion.games.cat_box.screen import CatBoxScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import ResumeDialog
from companion.widgets.key_choice import KeyChoiceDialog
from companion.widgets.log_panel import LogPanel

SIZE = (120, 40)
NAMES = ["Ann", "Bo", "Cy"]
MAX_KEYS = 18
"""Each key costs a fresh app and a resume (about a second here): a game's opening,
with every kind of key in it (the whole game to its end: ``test_cat_box_ui``)."""
TYPED = "2345"
"""The dice a host types for a typed roll: common 2 3 4, player die 5."""
PANELS = (
    "#guide-prompt",
    "#outcome-banner",
    "#cb-banner",
    "#cb-notice",
    "#cb-roll",
    *(f"#cb-card-{i}" for i in range(4)),
)


def screen_text(screen: CatBoxScreen) -> dict[str, str]:
    """What the host sees of the game (the message line is the last key's, not the game's)."""
    out = {}
    for selector in PANELS:
        panel = screen.query_one(selector, Static)
        out[selector] = str(panel.render()) if panel.display else ""
    table = screen.query_one("#cb-players", DataTable)
    out["players"] = "\n".join(
        " | ".join(str(cell) for cell in table.get_row_at(r)) for r in range(table.row_count)
    )
    out["log"] = "\n".join(line.text for line in screen.query_one(LogPanel).lines)
    return out


class Host:
    """The scripted host: the next key from what is on screen and the turn's plan."""

    PLAN = ("typed", "r", "R", "t", "ctrl+z", "ctrl+y", "open")
    """Turn by turn: type a roll (then enter), the companion rolls 1 or 2 player dice,
    retire, undo it and redo it, open the box the tokens filled."""

    def __init__(self) -> None:
        self.turn = -1

    def key(self, app, screen: CatBoxScreen) -> str:
        state: CatBoxState = screen.session.state
        top = app.screen
        plan = self.PLAN[self.turn % len(self.PLAN)] if self.turn >= 0 else ""
        if isinstance(top, KeyChoiceDialog):
            return "1"
        if isinstance(top, RollDialog):
            if top.stage == "dice":
                if plan == "typed":  # digit by digit, then enter
                    typed = "".join(map(str, top.common + top.rolled))
                    return TYPED[len(typed)] if len(typed) < len(TYPED) else "enter"
                return plan if plan in ("r", "R") else "r"  # the companion rolls
            check = top.check()
            assert check is not None
            if not check.may_place:
                return "enter"
            choices = top.choices()
            return choices[0][0] if choices else "n"
        assert top is screen, top
        pid = state.current
        assert pid is not None
        if state.pending is not None:
            return "p"
        self.turn += 1
        plan = self.PLAN[self.turn % len(self.PLAN)]
        if plan in ("t", "ctrl+z", "ctrl+y"):
            return plan
        if plan == "open" and state.openable(pid):
            return "o"
        return "r"


async def resumed_the_same(
    db: Path, before: CatBoxScreen, key: str, rolled: RollDialog | None = None
) -> None:
    """A fresh app on the same file, resumed as a host would (enter on the offer).

    ``rolled``: the first app's roll dialog, when key was the companion rolling the dice.
    (Read before the second app starts: inside it, ``Screen.app`` is the second app.)"""
    before_text = screen_text(before)
    fresh = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(99))
    async with fresh.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if before.session.outcome is not None:
            fresh.resume_session(before.session.id)  # a finished game is not offered
        else:
            assert isinstance(fresh.screen, ResumeDialog)
            await pilot.press("enter")
        await fresh.settle()
        after = fresh.screen
        assert isinstance(after, CatBoxScreen)
        assert after.session.entries == before.session.entries, key
        assert after.view() == before.view(), key
        assert screen_text(after) == before_text, key
        if rolled is not None:  # the dice the companion just showed are the dice on record
            pending = after.session.state.pending
            assert pending is not None
            assert (list(pending.common), list(pending.rolled)) == (rolled.common, rolled.rolled)


async def test_kill_after_every_key_resumes_to_the_same_screen(tmp_path: Path) -> None:
    db = tmp_path / "cb.db"
    cards = quick_cards(tmp_path / "quick.toml")
    app = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(7))
    host = Host()
    keys: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("cat-box", NAMES, {"start_player": "p2", "card_file": str(cards)})
        await app.settle()
        screen = app.screen
        assert isinstance(screen, CatBoxScreen)
        await resumed_the_same(db, screen, "(start)")
        while len(keys) < MAX_KEYS:
            key = host.key(app, screen)
            in_dice = isinstance(app.screen, RollDialog) and app.screen.stage == "dice"
            await pilot.press(key)
            await app.settle()
            keys.append(key)
            top = app.screen
            rolled = top if in_dice and key in ("r", "R") and isinstance(top, RollDialog) else None
            await resumed_the_same(db, screen, key, rolled)
    kinds = {e.payload.get("type") for e in live.entries} | {e.kind for e in live.entries}
    assert {"deal", "roll", "place", "open", "retire", "undo", "redo"} <= kinds, (kinds, keys)
    assert "enter" in keys and "r" in keys and "R" in keys
