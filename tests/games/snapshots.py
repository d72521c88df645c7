"""Snapshot test of a game's main screen at 80x24 and 160x48, in both languages.

Each game's ``tests/games/<id>/test_snapshots.py`` says ``test_game_screen =
game_screen_test("<id>")``, so its pictures live in its own folder
(``tests/games/<id>/__snapshots__/``). They were looked at by a person when accepted
(``pytest tests/games/<id>/test_snapshots.py --snapshot-update``); a change to a screen shows
as a failing test with a side-by-side report (``snapshot_report.html``).
Time is frozen: the header clock shows 20:00:00, the session clock is a manual one
and the dice are a seeded ``Random``, so a picture changes only when the screen does.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.widgets import Input
from textual.widgets._header import HeaderClock

from companion.games import find_game
from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text

NAMES = ["大伟", "Ann", "小明", "Bo", "美美", "Cy"]
SIZES = [(80, 24), (160, 48)]


def _first_count(info) -> int:  # type: ignore[no-untyped-def]
    """The smallest table the game takes with a typical count (score pad: three)."""
    return max(info.rules.min_players, 3 if info.id == "scorepad" else 4)


async def settled(pilot, app) -> None:  # type: ignore[no-untyped-def]
    """Wait until three looks at the screen, 50 ms apart, agree. Where a game view is
    taller than the terminal the picture shows its top: how far focus had scrolled it
    depended on the machine's load, so the view is put back at the top each time."""
    looks: list[str] = []
    for _ in range(60):
        await pilot.wait_for_scheduled_animations()
        for view in app.screen.query("#game-view"):
            # Nothing keeps scrolling it after this: a field focused below the fold
            # (the Shadow Cats setup at 80x24) scrolled it a frame later, or not.
            view.scroll_home(animate=False)
            view.can_focus_children = False
        await pilot.pause(0.05)
        looks = [*looks[-2:], visible_text(app)]
        if len(looks) == 3 and len(set(looks)) == 1:
            return


@pytest.fixture(autouse=True)
def frozen_header_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """The header clock shows 20:00:00, and a focused field's cursor does not blink
    (it stays shown): a picture taken half a second later had the cursor hidden, and
    the busiest screens with a dialog open failed at random on it (the text agreed)."""
    monkeypatch.setattr(HeaderClock, "render", lambda self: "20:00:00")
    monkeypatch.setattr(Input, "_toggle_cursor", _cursor_stays_shown)


def _cursor_stays_shown(self: Input) -> None:
    self._cursor_visible = True


def game_screen_test(game_id: str):  # type: ignore[no-untyped-def]
    """The snapshot test of one game (ids ``<id>-<size>-<lang>``, as the pictures are named)."""
    info = find_game(game_id)

    @pytest.mark.parametrize("lang", ["en", "zh"])
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    @pytest.mark.parametrize("info", [info], ids=lambda g: g.id)
    def test_game_screen(snap_compare, tmp_path: Path, info, size, lang) -> None:  # type: ignore[no-untyped-def]
        _snapshot(snap_compare, tmp_path, info, size, lang)

    return test_game_screen


def _snapshot(snap_compare, tmp_path: Path, info, size, lang) -> None:  # type: ignore[no-untyped-def]
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(7))

    async def start(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        app.start_session(info.id, NAMES[: _first_count(info)], {})
        await app.settle()  # a game may record a draw on opening (the Shadow Cats deal)
        await pilot.pause()
        app.screen.sub_title = info.name(lang)  # the session id is random
        await settled(pilot, app)

    try:
        assert snap_compare(app, terminal_size=size, run_before=start)
    finally:
        set_language("en")


# --------------------------------------------------------------------------- the busiest screens

BUSY_NAMES = [
    "喵喵大王陛下陛下",
    "Bartholomew-Long",
    "小明小明小明小明",
    "Annabelle-Winter",
    "美美美美美美美美",
    "Cyrus-Montgomery",
    "大伟大伟大伟大伟",
    "Dorothea-Sunbeam",
]
"""Eight names of the widest kind the seating form takes (16 cells, 8 Chinese characters)."""


def busiest_screen_test(game_id: str, keys: list[str]):  # type: ignore[no-untyped-def]
    """The snapshot test of one game at its fullest (issue 22): as many players as it
    takes, up to eight, 16-cell names, entries in the log, a dialog open, at 80x24 and
    160x48. ``keys`` lead from the opening screen to that screen (entries for the log
    first, then the keys that leave a dialog open); each game's own test module names
    them."""
    info = find_game(game_id)

    @pytest.mark.parametrize("lang", ["en", "zh"])
    @pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
    @pytest.mark.parametrize("info", [info], ids=lambda g: g.id)
    def test_busiest_screen(snap_compare, tmp_path: Path, info, size, lang) -> None:  # type: ignore[no-untyped-def]
        _busiest(snap_compare, tmp_path, info, size, lang, keys)

    return test_busiest_screen


def _busiest(snap_compare, tmp_path: Path, info, size, lang, keys) -> None:  # type: ignore[no-untyped-def]
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(7))
    count = min(8, info.rules.max_players)

    async def start(pilot) -> None:  # type: ignore[no-untyped-def]
        await pilot.pause()
        app.start_session(info.id, BUSY_NAMES[:count], {})
        await app.settle()
        await pilot.pause()
        app.screen.sub_title = info.name(lang)  # the session id is random
        for key in keys:
            await pilot.press(key)
            await app.settle()
            await pilot.pause()
        await settled(pilot, app)

    try:
        assert snap_compare(app, terminal_size=size, run_before=start)
    finally:
        set_language("en")
