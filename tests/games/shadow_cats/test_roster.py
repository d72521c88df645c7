"""The roster file: the shipped default, and every validation error naming file/entry/field."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest
from shadow_helpers import PLAIN_TABLE, character, default_text, roster_text, sample_characters

from companion.games.shadow_cats.rules.roster import DamageRow, expected_table_damage, parse_roster
from companion.rules.base import DataFileError

SOURCE_CHARACTERS = {
    # name: (nation, element) as the source lists them
    "可瑤": ("kingdom", "earth"),
    "小R": ("kingdom", "wood"),
    "宇小貓": ("kingdom", "water"),
    "小布": ("kingdom", "fire"),
    "諾莉": ("kingdom", "water"),
    "戴亞": ("kingdom", "water"),
    "啊貓": ("kingdom", "fire"),
    "雷斯祈": ("kingdom", "metal"),
    "楓": ("sakura", "wood"),
    "香": ("sakura", "earth"),
    "小紅": ("sakura", "earth"),
    "蘭喵": ("sakura", "metal"),
    "斷翼": ("sakura", "water"),
    "JTR": ("sakura", "fire"),
    "蜜茶": ("sakura", "wood"),
    "小幽": ("sakura", "fire"),
    "蒼守": ("demon", "water"),
    "高速": ("demon", "metal"),
    "嬌嬌": ("demon", "earth"),
    "幻龍": ("demon", "fire"),
    "靜貓": ("demon", "metal"),
    "獵奇喵": ("demon", "earth"),
    "丑時": ("demon", "none"),
}


def test_default_roster_holds_the_sources_23_characters():
    roster = parse_roster(default_text(), "default_roster.toml")
    found = {c.name: (c.nation, c.element) for c in roster.characters}
    assert found == SOURCE_CHARACTERS
    assert "DEFAULT" in default_text() and "placeholder" in roster.note
    assert roster.character("choushi").copies
    assert roster.warnings() == ()  # printed attacks match the tables
    for c in roster.characters:
        assert sum(row.faces for row in c.damage) == 100
        kinds = sorted(i.kind for i in roster.items if i.owner == c.id)
        assert kinds == ["armour", "weapon"]
    for n in range(4, 11):
        counts = roster.counts_for(n)
        assert counts is not None and counts.total == n and counts.red >= 1
    assert roster.outer_colours == ("red", "red", "green", "green", "blue", "blue")
    assert roster.centre_colour == "brown"


def test_default_profiles_are_balanced_within_reason():
    roster = parse_roster(default_text(), "default_roster.toml")
    # HP × expected damage × (1 + range/2): within 2% (the file header says so)
    power = {
        c.id: c.max_hp * c.expected_damage * (1 + Fraction(c.range, 2)) for c in roster.characters
    }
    assert max(power.values()) / min(power.values()) < Fraction(102, 100)


def test_expected_damage_and_printed_attack_mismatch():
    rows = (DamageRow(1, 50, None), DamageRow(51, 100, 10))
    assert expected_table_damage(rows) == 5
    assert expected_table_damage(rows, 3) == Fraction(13 * 50, 100)
    assert expected_table_damage(rows, -20) == 0
    chars = sample_characters()
    chars[0] = character("metal", "metal", attack=99)
    roster = parse_roster(roster_text(chars), "mine.toml")
    assert roster.warnings() == (("metal", "99", Fraction(15)),)


def mutate(change):
    """A roster text with one change applied to the first character's dict."""
    chars = copy.deepcopy(sample_characters())
    change(chars[0])
    return roster_text(chars)


def table(*rows):
    return [{"from": a, "to": b, "damage": d} for a, b, d in rows]


CASES = [
    # (text, entry, field, words)
    (mutate(lambda c: c.pop("max_hp")), "[[character]] #1 (metal)", "max_hp", "is missing"),
    (mutate(lambda c: c.pop("id")), "[[character]] #1", "id", "is missing"),
    (mutate(lambda c: c.update(element="lightning")), "(metal)", "element", "lightning"),
    (mutate(lambda c: c.update(nation="mars")), "(metal)", "nation", "mars"),
    (mutate(lambda c: c.update(max_hp="ten")), "(metal)", "max_hp", "whole number"),
    (mutate(lambda c: c.update(max_hp=0)), "(metal)", "max_hp", "between 1"),
    (mutate(lambda c: c.update(range=4)), "(metal)", "range", "between 1 and 3"),
    (mutate(lambda c: c.update(name=5)), "(metal)", "name", "must be text"),
    (mutate(lambda c: c.update(name=" ")), "(metal)", "name", "is empty"),
    (mutate(lambda c: c.update(max_HP=3)), "(metal)", "max_HP", "not known"),
    (mutate(lambda c: c.update(copies="yes")), "(metal)", "copies", "true or false"),
    (mutate(lambda c: c.update(damage=[])), "(metal)", "damage", "non-empty list"),
    (
        mutate(lambda c: c.update(damage=table((1, 50, 10), (52, 100, 20)))),
        "(metal)",
        "damage",
        "does not cover the rolls 51–51",
    ),
    (
        mutate(lambda c: c.update(damage=table((1, 50, 10), (50, 100, 20)))),
        "(metal)",
        "damage",
        "overlap (roll 50 is in both)",
    ),
    (
        mutate(lambda c: c.update(damage=table((2, 100, 10)))),
        "(metal)",
        "damage",
        "does not cover the rolls 1–1",
    ),
    (
        mutate(lambda c: c.update(damage=table((1, 99, 10)))),
        "(metal)",
        "damage",
        "does not cover the rolls 100–100",
    ),
    (
        mutate(lambda c: c.update(damage=table((1, 101, 10)))),
        "(metal)",
        "damage[1].to",
        "between 1 and 100",
    ),
    (
        mutate(lambda c: c.update(damage=table((0, 100, 10)))),
        "(metal)",
        "damage[1].from",
        "between 1 and 100",
    ),
    (
        mutate(lambda c: c.update(damage=table((60, 40, 10)))),
        "(metal)",
        "damage[1]",
        "from 60 is above to 40",
    ),
    (
        mutate(lambda c: c.update(damage=table((1, 100, "N/A")))),
        "(metal)",
        "damage[1].damage",
        "'N/A'",
    ),
    (mutate(lambda c: c.update(damage=table((1, 100, -3)))), "(metal)", "damage[1].damage", "-3"),
    (
        mutate(lambda c: c.update(damage=[{"from": 1, "to": 100}])),
        "(metal)",
        "damage[1].damage",
        "is missing",
    ),
    (
        mutate(lambda c: c.update(damage=[{"from": 1, "damage": 3}])),
        "(metal)",
        "damage[1].to",
        "is missing",
    ),
    (
        mutate(lambda c: c.update(damage=[{"from": 1, "to": 100, "damage": 3, "crit": 1}])),
        "(metal)",
        "crit",
        "not known",
    ),
    (mutate(lambda c: c.update(id="wood")), "#2 (wood)", "id", "used twice"),
    (mutate(lambda c: c.update(attack=-1)), "(metal)", "attack", "between 0"),
]


@pytest.mark.parametrize(
    ("text", "entry", "field", "words"), CASES, ids=[f"{c[2]}:{c[3]}" for c in CASES]
)
def test_character_errors_name_file_entry_and_field(text, entry, field, words):
    with pytest.raises(DataFileError) as info:
        parse_roster(text, "host.toml")
    message = str(info.value)
    assert message.startswith("host.toml: "), message
    assert entry in message and field in message and words in message, message


def item(**change):
    data = {
        "id": "sword",
        "name": "Sword",
        "kind": "weapon",
        "owner": "metal",
        "owner_bonus": 5,
        "other_bonus": 2,
    }
    data.update(change)
    return data


ITEM_CASES = [
    ([item(kind="shield")], "[[equipment]] #1 (sword)", "kind", "shield"),
    ([item(owner="ghost")], "(sword)", "owner", "no character 'ghost'"),
    ([item(), item(id="sword")], "#2 (sword)", "id", "used twice"),
    ([item(), item(id="axe")], "#2 (axe)", "owner", "already has a weapon"),
    ([item(owner_bonus="x")], "(sword)", "owner_bonus", "whole number"),
    ([item(other_bonus=500)], "(sword)", "other_bonus", "between -100 and 100"),
    ([{k: v for k, v in item().items() if k != "name"}], "(sword)", "name", "missing"),
]


@pytest.mark.parametrize(
    ("items", "entry", "field", "words"), ITEM_CASES, ids=[f"{c[2]}:{c[3]}" for c in ITEM_CASES]
)
def test_equipment_errors(items, entry, field, words):
    with pytest.raises(DataFileError) as info:
        parse_roster(roster_text(items=items), "host.toml")
    message = str(info.value)
    assert message.startswith("host.toml: ")
    assert entry in message and field in message and words in message, message


@pytest.mark.parametrize(
    ("identities", "board", "entry", "field", "words"),
    [
        (
            {"5": {"red": 2, "blue": 2, "neutral": 2}},
            None,
            "[identities] 5",
            "neutral",
            "add up to 6, not 5",
        ),
        ({"5": {"red": 0, "blue": 4, "neutral": 1}}, None, "[identities] 5", "red", "between 1"),
        ({"5": {"red": 2, "blue": 2}}, None, "[identities] 5", "neutral", "missing"),
        ({"12": {"red": 6, "blue": 6, "neutral": 0}}, None, "[identities]", "12", "not known"),
        (None, {"outer": ["red", "red"]}, "[board]", "outer", "6 colours"),
        (
            None,
            {"outer": ["red", "red", "green", "green", "blue", 5]},
            "[board]",
            "outer",
            "6 colours",
        ),
        (None, {"centre": 3}, "[board]", "centre", "text"),
        (None, {"middle": "brown"}, "[board]", "middle", "not known"),
    ],
)
def test_identity_and_board_errors(identities, board, entry, field, words):
    with pytest.raises(DataFileError) as info:
        parse_roster(roster_text(identities=identities, board=board), "host.toml")
    message = str(info.value)
    assert message.startswith("host.toml: ")
    assert entry in message and field in message and words in message, message


def test_file_level_errors():
    with pytest.raises(DataFileError, match=r"^host.toml: this is not valid TOML"):
        parse_roster("[[character]\nid = 1", "host.toml")
    with pytest.raises(
        DataFileError,
        match=r"host.toml: \(top\): the field character is "
        "missing",
    ):
        parse_roster("[roster]\ntitle = 'x'\n", "host.toml")
    with pytest.raises(DataFileError, match="field cards is not known"):
        parse_roster(roster_text() + "cards = 3\n", "host.toml")
    with pytest.raises(DataFileError, match=r"\[\[character\]\] #1 must be a table"):
        parse_roster("character = [1, 2]\n", "host.toml")
    with pytest.raises(DataFileError, match="field equipment must be a non-empty list"):
        parse_roster(
            roster_text(items=[]).replace("[roster]", "equipment = 3\n[roster]"), "host.toml"
        )


def test_minimal_roster_defaults():
    text = roster_text(
        characters=[
            {
                "id": "a",
                "name": "A",
                "nation": "sakura",
                "element": "fire",
                "max_hp": 9,
                "range": 2,
                "damage": PLAIN_TABLE,
            }
        ],
        items=[],
        identities={},
    )
    roster = parse_roster(text, "tiny.toml")
    assert roster.items == () and roster.identity_counts == ()
    assert roster.outer_colours == ("red", "red", "green", "green", "blue", "blue")
    assert roster.characters[0].display_name("en") == "A"


def test_the_shipped_note_is_the_marked_one_and_has_chinese():
    """The default roster's warning is shown translated (its text is a marked string)."""
    from pathlib import Path

    import companion.games.shadow_cats.rules as sc
    from companion.games.shadow_cats.rules.roster import DEFAULT_ROSTER_NOTE
    from companion.i18n import catalog

    text = (Path(sc.__file__).parent / sc.DEFAULT_ROSTER_NAME).read_text(encoding="utf-8")
    assert f'note = "{DEFAULT_ROSTER_NOTE}"' in text
    assert catalog("zh").gettext(DEFAULT_ROSTER_NOTE) != DEFAULT_ROSTER_NOTE
