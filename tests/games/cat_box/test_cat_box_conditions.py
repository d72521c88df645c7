"""Each tease-condition word, true and false; the grammar; and its errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.cat_box.rules.conditions import WORD_NAMES, WORDS, ConditionError, meets, parse

CASES = [
    # (condition, dice that meet it, dice that do not)
    ("any", (1, 2, 3), None),
    ("pair", (4, 4, 1), (1, 2, 3, 5)),
    ("two-pairs", (2, 2, 5, 5, 1), (5, 5, 5, 5, 1)),
    ("three-of-a-kind", (3, 3, 3, 1), (3, 3, 1, 1)),
    ("four-of-a-kind", (6, 6, 6, 6), (6, 6, 6, 5)),
    ("five-of-a-kind", (2, 2, 2, 2, 2), (2, 2, 2, 2, 1)),
    ("kind:6", (1,) * 6, (1,) * 5 + (2,)),
    ("full-house", (4, 4, 4, 1, 1), (4, 4, 4, 4, 4)),
    ("straight:3", (2, 4, 3), (1, 2, 4)),
    ("straight:6", (1, 2, 3, 4, 5, 6), (1, 2, 3, 4, 5, 5)),
    ("has:6", (1, 6, 2), (1, 5, 2)),
    ("has:6,6", (6, 2, 6), (6, 2, 5)),
    ("has:1,6", (1, 3, 6), (1, 3, 5)),
    ("no:1", (2, 3, 4), (2, 3, 1)),
    ("no:1,2", (3, 4, 5), (3, 4, 2)),
    ("distinct:4", (1, 2, 3, 4), (1, 2, 3, 3)),
    ("all-different", (1, 2, 6), (1, 2, 2)),
    ("all-odd", (1, 3, 5, 5), (1, 3, 4)),
    ("all-even", (2, 4, 6), (2, 4, 5)),
    ("sum>=12", (6, 6, 1, 1), (5, 5, 1)),
    ("sum<=6", (1, 2, 3), (1, 2, 4)),
    ("sum=7", (1, 2, 4), (1, 2, 5)),
    ("pair & sum>=10", (5, 5, 1), (2, 2, 1)),
    ("pair & sum>=10", (5, 5, 1), (6, 5, 1)),
    ("all-odd | all-even", (2, 4, 6), (1, 2, 3)),
    ("all-odd|has:6 & pair", (6, 6, 2), (6, 5, 2)),
]


@pytest.mark.parametrize(("text", "yes", "no"), CASES)
def test_each_word_true_and_false(
    text: str, yes: tuple[int, ...], no: tuple[int, ...] | None
) -> None:
    assert meets(text, yes) is True
    if no is not None:
        assert meets(text, no) is False


def test_every_documented_word_is_tested() -> None:
    tested = {
        text.split(":")[0].split(">")[0].split("<")[0].split("=")[0]
        for text, _, _ in CASES
        if "&" not in text and "|" not in text
    }
    assert tested == WORD_NAMES


def test_and_binds_tighter_than_or() -> None:
    # "a | b & c" is a | (b & c): all-odd alone suffices.
    assert meets("all-odd | has:6 & pair", (1, 3, 5))
    assert not meets("all-odd | has:6 & pair", (6, 1, 2))


def test_spaces_are_ignored() -> None:
    assert parse(" sum >= 12 ").alternatives == parse("sum>=12").alternatives


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("triple", "unknown word 'triple'"),
        ("Pair", "unknown word 'Pair'"),
        ("pair:2", "unknown word 'pair:2'"),
        ("sum>12", "unknown word 'sum>12'"),
        ("straight:7", "'straight:7' needs a number from 2 to 6"),
        ("straight:x", "'straight:x' needs a number from 2 to 6"),
        ("kind:1", "'kind:1' needs a number from 2 to 30"),
        ("distinct:0", "'distinct:0' needs a number from 1 to 6"),
        ("sum>=999", "'sum>=999' needs a number from 0 to 200"),
        ("has:7", "'has:7' needs pips from 1 to 6"),
        ("has:", "'has:' needs pips from 1 to 6"),
        ("no:1,,2", "'no:1,,2' needs pips from 1 to 6"),
        ("", "the condition is empty"),
        ("pair &", "has an empty term"),
        ("| pair", "has an empty term"),
    ],
)
def test_bad_conditions_name_the_word(text: str, needle: str) -> None:
    with pytest.raises(ConditionError) as err:
        parse(text)
    assert needle in str(err.value)


def test_every_word_has_a_meaning_and_a_working_example() -> None:
    for word in WORDS:
        assert word.meaning and word.syntax
        parse(word.example)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=3, max_size=12))
def test_words_agree_with_plain_counting(dice: list[int]) -> None:
    counts = {p: dice.count(p) for p in range(1, 7)}
    assert meets("pair", dice) == (max(counts.values()) >= 2)
    assert meets("all-different", dice) == (len(set(dice)) == len(dice))
    assert meets("distinct:3", dice) == (len(set(dice)) >= 3)
    assert meets("sum>=15", dice) == (sum(dice) >= 15)
    assert meets("straight:3", dice) == any({s, s + 1, s + 2} <= set(dice) for s in range(1, 5))
    assert meets("any", dice)
