"""Wording found on the tmux tour (docs/tour/cat-box.md, rows 3 and 5-8).

Row 3: the roll dialog's hint said "escape：取消" / "escape 或 e：保留这次投掷" where the
footer says "esc", and the Chinese counted dice with both 个 and 颗. Row 5: the History
page of a finished game said "第2轮, deck 1" and "not dealt" in the Chinese UI (the
game's progress label had a part the history screen could not translate). Row 6: at
80x24 the hint wrapped inside a key ("esc 或" / "e：保留这次投掷"). Row 7: "公共骰: 1 1 1"
had a half-width colon. All failed before the fix.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from cat_box_helpers import dealt, play

from companion.games.cat_box.dialogs import RollDialog
from companion.games.cat_box.guide import GUIDE
from companion.games.cat_box.rules import GAME, Retire
from companion.games.cat_box.rules import game as cat_box_game
from companion.i18n import catalog, set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.history_format import progress_label
from tests.screen_text import visible_text

CATALOG = Path(__file__).parents[3] / "companion/games/cat_box/locale/zh_CN/LC_MESSAGES/cat_box.po"
CARDS = Path(cat_box_game.__file__).parent / "default_cards.toml"


def _msgstrs(path: Path) -> list[str]:
    """Every msgstr of a .po file, continuation lines joined."""
    out: list[str] = []
    current: list[str] | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgstr "):
            current = [line[len("msgstr ") :].strip().strip('"')]
            out.append("")
        elif current is not None and line.startswith('"'):
            current.append(line.strip().strip('"'))
        else:
            current = None
        if current is not None:
            out[-1] = "".join(current)
    return out


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_roll_dialog_names_keys_as_the_footer_does(
    tmp_path: Path, lang: str, size: tuple[int, int]
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.start_session("cat-box", ["Ann", "Bo", "Cy"], {"start_player": "p1"})
        await app.settle()
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RollDialog)
        dice_stage = visible_text(app)
        await pilot.press("1", "1", "1", "2", "enter")
        await app.settle()
        place_stage = visible_text(app)
        for shown in (dice_stage, place_stage):
            assert "esc " in shown  # the footer's name for the key
            assert "escape" not in shown, shown
        assert ("esc：取消" if lang == "zh" else "esc: cancel") in dice_stage
        assert ("esc 或 e：" if lang == "zh" else "esc or e: ") in place_stage
        if lang == "zh":  # full-width colons after the dice labels (the tour, row 6)
            assert "公共骰：" in dice_stage and "玩家骰：" in dice_stage, dice_stage
            assert "公共骰:" not in dice_stage, dice_stage


def test_dice_are_counted_with_ke_in_chinese() -> None:
    """颗 for dice everywhere: a msgstr (or a default card's text) that speaks of dice
    does not count with 个 (tokens and slots keep 个)."""
    counted = re.compile(r"[0-9一两二三四五N]\s*个(?!指示物|标记格|连续|字母)")
    wrong = [msgstr for msgstr in _msgstrs(CATALOG) if "骰" in msgstr and counted.search(msgstr)]
    wrong += [
        line
        for line in CARDS.read_text(encoding="utf-8").splitlines()
        if "骰" in line and counted.search(line.split("text_zh", 1)[-1])
    ]
    assert not wrong, wrong


@pytest.mark.parametrize("label", ["not dealt", "round 2, deck 1", "round 3, deck 0, last round"])
def test_the_history_progress_label_is_all_chinese(label: str) -> None:
    set_language("zh")
    try:
        shown = progress_label(label)
    finally:
        set_language("en")
    assert not re.search(r"[A-Za-z]", shown), shown


async def test_the_history_page_of_a_finished_game_has_no_english(tmp_path: Path) -> None:
    from companion.ui.history_detail import SessionDetailScreen

    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        live = app.start_session("cat-box", ["安", "博", "晨"], {"start_player": "p1"})
        await app.settle()
        app.push_screen(SessionDetailScreen(app.store, live.id))
        for _i in range(5):
            await pilot.pause()
        shown = visible_text(app)
        assert "牌堆" in shown, shown
        assert "deck" not in shown and "not dealt" not in shown, shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_log_entry_and_the_round_it_begins_are_two_sentences(lang: str) -> None:
    """Found on the tour (row 8): "晨 开箱 戊猫（10 分）；总分 10 第 2 轮开始：博 先行动。"
    ran two sentences together, in English too ("…; total 10 Round 2 begins…").
    Failed before the fix."""
    state = dealt(start="p1")
    for pid in ("p1", "p2", "p3"):
        state = play(state, Retire(pid))
    action = Retire("p4")
    after = GAME.apply(state, action)
    assert after.round == 2
    line = GUIDE.describe(action, state, after).render(catalog(lang).gettext)
    follows = "第 2 轮开始" if lang == "zh" else "Round 2 begins"
    stop = "。" if lang == "zh" else ". "
    assert stop + follows in line, line
