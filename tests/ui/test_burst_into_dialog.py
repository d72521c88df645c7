"""Keys typed in one burst after a key that opens a dialog reach that dialog (issue 13, 3).

tmux send-keys 's' '5' Enter on the score pad: the '5' and the Enter had been handed to the
game screen's table before 's' opened the points dialog, so nothing was scored and the dialog
stayed open (the same with Meowfia's 'o e c'). Failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

from textual import events

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.game_screen import GameScreen


async def test_a_burst_opens_the_dialog_and_fills_it(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        live = app.start_session("scorepad", ["Ann", "Bo"], {})
        await pilot.pause()
        for key, char in [("s", "s"), ("5", "5"), ("enter", "\r")]:
            app.post_message(events.Key(key, char))
        for _ in range(20):
            await pilot.pause()
        await app.settle()
        assert [e.payload["points"] for e in live.entries] == [5]
        assert isinstance(app.screen, GameScreen)
