"""An editing key typed in a burst (backspace, end, left…) applies in its place.

Textual inserts a printable key in the field's own handler but runs a bound key
(backspace, arrows, home/end) only after the key has bubbled up to the app, so in a
burst ("tmux send-keys BSpace 3 0") the characters typed after it landed first:
"BSpace 3 0" on "20" gave "23" instead of "230"→"30" (Textual issue #6605, open;
PR #6631). The fix runs an input's own bindings inline, in key order. Failed before.
"""

from __future__ import annotations

from pathlib import Path

from textual import events
from textual.widgets import Input

from companion.games import find_game
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.new_session import NewSessionScreen


async def burst(app, *keys: str) -> None:
    """Post the keys at once, as a terminal delivers a fast burst (no wait between)."""
    for key in keys:
        character = key if len(key) == 1 else None
        app.post_message(events.Key(key, character))


async def test_a_burst_with_backspace_and_end_edits_in_order(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        app.push_screen(NewSessionScreen(find_game("meowfia")))
        await pilot.pause()
        field = app.screen.query_one("#opt-smuggling_seconds", Input)
        field.focus()
        await pilot.pause()
        field.value = "20"
        field.cursor_position = 2
        field.selection = field.selection.cursor(2)
        await pilot.pause()
        await burst(app, "backspace", "3", "0")
        await app.settle()  # every key landed (a fixed 0.2 s was short under load)
        assert field.value == "230"
        await burst(app, "home", "1", "end", "backspace", "5")
        await app.settle()  # every key landed (a fixed 0.2 s was short under load)
        assert field.value == "1235"
        await burst(app, "left", "left", "delete", "9")
        await app.settle()  # every key landed (a fixed 0.2 s was short under load)
        assert field.value == "1295"
