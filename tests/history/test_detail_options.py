"""The history of a session names its options as the form did (docs/tour/scorepad.md).

Found on the tour (80x24 zh): a finished score pad read
'选项：game_name="卡卡颂", highest_wins=true, target=10' — internal names, English
inside the Chinese history. Failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from companion.games import find_game
from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.history_detail import SessionDetailScreen


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_options_line_uses_the_forms_labels(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = app.start_session(
            "scorepad", ["Ann", "Bo"], {"target": 10, "highest_wins": True, "game_name": "卡卡颂"}
        )
        await pilot.pause()
        app.push_screen(SessionDetailScreen(app.store, live.id))
        await pilot.pause()
        heading = str(app.screen.query_one("#detail-heading", Static).render())
        for spec in find_game("scorepad").load().options:
            assert spec.name + "=" not in heading, heading
            assert _(spec.label) in heading, heading
        assert _("Yes") in heading and "true" not in heading, heading


async def test_an_option_left_empty_is_not_listed(tmp_path: Path) -> None:
    """Meeple Circus listed "第一幕音乐：file.wav 或 countdown:秒数: –" for every act
    whose music was left empty (the tour). Failed before the fix."""
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = app.start_session("meeple-circus", ["安", "博"], {})
        await pilot.pause()
        app.push_screen(SessionDetailScreen(app.store, live.id))
        await pilot.pause()
        heading = str(app.screen.query_one("#detail-heading", Static).render())
        assert ": –" not in heading and "countdown" not in heading, heading
