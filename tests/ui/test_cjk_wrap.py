"""Chinese wraps like Chinese (issue 22, "Reading"): between any two characters, a number
kept with its measure word, no line starting with closing punctuation nor ending with
opening punctuation. The tour saw ``…违禁品和 3`` / ``个空箱分别…`` (Rich broke at the
one space) and ``ctrl+q`` / ``退出`` split on Home's help.

The helper is ``companion/widgets/wrap.py``; the app puts it in place of Rich's and
Textual's wrapping, so every prose place (help, message line, prompts, dialogs, log,
the guide's sentences) wraps the same way.
"""

from __future__ import annotations

import io
import itertools
import re
import string
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from companion.games import GAMES
from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.help import HelpScreen
from companion.widgets.wrap import CLOSING, OPENING, break_opportunities, divide_line, has_wide
from tests.screen_text import visible_text

LOCALE = Path(__file__).resolve().parents[2] / "companion" / "locale" / "zh_CN" / "LC_MESSAGES"
WIDTHS = range(12, 81)
SAMPLE = "偷渡：警长闭眼，其他玩家把真正的违禁品和 3 个空箱分别放进箱子里（对子），茜 +2，安 +1。"


def pieces(text: str, offsets: list[int]) -> list[str]:
    return [text[a:b] for a, b in zip([0, *offsets], [*offsets, len(text)], strict=True)]


def wrapped(text: str, width: int) -> list[str]:
    """What the app shows: Rich's Text.wrap, with the app's wrapping installed."""
    console = Console(width=width, file=io.StringIO(), color_system=None)
    return [line.plain for line in Text(text).wrap(console, width)]


@pytest.fixture(autouse=True)
def installed(tmp_path: Path) -> Iterator[None]:
    """The app installs the wrapping; Chinese is the language (prose breaks anywhere)."""
    make_app(tmp_path / "wrap.sqlite3", lang="zh", clock=ManualClock())
    yield
    set_language("en")


def test_in_english_a_chinese_name_stays_whole() -> None:
    set_language("en")
    text = "Characters dealt: 蜜茶 (Micha), Bo 丑时 (Choushi) / 静猫 (Jingmao); 大伟 first."
    for width in range(12, 60):
        for line in wrapped(text, width):
            assert not line.strip().startswith(("猫", "时", "茶", "伟")), (width, line)


def bad_lines(lines: list[str], width: int) -> list[str]:
    bad = []
    for number, line in enumerate(lines):
        body = line.strip()
        if cell_len(line.rstrip()) > width:
            bad.append(f"too wide: {line!r}")
        if number and body[:1] in CLOSING and not body.startswith("…"):
            bad.append(f"starts with closing punctuation: {line!r}")
        if number < len(lines) - 1 and body[-1:] in OPENING:
            bad.append(f"ends with opening punctuation: {line!r}")
    return bad


@pytest.mark.parametrize("width", WIDTHS)
def test_chinese_breaks_between_characters_at_every_width(width: int) -> None:
    lines = wrapped(SAMPLE, width)
    assert "".join(lines).replace(" ", "") == SAMPLE.replace(" ", ""), lines
    assert not bad_lines(lines, width), lines
    # Between characters: every line but the last is full up to the next piece (it
    # does not break early at the one space the sentence has).
    for line, following in itertools.pairwise(lines):
        room = width - cell_len(line.rstrip()) - (1 if line.endswith(" ") else 0)
        first_piece = next(iter(break_opportunities(following)))
        assert room < cell_len(first_piece), (width, lines)
    # The number stays with its measure word.
    assert not any(line.rstrip().endswith(" 3") or line.startswith("个") for line in lines), lines


def test_the_tour_sentence_no_longer_breaks_at_its_space() -> None:
    text = "偷渡：警长闭眼，其他玩家把真正的违禁品和 3 个空箱分别放进箱子"
    lines = wrapped(text, 46)
    assert lines[0] == "偷渡：警长闭眼，其他玩家把真正的违禁品和 3 个", lines


def test_english_wraps_exactly_as_rich_does() -> None:
    from rich._wrap import divide_line as rich_divide_line

    text = "Bo attacks Ann: d100 62 -> 20 damage, HP 45 -> 25 (a long sentence to wrap)"
    for width in WIDTHS:
        assert divide_line(text, width) == rich_divide_line(text, width)


def test_a_long_unbroken_latin_word_in_chinese_is_still_folded() -> None:
    text = "链接：" + "x" * 50
    lines = wrapped(text, 20)
    assert all(len(line) <= 20 for line in lines), lines
    assert "".join(lines) == text


def zh_strings() -> list[str]:
    """Every Chinese translation of every catalog, placeholders filled."""
    out: set[str] = set()
    for po in sorted(LOCALE.glob("*.po")):
        with po.open("rb") as handle:
            catalog = read_po(handle)
        for message in catalog:
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for text in strings:
                if text and has_wide(text):
                    out.add(fill(text))
    return sorted(out)


def fill(text: str) -> str:
    values = {}
    for _lit, field, _spec, _conv in string.Formatter().parse(text):
        if field is not None:
            key = re.split(r"[.\[]", field)[0]
            values[key] = "大伟" if "name" in key or "player" in key else "3"
    try:
        return text.format(**values) if values else text
    except (ValueError, KeyError, IndexError):
        return text


def test_every_chinese_string_wraps_without_a_line_starting_with_punctuation() -> None:
    """The whole catalog (help, prompts, refusals, log sentences, dialogs)."""
    found = []
    for text in zh_strings():
        for width in range(14, 81, 3):
            for paragraph in text.split("\n"):
                if len(paragraph) * 2 <= width:
                    continue
                bad = bad_lines(wrapped(paragraph, width), width)
                if bad:
                    found.append(f"{width}: {bad[0]}")
    assert not found, "\n".join(found[:20])


def dialog_lines(shown: str) -> list[str]:
    """The help dialog's text lines, its border and the screen around it cut off."""
    out = []
    for line in shown.splitlines():
        parts = line.split("█")
        if len(parts) >= 3:
            out.append(parts[1])
    return out


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_help_of_every_game_in_chinese_at_80x24(tmp_path: Path, info) -> None:
    names = ["大伟", "小明", "美美", "阿强", "小红", "Bo", "Cy", "Ann"]
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            for count in range(info.rules.min_players, info.rules.max_players + 1):
                try:
                    app.start_session(info.id, names[:count], {})
                    break
                except Exception:
                    continue
            await pilot.pause()
            await pilot.press("f1")
            await pilot.pause()
            help_screen = app.screen
            assert isinstance(help_screen, HelpScreen)
            scroll = help_screen.query_one("VerticalScroll")
            bad: list[str] = []
            seen = 0
            while True:
                lines = dialog_lines(visible_text(app))
                for number, line in enumerate(lines):
                    body = line.strip()
                    if number and body[:1] in CLOSING and not body.startswith("…"):
                        bad.append(line)
                seen += 1
                if scroll.scroll_y >= scroll.max_scroll_y or seen > 40:
                    break
                scroll.scroll_to(y=scroll.scroll_y + 10, animate=False)
                await pilot.pause()
            assert not bad, "\n".join(bad)
    finally:
        set_language("en")


@pytest.mark.parametrize("width", [20, 33, 46])
def test_textual_content_wraps_the_same_way(width: int) -> None:
    """``Static("...")`` and labels wrap through Textual's Content, not Rich's Text."""
    from textual.content import Content

    lines = [line.plain for line in Content(SAMPLE).wrap(width)]
    assert lines == [line.rstrip() for line in wrapped(SAMPLE, width)], lines
