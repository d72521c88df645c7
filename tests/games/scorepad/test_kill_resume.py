"""Kill after every key: a scripted score-pad game, and after each key a fresh app on
the same database file (new Store, new app, the start-up resume offer,
``LiveSession.resume``) must show the same game and the same screen.

The model of a kill that really reopens the database: the first app is never shut
down, so the second sees only what the first committed. Keys typed into the points
prompt are not an entry until enter saves them: a kill there resumes to the pad as
it was before ``s`` (the prompt is gone, nothing written). The script has a game
name, points for every player (typed, negative, and the one-point keys), a refused
key, an undo and a redo, a closed round, and the end of the game.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.widgets import DataTable, Static

from companion.games.scorepad.screen import ScorepadScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import ResumeDialog
from companion.widgets.log_panel import LogPanel

SIZE = (120, 40)
NAMES = ["Ann", "Bo", "Cy"]
OPTIONS = {"game_name": "Carcassonne", "highest_wins": True, "target": 0}
KEYS = [
    "c",  # refused: round 1 has no scores yet
    *("s", "1", "2", "enter"),  # Ann +12 (the cursor moves on to Bo)
    *("s", "-", "3", "enter"),  # Bo -3
    "plus",  # Cy +1
    "minus",  # Cy -1
    "ctrl+z",  # undo Cy's -1
    "ctrl+y",  # redo it
    "c",  # close round 1
    "up",  # a cursor move only (no entry): from Cy to Bo
    *("s", "7", "enter"),  # Bo +7 in round 2
    "E",
    "n",  # no: the game goes on
    *("E", "y"),  # end the game: round 2 closes
]
PANELS = ("#guide-prompt", "#outcome-banner", "#pad-banner", "#pad-help")


def screen_text(screen: ScorepadScreen) -> dict[str, str]:
    """What the host sees of the game: panels, the table's header and rows, the log.

    The message line is left out: it holds the last key's refusal, not the game."""
    out = {}
    for selector in PANELS:
        panel = screen.query_one(selector, Static)
        out[selector] = str(panel.render()) if panel.display else ""
    table = screen.query_one("#pad", DataTable)
    out["columns"] = " | ".join(str(c.label) for c in table.ordered_columns)
    out["rows"] = "\n".join(
        " | ".join(str(cell) for cell in table.get_row_at(r)) for r in range(table.row_count)
    )
    out["log"] = "\n".join(line.text for line in screen.query_one(LogPanel).lines)
    return out


def visible_lines(app) -> list[str]:  # type: ignore[no-untyped-def]
    """The composited screen's text lines, the header (with the wall clock) left out."""
    return [strip.text for strip in app.screen._compositor.render_strips()][1:]


async def resumed_the_same(db: Path, first, before: ScorepadScreen, key: str) -> bool:  # type: ignore[no-untyped-def]
    """True when the whole visible screen was compared too (no dialog, no message)."""
    before_text = screen_text(before)
    # With no dialog open the whole screen must match (the message line aside).
    shown = visible_lines(first) if first.screen is before else None
    fresh = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(99))
    async with fresh.run_test(size=SIZE) as pilot:
        await pilot.pause()
        if before.session.outcome is not None:
            fresh.resume_session(before.session.id)  # a finished game is not offered
        else:
            offer = fresh.screen
            assert isinstance(offer, ResumeDialog), key
            await pilot.press("enter")
        await fresh.settle()
        after = fresh.screen
        assert isinstance(after, ScorepadScreen), key
        assert after.session.entries == before.session.entries, key
        assert after.pad == before.pad, key  # the state both the screen and board render
        assert after.session.outcome == before.session.outcome, key
        assert screen_text(after) == before_text, key
        if shown is None or str(before.query_one("#message-line", Static).render()):
            return False
        assert visible_lines(fresh) == shown, key
        return True


@pytest.mark.slow
async def test_kill_after_every_key_resumes_to_the_same_pad(tmp_path: Path) -> None:
    db = tmp_path / "pad.db"
    app = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", NAMES, OPTIONS)
        await app.settle()
        screen = app.screen
        assert isinstance(screen, ScorepadScreen)
        whole = [await resumed_the_same(db, app, screen, "(start)")]
        for key in KEYS:
            await pilot.press(key)
            await app.settle()
            whole.append(await resumed_the_same(db, app, screen, key))
        assert app.screen is screen
    assert sum(whole) >= 10, whole  # most keys leave no dialog open: whole screens compared
    kinds = [e.payload.get("type") if e.kind == "action" else e.kind for e in live.entries]
    assert kinds.count("score") == 5 and {"undo", "redo", "close-round", "end"} <= set(kinds)
    assert live.state.rounds == ((("p1", 12), ("p2", -3), ("p3", 1), ("p3", -1)), (("p2", 7),))
    assert live.outcome is not None and live.outcome.winners == ("p1",)
    assert live.outcome.termination.value == "host-ended"
