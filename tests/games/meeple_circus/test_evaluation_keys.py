"""Keys typed in a burst land in the evaluation form's fields in the order typed.

Issue 13, item 3: "1 Tab 3" typed fast (``tmux send-keys '1' Tab '3'``) was saved as
one field's 13. The cause is shared: Textual forwards a key to the focused widget's
own queue, and its Tab binding runs only when that queue hands Tab back, so the
next digit was already forwarded to the old field. The app now moves focus on Tab
as a priority binding, in key order (``companion/ui/app.py``).
"""

from __future__ import annotations

from pathlib import Path

from mc_ui_helpers import FakeAudio, Table
from textual import events

from companion.session.clock import ManualClock
from companion.ui.app import make_app

BURST = (("tab", "\t"), ("1", "1"), ("tab", "\t"), ("3", "3"), ("shift+tab", None), ("2", "2"))


async def test_a_burst_of_digits_and_tabs_fills_the_fields_in_order(tmp_path: Path) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock, audio=FakeAudio())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        await t.later(31)
        await t.keys("f", "1")
        # Posted all at once, as a terminal delivers a burst: no pause between keys.
        for key, character in (*BURST, ("enter", "\r")):
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await app.settle()
        (score,) = t.state.act.scores
        # shift+Tab back into Blue selects its "1" (select-on-focus): "2" replaces it.
        assert (score.demands, score.blue, score.yellow) == ((), 2, 3)
