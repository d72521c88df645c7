"""A burst of keys draws the display-only parts of a screen once, at its end (issue 26).

Each key of a burst still lands as if typed slowly (issue 13): it is delivered once the
one before it is committed, its dialogs are up, and it is judged against the state
after that commit. But the panels, the log and the footer only show; no key reads
them. Drawn after every key, a 21-key burst of undo/redo at Meeple Circus painted
2–3 frames a key (each panel, the log and the footer rebuilt 21 times): ~130 ms a key
on the 2-core machine, against 9 ms for a bare Textual app. Here what a key of a
burst would show waits until the keys typed after it have landed, and is drawn once.

Counted, not timed: panel draws, log writes and footer rebuilds during one burst, and
what the screen shows at its end against a fresh draw of the same state.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.widgets import Static

from companion.games import GAMES
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.footer import KeyFooter
from companion.widgets.game_screen import GameScreen
from companion.widgets.log_panel import LogPanel
from companion.widgets.shown import Shown, _key
from tests.open_game import mid_game

BURST = ["ctrl+z", "ctrl+y"] * 10 + ["ctrl+z"]


def _shown(screen: GameScreen) -> dict[str, Any]:
    return {
        str(w.id): _key(w.content)
        for w in screen.query(Shown)
        if w.id is not None and _key(w.content) is not None
    }


def _log_lines(screen: GameScreen) -> list[str]:
    return [strip.text for strip in screen.query_one(LogPanel).lines]


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_a_burst_draws_each_panel_once_and_ends_as_drawn_anew(
    tmp_path: Path, info: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        live = mid_game(app, info)
        app.open_session(live)
        for _ in range(3):
            await app.settle()
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        for key in ("ctrl+z", "ctrl+y"):  # the log's lines written at its width once
            await pilot.press(key)
            await app.settle()
            await pilot.pause()
        seq_before = live.entries[-1].seq if live.entries else 0

        drawn: Counter[str] = Counter()
        update = Static.update
        write = LogPanel.write
        clear = LogPanel.clear
        recompose = KeyFooter.recompose

        def counted_update(self: Static, *args: Any, **kwargs: Any) -> None:
            if isinstance(self, Shown):
                drawn[f"panel #{self.id}"] += 1
            update(self, *args, **kwargs)

        def counted_write(self: LogPanel, *args: Any, **kwargs: Any) -> Any:
            drawn["log line"] += 1
            return write(self, *args, **kwargs)

        def counted_clear(self: LogPanel) -> Any:
            drawn["log cleared"] += 1
            return clear(self)

        async def counted_recompose(self: KeyFooter) -> None:
            drawn["footer"] += 1
            await recompose(self)

        monkeypatch.setattr(Static, "update", counted_update)
        monkeypatch.setattr(LogPanel, "write", counted_write)
        monkeypatch.setattr(LogPanel, "clear", counted_clear)
        monkeypatch.setattr(KeyFooter, "recompose", counted_recompose)

        for key in BURST:  # every key posted before the first is handled: a burst
            app.post_message(events.Key(key, None))
        await app.settle()
        await pilot.pause()
        await app.settle()

        # 11 undos and 10 redos: one entry undone, as typed slowly (issue 13)
        assert len(live.undone) >= 1
        assert live.entries[-1].seq > seq_before  # each undo/redo is an entry of its own
        panels = {k: n for k, n in drawn.items() if k.startswith("panel")}
        assert all(n <= 2 for n in panels.values()), panels
        assert drawn["footer"] <= 2, drawn
        # each new entry (an undo or redo) written once, the entry it struck through
        # re-rendered in place, and the log never written anew
        new = sum(1 for e in live.entries if e.seq > seq_before)
        assert drawn["log line"] <= new + 1, (new, drawn)
        assert drawn["log cleared"] == 0, drawn

        ended = (_shown(screen), _log_lines(screen))
        monkeypatch.undo()
        log = screen.query_one(LogPanel)
        log._shown = None  # everything written again
        screen._refresh_all()
        await app.settle()
        assert (_shown(screen), _log_lines(screen)) == ended
        footer = screen.query_one(KeyFooter)
        assert footer._shown == footer.shown()
