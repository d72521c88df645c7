"""The work one key does is proportional to what it changed (issue 26).

Counted, not timed: per committing key, how many log lines are written (and whether
the log is cleared), how often a table is rebuilt (``clear``/``add_row``), how often
the guide computes its answers. Before issue 26 every ctrl+z cleared the log and wrote every
entry again, and every score-pad key cleared and refilled its whole table.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from companion.games import GAMES
from companion.games.scorepad.rules import Score
from companion.session.clock import ManualClock
from companion.ui.app import CompanionApp, make_app
from companion.widgets.game_screen import GameScreen
from companion.widgets.log_panel import LogPanel
from tests.open_game import mid_game


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Calls of the refresh path's costly steps, by name."""
    seen: Counter[str] = Counter()

    def counting(owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)

        def counted(self: Any, *args: Any, **kwargs: Any) -> Any:
            seen[label] += 1
            return original(self, *args, **kwargs)

        monkeypatch.setattr(owner, name, counted)

    counting(LogPanel, "write", "log.write")
    counting(LogPanel, "clear", "log.clear")
    counting(DataTable, "clear", "table.clear")
    counting(DataTable, "add_row", "table.add_row")
    counting(DataTable, "add_column", "table.add_column")
    return seen


async def _scorepad(tmp_path: Path) -> CompanionApp:
    return make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))


async def _played(app: CompanionApp, entries: int) -> GameScreen:
    live = app.start_session("scorepad", ["Ann", "Bo", "Cy"], {})
    await app.settle()
    for n in range(entries):
        live.act(Score(live.players[n % 3].id, n))
    screen = app.screen
    assert isinstance(screen, GameScreen)
    screen._refresh_all()
    await app.settle()
    return screen


async def _opened(app: CompanionApp, pilot: Any) -> None:
    """Until the screen's opening work (first layout, log rewrap, first draw) is done."""
    for _ in range(3):
        await app.settle()
        await pilot.pause()


def _log_text(log: LogPanel) -> list[tuple[str, list[str]]]:
    """What the log panel shows: each line's text and the styles on it."""
    return [(strip.text, [str(s.style) for s in strip if s.text.strip()]) for strip in log.lines]


async def test_undo_and_redo_restyle_one_log_entry_and_append_one(
    tmp_path: Path, calls: Counter[str]
) -> None:
    app = await _scorepad(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _played(app, 12)
        await _opened(app, pilot)
        log = screen.query_one(LogPanel)
        for _ in range(20):  # the log's first layout and rewrap at its width are done
            if log._width() and log._wrapped_at == log._width() and log._shown is not None:
                break
            await pilot.pause()
        for key in ("ctrl+z", "ctrl+y"):  # a loaded machine may still be laying out
            await pilot.press(key)
            await _opened(app, pilot)
        for key in ("ctrl+z", "ctrl+z", "ctrl+y", "ctrl+z"):
            calls.clear()
            await pilot.press(key)
            await app.settle()
            assert calls["log.clear"] == 0, (key, log._wrapped_at, log._width())
            # the undo/redo entry, and the one it struck through (or restored)
            assert calls["log.write"] <= 2, (key, calls["log.write"])
        shown = _log_text(log)
        assert any("strike" in " ".join(styles) for _text, styles in shown)
        log._shown = None  # everything written again, as before issue 26: the same log
        log.refresh_log()
        assert _log_text(log) == shown


async def test_a_score_key_updates_the_pad_in_place(tmp_path: Path, calls: Counter[str]) -> None:
    app = await _scorepad(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        screen = await _played(app, 4)
        await _opened(app, pilot)
        table = screen.query_one("#pad", DataTable)
        for key in ("plus", "minus", "plus", "down", "plus"):  # an undo may narrow a column
            calls.clear()
            await pilot.press(key)
            await app.settle()
            assert calls["table.clear"] == 0, key
            assert calls["table.add_row"] == 0, key
            assert calls["table.add_column"] == 0, key
        totals = [table.get_row_at(row)[-1] for row in range(table.row_count)]
        state = screen.session.state
        assert [int(str(t)) for t in totals] == [state.totals()[p.id] for p in state.players]


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_one_key_computes_each_guide_answer_once(
    tmp_path: Path, info: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen, the game's view-model, the footer and the help all ask the guide
    about the same state: the game's own ``prompt``/``allowed`` run once per state."""
    guide = info.guide
    assert guide is not None
    computed: Counter[str] = Counter()
    for name in ("allowed", "prompt"):
        original = getattr(type(guide), f"_{name}_uncached")

        def counted(self: Any, state: Any, _o: Any = original, _n: str = name) -> Any:
            computed[_n] += 1
            return _o(self, state)

        monkeypatch.setattr(type(guide), f"_{name}_uncached", counted)
    app = await _scorepad(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        app.open_session(mid_game(app, info))
        await _opened(app, pilot)
        for key in ("ctrl+z", "ctrl+y"):
            computed.clear()
            await pilot.press(key)
            await app.settle()
            await pilot.pause()
            assert computed["allowed"] <= 1, (key, computed)
            assert computed["prompt"] <= 1, (key, computed)


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_the_first_undo_after_opening_restyles_in_place(
    tmp_path: Path, info: Any, calls: Counter[str]
) -> None:
    """A resumed session's log is written before the panel has a size (RichLog keeps
    the lines for its first size); its entries' lines were not counted then, so the
    first ctrl+z of every opened session wrote the whole log again (up to 500
    entries) to strike one through. Written at the first size, each entry's lines are
    known: the first undo restyles one entry and appends one, like every later one."""
    app = await _scorepad(tmp_path)
    async with app.run_test(size=(160, 48)) as pilot:
        live = mid_game(app, info)
        app.open_session(live)
        await _opened(app, pilot)
        log = app.screen.query_one(LogPanel)
        assert log.lines, "the log is written"
        calls.clear()
        await pilot.press("ctrl+z")
        await app.settle()
        assert calls["log.clear"] == 0, calls
        assert calls["log.write"] <= 2, calls
        shown = _log_text(log)
        log._shown = None  # everything written again: the same log
        log.refresh_log()
        assert _log_text(log) == shown
