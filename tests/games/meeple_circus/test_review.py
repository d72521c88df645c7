"""Review an act's evaluations before its last save closes it; correct one player's
evaluation without undoing everyone scored after them (issue 13, "what hosts asked for").

Before: the last player's save closed the act at once, and the only way to fix an
earlier player's typo was to undo every evaluation entered after it.
"""

from __future__ import annotations

from pathlib import Path

from mc_ui_helpers import FakeAudio, Table, plain
from textual.widgets import Input, Static

from companion.games.meeple_circus.dialogs import ReviewDialog, ScoreDialog
from companion.rules.base import Player
from companion.session.clock import ManualClock
from companion.ui.app import make_app

PLAYERS = (
    Player("p1", "Ann", None, "2010-01-01"),
    Player("p2", "Bo", None, "2011-01-01"),
    Player("p3", "Cy", None, "2012-01-01"),
)


async def _fill(app, pilot, **fields: str) -> None:  # type: ignore[no-untyped-def]
    dialog = app.screen
    assert isinstance(dialog, ScoreDialog)
    for fid, value in fields.items():
        dialog.query_one(f"#mc-{fid}", Input).value = value
    await pilot.pause()
    await pilot.press("enter")
    await app.settle()


async def test_review_then_correct_before_the_act_closes(tmp_path: Path, sounds: Path) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock, audio=FakeAudio())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", PLAYERS, {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        game = t.screen
        await t.keys("1", "p", "p", "p")
        await t.start_music()
        await t.later(31)
        await t.keys("f")
        await t.score("1", "", "13")  # Ann: a typo, 13 blue instead of 1
        await t.score("2", "", "4")  # Bo
        # Ann's key again: her saved evaluation, prefilled, corrected in place.
        await t.keys("1")
        dialog = app.screen
        assert isinstance(dialog, ScoreDialog) and dialog.correcting
        assert dialog.query_one("#mc-blue", Input).value == "13"
        await _fill(app, pilot, blue="1")
        act = t.state.act
        assert act.score_of("p1").blue == 1 and act.score_of("p2").blue == 4
        kinds = [e.payload.get("type") for e in t.screen.session.entries]
        assert kinds[-3:] == ["score", "score", "correct-score"]  # nothing undone

        # The last evaluation opens the review instead of closing the act.
        await t.keys("3")
        await _fill(app, pilot, yellow="2")
        review = app.screen
        assert isinstance(review, ReviewDialog)
        table = plain(review.query_one("#mc-review-table", Static))
        assert "Cy" in table and game.circus.phase == "evaluation"
        await pilot.press("escape")  # back: nothing saved
        await app.settle()
        assert game.circus.unscored() == ("p3",)
        await t.keys("3")
        await _fill(app, pilot, yellow="2")
        await pilot.press("2")  # correct Bo from the review
        await app.settle()
        assert isinstance(app.screen, ScoreDialog) and app.screen.correcting
        await _fill(app, pilot, blue="5")
        assert isinstance(app.screen, ReviewDialog)  # back at the review, Bo corrected
        assert game.circus.act.score_of("p2").blue == 5 and game.circus.phase == "evaluation"
        await pilot.press("enter")  # close the act with these scores
        await app.settle()
        assert game.circus.phase == "end"
        assert game.circus.totals() == {"p1": 1, "p2": 5, "p3": 2}
        # At the end of the act a correction is still possible, with c.
        await t.keys("c")
        await pilot.press("3")
        await app.settle()
        await _fill(app, pilot, yellow="0")
        assert game.circus.totals()["p3"] == 0 and game.circus.act.next_first_player == "p3"
