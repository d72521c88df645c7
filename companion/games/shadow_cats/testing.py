"""Shadow Cats' testing hook: a simulated table (hidden identity cards, dice, choices).

``Table.next_action(state)`` returns what the host would enter next (dice from the
session helpers, truthful reveals from the hidden cards); ``junk_action`` returns
arbitrary, often illegal, input. Used by the property tests, the benchmark and the
conformance suite (``TESTING``, see ``companion.rules.testing``).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from functools import cache, lru_cache

from companion.games.shadow_cats.prepare import (
    RosterSource,
    begin,
    deal,
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
from companion.rules.base import Action, Game, Player
from companion.rules.testing import GameTesting, accepts


class Table:
    """The physical table: who holds which identity card, and a source of dice."""

    def __init__(
        self, players: Sequence[Player], rng: random.Random, neutral_rate: float = 0.01
    ) -> None:
        self.players = tuple(players)
        self.rng = rng
        self.neutral_rate = neutral_rate
        self.setup = random_setup(default_roster(), players, rng)
        counts = {"red": self.setup.red, "blue": self.setup.blue, "neutral": self.setup.neutral}
        cards: list[Identity] = [i for i in IDENTITIES for _ in range(counts[i])]
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


@lru_cache(maxsize=32)
def _dealt(players: tuple[Player, ...]) -> Table:
    """The table of these players, dealt once: its setup and identity cards depend on
    the players alone (seeded by their number), and dealing parses the roster (~40 ms;
    done for every candidate list and every random step, it was most of the conformance
    suite's time for this game)."""
    return Table(players, random.Random(len(players)))


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


class ShadowCatsTesting(GameTesting[ShadowState]):
    """The table's next action (identities dealt from the state's seats, the same for
    a whole game: seeded by the players), the draft's edits, and junk of every type."""

    tables = (4, 8)
    steps = 160

    def _table(self, state: ShadowState, rng: random.Random) -> Table:
        # A copy: the caller sets its own ``rng`` on it.
        return copy.copy(_dealt(state.players))

    def candidates(self, state: ShadowState, rng: random.Random) -> Sequence[Action]:
        table = self._table(state, rng)
        table.rng = rng
        out: list[Action] = [table.next_action(state)]
        if state.phase == "setup":
            out.append(deal(_default(), state.players, rng))
        if state.draft is not None:
            draft = state.draft
            free = [c.id for c in draft.roster.characters if c.id not in draft.characters]
            pid = rng.choice(state.players).id
            out += [SetFirstPlayer(pid), begin(draft, rng)]
            out += [SetCounts(2, 2, len(state.players) - 4)]
            if free:
                out.append(PickCharacter(pid, rng.choice(free)))
        if state.turn is not None:
            out += [Destination(state.turn, "forest"), MoveDice(state.turn, (7,))]
            out.append(EndTurn(state.turn))
            here = state.seat(state.turn).location
            rolls = roll_move(rng, here)
            there = rng.choice([x for x in LOCATIONS if x != here]) if rolls[-1] == 7 else None
            out.append(Move(state.turn, rolls, there))
            out += [Attack(state.turn, t, roll_d100(rng)) for t in state.in_range(state.turn)]
        if state.phase in ("play", "ended"):  # the host's corrections, made plausible
            roster = getattr(state, "roster", None)
            chars = [c.id for c in roster.characters] if roster is not None else []
            for seat in state.living():
                out += [ChangeHp(seat.player, n, "event card") for n in (-10, 5)]
                out.append(DeclareNeutralWin((seat.player,), "condition met"))
                if state.turn is not None:
                    out += [Forest(state.turn, seat.player, k) for k in ("damage", "heal")]
                out += [Relocate(seat.player, loc, "NPC") for loc in LOCATIONS[:3]]
                own = state.character(seat.player).id
                others = [c for c in chars if c != own]
                out += [CopyCharacter(seat.player, c, "ability") for c in others[:2]]
                free = [i for i in state.equipment_deck if state.holder_of(i) is None]
                out += [GiveItem(seat.player, item, "shop") for item in free[:2]]
                if seat.identity is None:
                    out += [Reveal(seat.player, i, r) for i in IDENTITIES for r in ("", "card")]
            for seat in state.seats:
                for item in (seat.weapon, seat.armour):
                    if item is not None:
                        out.append(TakeItem(seat.player, item, "passed on"))
        if state.phase == "ended" and state.counts is not None:  # the cards left, dealt
            c = state.counts
            left = {"red": c.red, "blue": c.blue, "neutral": c.neutral}
            for seat in state.seats:
                if seat.identity is not None:
                    left[seat.identity] -= 1
            cards: list[Identity] = [i for i in IDENTITIES for _ in range(max(0, left[i]))]
            unknown = [seat.player for seat in state.seats if seat.identity is None]
            if len(cards) == len(unknown):
                rng.shuffle(cards)
                entries = (IdentityEntry(p, i) for p, i in zip(unknown, cards, strict=True))
                out.append(FinalIdentities(tuple(entries)))
        for cls in ALL_ACTIONS:
            out += [junk_action(state, rng, cls) for _ in range(2)]
        return out

    def random_step(
        self, game: Game[ShadowState], state: ShadowState, rng: random.Random
    ) -> Action | None:
        table = self._table(state, rng)
        table.rng = rng
        if state.phase == "setup" or rng.random() < 0.9:
            action = table.next_action(state)
            if accepts(game, state, action):
                return action
        return super().random_step(game, state, rng)


TESTING = ShadowCatsTesting()
