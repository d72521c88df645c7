"""Pilot: a 5-player Shadow Cats game through the keys, to a team win; both languages."""

from __future__ import annotations

import random

from textual.widgets import Label, OptionList, Static

from companion.games.shadow_cats.rules.board import SUMS
from companion.games.shadow_cats.screen import ShadowCatsScreen
from companion.games.shadow_cats.widgets import DiceDialog
from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.session.export import replay_session
from companion.ui.app import make_app
from companion.widgets.dialogs import ChoiceDialog, PromptDialog

SIZE = (160, 50)
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


async def type_text(pilot, text):
    for ch in text:
        await pilot.press(ch)


def text_of(screen, selector):
    return str(screen.query_one(selector, Static).render())


async def enter_dice(app, pilot, *sums):
    await pilot.press("m")
    await pilot.pause()
    assert isinstance(app.screen, DiceDialog)
    for total in sums:
        await type_text(pilot, str(total))
        await pilot.press("enter")
        await pilot.pause()
    await app.settle()


async def choose(app, pilot, option_id):
    """In a ChoiceDialog, highlight the option with ``option_id`` and pick it."""
    await pilot.pause()
    dialog = app.screen
    assert isinstance(dialog, ChoiceDialog), dialog
    options = dialog.query_one(OptionList)
    index = next(
        i for i in range(options.option_count) if options.get_option_at_index(i).id == option_id
    )
    options.focus()
    await pilot.pause()
    options.highlighted = index
    await pilot.press("enter")
    await pilot.pause()


async def select_row(pilot, screen, pid):
    table = screen.query_one("#sc-players")
    table.focus()
    target = [p.id for p in screen.session.players].index(pid)
    for _ in range(len(screen.session.players)):
        await pilot.press("up")
    for _ in range(target):
        await pilot.press("down")
    await pilot.pause()
    assert table.cursor_row == target


async def test_five_player_game_through_the_keys_to_a_team_win(tmp_path):
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", NAMES, {})
        await app.settle()
        screen = app.screen
        assert isinstance(screen, ShadowCatsScreen)
        assert "Roster: default_roster.toml" in text_of(screen, "#sc-setup")
        assert "DEFAULT NUMBERS" in text_of(screen, "#sc-setup")
        assert "Identities: 2 Red · 2 Blue · 1 Neutral" in text_of(screen, "#sc-setup")

        # identity counts can be changed before the start (and a bad entry is refused)
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, PromptDialog)
        await pilot.press("end", "ctrl+u")
        await type_text(pilot, "2 2")
        await pilot.press("enter")
        await pilot.pause()
        assert "three numbers" in str(app.screen.query_one("#prompt-error", Label).render())
        await type_text(pilot, " 1")
        await pilot.press("enter")
        await pilot.pause()

        await pilot.press("s")
        await app.settle()
        state = screen.session.state
        assert state.phase == "start"
        assert "Equipment deck: shuffle these 24 cards" in text_of(screen, "#sc-setup")
        order = [s.player for s in state.turn_order()]
        first = order[0]

        # start positions: the first player's 7 is rolled again, then 8 (the Shop);
        # everyone else on the Library (6)
        await pilot.press("m")
        await pilot.pause()
        await type_text(pilot, "13")
        await pilot.press("enter")
        await pilot.pause()
        assert "not a 2d6 sum" in str(app.screen.query_one("#dice-error", Label).render())
        await pilot.press("backspace", "backspace")
        for total in (7, 8):
            await type_text(pilot, str(total))
            await pilot.press("enter")
            await pilot.pause()
        await app.settle()
        assert screen.session.state.seat(first).location == "shop"
        assert screen.session.entries[-1].payload["rolls"] == [7, 8]
        for _pid in order[1:]:
            await enter_dice(app, pilot, 6)
        state = screen.session.state
        assert (state.phase, state.turn, state.step) == ("play", first, "move")
        assert "Round 1" in text_of(screen, "#sc-phase")

        # move: an 8 would stay on the Shop and is rolled again; 6 → the Library
        await enter_dice(app, pilot, 8, 6)
        state = screen.session.state
        assert state.seat(first).location == "library" and state.step == "attack"
        assert screen.session.entries[-1].payload["rolls"] == [8, 6]
        assert "moves to Library" in text_of(screen, "#sc-notices")

        # attack: the dialog lists the targets in range; a typed d100 of 100
        target = state.in_range(first)[0]
        await pilot.press("a")
        await pilot.pause()
        labels = [str(o.prompt) for o in app.screen.query_one(OptionList)._options]
        assert len(labels) == 4 and all("distance 1" in x and "expected" in x for x in labels)
        await choose(app, pilot, target)
        assert isinstance(app.screen, PromptDialog)
        await type_text(pilot, "100")
        await pilot.press("enter")
        await app.settle()
        state = screen.session.state
        report = state.last_attack
        assert (report.attacker, report.target, report.roll) == (first, target, 100)
        assert report.table == state.fighting_character(first).damage_for(100)
        assert state.seat(target).hp == state.character(target).max_hp - report.damage
        assert "d100 100" in text_of(screen, "#sc-attack")
        assert state.turn == order[1]

        # the hidden cards at this table: two Reds are knocked out by an event card
        reds = [p for p in order if p not in (first, target)][:2]
        blues = [first, target]
        neutral = next(p for p in order if p not in reds + blues)
        for red in reds:
            await select_row(pilot, screen, red)
            await pilot.press("h")
            await pilot.pause()
            await type_text(pilot, "-500 ev")
            await pilot.press("enter")
            await app.settle()
            assert not screen.session.state.seat(red).alive
            death = screen.query_one("#sc-death", Static)
            assert "hidden" not in death.classes
            assert "died" in str(death.render())
            await pilot.press("r")
            await choose(app, pilot, "red")
            await app.settle()
        state = screen.session.state
        assert state.phase == "ended" and state.victory.team == "blue"
        assert "the Blue team wins" in text_of(screen, "#sc-victory")
        assert screen.session.outcome is None

        # the final identity entry for everyone still hidden (seating order)
        await pilot.press("v")
        for pid in [p.id for p in screen.session.players]:
            if pid in blues:
                await choose(app, pilot, "blue")
            elif pid == neutral:
                await choose(app, pilot, "neutral")
        await app.settle()
        outcome = screen.session.outcome
        assert outcome is not None and outcome.termination == "team-wipe"
        assert set(outcome.winners) == set(blues)
        banner = screen.query_one("#outcome-banner", Static)
        assert "Blue team wins" in str(banner.render())

        row = app.store.session(screen.session.id)
        replayed = replay_session(row, app.store.entries(row.id))
        assert replayed.outcome == outcome
        await pilot.press("ctrl+q")


async def test_chinese_screen_and_cat_forest_dialog(tmp_path):
    app = make_app(tmp_path / "zh.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(3))
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            app.start_session("shadow-cats", ["安", "博", "西", "迪"], {})
            await app.settle()
            screen = app.screen
            assert "名册：default_roster.toml" in text_of(screen, "#sc-setup")
            await pilot.press("s")
            await app.settle()
            for _ in range(4):
                await enter_dice(app, pilot, 6)
            state = screen.session.state
            assert "第 1 轮" in text_of(screen, "#sc-phase")
            # a 7 is recorded, then offers every other location (a list on its first
            # item); the Cat Forest opens its own dialog
            await pilot.press("m")
            await pilot.pause()
            await type_text(pilot, "7")
            await pilot.press("enter")
            await app.settle()
            await pilot.pause()
            assert screen.session.entries[-1].payload == {
                "type": "move-dice",
                "player": state.turn,
                "rolls": [7],
            }
            choices = app.screen.query_one(OptionList)
            assert choices.option_count == 6 and choices.highlighted == 0
            await choose(app, pilot, "forest")
            await app.settle()
            await pilot.pause()
            assert isinstance(app.screen, ChoiceDialog)
            assert "喵森林" in str(app.screen.query_one(Label).render())
            victim = next(s.player for s in state.seats if s.player != state.turn)
            await choose(app, pilot, f"damage:{victim}")
            await app.settle()
            state = screen.session.state
            assert state.seat(victim).hp == state.character(victim).max_hp - 20
            assert state.step == "attack"
            # a refused action shows the translated message and changes nothing
            before = screen.session.state
            screen.submit({"type": "end-turn", "player": victim})
            await app.settle()
            assert screen.session.state == before
            await pilot.press("ctrl+q")
    finally:
        set_language("en")


def test_sums_used_above_land_where_expected():
    assert (SUMS[8], SUMS[6]) == ("shop", "library")


async def test_host_roster_file_errors_reload_and_undo_to_setup(tmp_path):
    from shadow_helpers import roster_text

    path = tmp_path / "mine.toml"
    path.write_text(roster_text().replace("max_hp = 50", 'max_hp = "lots"', 1), encoding="utf-8")
    app = make_app(tmp_path / "host.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(5))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", NAMES[:4], {"roster_file": str(path)})
        await app.settle()
        screen = app.screen
        setup = text_of(screen, "#sc-setup")
        assert f"{path}: [[character]] #1 (metal): the field max_hp must be a whole number" in setup
        await pilot.press("s")  # nothing to start with
        await app.settle()
        assert screen.session.state.phase == "setup"
        path.write_text(roster_text(), encoding="utf-8")
        await pilot.press("R")
        await app.settle()
        assert "Roster: " + str(path) in text_of(screen, "#sc-setup")
        await pilot.press("s")
        await app.settle()
        state = screen.session.state
        assert state.phase == "start" and state.roster_file == str(path)
        assert screen.session.entries[0].payload["roster"] == path.read_text(encoding="utf-8")
        path.unlink()  # the log carries the text: undo, redo and resume never read the file
        await pilot.press("ctrl+z")
        await app.settle()
        assert screen.session.state.phase == "setup"
        # the screen keeps the roster it read; R would read the (now missing) file again
        assert "Roster: " + str(path) in text_of(screen, "#sc-setup")
        await pilot.press("R")
        await app.settle()
        assert "cannot be read" in text_of(screen, "#sc-setup")
        await pilot.press("ctrl+y")
        await app.settle()
        assert screen.session.state.phase == "start"
        await pilot.press("ctrl+q")
