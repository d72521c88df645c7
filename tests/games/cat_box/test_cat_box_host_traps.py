"""Issue 13's Cat Box traps, each failed before its fix: a die of 0 or 7 ignored in
silence, enter on an empty dice field, a missing card file accepted on the form."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.widgets import Input, Label, Static

from companion.games import find_game
from companion.games.cat_box.dialogs import RollDialog
from companion.games.cat_box.prepare import check_options, default_card_text
from companion.games.cat_box.screen import CatBoxScreen
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.new_session import NewSessionScreen

SIZE = (120, 40)
NAMES = ["Ann", "Bo", "Cy"]


async def _roll_dialog(app, pilot) -> tuple[CatBoxScreen, RollDialog]:
    await pilot.pause()
    app.start_session("cat-box", NAMES, {"start_player": "p1"})
    await app.settle()
    screen = app.screen
    assert isinstance(screen, CatBoxScreen)
    await pilot.press("r")
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, RollDialog)
    return screen, dialog


def message(dialog: RollDialog) -> str:
    return str(dialog.query_one("#roll-message", Static).render())


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_die_of_0_or_7_says_why_next_to_the_dice(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "cb.db", lang=lang, clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        _screen, dialog = await _roll_dialog(app, pilot)
        for digit in ("0", "7"):
            await pilot.press("2", digit)
            await pilot.pause()
            said = message(dialog)
            assert digit in said, said
            assert ("1 to 6" in said) if lang == "en" else ("1 到 6" in said)
            await pilot.press("backspace")
        assert dialog.common == [] and dialog.rolled == []


async def test_enter_on_an_empty_dice_field_commits_nothing_and_says_so(tmp_path: Path) -> None:
    app = make_app(tmp_path / "cb.db", lang="en", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        screen, dialog = await _roll_dialog(app, pilot)
        await pilot.press("enter")
        await app.settle()
        assert app.screen is dialog and dialog.stage == "dice"
        assert [e.payload["type"] for e in screen.session.entries] == ["deal"]
        assert "press r" in message(dialog)
        await pilot.press("3", "4", "enter")  # two dice are not a roll either
        await app.settle()
        assert [e.payload["type"] for e in screen.session.entries] == ["deal"]
        assert "press r" in message(dialog)
        await pilot.press("R")  # only r / R roll: the missing dice, at once on record
        await app.settle()
        pending = screen.session.state.pending
        assert pending is not None and pending.common[:2] == (3, 4) and len(pending.rolled) == 2
        assert [e.payload["type"] for e in screen.session.entries] == ["deal", "roll"]


def test_check_options_reads_the_card_file(tmp_path: Path) -> None:
    assert check_options({"card_file": ""}) == {}
    good = tmp_path / "mine.toml"
    good.write_text(default_card_text(), "utf-8")
    assert check_options({"card_file": str(good)}) == {}
    missing = check_options({"card_file": str(tmp_path / "gone.toml")})
    assert "no such card file" in missing["card_file"].render()
    broken = tmp_path / "broken.toml"
    broken.write_text('[set]\nname = "x"\n[[card]]\nid = "a"\n', "utf-8")
    assert "broken.toml" in check_options({"card_file": str(broken)})["card_file"].render()


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_missing_card_file_is_refused_on_the_form(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "cb.db", lang=lang, clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(NewSessionScreen(find_game("cat-box")))
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        for name in NAMES:
            form.add_seat(name)
        gone = tmp_path / "gone.toml"
        form.query_one("#opt-card_file", Input).value = str(gone)
        await pilot.press("ctrl+s")
        await app.settle()  # the form checks the file on the writer thread
        assert app.screen is form, "the session started with nothing to deal"
        assert app.store.sessions() == []
        said = str(form.query_one("#opt-error-card_file", Label).render())
        assert "gone.toml" in said
        assert ("no such card file" in said) if lang == "en" else ("找不到这个纸箱牌文件" in said)
        gone.write_text(default_card_text(), "utf-8")
        await pilot.press("ctrl+s")
        await app.settle()
        assert isinstance(app.screen, CatBoxScreen) and app.screen.session.state.dealt


@pytest.mark.parametrize(("size", "lang"), [((80, 24), "zh"), ((100, 30), "en"), ((100, 30), "zh")])
async def test_small_terminals_keep_the_keys_the_players_and_the_message(
    tmp_path: Path, size: tuple[int, int], lang: str
) -> None:
    """At 100x30 the open roll pushed the players' table down to one row and the roll
    dialog's keys and last choices below its border (issue 13, item 4)."""
    app = make_app(tmp_path / "cb.db", lang=lang, clock=ManualClock(), rng=random.Random(1))
    width, height = size
    async with app.run_test(size=size) as pilot:
        screen, dialog = await _roll_dialog(app, pilot)
        await pilot.press("2", "3", "4", "1", "enter")  # meets many slots on the default cards
        await app.settle()
        box = dialog.query_one("#roll-dialog").region
        for part in ("#roll-keys", "#roll-choices"):
            region = dialog.query_one(part).region
            assert region.height and region.bottom <= box.bottom, (part, region, box)
        await pilot.press("e")  # keep the roll open: back on the screen
        await app.settle()
        assert app.screen is screen
        table = screen.query_one("#cb-players").region
        # header + every player from 100x30 up; at 80x24 at least the player whose turn it is
        assert table.height >= (len(NAMES) + 1 if height >= 30 else 2)
        assert table.bottom <= height - 1
        line = screen.query_one("#message-line").region
        assert line.height >= 1 and line.bottom <= height - 1  # above the footer
        assert line.right <= width


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_help_shows_the_keys_of_the_moment_and_the_rules(tmp_path: Path, lang: str) -> None:
    from companion.widgets.help import HelpScreen

    app = make_app(tmp_path / "cb.db", lang=lang, clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.start_session("cat-box", NAMES, {"start_player": "p1"})
        await app.settle()
        await pilot.press("p")  # nothing rolled yet: refused with the guide's reason
        await pilot.pause()
        said = str(app.screen.query_one("#message-line", Static).render())
        assert ("roll first (r)" in said) if lang == "en" else ("请先投掷" in said)
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        rules = str(help_screen.query_one("#help-rules", Static).render())
        assert ("20 points win at once" in rules) if lang == "en" else ("20 分立即获胜" in rules)
