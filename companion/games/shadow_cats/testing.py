"""A simulated table for Shadow Cats: hidden identity cards, dice, and players' choices.

``Table.next_action(state)`` returns what the host would enter next (dice from the
session helpers, truthful reveals from the hidden cards); ``junk_action`` returns
arbitrary, often illegal, input. Used by the property tests and the benchmark.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from companion.games.shadow_cats.prepare import (
    RosterSource,
    begin,
    deal_layout,
    default_roster,
    random_setup,
    roll_d100,
    roll_move,
    roll_start,
)
from companion.games.shadow_cats.rules.actions import (
    ALL_ACTIONS,
    IDENTITIES,
    Attack,
    Begin,
    ChangeHp,
    CopyCharacter,
    Deal,
    DeclareNeutralWin,
    Destination,
    EndTurn,
    FinalIdentities,
    Forest,
    GiveItem,
    Identity,
    IdentityEntry,
    Move,
    MoveDice,
    PickCharacter,
    Place,
    Relocate,
    Reveal,
    SetCounts,
    SetFirstPlayer,
    SetLayout,
    Setup,
    TakeItem,
)
from companion.games.shadow_cats.rules.board import LOCATIONS
from companion.games.shadow_cats.rules.state import ShadowState
from companion.rules.base import Action, Player


class Table:
    """The physical table: who holds which identity card, and a source of dice."""

    def __init__(
        self, players: Sequence[Player], rng: random.Random, neutral_rate: float = 0.01
    ) -> None:
        self.players = tuple(players)
        self.rng = rng
        self.neutral_rate = neutral_rate
        self.setup = random_setup(default_roster(), players, rng)
        cards: list[Identity] = (
            ["red"] * self.setup.red + ["blue"] * self.setup.blue + ["neutral"] * self.setup.neutral
        )
        rng.shuffle(cards)
        self.identity: dict[str, Identity] = {p.id: c for p, c in zip(players, cards, strict=True)}

    def next_action(self, state: ShadowState) -> Action:
        rng = self.rng
        if state.phase == "setup":
            return self.setup
        if state.phase == "start":
            pid = state.next_to_place
            assert pid is not None
            return Place(pid, roll_start(rng))
        if state.phase == "ended":
            return FinalIdentities(
                tuple(
                    IdentityEntry(s.player, self.identity[s.player])
                    for s in state.seats
                    if s.identity is None
                )
            )
        if state.pending_reveal is not None:
            return Reveal(state.pending_reveal, self.identity[state.pending_reveal])
        neutrals = [s.player for s in state.seats if self.identity[s.player] == "neutral"]
        if neutrals and rng.random() < self.neutral_rate:
            return DeclareNeutralWin((rng.choice(neutrals),), "condition met")
        pid = state.turn
        assert pid is not None
        roll = rng.random()
        if roll < 0.05:
            target = rng.choice([s.player for s in state.living()])
            return ChangeHp(target, rng.choice([-30, -10, 5, 20]), "event card")
        if roll < 0.08 and state.equipment_deck:
            item = rng.choice(state.equipment_deck)
            holder = state.holder_of(item)
            if holder is not None:
                return TakeItem(holder, item, "passed on")
            return GiveItem(rng.choice([s.player for s in state.living()]), item, "shop")
        if roll < 0.09:
            return Relocate(
                rng.choice([s.player for s in state.living()]), rng.choice(LOCATIONS), "NPC"
            )
        seat = state.seat(pid)
        if state.step == "move":
            rolls = roll_move(rng, seat.location)
            there = None
            if rolls[-1] == 7:
                there = rng.choice([x for x in LOCATIONS if x != seat.location])
            return Move(pid, rolls, there)
        if state.step == "forest":
            others = [s.player for s in state.living() if s.player != pid]
            if others and rng.random() < 0.6:
                return Forest(pid, rng.choice(others), "damage")
            return Forest(pid, rng.choice([s.player for s in state.living()]), "heal")
        targets = state.in_range(pid)
        if targets and rng.random() < 0.85:
            return Attack(pid, rng.choice(targets), roll_d100(rng))
        return EndTurn(pid)


@cache
def _default() -> RosterSource:
    return default_roster()


@cache
def _default_ids() -> tuple[str, ...]:
    return tuple(c.id for c in _default().parse().characters)


def junk_action(state: ShadowState, rng: random.Random, cls: type[Action] | None = None) -> Action:
    """Arbitrary input: any action type (or ``cls``) with any values (mostly illegal)."""
    ids = [p.id for p in state.players] + ["p99"]
    pid = rng.choice(ids)
    other = rng.choice(ids)
    cls = cls or rng.choice(ALL_ACTIONS)
    chars = ["metal", "wood", "ke-yao", "lanmiao", "xiaohong", "ghost"]
    if cls is Deal:
        count = len(state.players) + rng.choice([0, 0, -1])
        names = list(_default_ids())
        rng.shuffle(names)
        pairs = tuple((names[2 * i], names[2 * i + 1]) for i in range(count))
        return Deal("default_roster.toml", _default().text, pairs, deal_layout(rng), pid)
    if cls is PickCharacter:
        draft = state.draft
        pool = [c.id for c in draft.roster.characters] if draft else chars
        return PickCharacter(pid, rng.choice([*pool, "ghost"]))
    if cls is SetCounts:
        return SetCounts(rng.randint(0, 4), rng.randint(0, 4), rng.randint(-1, 3))
    if cls is SetLayout:
        layout = list(LOCATIONS)
        rng.shuffle(layout)
        return SetLayout(tuple(layout[: rng.choice([7, 7, 6])]))
    if cls is SetFirstPlayer:
        return SetFirstPlayer(pid)
    if cls is Begin:
        draft = state.draft
        if draft is not None and rng.random() < 0.5:
            return begin(draft, rng)
        return Begin(tuple(rng.sample(["metal-sword", "ke-yao-weapon", "x"], rng.randint(0, 2))))
    if cls is Setup:
        if state.phase != "setup":  # refused before the roster is read: keep it cheap
            return Setup("x", "", (), (), 1, 1, 0, pid)
        return random_setup(_default(), state.players, rng)
    if cls is MoveDice:
        return MoveDice(pid, tuple(rng.choice([4, 5, 6, 7, 8]) for _ in range(rng.randint(0, 3))))
    if cls is Destination:
        return Destination(pid, rng.choice([*LOCATIONS, "moon"]))
    words = ["", "x", "kingdom", "moon", "forest", "metal-sword", "choushi", "ke-yao-weapon"]
    if cls is Place:
        return Place(pid, tuple(rng.randint(-1, 14) for _ in range(rng.randint(0, 3))))
    if cls is Move:
        return Move(
            pid,
            tuple(rng.randint(0, 14) for _ in range(rng.randint(0, 3))),
            rng.choice([None, *LOCATIONS, "moon"]),
        )
    if cls is Forest:
        return Forest(pid, other, rng.choice(["damage", "heal"]))
    if cls is Attack:
        return Attack(pid, other, rng.randint(-2, 103))
    if cls is EndTurn:
        return EndTurn(pid)
    if cls is Reveal:
        return Reveal(pid, rng.choice(IDENTITIES), rng.choice(words))
    if cls is ChangeHp:
        return ChangeHp(pid, rng.randint(-200, 200), rng.choice(words))
    if cls is Relocate:
        return Relocate(pid, rng.choice([*LOCATIONS, "moon"]), rng.choice(words))
    if cls is GiveItem:
        return GiveItem(pid, rng.choice(words), rng.choice(words))
    if cls is TakeItem:
        return TakeItem(pid, rng.choice(words), rng.choice(words))
    if cls is CopyCharacter:
        return CopyCharacter(pid, rng.choice(words), rng.choice(words))
    if cls is DeclareNeutralWin:
        return DeclareNeutralWin(tuple(rng.sample(ids, rng.randint(0, 2))), rng.choice(words))
    if cls is FinalIdentities:
        return FinalIdentities(
            tuple(
                IdentityEntry(rng.choice(ids), rng.choice(IDENTITIES))
                for _ in range(rng.randint(0, 3))
            )
        )
    return EndTurn(pid)  # Setup: the table's own setup is tried at the start only
