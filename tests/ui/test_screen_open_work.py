"""Opening a game screen draws its view once, and again for the first draw's commit.

A game screen drew its whole view (view-model, tables rebuilt, board, log, guide) up to
five times while it opened: Textual runs ``on_mount`` once per class in the screen's
MRO, so a game whose ``on_mount`` also called ``super()`` ran the shared one twice;
Shadow Cats drew again on its first resize (the size it had drawn for) and once more
after the first layout, and the first draw's commit drew it again. Each draw rebuilt
tables the next frame had to lay out and paint (docs/PERFORMANCE.md, issue 26). Counted
here, not timed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from companion.games import GAMES
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen
from companion.widgets.game_screen import GameScreen

NAMES = ["大伟", "Ann", "小明", "Bo", "美美", "Cy"]


def _count(info: Any) -> int:
    return int(max(info.rules.min_players, 3 if info.id == "scorepad" else 4))


@pytest.fixture
def draws(monkeypatch: pytest.MonkeyPatch) -> list[GameScreen]:
    """Every ``_refresh_all`` of any game screen (the shared full draw)."""
    seen: list[GameScreen] = []
    refresh_all = GameScreen._refresh_all

    def counted(self: GameScreen) -> None:
        seen.append(self)
        refresh_all(self)

    monkeypatch.setattr(GameScreen, "_refresh_all", counted)
    return seen


@pytest.fixture
def views(monkeypatch: pytest.MonkeyPatch) -> list[GameScreen]:
    """Every ``refresh_view`` of any game screen, whichever class defines it."""
    seen: list[GameScreen] = []
    for info in GAMES:
        cls = info.screen.load()
        own = cls.__dict__.get("refresh_view")
        if own is None:
            continue

        def counted(self: GameScreen, _own: Any = own) -> None:
            seen.append(self)
            _own(self)

        monkeypatch.setattr(cls, "refresh_view", counted)
    return seen


async def _open(app: Any, pilot: Any, info: Any, resume: str | None = None) -> GameScreen:
    if resume is None:
        app.start_session(info.id, NAMES[: _count(info)], {})
    else:
        app.resume_session(resume)
    await app.settle()
    await pilot.pause()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return screen


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_opening_a_game_screen_draws_its_view_at_most_twice(
    tmp_path: Path, info: Any, draws: list[GameScreen], views: list[GameScreen]
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = await _open(app, pilot, info)
        # The mount's draw, and the first draw's commit (a deal) if the game has one; a
        # game may draw its own view once more after the first layout (Shadow Cats).
        assert 1 <= len([s for s in draws if s is screen]) <= 2, len(draws)
        assert len([s for s in views if s is screen]) <= 3, len(views)
        session = screen.session.id
        screen.action_leave()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        draws.clear()
        views.clear()
        # Resumed: nothing to draw first, one draw (and one after the first layout).
        screen = await _open(app, pilot, info, resume=session)
        assert len([s for s in draws if s is screen]) == 1, len(draws)
        assert len([s for s in views if s is screen]) <= 2, len(views)


def test_a_meeple_circus_screen_opens_without_the_phone_servers_web_stack() -> None:
    """The phones' server (aiohttp, the QR code, the interfaces) loads when the host
    switches phones on (``P``), not with the screen: importing it made the first
    Meeple Circus open of an evening twice as long (325 ms against 161 ms, 160x48)."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import companion.games.meeple_circus.screen\n"
        "import companion.games.meeple_circus.board\n"
        "heavy = sorted(m for m in ('aiohttp', 'segno', 'ifaddr') if m in sys.modules)\n"
        "print(','.join(heavy))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"imported with the screen: {out}"
