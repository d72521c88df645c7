"""No language leaks (issue 22, "Reading"): what the Chinese UI shows has no unintended
Latin word, and the English one no Chinese label. The tour saw ``蜜茶的专属防具 (Micha's
armour)`` and ``发牌：小明 高速 (Gaosu)`` in the zh log, ``x Copy (丑时)`` in the English
footer, hardware entries as raw ``key=value`` and raw JSON in History's photo finish.

The sweep drives every game's screen with the pilot in Chinese (the busiest table the
game takes, the log shown), and reads the composited screen: a Latin word must be on
the allow-list (key names, units, file names, proper names on purpose).
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.i18n import _, set_language
from companion.session.clock import ManualClock
from companion.session.narrate import hardware_words
from companion.ui.app import make_app
from companion.widgets.game_screen import GameScreen
from tests.open_game import open_game
from tests.screen_text import visible_text

NAMES = ["大伟", "小明", "美美", "阿强", "小红", "丽丽", "小刚", "芳芳"]
ALLOWED = {
    # key names and their footer forms
    "enter", "escape", "esc", "tab", "ctrl", "shift", "space", "backspace", "up", "down",
    "left", "right", "home", "end", "pageup", "pagedown", "del", "delete", "insert", "q", "p",
    # units, dice, formats
    "ms", "s", "d6", "d100", "hp", "hp1", "min", "vs", "x",
    # proper names on purpose, files and formats
    "tadaa", "usb", "hid", "json", "csv", "bgstats", "bgg", "toml", "alsa", "mp3", "wav",
    "flac", "ogg", "default_roster", "faq", "countdown", "companion", "id",
    "jtr",  # a Shadow Cats character whose printed name is Latin
}  # fmt: skip
LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z_']+")


def unintended_latin(text: str) -> list[str]:
    found = []
    for line in text.splitlines():
        for word in LATIN_WORD.findall(line):
            low = word.lower().strip("'")
            if low in ALLOWED or low.startswith(("ctrl", "f1")):
                continue
            found.append(f"{word!r} in {line.strip()!r}")
    return found


def test_a_card_name_in_a_chinese_log_has_no_romanization() -> None:
    from companion.games.shadow_cats.guide import card_name

    name = card_name("蜜茶的专属防具", "Micha's armour")
    set_language("zh")
    try:
        assert name.render(_) == "蜜茶的专属防具"  # type: ignore[union-attr]
    finally:
        set_language("en")
    assert name.render(_) == "蜜茶的专属防具 (Micha's armour)"  # type: ignore[union-attr]


def test_the_english_footer_has_no_chinese_label() -> None:
    from companion.games.shadow_cats.screen import ShadowCatsScreen

    for binding in ShadowCatsScreen.BINDINGS:
        description = getattr(binding, "description", "")
        assert not re.search(r"[\u4e00-\u9fff]", description), description


def test_a_hardware_entry_reads_as_a_sentence() -> None:
    payload = {"kind": "tadaa-press", "device": "TB-7", "button": 3, "player": None,
               "routed": "unassigned", "arrival_ns": 5, "host_ns": 6}  # fmt: skip
    set_language("zh")
    try:
        said = hardware_words(payload, {}).render(_)
        assert "=" not in said and "arrival_ns" not in said, said
        assert "3 号按钮" in said and "尚未分配" in said, said
        said = hardware_words({**payload, "player": "p1", "routed": "game"}, {"p1": "大伟"})
        assert "大伟" in said.render(_)
    finally:
        set_language("en")


async def _busiest(app, info) -> GameScreen:  # type: ignore[no-untyped-def]
    return await open_game(app, info, NAMES)


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_every_chinese_game_screen_has_no_unintended_latin(tmp_path: Path, info) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(3))
    try:
        async with app.run_test(size=(160, 48)) as pilot:
            await pilot.pause()
            screen = await _busiest(app, info)
            screen.sub_title = info.name("zh")  # the session id is random hex
            await pilot.pause()
            await pilot.press("l")  # the log shown (it starts hidden below 110 columns)
            await pilot.pause()
            if not screen.query_one("#log").display:
                await pilot.press("l")
            screen._refresh_all()
            await pilot.pause()
            found = unintended_latin(visible_text(app))
            assert not found, "\n".join(found[:20])
    finally:
        set_language("en")


def test_punctuation_inside_chinese_is_full_width() -> None:
    from companion.i18n import listing, paren
    from companion.rules.guide import listing as say_listing

    set_language("zh")
    try:
        assert listing(["茜 +2", "安 +1"]) == "茜 +2、安 +1"
        assert say_listing(["茜 +2", "安 +1"]).render(_) == "茜 +2、安 +1"
        assert paren("对子") == "（对子）"
        from companion.games.cat_box.render import condition_label

        assert "(" not in paren(condition_label("pair")), paren(condition_label("pair"))
    finally:
        set_language("en")
    assert listing(["Ann +2", "Bo +1"]) == "Ann +2, Bo +1"
    assert paren("a pair") == " (a pair)"
