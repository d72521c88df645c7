"""The roster of 喵窩暗影: characters, equipment, identity counts and board colours.

Design decisions:

* The source's cards are lost, so every number is *data* in a TOML file the host
  can edit. This module only *parses* text (``parse_roster(text, file_name)``); it
  never opens a file. The session layer reads the file and the text travels inside
  the game's first ``setup`` action, so a session replays exactly even after the
  file on disk changes.
* Validation is strict and specific: every message names the file, the entry
  (``[[character]] #3 (ke-yao)``) and the field, in the TOML's own words, so the host
  can find the line. Unknown fields are refused too: a typo (``max_HP``) must not
  silently fall back to something.
* A damage table is a list of rows ``{from, to, damage}`` that must cover the d100
  faces 1–100 exactly once; ``damage = "miss"`` marks a miss (the card's N/A).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, NoReturn

from companion.rules.base import N_, DataFileError

DEFAULT_ROSTER_NOTE = N_(
    "DEFAULT NUMBERS: the source's cards are lost; HP, ranges, damage tables and items "
    "are placeholders. Edit a copy to use your own."
)
"""The shipped roster's ``note`` (kept equal by a test), marked so the screen can show
it translated; a host's own roster note is shown as written."""

Element = Literal["metal", "wood", "water", "fire", "earth", "none"]
ELEMENTS: tuple[Element, ...] = ("metal", "wood", "water", "fire", "earth", "none")
Nation = Literal["kingdom", "sakura", "demon"]
NATIONS: tuple[Nation, ...] = ("kingdom", "sakura", "demon")
ItemKind = Literal["weapon", "armour"]
ITEM_KINDS: tuple[ItemKind, ...] = ("weapon", "armour")

MIN_PLAYERS = 4
MAX_PLAYERS = 10
D100_FACES = 100
MAX_HP_LIMIT = 999
MAX_DAMAGE = 999
MAX_BONUS = 100
OUTER_SLOTS = 6


@dataclass(frozen=True)
class DamageRow:
    """d100 faces ``low``..``high`` (inclusive) do ``damage``; ``None`` is a miss."""

    low: int
    high: int
    damage: int | None

    @property
    def faces(self) -> int:
        return self.high - self.low + 1


@dataclass(frozen=True)
class Character:
    """One character card (角色牌)."""

    id: str
    name: str
    """The card's name as printed (Traditional Chinese in the shipped roster)."""
    name_en: str
    nation: Nation
    element: Element
    max_hp: int
    range: int
    damage: tuple[DamageRow, ...]
    """Sorted by ``low``, covering 1–100 exactly once."""
    skill: str = ""
    neutral_condition: str = ""
    attack: int | None = None
    """The attack printed on the card (the expectation of the table), if given."""
    copies: bool = False
    """丑時: may copy another character's skill, attack (table) and element."""
    name_zh: str = ""
    """The name in Simplified Chinese, shown in the Chinese UI (empty: ``name``)."""

    def damage_for(self, roll: int) -> int | None:
        """The table's damage for a d100 ``roll`` (``None``: a miss)."""
        for row in self.damage:
            if row.low <= roll <= row.high:
                return row.damage
        raise ValueError(f"roll {roll} outside 1-100")  # pragma: no cover - validated table

    @property
    def expected_damage(self) -> Fraction:
        """Mean table damage over a fair d100, misses counting 0."""
        return expected_table_damage(self.damage)

    def display_name(self, lang: str) -> str:
        if lang.startswith("zh"):
            return self.name_zh or self.name
        return self.name_en or self.name_zh or self.name


def expected_table_damage(rows: Sequence[DamageRow], bonus: int = 0) -> Fraction:
    """Mean of ``max(0, damage + bonus)`` over hits, misses counting 0."""
    total = sum(row.faces * max(0, row.damage + bonus) for row in rows if row.damage is not None)
    return Fraction(total, D100_FACES)


@dataclass(frozen=True)
class Item:
    """An equipment card (裝備牌): its owner-character gets a different bonus."""

    id: str
    name: str
    name_en: str
    kind: ItemKind
    owner: str
    """The character id this item belongs to (主人)."""
    owner_bonus: int
    other_bonus: int
    """A weapon adds its bonus to the damage dealt; an armour takes it off damage taken."""
    name_zh: str = ""
    """The name in Simplified Chinese, shown in the Chinese UI (empty: ``name``)."""

    def bonus_for(self, character: str) -> int:
        return self.owner_bonus if character == self.owner else self.other_bonus

    def display_name(self, lang: str) -> str:
        if lang.startswith("zh"):
            return self.name_zh or self.name
        return self.name_en or self.name_zh or self.name


@dataclass(frozen=True)
class IdentityCounts:
    """How many Red, Blue and Neutral identities are shuffled for one game."""

    red: int
    blue: int
    neutral: int

    @property
    def total(self) -> int:
        return self.red + self.blue + self.neutral


@dataclass(frozen=True)
class Roster:
    title: str
    note: str
    characters: tuple[Character, ...]
    items: tuple[Item, ...]
    identity_counts: tuple[tuple[int, IdentityCounts], ...]
    """Default counts per number of players (only those the file gives)."""
    centre_colour: str
    outer_colours: tuple[str, ...]
    """Colours of the six outer slots going round (slot 1 … slot 6)."""

    def character(self, cid: str) -> Character | None:
        for c in self.characters:
            if c.id == cid:
                return c
        return None

    def item(self, iid: str) -> Item | None:
        for i in self.items:
            if i.id == iid:
                return i
        return None

    def counts_for(self, players: int) -> IdentityCounts | None:
        for n, counts in self.identity_counts:
            if n == players:
                return counts
        return None

    def warnings(self) -> tuple[tuple[str, str, Fraction], ...]:
        """``(character id, printed attack, computed expectation)`` where they differ.

        A card prints its attack as the expected damage of its table, rounded; a
        mismatch usually means a typo in the table.
        """
        out: list[tuple[str, str, Fraction]] = []
        for c in self.characters:
            if c.attack is not None and round(c.expected_damage) != c.attack:
                out.append((c.id, str(c.attack), c.expected_damage))
        return tuple(out)


# --------------------------------------------------------------------------- parsing


class _Entry:
    """Reads the fields of one TOML table, raising errors that name file/entry/field."""

    def __init__(self, file: str, entry: str, data: Any, known: Sequence[str]) -> None:
        self.file = file
        self.entry = entry
        if not isinstance(data, Mapping):
            raise DataFileError(N_("{file}: {entry} must be a table."), file=file, entry=entry)
        self.data = data
        for key in data:
            if key not in known:
                self.fail(key, N_("{file}: {entry}: the field {field} is not known (a typo?)."))

    def fail(self, field: str, template: str, **params: Any) -> NoReturn:
        raise DataFileError(template, file=self.file, entry=self.entry, field=field, **params)

    def has(self, field: str) -> bool:
        return field in self.data

    def raw(self, field: str) -> Any:
        if field not in self.data:
            self.fail(field, N_("{file}: {entry}: the field {field} is missing."))
        return self.data[field]

    def text(self, field: str, default: str | None = None, *, required: bool = True) -> str:
        if field not in self.data and (default is not None or not required):
            return default or ""
        value = self.raw(field)
        if not isinstance(value, str):
            self.fail(field, N_("{file}: {entry}: the field {field} must be text."))
        if required and default is None and not value.strip():
            self.fail(field, N_("{file}: {entry}: the field {field} is empty."))
        return value.strip()

    def integer(self, field: str, low: int, high: int) -> int:
        return self.check_int(field, self.raw(field), low, high)

    def check_int(self, field: str, value: Any, low: int, high: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(field, N_("{file}: {entry}: the field {field} must be a whole number."))
        if not low <= value <= high:
            self.fail(
                field,
                N_(
                    "{file}: {entry}: the field {field} must be between {low} and {high}, "
                    "not {value}."
                ),
                low=low,
                high=high,
                value=value,
            )
        return int(value)

    def boolean(self, field: str, default: bool) -> bool:
        if field not in self.data:
            return default
        value = self.data[field]
        if not isinstance(value, bool):
            self.fail(field, N_("{file}: {entry}: the field {field} must be true or false."))
        return value

    def choice(self, field: str, choices: Sequence[str]) -> str:
        value = self.raw(field)
        if value not in choices:
            self.fail(
                field,
                N_("{file}: {entry}: the field {field} must be one of {choices}, not {value!r}."),
                choices=", ".join(choices),
                value=value,
            )
        return str(value)

    def tables(self, field: str) -> list[Any]:
        value = self.raw(field)
        if not isinstance(value, list) or not value:
            self.fail(
                field, N_("{file}: {entry}: the field {field} must be a non-empty list of tables.")
            )
        return list(value)


_TOP = ("roster", "board", "identities", "character", "equipment")
_CHARACTER_FIELDS = (
    "id",
    "name",
    "name_en",
    "name_zh",
    "nation",
    "element",
    "max_hp",
    "range",
    "damage",
    "skill",
    "neutral_condition",
    "attack",
    "copies",
)
_ROW_FIELDS = ("from", "to", "damage")
_ITEM_FIELDS = ("id", "name", "name_en", "name_zh", "kind", "owner", "owner_bonus", "other_bonus")
MISS = "miss"


@lru_cache(maxsize=8)
def parse_roster(text: str, file_name: str) -> Roster:
    """Parse and check a roster TOML text; ``DataFileError`` names file, entry, field.

    Kept for the last few texts (a ``Roster`` is immutable): every replay of a log
    (resume, export, the history's detail, the board's follower) applies its setup
    again, and parsing the shipped roster takes ~40 ms on a small machine. A refused
    text is parsed again each time (nothing cached), so its error is raised anew.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(
            N_("{file}: this is not valid TOML: {problem}"), file=file_name, problem=str(exc)
        ) from None
    top = _Entry(file_name, "(top)", data, _TOP)
    head = _Entry(file_name, "[roster]", data.get("roster", {}), ("title", "note"))
    title = head.text("title", "")
    note = head.text("note", "")
    centre, outer = _parse_board(file_name, data.get("board", {}))
    characters = _parse_characters(file_name, top.tables("character"))
    ids = {c.id for c in characters}
    items = _parse_items(file_name, data.get("equipment", []), ids)
    counts = _parse_identities(file_name, data.get("identities", {}))
    return Roster(
        title=title,
        note=note,
        characters=characters,
        items=items,
        identity_counts=counts,
        centre_colour=centre,
        outer_colours=outer,
    )


def _parse_board(file: str, data: Any) -> tuple[str, tuple[str, ...]]:
    board = _Entry(file, "[board]", data, ("centre", "outer"))
    centre = board.text("centre", "brown")
    if not board.has("outer"):
        return centre, ("red", "red", "green", "green", "blue", "blue")
    outer = board.raw("outer")
    if (
        not isinstance(outer, list)
        or len(outer) != OUTER_SLOTS
        or not all(isinstance(c, str) and c.strip() for c in outer)
    ):
        board.fail(
            "outer",
            N_("{file}: {entry}: the field {field} must list {count} colours, one per outer slot."),
            count=OUTER_SLOTS,
        )
    return centre, tuple(c.strip() for c in outer)


def _parse_characters(file: str, raw: list[Any]) -> tuple[Character, ...]:
    out: list[Character] = []
    seen: set[str] = set()
    for index, item in enumerate(raw, start=1):
        label = f"[[character]] #{index}"
        if isinstance(item, Mapping) and isinstance(item.get("id"), str):
            label += f" ({item['id']})"
        e = _Entry(file, label, item, _CHARACTER_FIELDS)
        cid = e.text("id")
        if cid in seen:
            e.fail(
                "id",
                N_("{file}: {entry}: the field {field}: the id {value!r} is used twice."),
                value=cid,
            )
        seen.add(cid)
        attack = e.integer("attack", 0, MAX_DAMAGE) if e.has("attack") else None
        out.append(
            Character(
                id=cid,
                name=e.text("name"),
                name_en=e.text("name_en", ""),
                name_zh=e.text("name_zh", ""),
                nation=e.choice("nation", NATIONS),  # type: ignore[arg-type]
                element=e.choice("element", ELEMENTS),  # type: ignore[arg-type]
                max_hp=e.integer("max_hp", 1, MAX_HP_LIMIT),
                range=e.integer("range", 1, 3),
                damage=_parse_table(e, "damage"),
                skill=e.text("skill", ""),
                neutral_condition=e.text("neutral_condition", ""),
                attack=attack,
                copies=e.boolean("copies", False),
            )
        )
    return tuple(out)


def _parse_table(e: _Entry, field: str) -> tuple[DamageRow, ...]:
    rows: list[DamageRow] = []
    for index, raw in enumerate(e.tables(field), start=1):
        where = f"{field}[{index}]"
        row = _Entry(e.file, e.entry, raw, _ROW_FIELDS)
        # Errors inside a row name the row as the field: "damage[3].to".
        row_fail = _RowFailer(e, where)
        low = row_fail.int_of(row, "from")
        high = row_fail.int_of(row, "to")
        if low > high:
            e.fail(
                where,
                N_("{file}: {entry}: field {field}: from {low} is above to {high}."),
                low=low,
                high=high,
            )
        value = row.raw("damage") if row.has("damage") else row_fail.missing("damage")
        damage: int | None
        if value == MISS:
            damage = None
        elif isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= MAX_DAMAGE:
            damage = value
        else:
            e.fail(
                f"{where}.damage",
                N_(
                    "{file}: {entry}: field {field}: the damage must be a whole number from "
                    '1 to {high} or "miss", not {value!r}.'
                ),
                high=MAX_DAMAGE,
                value=value,
            )
        rows.append(DamageRow(low, high, damage))
    rows.sort(key=lambda r: (r.low, r.high))
    expected = 1
    previous: DamageRow | None = None
    for current in rows:
        if previous is not None and current.low < expected:
            e.fail(
                field,
                N_(
                    "{file}: {entry}: field {field}: the rows {a} and {b} overlap "
                    "(roll {roll} is in both)."
                ),
                a=f"{previous.low}–{previous.high}",
                b=f"{current.low}–{current.high}",
                roll=current.low,
            )
        if current.low > expected:
            e.fail(
                field,
                N_(
                    "{file}: {entry}: field {field}: the table does not cover the "
                    "rolls {low}–{high}."
                ),
                low=expected,
                high=current.low - 1,
            )
        expected = max(expected, current.high + 1)
        previous = current
    if expected <= D100_FACES:
        e.fail(
            field,
            N_("{file}: {entry}: field {field}: the table does not cover the rolls {low}–{high}."),
            low=expected,
            high=D100_FACES,
        )
    return tuple(rows)


class _RowFailer:
    """Checks one damage-table row, naming the field as ``damage[i].from``."""

    def __init__(self, owner: _Entry, where: str) -> None:
        self.owner = owner
        self.where = where

    def missing(self, key: str) -> NoReturn:
        self.owner.fail(f"{self.where}.{key}", N_("{file}: {entry}: the field {field} is missing."))

    def int_of(self, row: _Entry, key: str) -> int:
        if not row.has(key):
            self.missing(key)
        return self.owner.check_int(f"{self.where}.{key}", row.raw(key), 1, D100_FACES)


def _parse_items(file: str, raw: Any, characters: set[str]) -> tuple[Item, ...]:
    if not isinstance(raw, list):
        raise DataFileError(
            N_("{file}: {entry}: the field {field} must be a non-empty list of tables."),
            file=file,
            entry="(top)",
            field="equipment",
        )
    out: list[Item] = []
    seen: set[str] = set()
    owned: set[tuple[str, str]] = set()
    for index, item in enumerate(raw, start=1):
        label = f"[[equipment]] #{index}"
        if isinstance(item, Mapping) and isinstance(item.get("id"), str):
            label += f" ({item['id']})"
        e = _Entry(file, label, item, _ITEM_FIELDS)
        iid = e.text("id")
        if iid in seen:
            e.fail(
                "id",
                N_("{file}: {entry}: the field {field}: the id {value!r} is used twice."),
                value=iid,
            )
        seen.add(iid)
        kind = e.choice("kind", ITEM_KINDS)
        owner = e.text("owner")
        if owner not in characters:
            e.fail(
                "owner",
                N_("{file}: {entry}: field {field}: there is no character {value!r}."),
                value=owner,
            )
        if (owner, kind) in owned:
            e.fail(
                "owner",
                N_("{file}: {entry}: field {field}: {value} already has a {kind}."),
                value=owner,
                kind=kind,
            )
        owned.add((owner, kind))
        out.append(
            Item(
                id=iid,
                name=e.text("name"),
                name_en=e.text("name_en", ""),
                name_zh=e.text("name_zh", ""),
                kind=kind,  # type: ignore[arg-type]
                owner=owner,
                owner_bonus=e.integer("owner_bonus", -MAX_BONUS, MAX_BONUS),
                other_bonus=e.integer("other_bonus", -MAX_BONUS, MAX_BONUS),
            )
        )
    return tuple(out)


def _parse_identities(file: str, raw: Any) -> tuple[tuple[int, IdentityCounts], ...]:
    keys = tuple(str(n) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1))
    table = _Entry(file, "[identities]", raw, keys)
    out: list[tuple[int, IdentityCounts]] = []
    for key in keys:
        if not table.has(key):
            continue
        n = int(key)
        e = _Entry(file, f"[identities] {key}", table.raw(key), ("red", "blue", "neutral"))
        counts = IdentityCounts(
            red=e.integer("red", 1, n),
            blue=e.integer("blue", 1, n),
            neutral=e.integer("neutral", 0, n),
        )
        if counts.total != n:
            e.fail(
                "neutral",
                N_("{file}: {entry}: field {field}: the counts add up to {total}, not {players}."),
                total=counts.total,
                players=n,
            )
        out.append((n, counts))
    return tuple(out)
