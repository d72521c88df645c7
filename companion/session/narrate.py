"""The log as sentences: the game's guide describes every entry, undone ones too.

Design decisions:

* A ``Narrator`` folds the log itself (the same undo/redo stacks as ``log.fold``), so
  it needs nothing from the screen and gives the same sentences to the log panel,
  the history and the board. It is fed entry by entry: a running session costs one
  ``apply`` per new entry, a resumed one a single pass.
* An undo or redo entry is told as "Undone: <the sentence of the entry it undoes>",
  so the log reads as what happened at the table.
* A game without a guide, or an entry the guide cannot describe, falls back to the
  entry's type and fields (never nothing, never a traceback in the log).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.base import N_, Game, Player, RuleError
from companion.rules.guide import Guide, Say
from companion.session.log import Stacks
from companion.session.store import Entry

MAX_VALUE_CHARS = 80
"""Longer values (a whole card set in a deal) are cut in fallback lines."""


@dataclass(frozen=True)
class Line:
    """One narrated entry."""

    entry: Entry
    say: Say
    undone: bool = False


class Narrator:
    """Turns entries into sentences, incrementally."""

    def __init__(
        self,
        game: Game[Any],
        guide: Guide[Any] | None,
        initial: Any,
        players: Iterable[Player] = (),
    ) -> None:
        self.game = game
        self.guide = guide
        self.names = {p.id: p.name for p in players}
        self._states: list[Any] = [initial]
        self._stacks = Stacks.empty()
        self._said: dict[int, Say] = {}
        self.last_seq = 0

    @property
    def undone(self) -> frozenset[int]:
        return frozenset(e.seq for e in self._stacks.undone)

    def feed(self, entry: Entry) -> Say:
        """The sentence of ``entry`` (which must come after every entry fed so far)."""
        self.last_seq = entry.seq
        said = self._narrate(entry)
        self._said[entry.seq] = said
        return said

    def feed_all(self, entries: Iterable[Entry]) -> list[Say]:
        return [self.feed(e) for e in entries if e.seq > self.last_seq]

    def said(self, seq: int) -> Say | None:
        return self._said.get(seq)

    def _narrate(self, entry: Entry) -> Say:
        if self._stacks.push(entry) is not None:
            return self.fallback(entry)
        if entry.kind == "action":
            before = self._states[-1]
            try:
                after = self.game.apply(before, self.game.parse_action(entry.payload))
            except RuleError:
                self._states.append(before)
                return self.fallback(entry)
            self._states.append(after)
            return self._describe(entry, before, after)
        if entry.kind == "undo":
            if len(self._states) > 1:
                self._states.pop()
            target = self._said.get(int(entry.payload.get("undoes", 0)))
            return Say(N_("Undone: {what}"), {"what": target or self.fallback(entry)})
        if entry.kind == "redo":
            redone = self._stacks.done[-1]
            before = self._states[-1]
            try:
                self._states.append(self.game.apply(before, self.game.parse_action(redone.payload)))
            except RuleError:
                self._states.append(before)
            target = self._said.get(redone.seq)
            return Say(N_("Redone: {what}"), {"what": target or self.fallback(entry)})
        if entry.kind == "hw":
            return hardware_words(entry.payload, self.names)
        return self.fallback(entry)

    def _describe(self, entry: Entry, before: Any, after: Any) -> Say:
        if self.guide is None:
            return self.fallback(entry)
        try:
            return self.guide.describe(self.game.parse_action(entry.payload), before, after)
        except (RuleError, LookupError, ValueError, TypeError, AttributeError):
            return self.fallback(entry)

    def fallback(self, entry: Entry) -> Say:
        """``type · field=value …`` with player ids shown as names."""
        return Say("{text}", {"text": compact(entry.payload, self.names)})


HARDWARE_KINDS = {
    "tadaa-press": N_("Tadaa! box"),
    "hid-press": N_("USB button"),
}
"""A raw hardware entry's source, in words (anything else: its own kind)."""


def button_words(payload: Mapping[str, Any]) -> Say:
    """Which button a raw hardware entry came from: "button 3 of the Tadaa! box TB-7"."""
    source = HARDWARE_KINDS.get(str(payload.get("kind", "")))
    device = str(payload.get("device") or payload.get("port") or "")
    button = payload.get("button")
    return Say(
        N_("button {button} of {source} {device}"),
        {
            "button": button if button is not None else "?",
            "source": Say(source) if source else str(payload.get("kind", "")),
            "device": device,
        },
    )


def hardware_words(payload: Mapping[str, Any], names: Mapping[str, str]) -> Say:
    """A raw hardware entry as a sentence (it was ``tadaa-press · device=… button=…``):
    which button, and where it went (a seat, the button map, nowhere)."""
    player = payload.get("player")
    routed = payload.get("routed")
    button = button_words(payload)
    if isinstance(player, str) and player:
        return Say(
            N_("Button press: {button}, for {name}."),
            {"button": button, "name": names.get(player, player)},
        )
    if routed == "mapping":
        return Say(N_("Button press: {button}, taken by the button map."), {"button": button})
    return Say(N_("Button press: {button}, not assigned to a seat."), {"button": button})


def compact(payload: Mapping[str, Any], names: Mapping[str, str]) -> str:
    kind = str(payload.get("type", ""))
    rest = {
        k: names.get(v, v) if isinstance(v, str) else v
        for k, v in payload.items()
        if k != "type" and v is not None
    }
    if not rest:
        return kind
    return kind + " · " + " ".join(f"{k}={_plain(v)}" for k, v in rest.items())


def _plain(value: object) -> str:
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    )
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def raw(entry: Entry) -> str:
    """The entry's stored JSON, for audits (the log panel's ``j``)."""
    return json.dumps(entry.payload, ensure_ascii=False, sort_keys=True)
