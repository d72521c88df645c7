"""纸箱牌 Box cards: the data, the TOML card-file format, and its checks.

The nine box cards are data the host can edit (the rules text does not print
them). A card file is TOML::

    [set]
    name = "My cards"          # shown on screen; name_zh optional
    default = false            # true only for the shipped default set

    [[card]]
    id = "orange"              # letters, digits, - or _; unique
    name = "Orange cat"        # name_zh optional
    hiss = 6                   # 哈气值, 1..99
    score = 3                  # printed score, 0..99
    start = true               # one of the two start cards (default false)
    slots = ["pair", "has:6"]  # 标记格: 1..6 tease conditions (conditions.py)
    envy = { pip = 1, text = "…", text_zh = "…" }   # 嫉妒效果: trigger pip 1..6

Design decisions:

* Parsing is pure: ``parse_card_file(text, file_name)``; reading the file is the
  session layer's job. Every error is a ``DataFileError`` whose message names the
  file, the card (its id, or ``#n`` when the id itself is bad) and the field.
* A set has exactly nine cards (the game is 九张牌) and exactly two start cards;
  the rules text names the start cards by hiss value 6 and 7, which the default
  set follows, but a host's own set marks its start cards with ``start = true``.
* Unknown keys are errors too: a misspelt ``slots`` must not silently drop slots.
* The same checks run on the card set recorded in a ``deal`` action, so a
  hand-edited log cannot smuggle in a card the file format would refuse.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.games.cat_box.rules.conditions import (
    CONDITION_EMPTY,
    CONDITION_EMPTY_TERM,
    CONDITION_NUMBER,
    CONDITION_PIPS,
    CONDITION_UNKNOWN,
    ConditionError,
    parse,
)
from companion.rules.base import N_, DataFileError

CARDS_PER_SET = 9
START_CARDS = 2
MIN_SLOTS, MAX_SLOTS = 1, 6
MIN_HISS, MAX_HISS = 1, 99
MIN_SCORE, MAX_SCORE = 0, 99
_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
_SET_KEYS = {"name", "name_zh", "default", "note", "note_zh"}
_CARD_KEYS = {"id", "name", "name_zh", "hiss", "score", "start", "slots", "envy"}
_ENVY_KEYS = {"pip", "text", "text_zh"}


@dataclass(frozen=True)
class Envy:
    """嫉妒效果: usable by others when one of their rolled player dice shows ``pip``."""

    pip: int
    text: str
    text_zh: str = ""


@dataclass(frozen=True)
class BoxCard:
    """One box card (纸箱牌) as printed."""

    id: str
    name: str
    hiss: int
    score: int
    slots: tuple[str, ...]
    """The tease condition (逗猫条件) of each marker slot (标记格), in printed order."""
    envy: Envy
    name_zh: str = ""
    start: bool = False

    def display_name(self, lang: str) -> str:
        return self.name_zh if lang.startswith("zh") and self.name_zh else self.name

    def envy_text(self, lang: str) -> str:
        return self.envy.text_zh if lang.startswith("zh") and self.envy.text_zh else self.envy.text


@dataclass(frozen=True)
class CardSet:
    """A whole set of box cards; ``default`` marks the shipped, made-up set."""

    name: str
    cards: tuple[BoxCard, ...]
    name_zh: str = ""
    default: bool = False

    def display_name(self, lang: str) -> str:
        return self.name_zh if lang.startswith("zh") and self.name_zh else self.name

    def card(self, card_id: str) -> BoxCard:
        for card in self.cards:
            if card.id == card_id:
                return card
        raise KeyError(card_id)


# --------------------------------------------------------------------------- parsing


def parse_card_file(text: str, file_name: str) -> CardSet:
    """Parse and check a TOML card file; errors name ``file_name``, the card, the field."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(
            N_("{file}: not valid TOML: {problem}"), file=file_name, problem=str(exc)
        ) from None
    unknown = sorted(set(data) - {"set", "card"})
    if unknown:
        raise DataFileError(
            N_("{file}: unknown table or key {field!r}."), file=file_name, field=unknown[0]
        )
    header = data.get("set", {})
    if not isinstance(header, dict):
        raise DataFileError(N_("{file}: [set] must be a table."), file=file_name)
    _no_unknown(header, _SET_KEYS, file_name, "[set]")
    set_name = _text(header, "name", file_name, "[set]", required=True)
    set_name_zh = _text(header, "name_zh", file_name, "[set]")
    default = _flag(header, "default", file_name, "[set]")
    raw_cards = data.get("card")
    if not isinstance(raw_cards, list) or not all(isinstance(c, dict) for c in raw_cards):
        raise DataFileError(N_("{file}: the cards must be [[card]] tables."), file=file_name)
    cards = tuple(_card(raw, index, file_name) for index, raw in enumerate(raw_cards, start=1))
    card_set = CardSet(name=set_name, cards=cards, name_zh=set_name_zh, default=default)
    check_card_set(card_set, file_name)
    return card_set


def _card(raw: Mapping[str, Any], index: int, file_name: str) -> BoxCard:
    raw_id = raw.get("id")
    label = raw_id if isinstance(raw_id, str) and _ID.match(raw_id) else f"#{index}"
    where = f"[[card]] {label}"
    _no_unknown(raw, _CARD_KEYS, file_name, where)
    if "id" not in raw:
        raise DataFileError(
            N_("{file}: {where}: missing field {field!r}."), file=file_name, where=where, field="id"
        )
    card_id = _text(raw, "id", file_name, where, required=True)
    envy_raw = raw.get("envy")
    if envy_raw is None:
        raise DataFileError(
            N_("{file}: {where}: missing field {field!r}."),
            file=file_name,
            where=where,
            field="envy",
        )
    if not isinstance(envy_raw, dict):
        raise DataFileError(
            N_("{file}: {where}: field {field!r} must be a table."),
            file=file_name,
            where=where,
            field="envy",
        )
    _no_unknown(envy_raw, _ENVY_KEYS, file_name, where, prefix="envy.")
    slots = raw.get("slots")
    if slots is None:
        raise DataFileError(
            N_("{file}: {where}: missing field {field!r}."),
            file=file_name,
            where=where,
            field="slots",
        )
    if not isinstance(slots, list) or not all(isinstance(s, str) for s in slots):
        raise DataFileError(
            N_("{file}: {where}: field {field!r} must be a list of texts."),
            file=file_name,
            where=where,
            field="slots",
        )
    return BoxCard(
        id=card_id,
        name=_text(raw, "name", file_name, where, required=True),
        name_zh=_text(raw, "name_zh", file_name, where),
        hiss=_number(raw, "hiss", file_name, where),
        score=_number(raw, "score", file_name, where),
        start=_flag(raw, "start", file_name, where),
        slots=tuple(slots),
        envy=Envy(
            pip=_number(envy_raw, "pip", file_name, where, prefix="envy."),
            text=_text(envy_raw, "text", file_name, where, required=True, prefix="envy."),
            text_zh=_text(envy_raw, "text_zh", file_name, where, prefix="envy."),
        ),
    )


def _no_unknown(
    raw: Mapping[str, Any], known: set[str], file_name: str, where: str, prefix: str = ""
) -> None:
    unknown = sorted(set(raw) - known)
    if unknown:
        raise DataFileError(
            N_("{file}: {where}: unknown field {field!r}."),
            file=file_name,
            where=where,
            field=prefix + unknown[0],
        )


def _text(
    raw: Mapping[str, Any],
    key: str,
    file_name: str,
    where: str,
    *,
    required: bool = False,
    prefix: str = "",
) -> str:
    value = raw.get(key)
    if value is None:
        if required:
            raise DataFileError(
                N_("{file}: {where}: missing field {field!r}."),
                file=file_name,
                where=where,
                field=prefix + key,
            )
        return ""
    if not isinstance(value, str):
        raise DataFileError(
            N_("{file}: {where}: field {field!r} must be text."),
            file=file_name,
            where=where,
            field=prefix + key,
        )
    return value


def _number(raw: Mapping[str, Any], key: str, file_name: str, where: str, prefix: str = "") -> int:
    value = raw.get(key)
    if value is None:
        raise DataFileError(
            N_("{file}: {where}: missing field {field!r}."),
            file=file_name,
            where=where,
            field=prefix + key,
        )
    if isinstance(value, bool) or not isinstance(value, int):
        raise DataFileError(
            N_("{file}: {where}: field {field!r} must be a whole number."),
            file=file_name,
            where=where,
            field=prefix + key,
        )
    return value


def _flag(raw: Mapping[str, Any], key: str, file_name: str, where: str) -> bool:
    value = raw.get(key, False)
    if not isinstance(value, bool):
        raise DataFileError(
            N_("{file}: {where}: field {field!r} must be true or false."),
            file=file_name,
            where=where,
            field=key,
        )
    return value


# --------------------------------------------------------------------------- checks


def check_card_set(card_set: CardSet, source: str) -> None:
    """Check what a set must satisfy, wherever it came from (file or ``deal`` action)."""
    if not card_set.name.strip():
        raise DataFileError(
            N_("{file}: [set]: field {field!r} must not be empty."), file=source, field="name"
        )
    seen: set[str] = set()
    for index, card in enumerate(card_set.cards, start=1):
        where = f"[[card]] {card.id if _ID.match(card.id) else f'#{index}'}"
        if not _ID.match(card.id):
            raise DataFileError(
                N_("{file}: {where}: field {field!r} must be 1 to 40 letters, digits, - or _."),
                file=source,
                where=where,
                field="id",
            )
        if card.id in seen:
            raise DataFileError(
                N_("{file}: {where}: the id {card!r} is used twice."),
                file=source,
                where=where,
                card=card.id,
            )
        seen.add(card.id)
        _check_card(card, source, where)
    if len(card_set.cards) != CARDS_PER_SET:
        raise DataFileError(
            N_("{file}: a card set has {expected} cards, not {count}."),
            file=source,
            expected=CARDS_PER_SET,
            count=len(card_set.cards),
        )
    starts = [c.id for c in card_set.cards if c.start]
    if len(starts) != START_CARDS:
        raise DataFileError(
            N_("{file}: exactly {expected} cards must have start = true, not {count}."),
            file=source,
            expected=START_CARDS,
            count=len(starts),
        )


def _check_card(card: BoxCard, source: str, where: str) -> None:
    if not card.name.strip():
        raise DataFileError(
            N_("{file}: {where}: field {field!r} must not be empty."),
            file=source,
            where=where,
            field="name",
        )
    for field, value, low, high in (
        ("hiss", card.hiss, MIN_HISS, MAX_HISS),
        ("score", card.score, MIN_SCORE, MAX_SCORE),
        ("envy.pip", card.envy.pip, 1, 6),
    ):
        if not low <= value <= high:
            raise DataFileError(
                N_("{file}: {where}: field {field!r} must be from {low} to {high}, not {value}."),
                file=source,
                where=where,
                field=field,
                low=low,
                high=high,
                value=value,
            )
    if not card.envy.text.strip():
        raise DataFileError(
            N_("{file}: {where}: field {field!r} must not be empty."),
            file=source,
            where=where,
            field="envy.text",
        )
    if not MIN_SLOTS <= len(card.slots) <= MAX_SLOTS:
        raise DataFileError(
            N_("{file}: {where}: a card has {low} to {high} slots, not {count}."),
            file=source,
            where=where,
            low=MIN_SLOTS,
            high=MAX_SLOTS,
            count=len(card.slots),
        )
    for number, text in enumerate(card.slots, start=1):
        try:
            parse(text)
        except ConditionError as exc:
            raise DataFileError(
                _IN_SLOT[exc.template], file=source, where=where, slot=number, **exc.params
            ) from None


# The condition's own message, placed in its file, card and slot (one template each so
# that the whole sentence is translated, not pieced together).
_IN_SLOT = {
    CONDITION_EMPTY: N_("{file}: {where}: slot {slot}: the condition is empty."),
    CONDITION_EMPTY_TERM: N_("{file}: {where}: slot {slot}: {text!r} has an empty term."),
    CONDITION_UNKNOWN: N_("{file}: {where}: slot {slot}: unknown tease condition word {word!r}."),
    CONDITION_NUMBER: N_(
        "{file}: {where}: slot {slot}: {word!r} needs a number from {low} to {high}."
    ),
    CONDITION_PIPS: N_(
        "{file}: {where}: slot {slot}: {word!r} needs pips from 1 to 6 separated by commas."
    ),
}
