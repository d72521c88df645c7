"""English plurals and wording the tour read on screen (issue 22, "Reading"): "1 presses",
"Deck: 1 cards", "hissed at 9 on Tabby cat", a month 13 said to have "no such day",
"repeat (no effect))", "Plain countdown 0:15 (0:15)", "7 → 7：重掷", "美美 掷出 7：7", the
music start naming a file's whole path, and an undo that said nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.cat_box.render import banner_parts
from companion.games.cat_box.view import Banner
from companion.games.meeple_circus.guide import STATUS_WORDS, file_title
from companion.games.meeple_circus.music import countdown_music
from companion.i18n import _, set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.new_session import check_birth_date
from tests.screen_text import visible_text


@pytest.fixture(autouse=True)
def english() -> object:
    set_language("en")
    yield
    set_language("en")


def banner(deck: int) -> Banner:
    return Banner(True, 2, deck, None, False, None, True)


def test_the_deck_count_agrees_with_its_number() -> None:
    assert "Deck: 1 card" in banner_parts(banner(1))
    assert "Deck: 2 cards" in banner_parts(banner(2))
    set_language("zh")
    assert "牌堆：剩 1 张" in banner_parts(banner(1))


def test_a_date_that_cannot_be_says_why() -> None:
    assert check_birth_date("1995-13-01") == ("1995-13-01 is not a real date: a month is 01 to 12.")
    assert check_birth_date("2001-02-30") == (
        "2001-02-30 is not a real date: that month has 28 days."
    )
    set_language("zh")
    assert check_birth_date("2000-02-30") == "2000-02-30 不是真实存在的日期：那个月只有 29 天。"


def test_a_press_status_has_no_parentheses_of_its_own() -> None:
    """It is shown inside "({status})": "repeat (no effect))" read as a typo."""
    for words in STATUS_WORDS.values():
        assert "(" not in words and ")" not in words, words
    for lang in ("en", "zh"):
        set_language(lang)
        for words in STATUS_WORDS.values():
            assert "（" not in _(words) and "(" not in _(words), _(words)


def test_a_countdown_is_not_named_with_its_length_twice() -> None:
    music = countdown_music(15)
    assert "0:15" not in music.title
    assert music.title == "Plain countdown"


def test_the_music_start_names_the_file_as_the_screen_does() -> None:
    assert file_title("file:/home/host/music/song.mp3@30") == "song"
    assert file_title("file:/home/host/music/song.mp3@30.0") == "song"
    assert file_title("file:song.wav") == "song"
    assert file_title("file:/x/no extension") == "no extension"


def test_the_start_position_roll_of_7_is_not_said_twice_in_chinese() -> None:
    set_language("zh")
    assert not _("roll again (a 7)").startswith("7")
    assert not _("choose any other location").startswith("7")
    rendered = _("{player} rolls {rolls}: free choice of another location.").format(
        player="美美", rolls="7"
    )
    assert "7：7" not in rendered and "掷出 7：" in rendered


async def test_undo_says_what_it_undid_in_the_message_line(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("scorepad", ["Ann", "Bo"], {})
        await app.settle()
        await pilot.pause()
        await pilot.press("enter", "1", "2", "enter")
        await app.settle()
        await pilot.pause()
        await pilot.press("ctrl+z")
        await app.settle()
        await pilot.pause()
        line = str(app.screen.query_one("#message-line").render())
        assert line.startswith("Undone: "), line
        assert "12" in line, line
        await pilot.press("ctrl+y")
        await app.settle()
        await pilot.pause()
        line = str(app.screen.query_one("#message-line").render())
        assert line.startswith("Redone: "), line
        assert "Redone: " in visible_text(app)
