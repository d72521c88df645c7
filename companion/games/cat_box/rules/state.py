"""The state of a 喵喵开箱 game, and the pure questions the screen asks of it.

Design decisions:

* The token supply (供应堆) is unlimited, so it is not counted; instead each seat
  keeps a ledger: ``taken`` (tokens ever taken from the supply, to place or to gain)
  and ``returned`` (tokens ever put back). ``taken - returned`` must always equal
  the tokens the player owns plus those on displayed cards — the invariant the tests
  check after every action.
* ``check_roll`` is the one place that decides bust / FAQ 6 / where a token may
  go. ``apply`` uses it, and so does the roll dialog to show the answer while the
  host is still typing the dice.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from companion.games.cat_box.rules.cards import BoxCard, CardSet
from companion.games.cat_box.rules.conditions import meets
from companion.rules.base import Player, PlayerId
from companion.rules.guide import Termination as BaseTermination

INSTANT_WIN = 20
DISPLAY_SIZE = 4
BIG_TOKEN = 5
"""5 small tokens may be swapped for 1 big one (大方块)."""


class Termination(BaseTermination):
    """How a game of 喵喵开箱 ended (``CatBoxState.ended``, ``Outcome.termination``)."""

    INSTANT_WIN = "instant-win"
    """A player reached 20 points (立即获胜); checked after every action."""
    DECK_EMPTY = "deck-empty"
    """The deck ran out and the last round was played; the highest score wins."""


Status = Literal["active", "busted", "opened", "retired"]
"""Active, or stopped for the round: busted (哈气), opened a box (开箱), retired (体退)."""


@dataclass(frozen=True)
class Seat:
    """One player's side of the table."""

    player: PlayerId
    status: Status = "active"
    held: tuple[int, ...] = ()
    """保留区: the player dice rolled so far this round."""
    owned: int = 0
    """Tokens the player has gained (1 point each)."""
    won: tuple[str, ...] = ()
    """Ids of the box cards in front of the player."""
    taken: int = 0
    returned: int = 0

    @property
    def active(self) -> bool:
        return self.status == "active"

    def pieces(self) -> tuple[int, int]:
        """Owned tokens as (big, small) pieces: big ones are worth 5."""
        return divmod(self.owned, BIG_TOKEN)


@dataclass(frozen=True)
class DisplayedCard:
    """A card in the middle with the tokens on its slots."""

    card: str
    tokens: tuple[tuple[PlayerId, ...], ...]
    """Per slot, the players with a token on it, in placing order."""

    def holders(self) -> set[PlayerId]:
        return {pid for slot in self.tokens for pid in slot}

    def count(self, pid: PlayerId) -> int:
        return sum(1 for slot in self.tokens if pid in slot)

    def full_of(self, pid: PlayerId) -> bool:
        return all(pid in slot for slot in self.tokens)


@dataclass(frozen=True)
class PendingRoll:
    """A roll on record whose outcome is not settled yet (place or pass)."""

    player: PlayerId
    common: tuple[int, ...]
    rolled: tuple[int, ...]
    envy: str | None = None
    """The card whose envy effect was used this turn, if any (once per turn)."""
    adjusted: str = ""
    """The host's reason if the dice were changed by ``set-dice``."""


@dataclass(frozen=True)
class Notice:
    """Something the last action did that the table should see (for banners).

    ``kind``: ``bust``, ``faq6``, ``placed``, ``passed``, ``opened``, ``retired``,
    ``envy``, ``round-ended``, ``last-round``, ``instant-win``, ``game-ended``.
    """

    kind: str
    player: PlayerId | None = None
    cards: tuple[str, ...] = ()
    others: tuple[PlayerId, ...] = ()
    number: int = 0


@dataclass(frozen=True)
class RollCheck:
    """What a roll means, before anything is placed."""

    player: PlayerId
    total: int
    """Sum of the player dice: held plus just rolled (the hiss check's number)."""
    dice: tuple[int, ...]
    """Everything the tease conditions see: common dice, held, rolled."""
    bust_cards: tuple[str, ...]
    """Cards carrying this player's tokens whose hiss value the total exceeds."""
    overwhelmed: bool
    """FAQ 6: no tokens anywhere and the total exceeds every displayed hiss value."""
    met: tuple[tuple[str, int], ...]
    """(card, slot) whose tease condition the dice meet (slots from 1)."""
    allowed: tuple[tuple[str, int], ...]
    """(card, slot) where a token may go now without the host's override."""
    too_hot: tuple[str, ...]
    """Displayed cards whose hiss value is below the total (no placing there)."""
    envy_cards: tuple[str, ...]
    """Cards whose envy effect a rolled player die triggers for this player."""

    @property
    def bust(self) -> bool:
        return bool(self.bust_cards)

    @property
    def may_place(self) -> bool:
        return not self.bust and not self.overwhelmed


@dataclass(frozen=True)
class CatBoxState:
    players: tuple[Player, ...]
    start_option: str
    """``random`` or the id of the player the host chose to start."""
    card_set: CardSet | None = None
    """None until the ``deal`` action."""
    source: str = ""
    deck: tuple[str, ...] = ()
    """Card ids from top to bottom; cards are drawn from the bottom (the end)."""
    display: tuple[DisplayedCard, ...] = ()
    seats: tuple[Seat, ...] = ()
    round: int = 0
    round_start: PlayerId | None = None
    first_player: PlayerId | None = None
    """Who started round 1 (the ``deal``'s start player), for history and exports."""
    current: PlayerId | None = None
    pending: PendingRoll | None = None
    final_queue: tuple[PlayerId, ...] | None = None
    """After the deck ran out: players still to take their one last action, in order."""
    ended: Termination | None = None
    """How the game ended, once it is over."""
    winners: tuple[PlayerId, ...] = ()
    notices: tuple[Notice, ...] = ()
    """What the last action did, for the screen's banners."""

    # ------------------------------------------------------------------ lookups

    @property
    def dealt(self) -> bool:
        return self.card_set is not None

    @property
    def last_round(self) -> bool:
        return self.final_queue is not None

    def card(self, card_id: str) -> BoxCard:
        if self.card_set is None:
            raise KeyError(card_id)
        return self.card_set.card(card_id)

    def seat(self, pid: PlayerId) -> Seat:
        for seat in self.seats:
            if seat.player == pid:
                return seat
        raise KeyError(pid)

    def player(self, pid: PlayerId) -> Player:
        for player in self.players:
            if player.id == pid:
                return player
        raise KeyError(pid)

    def name(self, pid: PlayerId) -> str:
        return self.player(pid).name

    def displayed(self, card_id: str) -> DisplayedCard | None:
        for shown in self.display:
            if shown.card == card_id:
                return shown
        return None

    def owner_of(self, card_id: str) -> PlayerId | None:
        for seat in self.seats:
            if card_id in seat.won:
                return seat.player
        return None

    def placed(self, pid: PlayerId) -> int:
        return sum(shown.count(pid) for shown in self.display)

    def score(self, pid: PlayerId) -> int:
        seat = self.seat(pid)
        return seat.owned + sum(self.card(c).score for c in seat.won)

    def scores(self) -> dict[PlayerId, int]:
        return {seat.player: self.score(seat.player) for seat in self.seats}

    def held_total(self, pid: PlayerId) -> int:
        return sum(self.seat(pid).held)

    def openable(self, pid: PlayerId) -> tuple[str, ...]:
        """Displayed cards whose every slot holds ``pid``'s token."""
        return tuple(shown.card for shown in self.display if shown.full_of(pid))

    def envy_sources(self, pid: PlayerId) -> tuple[str, ...]:
        """Cards whose envy effect ``pid`` may trigger: displayed, or won by others."""
        mine = set(self.seat(pid).won)
        others = [c for seat in self.seats if seat.player != pid for c in seat.won]
        return tuple(shown.card for shown in self.display) + tuple(
            c for c in others if c not in mine
        )

    # ------------------------------------------------------------------ the roll

    def check_roll(
        self, pid: PlayerId, common: tuple[int, ...], rolled: tuple[int, ...]
    ) -> RollCheck:
        """What ``pid`` rolling ``common`` + ``rolled`` means now (dice assumed valid)."""
        seat = self.seat(pid)
        total = sum(seat.held) + sum(rolled)
        dice = (*common, *seat.held, *rolled)
        mine = [shown for shown in self.display if shown.count(pid)]
        bust_cards = tuple(s.card for s in mine if total > self.card(s.card).hiss)
        overwhelmed = (
            not mine
            and bool(self.display)
            and all(total > self.card(s.card).hiss for s in self.display)
        )
        met: list[tuple[str, int]] = []
        allowed: list[tuple[str, int]] = []
        too_hot = tuple(s.card for s in self.display if self.card(s.card).hiss < total)
        for shown in self.display:
            card = self.card(shown.card)
            for number, (condition, holders) in enumerate(
                zip(card.slots, shown.tokens, strict=True), start=1
            ):
                if meets(condition, dice):
                    met.append((card.id, number))
                    if pid not in holders and card.id not in too_hot:
                        allowed.append((card.id, number))
        pips = Counter(rolled)
        envy_cards = tuple(c for c in self.envy_sources(pid) if pips[self.card(c).envy.pip])
        may_place = not bust_cards and not overwhelmed
        return RollCheck(
            player=pid,
            total=total,
            dice=dice,
            bust_cards=bust_cards,
            overwhelmed=overwhelmed,
            met=tuple(met),
            allowed=tuple(allowed) if may_place else (),
            too_hot=too_hot,
            envy_cards=envy_cards,
        )

    def pending_check(self) -> RollCheck | None:
        if self.pending is None:
            return None
        return self.check_roll(self.pending.player, self.pending.common, self.pending.rolled)
