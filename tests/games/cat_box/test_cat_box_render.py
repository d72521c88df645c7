"""What the screen draws, without a screen: condition labels, dice parsing, notices, cards."""

from __future__ import annotations

import pytest
from cat_box_helpers import card, card_set, dealt, play, with_tokens

from companion.games.cat_box.manual import parse_dice
from companion.games.cat_box.render import (
    card_panel,
    check_lines,
    condition_label,
    notices_text,
    pieces_text,
)
from companion.games.cat_box.rules import AdjustTokens, Retire, Roll
from companion.games.cat_box.view import card_view, player_rows
from companion.i18n import set_language


@pytest.fixture
def zh():
    set_language("zh")
    yield
    set_language("en")


def test_condition_labels_in_both_languages(zh: None) -> None:
    assert condition_label("pair & sum>=12") == "对子 + 和 ≥ 12"
    assert condition_label("all-odd | all-even") == "全奇数 或 全偶数"
    assert condition_label("straight:4") == "4连顺"
    set_language("en")
    assert condition_label("pair & sum>=12") == "a pair + sum ≥ 12"
    assert condition_label("has:6,6") == "has 6,6"
    assert condition_label("triple") == "triple"  # unparsable text is shown as written


def testparse_dice() -> None:
    assert parse_dice("245 63") == ((2, 4, 5), (6, 3))
    assert parse_dice("2,4,5/6") is None  # one group of common dice, then the player dice
    assert parse_dice("245/6") == ((2, 4, 5), (6,))
    for bad in ("24 6", "245", "245 7", "245 0", "abc 1", "245 1234567", ""):
        assert parse_dice(bad) is None, bad


def test_owned_tokens_as_big_and_small_pieces() -> None:
    state = play(dealt(), AdjustTokens("p1", 12, "x"), AdjustTokens("p2", 5, "x"))
    ann, bo, cy, _di = player_rows(state)
    assert str(pieces_text(ann)) == "■■ ▪▪ = 12"
    assert str(pieces_text(bo)) == "■ = 5"
    assert str(pieces_text(cy)) == "= 0"


def test_card_panel_marks_met_allowed_and_too_hot_slots() -> None:
    cards = card_set(card("c7", 17, ("pair", "has:6")))
    state = with_tokens(dealt(cards=cards), "c7", (), ("p1",))
    state = play(state, Roll("p1", (6, 6, 1), (4, 4)))  # total 8: above 6 and 7
    check = state.pending_check()
    assert check is not None
    text = str(card_panel(card_view(state, "c7"), "en"))
    assert "hiss 17" in text and "→1 a pair" in text and "✓2 has 6" in text
    assert "too hot" in str(card_panel(card_view(state, "s6"), "en"))
    # the board's view has no marks of the host's roll check
    plain = str(card_panel(card_view(state, "c7", marks=False), "en"))
    assert "→" not in plain and "✓" not in plain and "hiss 17" in plain
    lines = str(check_lines(state, check, "en"))
    assert "No bust." in lines and "C7 1" in lines


def test_bust_line_names_the_cards_and_the_retired(zh: None) -> None:
    state = with_tokens(dealt(), "s6", ("p2",), ())
    state = play(state, Retire("p1"), Roll("p2", (1, 1, 1), (6, 6)))
    check = state.pending_check()
    assert check is not None and check.bust
    lines = str(check_lines(state, check, "zh"))
    assert "哈气！" in lines and "S6（6）" in lines and "Ann" in lines
    assert "第 1 轮开始" in str(notices_text(dealt(), "zh"))


def test_roll_dialog_choices_normal_and_override() -> None:
    from types import SimpleNamespace

    from companion.games.cat_box.dialogs import RollDialog

    cards = card_set(card("c7", 17, ("pair", "has:6")))
    state = with_tokens(dealt(cards=cards), "c6", ("p1",), ())
    state = play(state, Roll("p1", (1, 2, 3), (4, 4)))  # total 8: s6 and s7 too hot
    dialog = RollDialog(SimpleNamespace(box=state, lang="en"), "p1")  # type: ignore[arg-type]
    assert dialog.stage == "place" and dialog.rolled == [4, 4]  # the committed roll
    normal = {(card_id, slot) for _, card_id, slot in dialog.choices()}
    assert normal == {("c7", 1), ("c6", 2)}  # the pair; c6 slot 1 holds p1's token
    dialog.reason, dialog.stage = "table mistake", "override"  # as _ask_override sets them
    forced = {(card_id, slot) for _, card_id, slot in dialog.choices()}
    assert forced == {("c7", 1), ("c7", 2), ("c6", 2)}  # each tried with the reason
    assert [key for key, _, _ in dialog.choices()] == ["1", "2", "3"]


def test_the_rolls_slots_and_won_cards_are_listed_in_chinese(zh: None) -> None:
    """``骰子满足：橘猫 1、橘猫 2`` and ``橘猫（3）、…``: the lists of slots and of won
    cards read as Chinese lists (they were joined with an ASCII ", " and "(3)")."""
    from companion.games.cat_box.render import won_text
    from companion.games.cat_box.view import WonCard

    cards = card_set(card("c7", 17, ("pair", "has:6")))
    state = play(dealt(cards=cards), Roll("p1", (6, 6, 1), (4, 4)))
    check = state.pending_check()
    assert check is not None and len(check.met) >= 2
    lines = str(check_lines(state, check, "zh"))
    assert "C7 1、C7 2" in lines, lines
    shown = card_view(state, "c7")
    won = [WonCard(shown.name, 3), WonCard(shown.name, 4)]
    assert won_text(won, "zh") == f"{shown.name.text('zh')}（3）、{shown.name.text('zh')}（4）"
