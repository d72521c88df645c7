"""Kill after every key: a scripted game that is closed and resumed after each step.

A model of a kill that really reopens the database: after every step the app is
shut down, a fresh app opens a new ``Store`` on the same file and resumes the session
(``LiveSession.resume``), and the game goes on in that new app. Before and after
each "kill", the view-model (``view.py``) and the screen's text must be equal. The
random first player (``r``) must be the same after the resume: no free re-draw, and
the host's music picks (``m``: a countdown in act 1, a built-in track in act 2) must
time the same music after the resume.

A step that only types into a dialog is not an entry until the dialog saves, so the
script's steps are whole host actions (a form filled and saved counts as one).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from mc_ui_helpers import FakeAudio, Table
from textual.widgets import Input

from companion.games.meeple_circus import view
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import ChoiceDialog, PromptDialog

SIZE = (160, 50)
OPTIONS = {f"music_act{n}": "countdown:30" for n in (1, 2, 3)}

SCRIPT: list[Any] = [
    "r",  # the companion draws the first player
    "p",
    ("music", "countdown", "45"),  # m: a plain countdown of 45 s instead of the option's 30
    "p",
    "s",
    ("later", 3.0),
    ("confirm", "a"),  # the table fell: abort (y)
    "s",
    ("later", 5.0),
    "1",
    ("later", 0.01),
    "2",  # 10 ms after: too close to call for keyboard presses
    ("later", 40.0),  # time is up (45 s): the screen records the music's end
    ("keys", "t", "1"),  # settle the tie: Ann was first
    "f",
    ("score", "1", ("3", "2")),
    ("score", "2", ("", "4")),  # the act's last: review, then close
    "n",
    ("music", "track"),  # act 2's preparation: m, the act's first built-in track
]


def snapshot(game: Any, clock: ManualClock) -> tuple[Any, str]:
    state = game.circus
    model = (
        state,
        view.press_rows(state),
        view.standings(state),
        view.banner(state),
        view.clock_view(state, clock.monotonic_ns(), 0),
        game.current_music(),
    )
    lines = [strip.text for strip in game.app.screen._compositor.render_strips()]
    # Line 0 is the header with the wall clock; the message line holds a refusal
    # only until the next commit (not part of the game).
    return model, "\n".join(lines[1:])


async def step(t: Table, item: Any) -> None:
    if isinstance(item, str):
        await t.keys(item)
    elif item[0] == "keys":
        await t.keys(*item[1:])
    elif item[0] == "later":
        await t.later(item[1])
    elif item[0] == "score":
        await t.score(item[1], *item[2])
    elif item[0] == "music":
        await t.keys("m")
        assert isinstance(t.app.screen, ChoiceDialog)
        if item[1] == "track":
            await t.keys("enter")
            return
        await t.keys("down", "down", "enter")  # after the act's track: a file, a countdown
        prompt = t.app.screen
        assert isinstance(prompt, PromptDialog)
        prompt.query_one(Input).value = item[2]
        await t.keys("enter")
    elif item[0] == "confirm":
        await t.keys(item[1])
        await t.pilot.press("y")
        await t.app.settle()


@pytest.mark.slow
async def test_every_step_resumes_to_the_same_view_and_screen(
    tmp_path: Path, sounds: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COMPANION_TADAA", "off")
    db = tmp_path / "mc.sqlite3"
    clock = ManualClock(start_ns=7_000 * 1_000_000_000)
    session_id = ""
    drawn = None
    before_model: Any = None
    before_text = ""
    for k in range(len(SCRIPT) + 1):
        app = make_app(db, lang="en", clock=clock, audio=FakeAudio())
        # The rng differs in every "process": a re-draw after a resume would show.
        app.rng = random.Random(k)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            if k == 0:
                session_id = app.start_session("meeple-circus", ["Ann", "Bo"], OPTIONS).id
            else:
                app.resume_session(session_id)
            await app.settle()
            t = Table(app, pilot, clock, app.audio)
            game = t.screen
            game.tick()
            await app.settle()
            if k:
                # The screen right after the resume equals the one before the kill.
                model, text = snapshot(game, clock)
                assert model == before_model, SCRIPT[k - 1]
                assert text == before_text, SCRIPT[k - 1]
            if k == len(SCRIPT):
                break
            await step(t, SCRIPT[k])
            game.tick()
            await app.settle()
            if SCRIPT[k] == "r":
                drawn = game.circus.acts[0].first_player
            before_model, before_text = snapshot(game, clock)
    assert drawn is not None and game.circus.acts[0].first_player == drawn
    assert game.circus.act_number == 2
    assert game.circus.acts[0].performances[0].attempts[0].aborted
    attempts = game.circus.acts[0].performances[0].attempts
    assert [a.track for a in attempts] == ["countdown:45", "countdown:45"]
    assert attempts[-1].length_ns == 45 * 1_000_000_000
    assert game.circus.music_setting() == "track:jugglers-galop"
    assert game.current_music().track_id == "jugglers-galop"
