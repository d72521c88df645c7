"""The Tadaa hub belongs to the app, not to a widget (issue 12, item 7)."""

from __future__ import annotations

from pathlib import Path

from companion.session.clock import ManualClock
from companion.ui.app import make_app


async def test_one_hub_for_the_app_s_life(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("COMPANION_TADAA", "on")
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.tadaa_hub is None  # nothing started before a screen needs it
        app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
        await pilot.pause()
        hub = app.tadaa_hub
        assert hub is not None and hub._thread.is_alive()
        await pilot.press("escape")  # leaving the game keeps the devices connected
        await pilot.pause()
        assert hub._thread.is_alive()
        app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
        await pilot.pause()
        assert app.tadaa_hub is hub  # the next game reads the same hub
    assert not hub._thread.is_alive()  # stopped once, when the app quit
