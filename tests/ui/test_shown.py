"""``Shown``: a game view's panel is repainted only when its content changed (issue 26)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from companion.games import GAMES
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.shown import Shown
from tests.open_game import open_game


class One(App[None]):
    def compose(self) -> ComposeResult:
        yield Shown("", id="panel")


@pytest.mark.parametrize(
    ("first", "same", "other"),
    [
        ("Round 2 · Ann", "Round 2 · Ann", "Round 3 · Ann"),
        (Text("Ann 12", style="bold"), Text("Ann 12", style="bold"), Text("Ann 12", style="red")),
        (
            Text.assemble(("Ann", "bold"), " 12"),
            Text.assemble(("Ann", "bold"), " 12"),
            Text.assemble(("Ann", "italic"), " 12"),
        ),
        (Text("12", justify="left"), Text("12", justify="left"), Text("12", justify="right")),
    ],
)
async def test_the_same_content_is_not_repainted_a_changed_one_is(
    first: Any, same: Any, other: Any
) -> None:
    app = One()
    async with app.run_test() as pilot:
        panel = app.query_one("#panel", Shown)
        panel.update(first)
        await pilot.pause()
        refreshed: list[bool] = []
        refresh = panel.refresh

        def counted(*args: Any, **kwargs: Any) -> Any:
            refreshed.append(kwargs.get("layout", False))
            return refresh(*args, **kwargs)

        panel.refresh = counted  # type: ignore[method-assign]
        panel.update(same)
        assert refreshed == []
        panel.update(other)
        assert refreshed == [True]
        assert panel.content is other
        await pilot.pause()
        assert (
            str(panel.render()).strip()
            == str(Text(other) if isinstance(other, str) else other).strip()
        )


async def test_content_set_another_way_is_not_taken_for_the_same() -> None:
    app = One()
    async with app.run_test() as pilot:
        panel = app.query_one("#panel", Shown)
        panel.update("Round 2")
        await pilot.pause()
        panel.content = "Round 3"
        await pilot.pause()
        panel.update("Round 2")
        await pilot.pause()
        assert panel.content == "Round 2"
        assert "Round 2" in str(panel.render())


async def test_a_table_or_panel_is_drawn_every_time() -> None:
    from rich.table import Table

    app = One()
    async with app.run_test() as pilot:
        panel = app.query_one("#panel", Shown)
        table = Table()
        panel.update(table)
        await pilot.pause()
        refreshed: list[int] = []
        refresh = panel.refresh
        panel.refresh = lambda *a, **k: refreshed.append(1) or refresh(*a, **k)  # type: ignore[method-assign]
        panel.update(Table())
        assert refreshed == [1]


NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
PLAIN = {"sc-setup"}
"""Panels drawn at every refresh on purpose: Shadow Cats' setup panel, measured once
before the game view's scroll bar came, kept the height of the wider box (its text
cut; the 80x24 snapshots under load)."""


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_every_panel_of_a_game_view_is_shown_only_when_changed(
    tmp_path: Path, info: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every ``Static`` of a game screen is a ``Shown`` (the shared banner, prompt and
    message line, and the game's own panels), and an undo then a redo repaints none
    of them with the text it already shows."""
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        screen = await open_game(app, info, NAMES, most=False, least=4)
        plain = [
            f"{type(w).__name__}#{w.id}"
            for w in screen.query(Static)
            if not isinstance(w, Shown)
            and w.id is not None
            and w.id not in PLAIN
            and not w.id.startswith("textual")
            and any(a.id in ("game-body",) for a in w.ancestors)
        ]
        assert plain == [], plain
        repainted: list[str] = []
        update = Static.update

        def counted(self: Static, content: Any = "", **kwargs: Any) -> None:
            if isinstance(content, str) and content == self.content and self.id not in PLAIN:
                repainted.append(str(self.id))
            update(self, content, **kwargs)

        monkeypatch.setattr(Static, "update", counted)
        monkeypatch.setattr(
            Shown,
            "update",
            lambda self, content="", **kw: (
                None if _same(self, content) else update(self, content, **kw)
            ),
        )
        for key in ("ctrl+z", "ctrl+y"):
            await pilot.press(key)
            await app.settle()
        assert repainted == [], repainted


def _same(widget: Shown, content: Any) -> bool:
    from companion.widgets.shown import _key

    new = _key(content)
    return new is not None and new == _key(widget.content)
