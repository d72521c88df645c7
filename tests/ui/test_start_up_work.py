"""Start-up to Home does its work once: one catalog in Chinese, one listing of sessions.

Two things the Chinese start paid and the bare Textual app does not (docs/PERFORMANCE.md,
issue 26): every game's catalog was read, hashed and parsed before Home showed — Home
selects no game, so a look-up the shared catalog has no entry for falls through every
game's, and Textual's own hidden keys (Tab, shift+Tab, copy) were looked up — and the
home screen listed its sessions twice (its mount, then the resume Textual sends right
after it). Counted here, not timed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import i18n
from companion.session.clock import ManualClock
from companion.session.store import Store
from companion.ui.app import make_app
from companion.ui.home import HomeScreen


@pytest.fixture
def catalogs_read(monkeypatch: pytest.MonkeyPatch) -> Any:
    """The .po files each catalog load read, from a clean cache (and clean after)."""
    read: list[Path] = []
    load = i18n._load

    def counted(lang: str, files: list[Path]) -> Any:
        read.extend(files)
        return load(lang, files)

    i18n.clear_caches()
    monkeypatch.setattr(i18n, "_load", counted)
    yield read
    i18n.clear_caches()


async def test_a_chinese_start_reads_only_the_shared_catalog(
    tmp_path: Path, catalogs_read: list[Path]
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert "新游戏" in str(home.query_one("#home-games .section-title").render())
        assert catalogs_read, "no catalog was read"
        games = [p for p in catalogs_read if i18n.GAMES_DIR in p.parents]
        assert not games, games
        # A game's catalog is still there the moment a game's string needs it.
        app.start_session("scorepad", ["安", "博"], {})
        await app.settle()
        await pilot.pause()
        assert any(p.parent.parent.parent.parent.name == "scorepad" for p in catalogs_read)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_home_lists_the_sessions_once_at_start(
    tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    listings: list[str | None] = []
    sessions = Store.sessions

    def counted(self: Store, *args: Any, **kwargs: Any) -> Any:
        listings.append(kwargs.get("status"))
        return sessions(self, *args, **kwargs)

    monkeypatch.setattr(Store, "sessions", counted)
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert sorted(map(str, listings)) == ["None", "active"], listings
        # Back from a session, Home reads the store again (the new session is listed).
        app.start_session("scorepad", ["Ann", "Bo"], {})
        await app.settle()
        await pilot.pause()
        listings.clear()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert "active" in listings
        assert app.screen.query_one("#unfinished").option_count == 1  # type: ignore[attr-defined]


async def test_history_queries_its_first_page_once_when_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """History filled its table on mount and again on the resume Textual sends right
    after it: two queries of the first page (and two fills of 100 rows) per open."""
    import companion.ui.history as history
    from companion.ui.history import HistoryScreen

    pages: list[int] = []
    query = history.query_results

    def counted(*args: Any, **kwargs: Any) -> Any:
        pages.append(kwargs.get("offset", 0))
        return query(*args, **kwargs)

    monkeypatch.setattr(history, "query_results", counted)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert pages == [0], pages
        # Back from a dialog or a session, History reads the store again.
        app.push_screen(HomeScreen())
        await pilot.pause()
        app.pop_screen()
        await pilot.pause()
        assert pages == [0, 0], pages
