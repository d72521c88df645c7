"""A footer rebuilt for new keys styles each new key once, whatever its width
(issue 26: "no restyle storms"). Counted as ``Stylesheet.apply`` calls, not timed."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import textual.css.stylesheet as stylesheet
from textual.widgets._footer import FooterKey

from companion.games import GAMES
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.footer import KeyFooter
from tests.open_game import mid_game


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_a_rebuilt_footer_styles_each_new_key_once(
    tmp_path: Path, info: Any, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    applied: Counter[int] = Counter()
    apply = stylesheet.Stylesheet.apply

    def counted(self, node, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(node, FooterKey):
            applied[id(node)] += 1
        return apply(self, node, *args, **kwargs)

    monkeypatch.setattr(stylesheet.Stylesheet, "apply", counted)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=size) as pilot:
        app.open_session(mid_game(app, info))
        await app.settle()
        footer = app.screen.query_one(KeyFooter)
        width, height = size
        rebuilt = []
        # Redo comes, then goes (a rebuild each, where the game's footer shows it), and
        # the terminal one column narrower and back (a rebuild each: fitted anew).
        for step in ("ctrl+z", "ctrl+y", (width - 1, height), size):
            before = footer._shown
            applied.clear()
            if isinstance(step, str):
                await pilot.press(step)
            else:
                await pilot.resize_terminal(*step)
            await app.settle()
            if footer._shown == before:
                continue  # nothing new to show: not rebuilt
            rebuilt.append(step)
            new = list(footer.query(FooterKey))
            # Before: twice each key in a compact footer (mounted, then "-compact"
            # added by its watcher: a restyle of each key, a rebuild a key typed),
            # and twice the palette key in every footer.
            twice = [(k.key, sorted(k.classes), applied[id(k)]) for k in new if applied[id(k)] > 1]
            assert not twice, (step, footer.compact, twice)
        assert len(rebuilt) >= 2, rebuilt
