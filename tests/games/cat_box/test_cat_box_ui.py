"""Pilot: Cat Box through the keys — a 4-player game to the end of the deck, both languages."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from textual.widgets import Static

from companion.games.cat_box.dialogs import RollDialog
from companion.games.cat_box.rules import GAME, CatBoxState
from companion.games.cat_box.screen import CatBoxScreen
from companion.session.clock import ManualClock
from companion.session.export import (
    dumps_document,
    parse_document,
    replay_session,
    session_document,
)
from companion.ui.app import make_app
from companion.widgets.key_choice import KeyChoiceDialog
from tests.screen_text import visible_text

SIZE = (160, 50)
NAMES = ["Ann", "Bo", "Cy", "Di"]
MAX_TURNS = 60


def text_of(screen: CatBoxScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def take_turn(app, pilot, screen: CatBoxScreen) -> None:
    """One turn by the keys, the way a careful host plays: open if you can, else roll."""
    state: CatBoxState = screen.session.state
    pid = state.current
    assert pid is not None
    if state.openable(pid):
        await pilot.press("o")
        assert isinstance(app.screen, KeyChoiceDialog)
        await pilot.press("1")
        await app.settle()
        return
    if sum(state.seat(pid).held) >= 9:
        await pilot.press("t")
        await app.settle()
        return
    await pilot.press("r")
    dialog = app.screen
    assert isinstance(dialog, RollDialog)
    await pilot.press("r")  # the companion rolls: 3 common dice and 1 player die
    await app.settle()
    # The roll is on record at once (a kill now cannot give a free re-roll) ...
    pending = screen.session.state.pending
    assert pending is not None and (list(pending.common), list(pending.rolled)) == (
        dialog.common,
        dialog.rolled,
    )
    check = dialog.check()
    assert check is not None
    # ... and the answer is on the dialog before anything is placed.
    shown = str(dialog.query_one("#roll-check", Static).render())
    if check.bust:
        assert "BUST" in shown
    elif check.overwhelmed:
        assert "FAQ 6" in shown
    else:
        assert "No bust." in shown
    if not check.may_place:
        await pilot.press("enter")
    elif check.allowed:
        # prefer a card nobody is on yet (a box of one's own opens sooner)
        choices = dialog.choices()
        empty = [key for key, card, _slot in choices if not state.displayed(card).holders()]  # type: ignore[union-attr]
        await pilot.press(empty[0] if empty else choices[0][0])
    else:
        await pilot.press("n")
    await app.settle()


def quick_cards(path: Path) -> Path:
    """A host's own card file made for a short game: one free slot per card, high hiss.

    (Rendering a 160×50 screen per key costs about a second on the test machine, so
    the full game through the keys uses cards that empty the deck in a few rounds.)
    """
    lines = ['[set]\nname = "Quick test cards"\nname_zh = "快速测试牌"\n']
    for n in range(1, 10):
        lines.append(
            f'[[card]]\nid = "q{n}"\nname = "Quick {n}"\nhiss = {39 + n}\n'
            f"score = 1\nstart = {'true' if n <= 2 else 'false'}\n"
            f'slots = ["any"]\nenvy = {{ pip = 6, text = "none" }}\n'
        )
    path.write_text("\n".join(lines), "utf-8")
    return path


async def test_four_players_to_the_end_of_the_deck(tmp_path: Path) -> None:
    app = make_app(tmp_path / "cb.db", lang="en", clock=ManualClock(), rng=random.Random(2))
    cards = quick_cards(tmp_path / "quick.toml")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("cat-box", NAMES, {"start_player": "p1", "card_file": str(cards)})
        await app.settle()
        screen = app.screen
        assert isinstance(screen, CatBoxScreen)
        state: CatBoxState = live.state
        assert state.dealt and len(state.display) == 4 and len(state.deck) == 5
        assert "Quick test cards" in text_of(screen, "#cb-banner")
        rounds_seen = {1}
        for _ in range(MAX_TURNS):
            if live.outcome is not None:
                break
            await take_turn(app, pilot, screen)
            rounds_seen.add(live.state.round)
            if live.state.last_round and live.outcome is None:
                assert "LAST ROUND" in text_of(screen, "#cb-banner")
        state = live.state
        assert live.outcome is not None and state.ended == "deck-empty", state.ended
        assert state.deck == () and len(rounds_seen) > 1
        assert "Game over" in text_of(screen, "#outcome-banner")
        assert live.outcome.render() in text_of(screen, "#outcome-banner")
        # ctrl+z brings the game back; ctrl+y ends it again
        await pilot.press("ctrl+z")
        await app.settle()
        assert live.outcome is None
        await pilot.press("ctrl+y")
        await app.settle()
        assert live.outcome is not None
        row, entries = app.store.session(live.id), app.store.entries(live.id)
    [(row2, entries2)] = parse_document(dumps_document(session_document(row, entries)))
    assert replay_session(row2, entries2).outcome == GAME.outcome(state)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_roll_dialog_shows_the_answer_while_typing(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "cb.db", lang=lang, clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("cat-box", NAMES, {"start_player": "p1"})
        await app.settle()
        screen = app.screen
        assert isinstance(screen, CatBoxScreen)
        banner = text_of(screen, "#cb-banner")
        assert ("Round 1" in banner) if lang == "en" else ("第 1 轮" in banner)
        await pilot.press("r")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, RollDialog)
        await pilot.press("9")  # no die: refused with a message next to the dice
        await pilot.pause()
        assert dialog.common == []
        said = str(dialog.query_one("#roll-message", Static).render())
        assert "9" in said and ("1 to 6" in said if lang == "en" else "1 到 6" in said)
        await pilot.press("1", "1", "2", "6", "6")
        await pilot.pause()
        assert dialog.common == [1, 1, 2] and dialog.rolled == [6, 6]
        assert str(dialog.query_one("#roll-message", Static).render()) == ""
        shown = str(dialog.query_one("#roll-check", Static).render())
        # 12 is above the hiss-6 and hiss-7 start cards: no token may go there
        assert "12" in shown
        await pilot.press("backspace")
        await pilot.pause()
        assert dialog.rolled == [6]
        await pilot.press("enter")  # the typed roll is committed now, before placing
        await app.settle()
        assert [e.payload["type"] for e in live.entries] == ["deal", "roll"]
        assert "[1] " in visible_text(app)  # the slot choices, in columns
        await pilot.press("1")
        await app.settle()
        state: CatBoxState = live.state
        assert state.placed("p1") == 1 and state.current == "p2"
        notice = text_of(screen, "#cb-notice")
        assert ("placed a token" in notice) if lang == "en" else ("放置了指示物" in notice)
        # retire by its key, and an illegal key press (opening with nothing full) is refused
        await pilot.press("t")
        await app.settle()
        assert live.state.seat("p2").status == "retired"
        await pilot.press("o")
        await app.settle()
        assert not isinstance(app.screen, KeyChoiceDialog)


async def test_a_bad_card_file_is_reported_and_nothing_is_dealt(tmp_path: Path) -> None:
    bad = tmp_path / "ours.toml"
    bad.write_text('[set]\nname = "x"\n[[card]]\nid = "a"\n', "utf-8")
    app = make_app(tmp_path / "cb.db", lang="en", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("cat-box", NAMES, {"card_file": str(bad)})
        await app.settle()
        screen = app.screen
        assert isinstance(screen, CatBoxScreen)
        assert not live.state.dealt and live.entries == []
        assert "ours.toml" in text_of(screen, "#message-line")
        bad.write_text(bad.read_text("utf-8").replace('id = "a"', 'id = "a"\nname = "A"'), "utf-8")
        from companion.games.cat_box.prepare import default_card_text

        bad.write_text(default_card_text(), "utf-8")
        await pilot.press("d")
        await app.settle()
        assert live.state.dealt and live.state.source == str(bad)


async def type_text(pilot, text: str) -> None:
    for char in text:
        await pilot.press("space" if char == " " else char)


async def test_envy_and_manual_changes_through_the_keys(tmp_path: Path) -> None:
    from companion.widgets.dialogs import PromptDialog

    app = make_app(tmp_path / "cb.db", lang="en", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("cat-box", NAMES, {"start_player": "p1"})
        await app.settle()
        assert live.state.display[0].card == "orange"  # its envy triggers on a 1
        await pilot.press("r", "2", "3", "4", "1", "enter", "e")  # keep the roll open
        await app.settle()
        assert live.state.pending is not None and live.state.pending.rolled == (1,)
        assert "Open roll" in text_of(app.screen, "#cb-roll")
        await pilot.press("v")
        assert isinstance(app.screen, KeyChoiceDialog)
        await pilot.press("1")
        await app.settle()
        assert live.state.pending.envy is not None
        await pilot.press("m", "d")
        assert isinstance(app.screen, PromptDialog)
        await type_text(pilot, "234 5")
        await pilot.press("enter")
        await type_text(pilot, "orange envy")
        await pilot.press("enter")
        await app.settle()
        assert live.state.pending.rolled == (5,) and live.state.pending.adjusted == "orange envy"
        await pilot.press("p")
        assert isinstance(app.screen, RollDialog)
        await pilot.press("n")
        await app.settle()
        assert live.state.pending is None and live.state.seat("p1").held == (5,)
        await pilot.press("m", "t", "2")
        await type_text(pilot, "2")
        await pilot.press("enter")
        await type_text(pilot, "tuxedo envy")
        await pilot.press("enter")
        await app.settle()
        assert live.state.seat("p2").owned == 2
        kinds = [e.payload["type"] for e in live.entries]
        assert kinds == ["deal", "roll", "envy", "set-dice", "pass", "adjust-tokens"]
