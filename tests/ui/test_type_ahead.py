"""Every list dialog takes its item's number or the first letters of its name (issue 22,
"Typing"): reaching one item took 15 ``Down``. The shared ``ChoiceDialog`` numbers its
items; digits go to a number, letters to a name, in both languages; enter picks."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import ChoiceDialog
from tests.screen_text import visible_text

LOCATIONS = [(f"loc{n}", f"Place {n}") for n in range(1, 14)] + [
    ("forest", "Cat Forest"),
    ("stone", "Teleport stone"),
    ("tower", "喵塔"),
]


async def pick(tmp_path: Path, keys: list[str], lang: str = "en") -> tuple[str | None, str]:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    answers: list[str | None] = []
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            app.push_screen(ChoiceDialog("Where?", LOCATIONS), answers.append)
            await pilot.pause()
            await pilot.press(*keys[:-1])
            await pilot.pause()
            shown = visible_text(app)
            await pilot.press(keys[-1])
            await pilot.pause()
            return (answers[0] if answers else None), shown
    finally:
        set_language("en")


@pytest.mark.parametrize(
    ("keys", "chosen"),
    [
        (["1", "5", "enter"], "stone"),
        (["9", "enter"], "loc9"),
        (["1", "5", "2", "enter"], "loc2"),  # no item 152: "2" starts again
        (["t", "e", "enter"], "stone"),
        (["c", "enter"], "forest"),
        (["f", "o", "enter"], "forest"),  # a word of the name
        (["1", "6", "enter"], "tower"),  # a Chinese name by its number
        (["t", "x", "enter"], "stone"),  # nothing starts "tx" or "x": said, "t" kept
    ],
)
async def test_typing_moves_the_highlight_and_enter_picks(
    tmp_path: Path, keys: list[str], chosen: str
) -> None:
    answer, _shown = await pick(tmp_path, keys)
    if keys == ["t", "x", "enter"]:
        # "x" matches nothing: the highlight stays where "t" put it, and it is said.
        assert answer == "stone"
        assert "Nothing matches 'x'" in _shown, _shown
        return
    assert answer == chosen


async def test_items_show_their_numbers_and_the_typed_text(tmp_path: Path) -> None:
    _answer, shown = await pick(tmp_path, ["1", "5", "escape"])
    assert "15  Teleport stone" in shown, shown
    assert "Typed: 15" in shown, shown


async def test_backspace_takes_a_character_back(tmp_path: Path) -> None:
    answer, _shown = await pick(tmp_path, ["1", "5", "backspace", "enter"])
    assert answer == "loc1"


async def test_in_chinese_the_number_is_enough(tmp_path: Path) -> None:
    answer, shown = await pick(tmp_path, ["1", "6", "enter"], lang="zh")
    assert answer == "tower"
    assert "16  喵塔" in shown, shown


async def test_arrows_still_work(tmp_path: Path) -> None:
    answer, _shown = await pick(tmp_path, ["down", "down", "enter"])
    assert answer == "loc3"


def test_find() -> None:
    dialog = ChoiceDialog("?", LOCATIONS)
    assert dialog.find("15") == 14 and dialog.find("te") == 14 and dialog.find("17") is None
    assert dialog.find("0") is None and dialog.find("喵") == 15
