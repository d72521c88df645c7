"""Every character of every translated refusal is on screen, in its real place.

Issue 13, item 2: "大伟 已公开身份，不能再被投票" showed as "…， 能再被投票" — a toast
crossing the log panel's border dropped the double-width 不 (Textual #6357). Refusals
now go to each game screen's message line (docked at the foot of the game body, so a
tall game view cannot push it off screen); this renders every refusal template of
every game, translated and filled in, there, and reads the composited terminal text
back: all of them at 80x24 (the tightest, where most wrap), and at 100x30 and 160x48
the longest ones of each game (a render costs ~50 ms; the sweep stays under a minute).
"""

from __future__ import annotations

import string
from pathlib import Path

import pytest

from companion.games import GAMES
from companion.i18n import _, set_language
from companion.i18n_check import extracted
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.game_screen import GameScreen
from tests.screen_text import missing_characters, visible_text

NAMES = ["大伟", "小明", "Ann", "美美", "阿强", "Bo", "小红", "Cy"]
SIZES = [(80, 24), (100, 30), (160, 48)]
LONGEST_AT_WIDER_SIZES = 15


def refusal_templates(package: str) -> list[str]:
    """Marked strings of a game's rules and guide (its refusals and notices)."""
    prefix = f"companion/games/{package}/"
    found = {
        m.msgid
        for m in extracted()
        if m.path.startswith(prefix + "rules") or m.path.startswith(prefix + "guide")
    }
    return sorted(found)


def fill(template: str) -> str:
    """The translated template with every placeholder filled (names in Chinese)."""
    text = _(template)
    values = {}
    for _lit, field, _spec, _conv in string.Formatter().parse(text):
        if field is not None:
            key = field.split(".")[0].split("[")[0]
            values[key] = "大伟" if "name" in key or "player" in key else "3"
    try:
        return text.format(**values)
    except (ValueError, KeyError, IndexError):
        return text


async def _open_game(app, info) -> GameScreen:  # type: ignore[no-untyped-def]
    for count in range(info.rules.min_players, info.rules.max_players + 1):
        try:
            app.start_session(info.id, NAMES[:count], {})
            break
        except Exception:
            continue
    screen = app.screen
    assert isinstance(screen, GameScreen), f"{info.id}: no screen"
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
async def test_every_refusal_shows_every_character(tmp_path: Path, info, size) -> None:
    package = info.screen.module.split(".")[2]
    # The guide's rules summary is help text (shown by ?/F1 in a scrolling dialog), not
    # a refusal for the message line.
    summary = info.guide.summary if info.guide is not None else ""
    templates = [t for t in refusal_templates(package) if t != summary]
    assert templates, f"{info.id}: no refusal templates found"
    if size != SIZES[0]:
        set_language("zh")
        templates = sorted(templates, key=lambda t: -len(fill(t)))[:LONGEST_AT_WIDER_SIZES]
        set_language("en")
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    try:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = await _open_game(app, info)
            await pilot.pause()
            lost: list[str] = []
            for template in templates:
                message = fill(template)
                screen.say(message, error=True)
                await pilot.pause()
                gone = missing_characters(message, visible_text(app))
                if gone:
                    lost.append(f"{message!r}: missing {gone!r}")
            assert not lost, "\n".join(lost[:20])
    finally:
        set_language("en")


async def test_a_notice_on_a_game_screen_goes_to_its_message_line(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock())
    try:
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            app.start_session("scorepad", ["大伟", "小明"], {})
            await pilot.pause()
            message = "大伟 已公开身份，不能再被投票"
            app.screen.query_one("#log").notify(message, severity="warning")  # from a widget
            await pilot.pause()
            assert not app._notifications
            assert missing_characters(message, visible_text(app)) == ""
    finally:
        set_language("en")
