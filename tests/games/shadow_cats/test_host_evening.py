"""Traps a new host hit on the Shadow Cats screen (issues 12 and 13), one test each.

Each failed before its fix: the draft dealt again on resume; the free-move list
opened with nothing highlighted; a dead character got a distance; 3 3 3 for four
players was accepted by the counts field and refused only at the start; at 100x30
the board was seven empty boxes and one table row; traditional characters showed in
the Simplified UI.
"""

from __future__ import annotations

import random

from textual.widgets import DataTable, Label, OptionList, Static

from companion.games.shadow_cats.screen import ShadowCatsScreen
from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.dialogs import ChoiceDialog, PromptDialog
from tests.screen_text import visible_text

NAMES = ["Ann", "Bo", "Cy", "Di"]
TITLE = "喵窩暗影"
TRADITIONAL = "圖書館專屬傳國櫻時體裝備發窩貓紅龍"
"""Traditional characters whose Simplified form differs (图书馆专属传国樱时体装备发窝猫红龙)."""


def screen_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def type_text(pilot, text):
    for ch in text:
        await pilot.press(ch)


async def start(app, pilot, names=NAMES):
    await pilot.pause()
    app.start_session("shadow-cats", names, {})
    await app.settle()
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ShadowCatsScreen)
    return screen


async def to_play(app, pilot, screen, sums=(6, 6, 6, 6)):
    await pilot.press("s")
    await app.settle()
    for total in sums:
        await pilot.press("m")
        await pilot.pause()
        await type_text(pilot, str(total))
        await pilot.press("enter")
        await app.settle()
    assert screen.session.state.phase == "play"


def column(table: DataTable, label: str) -> int:
    return next(i for i, c in enumerate(table.ordered_columns) if str(c.label) == label)


async def test_the_dealt_draft_survives_leaving_and_resuming(tmp_path):
    db = tmp_path / "sc.sqlite3"
    app = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await start(app, pilot)
        draft = screen.session.state.draft
        assert draft is not None, "the deal is an entry the moment it is made"
        sid = screen.session.id
        await pilot.press("ctrl+q")
    again = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(99))
    async with again.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        again.resume_session(sid)
        await again.settle()
        await pilot.pause()
        assert again.screen.session.state.draft == draft
        await pilot.press("ctrl+q")


async def test_the_free_move_list_opens_on_its_first_item(tmp_path):
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await start(app, pilot)
        await to_play(app, pilot, screen)
        await pilot.press("m")
        await pilot.pause()
        await type_text(pilot, "7")
        await pilot.press("enter")
        await app.settle()
        await pilot.pause()
        lists = [w for w in app.screen.query(OptionList) if w.display and w.option_count]
        assert lists and lists[0].highlighted == 0
        await pilot.press("ctrl+q")


async def test_dead_characters_get_no_distance(tmp_path):
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await start(app, pilot)
        await to_play(app, pilot, screen)
        state = screen.session.state
        victim = next(s.player for s in state.seats if s.player != state.turn)
        screen.submit({"type": "change-hp", "player": victim, "amount": -999, "reason": "ev"})
        await app.settle()
        await pilot.pause()
        table = screen.query_one("#sc-players", DataTable)
        row = table.get_row(victim)
        assert str(row[column(table, "Distance")]).strip() in ("", "—")
        living = next(
            s.player for s in state.seats if s.player not in (victim, screen.session.state.turn)
        )
        assert str(table.get_row(living)[column(table, "Distance")]).strip().isdigit()
        await pilot.press("ctrl+q")


async def test_identity_counts_are_checked_as_they_are_typed(tmp_path):
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(160, 50)) as pilot:
        await start(app, pilot)
        await pilot.press("k")
        await pilot.pause()
        await pilot.press("end", "ctrl+u")
        await type_text(pilot, "3 3 3")
        await pilot.pause()
        error = app.screen.query_one("#prompt-error", Label)
        assert "add up to 9, not 4 players" in str(error.render())
        await pilot.press("enter")
        await pilot.pause()
        assert "add up to 9" in str(app.screen.query_one("#prompt-error", Label).render())
        await pilot.press("ctrl+q")


async def test_the_screen_is_usable_at_100x30_and_80x24(tmp_path):
    for size in ((100, 30), (80, 24)):
        app = make_app(
            tmp_path / f"{size[0]}.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3)
        )
        async with app.run_test(size=size) as pilot:
            screen = await start(app, pilot)
            await to_play(app, pilot, screen)
            text = screen_text(app)
            state = screen.session.state
            for name in NAMES:
                shown = sum(line.count(name) for line in text.splitlines())
                # At 80x24 the ring is drawn flat (a location and how many stand there)
                # so that every player's row fits (issue 22): who stands where is the
                # table's Location column.
                assert shown >= (1 if size == (80, 24) else 2), (size, name)
            assert "Library" in text and "Round 1" in text
            assert f"{state.seat('p1').hp}/" in text
            await pilot.press("ctrl+q")


async def test_the_simplified_ui_shows_no_traditional_characters(tmp_path):
    app = make_app(tmp_path / "zh.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(3))
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            screen = await start(app, pilot, ["安", "博", "西", "迪"])
            texts = [screen_text(app)]
            await to_play(app, pilot, screen)
            texts.append(screen_text(app))
            state = screen.session.state
            screen.submit(
                {
                    "type": "give-item",
                    "player": "p1",
                    "item": state.equipment_deck[0],
                    "reason": "店",
                }
            )
            await app.settle()
            await pilot.pause()
            texts.append(screen_text(app))
            for text in texts:
                shown = text.replace(TITLE, "")
                assert not [c for c in TRADITIONAL if c in shown], shown
            await pilot.press("ctrl+q")
    finally:
        set_language("en")


async def test_help_lists_the_keys_of_the_phase_and_the_rules_in_brief(tmp_path):
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await start(app, pilot)
        await to_play(app, pilot, screen)
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Move / roll" in screen_text(app)
        rules = str(app.screen.query_one("#help-rules").render())
        assert "Red against Blue" in rules and "a 7 lets you choose" in rules
        await pilot.press("escape")
        await pilot.press("ctrl+q")


async def wait_for(pilot, condition, tries: int = 100) -> None:
    """Pause until ``condition()`` holds (a worker's dialog opens a few frames later on
    a loaded machine); the assertion after it says what did not happen."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.02)


def offered(app) -> tuple[list[str | None], int | None]:
    """The open choice dialog's option ids and the highlighted index."""
    assert isinstance(app.screen, ChoiceDialog)
    options = app.screen.query_one(OptionList)
    ids = [options.get_option_at_index(i).id for i in range(options.option_count)]
    return ids, options.highlighted


async def test_identity_dialogs_offer_only_what_the_counts_leave_open(tmp_path):
    """Four players, 2 Red 2 Blue 0 Neutral: a turned card is never offered as Neutral,
    and once both Red are recorded the final entry offers (and opens on) Blue only.
    Failed before: every dialog offered Red, Blue, Neutral and opened on Red."""
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot)
        await to_play(app, pilot, screen)
        state = screen.session.state
        assert state.counts is not None and state.counts.neutral == 0
        victims = [s.player for s in state.seats if s.player != state.turn][:2]
        for victim in victims:
            screen.submit({"type": "change-hp", "player": victim, "amount": -999, "reason": "ev"})
            await app.settle()
            await pilot.press("r")
            await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog))
            assert offered(app) == (["red", "blue"], 0)
            await pilot.press("enter")
            await app.settle()
            await pilot.pause()
        assert screen.session.state.phase == "ended"
        await pilot.press("v")
        hidden = [s.player for s in screen.session.state.seats if s.identity is None]
        for _pid in hidden:
            await wait_for(pilot, lambda: isinstance(app.screen, ChoiceDialog))
            assert offered(app) == (["blue"], 0)
            dialog = app.screen
            await pilot.press("enter")
            await wait_for(pilot, lambda d=dialog: app.screen is not d)
        await app.settle()
        await pilot.pause()
        assert screen.session.state.phase == "over"
        await pilot.press("ctrl+q")


async def test_game_over_at_80x24_shows_every_row_of_the_players_table(tmp_path):
    """Failed before: at 80x24 the ring kept its rows at game over and the players
    table showed its header only, the winners and their identities below the fold."""
    app = make_app(tmp_path / "sc.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(app, pilot)
        await to_play(app, pilot, screen)
        state = screen.session.state
        victims = [s.player for s in state.seats if s.player != state.turn][:2]
        for victim in victims:
            screen.submit({"type": "change-hp", "player": victim, "amount": -999, "reason": "ev"})
            await app.settle()
            screen.submit({"type": "reveal", "player": victim, "identity": "red"})
            await app.settle()
        hidden = [s.player for s in screen.session.state.seats if s.identity is None]
        entries = [{"player": p, "identity": "blue"} for p in hidden]
        screen.submit({"type": "final-identities", "identities": entries})
        await app.settle()
        await pilot.pause()
        assert screen.session.state.phase == "over"
        lines = visible_text(app).splitlines()
        header = next(
            i for i, line in enumerate(lines) if line.split()[:2] == ["Player", "Character"]
        )
        table = lines[header + 1 :]
        for seat in screen.session.state.seats:
            name = screen.session.player(seat.player).name
            team = "Blue" if seat.identity == "blue" else "Red"
            assert any(line.split()[:1] == [name] and team in line for line in table), name
        await pilot.press("ctrl+q")


async def test_an_empty_d100_says_what_to_type_and_changes_nothing(tmp_path):
    """Failed before: an empty enter in the d100 field said "'' is not a d100 roll"."""
    wanted = {
        "en": "Type a number from 1 to 100, or r to roll.",
        "zh": "请输入 1 到 100 的数字，或按 r 掷骰。",
    }
    try:
        for lang, message in wanted.items():
            app = make_app(
                tmp_path / f"{lang}.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3)
            )
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await start(app, pilot)
                await to_play(app, pilot, screen)
                state = screen.session.state
                turn = state.turn
                assert turn is not None
                screen.submit({"type": "move", "player": turn, "rolls": [2]})  # the Kingdom
                await app.settle()
                for seat in state.seats:  # everyone where the attacker is: all in range
                    if seat.player != turn:
                        move = {"type": "relocate", "player": seat.player, "reason": "test"}
                        screen.submit({**move, "location": "kingdom"})
                        await app.settle()
                await pilot.press("a")
                await wait_for(pilot, lambda a=app: isinstance(a.screen, ChoiceDialog))
                await pilot.press("enter")  # the first target
                await wait_for(pilot, lambda a=app: isinstance(a.screen, PromptDialog))
                entries = len(screen.session.entries)
                await pilot.press("enter")  # nothing typed
                label = app.screen.query_one("#prompt-error", Label)
                await wait_for(pilot, lambda w=label: str(w.render()) != "")
                assert isinstance(app.screen, PromptDialog)
                assert str(label.render()) == message
                assert message in visible_text(app)
                assert len(screen.session.entries) == entries
                await pilot.press("escape")
                await pilot.press("ctrl+q")
    finally:
        set_language("en")


async def test_a_location_effect_is_a_sentence_naming_the_player(tmp_path):
    """Failed before: under "Ann moves to Cat Kingdom." the effect was a bare fragment,
    "may draw a Kingdom card" (可抽一张王国牌), naming nobody."""
    wanted = {"en": "{name} may draw a Kingdom card.", "zh": "{name} 可抽一张王国牌。"}
    try:
        for lang, sentence in wanted.items():
            app = make_app(
                tmp_path / f"{lang}.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3)
            )
            async with app.run_test(size=(80, 24)) as pilot:
                screen = await start(app, pilot)
                await to_play(app, pilot, screen)
                turn = screen.session.state.turn
                assert turn is not None
                await pilot.press("m")
                await pilot.pause()
                await type_text(pilot, "2")  # the Cat Kingdom
                await pilot.press("enter")
                await app.settle()
                await pilot.pause()
                assert screen.session.state.seat(turn).location == "kingdom"
                notices = str(screen.query_one("#sc-notices", Static).render()).splitlines()
                name = screen.session.player(turn).name
                assert sentence.format(name=name) in notices, notices
                await pilot.press("ctrl+q")
    finally:
        set_language("en")
