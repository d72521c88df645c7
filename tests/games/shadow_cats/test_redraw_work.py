"""A refresh that changes nothing draws neither the ring nor the players table again
(issue 26): the screen's open draws its view three times (mount, after the first
layout, after the deal), and each redrew the ring — the largest renderable of the
screen — and rebuilt the table, whatever had changed. Counted, not timed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.games.shadow_cats.screen import PlayersTable, RingBoard, ShadowCatsScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
async def test_the_same_view_is_not_drawn_again(
    tmp_path: Path, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", ["Ann", "Bo", "Cy", "Dee"], {})
        await app.settle()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ShadowCatsScreen)
        drawn: list[str] = []
        update, clear = RingBoard.update, PlayersTable.clear

        def ring(self: RingBoard, *args: Any, **kwargs: Any) -> None:
            drawn.append("ring")
            update(self, *args, **kwargs)

        def table(self: PlayersTable, *args: Any, **kwargs: Any) -> Any:
            drawn.append("table")
            return clear(self, *args, **kwargs)

        monkeypatch.setattr(RingBoard, "update", ring)
        monkeypatch.setattr(PlayersTable, "clear", table)
        screen.refresh_view()
        screen.refresh_view()
        await pilot.pause()
        assert drawn == []
        # A language switch changes every word: both are drawn again, once.
        app.lang = "zh"  # type: ignore[misc]
        screen.refresh_view()
        await pilot.pause()
        assert sorted(drawn) == ["ring", "table"]
