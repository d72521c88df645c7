"""Card files: the shipped default set, and every validation error naming file, card, field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.cat_box.prepare import (
    deal_for,
    default_card_text,
    load_card_set,
    make_deal,
)
from companion.games.cat_box.rules import GAME, Deal, check_card_set, parse_card_file
from companion.rules.base import DataFileError

FILE = "my_cards.toml"


def card_text(
    card_id: str,
    hiss: int,
    start: bool = False,
    extra: str = "",
    slots: str = '["pair", "has:6"]',
    envy: str = '{ pip = 2, text = "Gain 1." }',
) -> str:
    return (
        f'[[card]]\nid = "{card_id}"\nname = "Cat {card_id}"\nhiss = {hiss}\nscore = 2\n'
        f"start = {str(start).lower()}\nslots = {slots}\nenvy = {envy}\n{extra}\n"
    )


def set_text(
    first: str | None = None, header: str = '[set]\nname = "Mine"\n', count: int = 9
) -> str:
    cards = [card_text("a", 6, start=True), card_text("b", 7, start=True)]
    cards += [card_text(f"x{n}", 8 + n) for n in range(count - 2)]
    if first is not None:
        cards[0] = first
    return header + "\n" + "\n".join(cards)


def error_of(text: str) -> str:
    with pytest.raises(DataFileError) as err:
        parse_card_file(text, FILE)
    message = str(err.value)
    assert message.startswith(FILE), message
    return message


# --------------------------------------------------------------------------- the default


def test_default_set_is_labelled_playable_and_has_the_start_cards() -> None:
    cards, source = load_card_set("")
    assert source == "default"
    assert cards.default is True
    assert "default" in cards.name.lower() and "默认" in cards.name_zh
    assert "DEFAULT" in default_card_text()
    assert len(cards.cards) == 9
    assert sorted(c.hiss for c in cards.cards if c.start) == [6, 7]
    for c in cards.cards:
        assert c.name_zh and c.envy.text_zh and 1 <= len(c.slots) <= 6


def test_a_valid_file_parses() -> None:
    cards = parse_card_file(set_text(), FILE)
    assert [c.id for c in cards.cards][:2] == ["a", "b"]
    assert cards.default is False
    assert cards.card("a").slots == ("pair", "has:6")
    assert cards.card("a").envy.pip == 2


def test_host_file_is_read_and_recorded_in_the_deal(tmp_path: Path) -> None:
    import random

    path = tmp_path / FILE
    path.write_text(set_text(), "utf-8")
    cards, source = load_card_set(str(path))
    assert source == str(path)
    from companion.rules.base import seat_players

    players = seat_players(["A", "B", "C"])
    deal = deal_for(players, {"card_file": str(path), "start_player": "p2"}, random.Random(1))
    assert deal.card_set == cards and deal.start == "p2" and deal.source == str(path)
    assert sorted(deal.deck) == sorted(c.id for c in cards.cards if not c.start)
    # The log holds the parsed set: editing the file afterwards cannot change a replay.
    as_json = GAME.parse_action(
        __import__("companion.rules.base", fromlist=["x"]).action_to_json(deal)
    )
    path.write_text("broken", "utf-8")
    assert as_json == deal


def test_make_deal_uses_the_given_rng_only() -> None:
    import random

    from companion.rules.base import seat_players

    cards, _ = load_card_set(None)
    players = seat_players(["A", "B", "C", "D"])
    one = make_deal(cards, players, "random", random.Random(7))
    two = make_deal(cards, players, "random", random.Random(7))
    assert one == two and isinstance(one, Deal)


# --------------------------------------------------------------------------- file errors


@pytest.mark.parametrize(
    ("text", "needles"),
    [
        ("[set\nname=1", ["not valid TOML"]),
        (set_text() + "\n[extra]\nx = 1\n", ["unknown table or key 'extra'"]),
        ('set = 3\n[[card]]\nid="a"', ["[set] must be a table"]),
        (
            set_text(header='[set]\nname = "M"\ncolour = "red"\n'),
            ["[set]", "unknown field 'colour'"],
        ),
        (set_text(header="[set]\n"), ["[set]", "missing field 'name'"]),
        (set_text(header="[set]\nname = 3\n"), ["[set]", "'name' must be text"]),
        (set_text(header='[set]\nname = " "\n'), ["[set]", "'name' must not be empty"]),
        (
            set_text(header='[set]\nname = "M"\ndefault = "yes"\n'),
            ["'default' must be true or false"],
        ),
        ('card = 3\n[set]\nname = "M"\n', ["the cards must be [[card]] tables"]),
        ('[set]\nname = "M"\n', ["the cards must be [[card]] tables"]),
        (
            set_text(card_text("a", 6, True, extra='colour = "red"')),
            ["[[card]] a", "unknown field 'colour'"],
        ),
        (
            set_text(card_text("a", 6, True, envy='{ pip = 2, text = "x", when = 1 }')),
            ["[[card]] a", "unknown field 'envy.when'"],
        ),
        (
            set_text(card_text("a", 6, True).replace('id = "a"\n', "")),
            ["[[card]] #1", "missing field 'id'"],
        ),
        (
            set_text(card_text("a", 6, True).replace('id = "a"', 'id = "a b"')),
            ["[[card]] #1", "'id' must be 1 to 40 letters"],
        ),
        (
            set_text(card_text("a", 6, True).replace('id = "a"', "id = 5")),
            ["[[card]] #1", "'id' must be text"],
        ),
        (set_text(card_text("b", 6, True)), ["[[card]] b", "the id 'b' is used twice"]),
        (
            set_text(card_text("a", 6, True).replace('name = "Cat a"\n', "")),
            ["[[card]] a", "missing field 'name'"],
        ),
        (
            set_text(card_text("a", 6, True).replace('name = "Cat a"', 'name = ""')),
            ["[[card]] a", "'name' must not be empty"],
        ),
        (
            set_text(card_text("a", 6, True).replace("hiss = 6\n", "")),
            ["[[card]] a", "missing field 'hiss'"],
        ),
        (
            set_text(card_text("a", 6, True).replace("hiss = 6", 'hiss = "6"')),
            ["[[card]] a", "'hiss' must be a whole number"],
        ),
        (
            set_text(card_text("a", 6, True).replace("hiss = 6", "hiss = true")),
            ["[[card]] a", "'hiss' must be a whole number"],
        ),
        (set_text(card_text("a", 0, True)), ["[[card]] a", "'hiss' must be from 1 to 99, not 0"]),
        (
            set_text(card_text("a", 6, True).replace("score = 2", "score = -1")),
            ["[[card]] a", "'score' must be from 0 to 99, not -1"],
        ),
        (
            set_text(card_text("a", 6, True).replace("score = 2", "score = 1.5")),
            ["[[card]] a", "'score' must be a whole number"],
        ),
        (
            set_text(card_text("a", 6, True).replace("start = true", 'start = "yes"')),
            ["[[card]] a", "'start' must be true or false"],
        ),
        (set_text(card_text("a", 6, True, envy="3")), ["[[card]] a", "'envy' must be a table"]),
        (
            set_text(card_text("a", 6, True).replace("envy = ", "xenvy = ")),
            ["[[card]] a", "unknown field 'xenvy'"],
        ),
        (
            set_text(card_text("a", 6, True).replace('envy = { pip = 2, text = "Gain 1." }\n', "")),
            ["[[card]] a", "missing field 'envy'"],
        ),
        (
            set_text(card_text("a", 6, True, envy='{ text = "x" }')),
            ["[[card]] a", "missing field 'envy.pip'"],
        ),
        (
            set_text(card_text("a", 6, True, envy='{ pip = 7, text = "x" }')),
            ["[[card]] a", "'envy.pip' must be from 1 to 6, not 7"],
        ),
        (
            set_text(card_text("a", 6, True, envy="{ pip = 2 }")),
            ["[[card]] a", "missing field 'envy.text'"],
        ),
        (
            set_text(card_text("a", 6, True, envy='{ pip = 2, text = "  " }')),
            ["[[card]] a", "'envy.text' must not be empty"],
        ),
        (
            set_text(card_text("a", 6, True, envy='{ pip = 2, text = "x", text_zh = 1 }')),
            ["[[card]] a", "'envy.text_zh' must be text"],
        ),
        (
            set_text(card_text("a", 6, True).replace("slots = ", "xslots = ")),
            ["[[card]] a", "unknown field 'xslots'"],
        ),
        (set_text(card_text("a", 6, True, slots="[]")), ["[[card]] a", "1 to 6 slots, not 0"]),
        (
            set_text(card_text("a", 6, True, slots='["any","any","any","any","any","any","any"]')),
            ["[[card]] a", "1 to 6 slots, not 7"],
        ),
        (
            set_text(card_text("a", 6, True, slots='"pair"')),
            ["[[card]] a", "'slots' must be a list of texts"],
        ),
        (
            set_text(card_text("a", 6, True, slots="[1, 2]")),
            ["[[card]] a", "'slots' must be a list of texts"],
        ),
        (
            set_text(card_text("a", 6, True, slots='["pair", "triple"]')),
            ["[[card]] a", "slot 2", "unknown tease condition word 'triple'"],
        ),
        (
            set_text(card_text("a", 6, True, slots='["straight:9"]')),
            ["[[card]] a", "slot 1", "'straight:9' needs a number from 2 to 6"],
        ),
        (
            set_text(card_text("a", 6, True, slots='["has:0"]')),
            ["[[card]] a", "slot 1", "'has:0' needs pips from 1 to 6"],
        ),
        (
            set_text(card_text("a", 6, True, slots='[" "]')),
            ["[[card]] a", "slot 1", "the condition is empty"],
        ),
        (
            set_text(card_text("a", 6, True, slots='["pair & "]')),
            ["[[card]] a", "slot 1", "has an empty term"],
        ),
        (set_text(count=8), ["a card set has 9 cards, not 8"]),
        (set_text(count=10), ["a card set has 9 cards, not 10"]),
        (set_text(card_text("a", 6, False)), ["exactly 2 cards must have start = true, not 1"]),
    ],
)
def test_every_validation_error_names_file_card_and_field(text: str, needles: list[str]) -> None:
    message = error_of(text)
    for needle in needles:
        assert needle in message, message


def test_errors_render_in_chinese() -> None:
    from companion.i18n import catalog

    with pytest.raises(DataFileError) as err:
        parse_card_file(set_text(card_text("a", 6, True, slots='["triple"]')), FILE)
    zh = err.value.render(catalog("zh").gettext)
    assert FILE in zh and "triple" in zh and "[[card]] a" in zh
    assert zh != str(err.value)


def test_loader_errors_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="no such card file"):
        load_card_set(str(tmp_path / "nope.toml"))
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'name = "\xe9"')
    with pytest.raises(DataFileError, match=r"latin\.toml: a card file must be UTF-8"):
        load_card_set(str(latin))
    with pytest.raises(DataFileError, match="cannot read it"):
        load_card_set(str(tmp_path))
    bad = tmp_path / "bad.toml"
    bad.write_text(set_text(count=3), "utf-8")
    with pytest.raises(DataFileError, match=r"^bad\.toml: a card set has 9 cards"):
        load_card_set(str(bad))


def test_a_deal_carrying_a_bad_set_is_refused_like_the_file() -> None:
    from dataclasses import replace

    from cat_box_helpers import card_set, new_game

    cards = card_set()
    broken = replace(cards, cards=(replace(cards.cards[0], slots=("triple",)), *cards.cards[1:]))
    with pytest.raises(DataFileError, match="unknown tease condition word 'triple'"):
        GAME.apply(
            new_game(),
            Deal(broken, ("c1", "c2", "c3", "c4", "c5", "c6", "c7"), "p1", "edited.json"),
        )
    check_card_set(cards, "ok")
