"""Every Chinese refusal of 喵喵咪呀 shows whole in the message line, at 80x24, 100x30, 160x48.

Issue 13: "大伟 已公开身份，不能再被投票" showed as "…， 能再被投票" — a toast crossing the log
panel's border dropped the double-width 不. Refusals now go through the guide / the
rules' ``RuleError`` into the screen's message line; this renders each of them there
and checks every character of the translation is on screen, in order.
"""

from __future__ import annotations

import random
import string

import pytest

from companion.i18n import catalog
from companion.i18n_check import extracted
from companion.session.clock import ManualClock
from companion.ui.app import make_app

SOURCES = ("companion/games/meowfia/rules/game.py", "companion/games/meowfia/guide.py")
SAMPLE = {"name": "大伟", "expected": "小明", "accused": "小红", "names": "大伟, 小明"}


def refusals() -> list[str]:
    zh = catalog("zh")
    out: list[str] = []
    for item in extracted():
        if item.path not in SOURCES:
            continue
        text = zh.gettext(item.msgid)
        fields = {f for _lit, f, _spec, _conv in string.Formatter().parse(text) if f}
        params = {f: SAMPLE.get(f, "3") for f in fields}
        rendered = text.format(**params)
        if rendered not in out:
            out.append(rendered)
    return out


def in_order(message: str, screen: str) -> bool:
    at = 0
    for char in message:
        if char.isspace():
            continue
        at = screen.find(char, at)
        if at < 0:
            return False
        at += 1
    return True


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
async def test_every_refusal_is_on_screen_whole(tmp_path, size) -> None:
    messages = refusals()
    assert any("不能再被投票" in m for m in messages)
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.start_session("meowfia", ["大伟", "小明", "小红", "Di", "Ed", "Fa"], {})
        await pilot.pause()
        await pilot.press("1", "d", "o", "e", "c")  # a reckoning: the grid is on screen
        await app.settle()
        await pilot.pause()
        screen = app.screen
        for message in messages:
            screen.say(message, error=True)
            await pilot.pause()
            text = "\n".join(s.text for s in screen._compositor.render_strips())
            line = screen.query_one("#message-line")
            assert line.region.height >= 1
            body = "\n".join(
                s.crop(line.region.x, line.region.right).text
                for s in screen._compositor.render_strips()[line.region.y : line.region.bottom]
            )
            assert in_order(message, body), (message, body, text)
