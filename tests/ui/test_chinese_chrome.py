"""Textual's own words (command palette, key names) follow the chosen language (issue 13, 8)."""

from __future__ import annotations

from pathlib import Path

from textual.binding import Binding

from companion.session.clock import ManualClock
from companion.ui.app import make_app


async def test_palette_and_key_names_speak_chinese(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "截图" in titles and "退出" in titles
        assert all(not t.isascii() for t in titles)
        assert app.get_key_display(Binding("space", "x", "y")) == "空格"
        palette = [
            b
            for bs in app._bindings.key_to_bindings.values()
            for b in bs
            if b.action == "command_palette"
        ]
        assert [b.description for b in palette] == ["命令"]


async def test_a_screenshot_without_a_downloads_folder_is_saved_and_named(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("XDG_DOWNLOAD_DIR", str(tmp_path / "no-such-folder"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        path = app.save_screenshot_somewhere()
        assert path is not None and path.exists() and path.suffix == ".svg"
        assert path.parent == tmp_path / "data" / "companion" / "screenshots"
        await pilot.pause()
        assert any(path.name in str(n.message) for n in app._notifications), [
            n.message for n in app._notifications
        ]
