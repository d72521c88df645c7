"""The footer lists only the keys that apply now (issue 22).

Seen in tmux: Meowfia's ``1–0 警长`` stayed all game, even with 7 seats; Shadow Cats
kept ``s 开始游戏 c 角色 d 重新发牌`` during play and after the end; the zh Meowfia
footer was cut at 160 columns (``… o 打开建筑  r  ▏``). All failed before the fix.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.games.meowfia.rules import Start
from companion.i18n import catalog
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa", "Gus"]


def footer(app) -> str:  # type: ignore[no-untyped-def]
    return visible_text(app).rstrip("\n").splitlines()[-1]


def tr(lang: str, text: str) -> str:
    return catalog(lang).gettext(text)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_meowfia_sheriff_keys_only_while_choosing_and_as_many_as_seats(
    tmp_path: Path, lang: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", NAMES, {})
        await app.settle()
        await pilot.pause()
        screen = app.screen
        shown = footer(app)
        assert "1–7 " + tr(lang, "Sheriff: seat number") in shown, shown
        assert "1–0" not in shown
        screen.submit(Start("p1", "p2"))
        await app.settle()
        await pilot.pause()
        await pilot.pause()
        shown = footer(app)
        assert "1–7" not in shown and tr(lang, "Sheriff: seat number") not in shown, shown
        # Every key the footer keeps is whole: nothing cut at the palette key.
        for active in screen.active_bindings.values():
            b = active.binding
            if active.enabled and b.show and b.description and active.node is screen:
                assert tr(lang, b.description) in shown, (b.description, shown)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_shadow_cats_setup_keys_leave_the_footer_once_play_starts(
    tmp_path: Path, lang: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", NAMES[:5], {})
        await app.settle()
        await pilot.pause()
        setup_words = [tr(lang, w) for w in ("Start game", "Character", "Deal again")]
        shown = footer(app)
        assert all(w in shown for w in setup_words), shown
        await pilot.press("s")
        await app.settle()
        await pilot.pause()
        await pilot.pause()
        shown = footer(app)
        assert app.screen.session.state.phase == "start"
        for word in setup_words:
            assert f" {word} " not in f"{shown} ", (word, shown)
        assert tr(lang, "Move / roll") in shown
