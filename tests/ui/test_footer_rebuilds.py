"""Opening a game screen builds its footer once or twice, not once per binding refresh,
and the footer still follows the guide (a key not allowed now is left out).

Textual's footer rebuilt all its keys for every "bindings updated" the screen
published: 5-10 times while a game screen mounted, a third of the time it took to
open (docs/PERFORMANCE.md, "Opening a game screen"). Counted here, not timed.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from companion.games import GAMES
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import ConfirmDialog
from companion.widgets.game_screen import GameScreen

NAMES = ["大伟", "Ann", "小明", "Bo", "美美", "Cy"]


def _count(info: Any) -> int:
    return int(max(info.rules.min_players, 3 if info.id == "scorepad" else 4))


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[Footer]:
    """Every footer rebuild (``recompose``), whichever footer class does it."""
    seen: list[Footer] = []
    recompose = Footer.recompose

    async def counted(self: Footer) -> None:
        seen.append(self)
        await recompose(self)

    monkeypatch.setattr(Footer, "recompose", counted)
    return seen


def _footer_matches_bindings(screen: GameScreen) -> None:
    """The footer shows a key exactly when the screen says it is enabled (issue 22: a
    key that does not apply now is left out, not dimmed)."""
    active = screen.active_bindings
    keys = list(screen.query(FooterKey))
    assert keys, "the footer shows no key"
    for key in keys:
        if key.key in active:
            assert active[key.key].enabled, key.key
            assert not key.has_class("-disabled"), key.key


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_opening_a_game_screen_builds_the_footer_at_most_twice(
    tmp_path: Path, info: Any, rebuilds: list[Footer]
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        rebuilds.clear()
        app.start_session(info.id, NAMES[: _count(info)], {})
        await app.settle()
        await pilot.pause()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        on_screen = [f for f in rebuilds if f.screen is screen]
        assert 1 <= len(on_screen) <= 2, len(on_screen)
        _footer_matches_bindings(screen)


async def test_the_footer_leaves_out_keys_the_guide_no_longer_allows(
    tmp_path: Path, rebuilds: list[Footer]
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo"], {})
        await app.settle()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen)
        _footer_matches_bindings(screen)
        score = next(k for k in screen.query(FooterKey) if k.action == "score")
        assert not score.has_class("-disabled")
        await pilot.press("E")  # end the game: nobody can score after it
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await app.settle()
        await pilot.pause()
        await pilot.pause()
        assert app.screen is screen
        _footer_matches_bindings(screen)
        assert not [k for k in screen.query(FooterKey) if k.action == "score"]
