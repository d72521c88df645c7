"""喵喵开箱's view-model: what the host screen and the players' board both show.

Design decisions:

* Pure: frozen rows and labels computed from the rules state (no Rich, no Textual, no
  gettext). ``render.py`` draws them with Rich for both the screen and the board, so
  a token colour, a slot mark, a status or a score is computed here once and the two
  cannot disagree.
* The board's view (``board=True``) leaves out what only the host needs while typing
  (the marks of the open roll's check) and never carries the deck's order: only its
  count. Nothing in a ``TableView`` names a card that is not face up or won.
* Colours are names (``#e5484d``…): a player's chosen colour, else one by seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from companion.games.cat_box.rules import BIG_TOKEN, CatBoxState, Notice, RollCheck
from companion.games.cat_box.rules.state import Status
from companion.rules.base import Player, PlayerId
from companion.rules.names import fit_name

PALETTE = (
    "#e5484d",
    "#f5d90a",
    "#46a758",
    "#3e63dd",
    "#8e4ec6",
    "#f76b15",
    "#e93d82",
    "#f0f0f0",
    "#1c1c1c",
    "#8b8d98",
    "#a18072",
    "#00a2c7",
)
"""Token colours by seat when a player has no colour; also the named colours' shades."""
NAMED = {
    "red": 0,
    "yellow": 1,
    "green": 2,
    "blue": 3,
    "purple": 4,
    "orange": 5,
    "pink": 6,
    "white": 7,
    "black": 8,
    "grey": 9,
    "gray": 9,
    "brown": 10,
    "cyan": 11,
}
DARK_TEXT = {1, 7, 11}
"""Palette entries light enough to need dark digits on them."""

Mark = Literal["", "met", "allowed"]
"""A slot during a roll: the dice meet its condition (``met``), or a token may go (``allowed``)."""
Heat = Literal["", "hot", "bust"]
"""A card during a roll: the total is above its hiss value (``hot``), and it busts the roller."""
Marker = Literal["", "turn", "last-action"]


@dataclass(frozen=True)
class TokenView:
    """One token: the player's seat number on their colour."""

    seat: int
    colour: str
    ink: Literal["black", "white"]


@dataclass(frozen=True)
class Name:
    """A name from the card file, in both languages (``zh`` falls back to ``en``)."""

    en: str
    zh: str

    def text(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") and self.zh else self.en


@dataclass(frozen=True)
class SlotView:
    number: int
    condition: str
    """The tease condition as written in the card file (``render`` puts it in words)."""
    mark: Mark
    tokens: tuple[TokenView, ...]


@dataclass(frozen=True)
class CardView:
    id: str
    name: Name
    hiss: int
    score: int
    envy_pip: int
    heat: Heat
    slots: tuple[SlotView, ...]


@dataclass(frozen=True)
class WonCard:
    name: Name
    score: int


@dataclass(frozen=True)
class PlayerRow:
    player: PlayerId
    name: str
    token: TokenView
    marker: Marker
    status: Status
    held: tuple[int, ...]
    owned: int
    won: tuple[WonCard, ...]
    score: int

    @property
    def held_sum(self) -> int | None:
        return sum(self.held) if self.held else None

    @property
    def pieces(self) -> tuple[int, int]:
        """Owned tokens as (big, small) pieces: big ones are worth 5 (大方块)."""
        return divmod(self.owned, BIG_TOKEN)


@dataclass(frozen=True)
class RollView:
    """The open roll (on record, not settled yet)."""

    player: PlayerId
    common: tuple[int, ...]
    rolled: tuple[int, ...]
    adjusted: str
    envy_used: bool


@dataclass(frozen=True)
class Banner:
    dealt: bool
    round: int
    deck: int
    """Cards left in the deck (their order is never shown)."""
    turn: str | None
    """The name of the player whose turn it is, while the game runs."""
    last_round: bool
    set_name: Name | None
    default_set: bool


@dataclass(frozen=True)
class TableView:
    banner: Banner
    cards: tuple[CardView, ...]
    players: tuple[PlayerRow, ...]
    roll: RollView | None
    notices: tuple[Notice, ...]


def colour_index(players: Sequence[Player], pid: PlayerId) -> int:
    for seat, player in enumerate(players):
        if player.id == pid:
            if player.colour in NAMED:
                return NAMED[player.colour]
            return seat % len(PALETTE)
    return 0


def token_view(players: Sequence[Player], pid: PlayerId) -> TokenView:
    index = colour_index(players, pid)
    seat = next((i for i, p in enumerate(players, start=1) if p.id == pid), 0)
    return TokenView(seat, PALETTE[index], "black" if index in DARK_TEXT else "white")


def card_view(
    state: CatBoxState, card_id: str, *, marks: bool = True, check: RollCheck | None = None
) -> CardView:
    """A displayed card with its tokens; with ``marks``, the open roll's check on it
    (``check``: the state's ``pending_check()`` when the caller has it already)."""
    card = state.card(card_id)
    shown = state.displayed(card_id)
    if marks and check is None:
        check = state.pending_check()
    elif not marks:
        check = None
    heat: Heat = ""
    if check is not None and card_id in check.bust_cards:
        heat = "bust"
    elif check is not None and card_id in check.too_hot:
        heat = "hot"
    slots: list[SlotView] = []
    for number, condition in enumerate(card.slots, start=1):
        mark: Mark = ""
        if check is not None and (card_id, number) in check.allowed:
            mark = "allowed"
        elif check is not None and (card_id, number) in check.met:
            mark = "met"
        holders = shown.tokens[number - 1] if shown is not None else ()
        tokens = tuple(token_view(state.players, pid) for pid in holders)
        slots.append(SlotView(number, condition, mark, tokens))
    return CardView(
        card.id,
        Name(card.name, card.name_zh),
        card.hiss,
        card.score,
        card.envy.pip,
        heat,
        tuple(slots),
    )


def player_rows(state: CatBoxState) -> tuple[PlayerRow, ...]:
    rows: list[PlayerRow] = []
    running = state.ended is None
    for player in state.players:
        seat = state.seat(player.id)
        marker: Marker = ""
        if player.id == state.current and running:
            marker = "turn"
        elif state.final_queue and player.id in state.final_queue:
            marker = "last-action"
        won = tuple(
            WonCard(Name(state.card(c).name, state.card(c).name_zh), state.card(c).score)
            for c in seat.won
        )
        rows.append(
            PlayerRow(
                player.id,
                fit_name(player.name),
                token_view(state.players, player.id),
                marker,
                seat.status,
                seat.held,
                seat.owned,
                won,
                state.score(player.id),
            )
        )
    return tuple(rows)


def table_view(state: CatBoxState, *, board: bool = False) -> TableView:
    """Everything both screens show; ``board`` leaves out the host's roll marks."""
    if not state.dealt or state.card_set is None:
        banner = Banner(False, 0, 0, None, False, None, False)
        return TableView(banner, (), (), None, ())
    running = state.ended is None
    banner = Banner(
        dealt=True,
        round=state.round,
        deck=len(state.deck),
        turn=state.name(state.current) if state.current is not None and running else None,
        last_round=state.last_round and running,
        set_name=Name(state.card_set.name, state.card_set.name_zh),
        default_set=state.card_set.default,
    )
    check = None if board else state.pending_check()  # once for the four cards
    cards = tuple(card_view(state, d.card, marks=not board, check=check) for d in state.display)
    pending = state.pending
    roll = (
        RollView(
            pending.player,
            pending.common,
            pending.rolled,
            pending.adjusted,
            pending.envy is not None,
        )
        if pending is not None
        else None
    )
    return TableView(banner, cards, player_rows(state), roll, state.notices)
