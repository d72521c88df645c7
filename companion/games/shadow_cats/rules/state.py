"""The state of a game of 喵窩暗影 (immutable; ``dataclasses.replace`` to change).

Identities are hidden: ``Seat.identity`` is ``None`` until a reveal records it (a
death, a public reveal, a Neutral's declaration, or the final entry).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from companion.games.shadow_cats.rules.actions import IDENTITIES, Identity
from companion.games.shadow_cats.rules.board import distance
from companion.games.shadow_cats.rules.roster import (
    Character,
    DamageRow,
    Element,
    IdentityCounts,
    Item,
    Roster,
    expected_table_damage,
)
from companion.rules.base import Player, PlayerId

Phase = Literal["setup", "start", "play", "ended", "over"]
"""setup: the draft (``deal`` and its edits) until ``begin`` (or one whole ``setup``);
start: start positions; play: turns; ended: a victory is known, waiting for the
final identities; over: all recorded."""
Step = Literal["move", "choose", "forest", "attack"]
"""move: roll 2d6; choose: a 7 was rolled (``move-dice``), the destination is next;
forest: the Cat Forest's effect; attack: attack or end the turn."""

# 五行相剋: water beats fire, fire beats metal, metal beats wood, wood beats earth,
# earth beats water.
BEATS: dict[str, str] = {
    "water": "fire",
    "fire": "metal",
    "metal": "wood",
    "wood": "earth",
    "earth": "water",
}
ELEMENT_BONUS = 5
FOREST_DAMAGE = 20
FOREST_HEAL = 10


def element_bonus(attacker: Element, target: Element) -> int:
    """+5 when the attacker's element beats the target's (none: never)."""
    return ELEMENT_BONUS if BEATS.get(attacker) == target else 0


@dataclass(frozen=True)
class Seat:
    """One player's character on the table."""

    player: PlayerId
    character: str
    hp: int
    location: str | None = None
    weapon: str | None = None
    armour: str | None = None
    identity: Identity | None = None
    copied: str | None = None
    """丑時: the character whose table and element it uses now."""

    @property
    def alive(self) -> bool:
        return self.hp > 0


@dataclass(frozen=True)
class AttackReport:
    """The breakdown of one attack: roll → table → element → equipment."""

    attacker: PlayerId
    target: PlayerId
    roll: int
    table: int | None
    """The table's damage, ``None`` for a miss."""
    element: int
    weapon: int
    armour: int
    damage: int
    """What was dealt: ``max(0, table + element + weapon - armour)``, 0 on a miss."""
    hp_before: int
    hp_after: int

    @property
    def killed(self) -> bool:
        return self.hp_before > 0 and self.hp_after == 0


@dataclass(frozen=True)
class Notice:
    """Something the host should see after an action (an English ``N_`` template)."""

    template: str
    params: tuple[tuple[str, Any], ...] = ()

    def render(self, gettext: Any = None) -> str:
        text = gettext(self.template) if gettext is not None else self.template
        try:
            return str(text.format(**dict(self.params)))
        except (KeyError, IndexError, ValueError):
            return self.template.format(**dict(self.params))


@dataclass(frozen=True)
class Victory:
    """``team``: the winning team ("red"/"blue") after a wipe; or Neutral winners."""

    kind: Literal["team", "neutral"]
    team: Identity | None = None
    neutrals: tuple[PlayerId, ...] = ()


@dataclass(frozen=True)
class Draft:
    """The setup being drafted, all of it public at the table (``deal`` and its edits)."""

    roster: Roster
    roster_file: str
    pairs: tuple[tuple[str, ...], ...]
    """Each player's dealt character cards, in seating order."""
    characters: tuple[str, ...]
    """The character each player keeps (seating order)."""
    layout: tuple[str, ...]
    counts: IdentityCounts | None
    """``None`` when the roster has no default for this number of players (yet)."""
    first_player: PlayerId


@dataclass(frozen=True)
class ShadowState:
    players: tuple[Player, ...]
    phase: Phase = "setup"
    roster: Roster | None = None
    roster_file: str = ""
    seats: tuple[Seat, ...] = ()
    layout: tuple[str, ...] = ()
    counts: IdentityCounts | None = None
    equipment_deck: tuple[str, ...] = ()
    first_player: PlayerId | None = None
    draft: Draft | None = None
    """During setup, once dealt: what ``begin`` starts the game with."""
    turn: PlayerId | None = None
    step: Step = "move"
    round: int = 0
    pending_rolls: tuple[int, ...] = ()
    """Step ``choose``: the move's dice (ending in a 7) before the destination."""
    pending_reveal: PlayerId | None = None
    """A character who died and whose identity card is not entered yet."""
    victory: Victory | None = None
    last_attack: AttackReport | None = None
    notices: tuple[Notice, ...] = ()
    """What the last action did that the host should read (reminders, clamps, deaths)."""

    # ------------------------------------------------------------------ lookups

    def seat(self, pid: PlayerId) -> Seat:
        for s in self.seats:
            if s.player == pid:
                return s
        raise KeyError(pid)

    def seat_index(self, pid: PlayerId) -> int:
        for i, s in enumerate(self.seats):
            if s.player == pid:
                return i
        raise KeyError(pid)

    def living(self) -> Iterator[Seat]:
        return (s for s in self.seats if s.alive)

    def character(self, pid: PlayerId) -> Character:
        assert self.roster is not None
        found = self.roster.character(self.seat(pid).character)
        assert found is not None
        return found

    def fighting_character(self, pid: PlayerId) -> Character:
        """The character whose table and element an attack uses (丑時 may copy one)."""
        seat = self.seat(pid)
        assert self.roster is not None
        found = self.roster.character(seat.copied or seat.character)
        assert found is not None
        return found

    def item(self, iid: str | None) -> Item | None:
        if iid is None or self.roster is None:
            return None
        return self.roster.item(iid)

    def holder_of(self, iid: str) -> PlayerId | None:
        for s in self.seats:
            if iid in (s.weapon, s.armour):
                return s.player
        return None

    def distance(self, a: PlayerId, b: PlayerId) -> int:
        assert self.roster is not None
        here, there = self.seat(a).location, self.seat(b).location
        assert here is not None and there is not None
        return distance(
            self.layout, here, there, self.roster.centre_colour, self.roster.outer_colours
        )

    def in_range(self, attacker: PlayerId) -> tuple[PlayerId, ...]:
        """Living characters ``attacker`` may attack now, in seating order."""
        reach = self.character(attacker).range
        return tuple(
            s.player
            for s in self.seats
            if s.alive
            and s.player != attacker
            and s.location is not None
            and self.distance(attacker, s.player) <= reach
        )

    def attack_modifiers(self, attacker: PlayerId, target: PlayerId) -> tuple[int, int, int]:
        """``(element, weapon, armour)`` bonuses that apply to a hit."""
        a, t = self.fighting_character(attacker), self.fighting_character(target)
        weapon = self.item(self.seat(attacker).weapon)
        armour = self.item(self.seat(target).armour)
        return (
            element_bonus(a.element, t.element),
            weapon.bonus_for(self.seat(attacker).character) if weapon else 0,
            armour.bonus_for(self.seat(target).character) if armour else 0,
        )

    def expected_attack(self, attacker: PlayerId, target: PlayerId) -> Fraction:
        """Expected damage of an attack now (over a fair d100), modifiers included."""
        element, weapon, armour = self.attack_modifiers(attacker, target)
        rows: tuple[DamageRow, ...] = self.fighting_character(attacker).damage
        return expected_table_damage(rows, element + weapon - armour)

    def revealed(self, identity: Identity) -> int:
        return sum(1 for s in self.seats if s.identity == identity)

    def open_identities(self, chosen: Sequence[Identity] = ()) -> tuple[Identity, ...]:
        """The identities a hidden card may still show, in the order Red, Blue, Neutral.

        One is open while the counts leave a card of it unaccounted for by the recorded
        identities and by ``chosen`` (answers given but not recorded yet, as in the final
        entry). Every hidden card is one of the unaccounted ones, so any open answer still
        leaves a consistent way to name the rest."""
        if self.counts is None:
            return IDENTITIES
        counts = self.counts
        return tuple(
            i
            for i in IDENTITIES
            if getattr(counts, i) - self.revealed(i) - list(chosen).count(i) > 0
        )

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def next_to_place(self) -> PlayerId | None:
        """In the start phase: whose start position is rolled next (turn order)."""
        if self.phase != "start":
            return None
        for seat in self.turn_order():
            if seat.location is None:
                return seat.player
        return None

    def turn_order(self) -> tuple[Seat, ...]:
        """Seats starting from the first player."""
        start = self.seat_index(self.first_player) if self.first_player else 0
        return self.seats[start:] + self.seats[:start]
