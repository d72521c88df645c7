"""喵窩暗影 at the session layer: reading the roster file, and every random draw.

Design decisions:

* The rules never open files or roll dice. This module reads the roster file (the
  shipped default or the host's ``roster_file`` option) and rolls with the session's
  ``rng``; the results go *into* actions (``setup`` carries the roster's whole text,
  ``move`` every 2d6 sum including re-rolls, ``attack`` the d100 face). Replay
  therefore never reads the file again and never rolls.
* Every draw becomes an action the moment it is made (``deal``, ``begin``, ``place``,
  ``move``/``move-dice``, ``attack``): the screen calls these functions (on the writer
  thread, with ``session.rng``) and records what they return; it never rolls itself.
  Dice typed in from the table come in as ``typed`` and the procedure continues
  from them, so physical and companion dice mix in one move.
* Dice follow the table's procedure literally: a start position re-rolls 7s, a move
  re-rolls a sum that lands where the player already is, and the layout is re-dealt
  while the Warp Stone would be in the centre.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from companion.games.shadow_cats.rules import DEFAULT_ROSTER_NAME
from companion.games.shadow_cats.rules.actions import (
    Attack,
    Begin,
    Deal,
    Move,
    MoveDice,
    Place,
    Setup,
)
from companion.games.shadow_cats.rules.board import (
    AGAIN,
    CENTRE,
    FREE_CHOICE,
    LOCATIONS,
    roll_outcome,
)
from companion.games.shadow_cats.rules.game import DECK_SIZE
from companion.games.shadow_cats.rules.roster import Roster, parse_roster
from companion.games.shadow_cats.rules.state import Draft
from companion.rules.base import N_, DataFileError, Player, PlayerId

MAX_ROSTER_BYTES = 1_000_000


@dataclass(frozen=True)
class RosterSource:
    """A roster's text and the name its messages use."""

    file_name: str
    text: str

    def parse(self) -> Roster:
        return parse_roster(self.text, self.file_name)


def default_roster() -> RosterSource:
    """The roster shipped in the rules package."""
    ref = resources.files("companion.games.shadow_cats.rules").joinpath(DEFAULT_ROSTER_NAME)
    return RosterSource(DEFAULT_ROSTER_NAME, ref.read_text(encoding="utf-8"))


def read_roster(path: str | None) -> RosterSource:
    """The host's roster file (``~`` expanded), or the default when ``path`` is empty.

    Raises ``DataFileError`` naming the file when it cannot be read or is not UTF-8.
    """
    if not path or not path.strip():
        return default_roster()
    file = Path(path.strip()).expanduser()
    try:
        if file.stat().st_size > MAX_ROSTER_BYTES:
            raise DataFileError(N_("{file}: a roster file is at most 1 MB."), file=str(file))
        text = file.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise DataFileError(N_("{file}: the file is not UTF-8 text."), file=str(file)) from None
    except OSError as exc:
        raise DataFileError(
            N_("{file}: cannot be read ({problem})."),
            file=str(file),
            problem=exc.strerror or str(exc),
        ) from None
    return RosterSource(str(file), text)


# --------------------------------------------------------------------------- dice


def roll_2d6(rng: random.Random) -> int:
    return rng.randint(1, 6) + rng.randint(1, 6)


def roll_d100(rng: random.Random) -> int:
    return rng.randint(1, 100)


def roll_start(rng: random.Random, typed: Sequence[int] = ()) -> tuple[int, ...]:
    """Start position: 2d6 until the sum is not 7 (no free choice at the start).

    ``typed`` are the sums already rolled at the table (all 7s); rolling goes on from them.
    """
    rolls = [*typed, roll_2d6(rng)]
    while rolls[-1] == FREE_CHOICE:
        rolls.append(roll_2d6(rng))
    return tuple(rolls)


def needs_reroll(total: int, here: str | None) -> bool:
    """A move roll is rolled again when it would leave the player where they are."""
    return roll_outcome(total, here) == AGAIN


def roll_move(rng: random.Random, here: str | None, typed: Sequence[int] = ()) -> tuple[int, ...]:
    """Move: 2d6 until the sum is a 7 or lands somewhere else than ``here`` (going on
    from the ``typed`` re-rolls already made at the table)."""
    rolls = [*typed, roll_2d6(rng)]
    while needs_reroll(rolls[-1], here):
        rolls.append(roll_2d6(rng))
    return tuple(rolls)


# --------------------------------------------------------------------------- deals


def deal_layout(rng: random.Random) -> tuple[str, ...]:
    """Shuffle the seven location cards onto the slots; re-deal if the Warp Stone is
    in the centre (as the table does)."""
    cards = list(LOCATIONS)
    while True:
        rng.shuffle(cards)
        if cards[CENTRE] != "warp":
            return tuple(cards)


def deal_character_pairs(
    roster: Roster, players: int, rng: random.Random
) -> tuple[tuple[str, ...], ...]:
    """Two character cards for each player (each keeps one), or one each when the
    roster is too small for pairs."""
    ids = [c.id for c in roster.characters]
    rng.shuffle(ids)
    if len(ids) >= 2 * players:
        return tuple((ids[2 * i], ids[2 * i + 1]) for i in range(players))
    return tuple((ids[i],) for i in range(min(players, len(ids))))


def deal_equipment(
    roster: Roster, characters: Sequence[str], rng: random.Random
) -> tuple[str, ...]:
    """The in-play characters' own items, then random others up to 12 of each kind."""
    deck: list[str] = []
    in_play = set(characters)
    for kind in ("weapon", "armour"):
        own = [i.id for i in roster.items if i.kind == kind and i.owner in in_play]
        others = [i.id for i in roster.items if i.kind == kind and i.owner not in in_play]
        rng.shuffle(others)
        deck += own + others[: max(0, DECK_SIZE - len(own))]
    return tuple(deck)


def random_setup(
    source: RosterSource,
    players: Sequence[Player],
    rng: random.Random,
    characters: Sequence[str] | None = None,
    layout: Sequence[str] | None = None,
    counts: tuple[int, int, int] | None = None,
    first_player: str | None = None,
) -> Setup:
    """A complete ``setup`` action; anything not given is dealt with ``rng``.

    Raises ``DataFileError`` if the roster is invalid or has no identity counts for
    this number of players and none are given.
    """
    roster = source.parse()
    n = len(players)
    if characters is None:
        characters = tuple(pair[0] for pair in deal_character_pairs(roster, n, rng))
    if counts is None:
        found = roster.counts_for(n)
        if found is None:
            raise DataFileError(
                N_("{file}: [identities] has no counts for {count} players."),
                file=source.file_name,
                count=n,
            )
        counts = (found.red, found.blue, found.neutral)
    return Setup(
        roster_file=source.file_name,
        roster=source.text,
        characters=tuple(characters),
        layout=tuple(layout) if layout is not None else deal_layout(rng),
        red=counts[0],
        blue=counts[1],
        neutral=counts[2],
        first_player=first_player or rng.choice(players).id,
        equipment_deck=deal_equipment(roster, characters, rng),
    )


# --------------------------------------------------------------------------- actions


def deal(source: RosterSource, players: Sequence[Player], rng: random.Random) -> Deal:
    """The setup draft: character cards, layout and first player, dealt now.

    Raises ``DataFileError`` when the roster is invalid or has too few characters.
    """
    roster = source.parse()
    if len(roster.characters) < len(players):
        raise DataFileError(
            N_("{file}: {count} players need at least {count} characters."),
            file=source.file_name,
            count=len(players),
        )
    return Deal(
        roster_file=source.file_name,
        roster=source.text,
        pairs=deal_character_pairs(roster, len(players), rng),
        layout=deal_layout(rng),
        first_player=rng.choice(list(players)).id,
    )


def begin(draft: Draft, rng: random.Random) -> Begin:
    """Start the game from the draft: the equipment deck is dealt now."""
    return Begin(deal_equipment(draft.roster, draft.characters, rng))


def place(rng: random.Random, player: PlayerId, typed: Sequence[int] = ()) -> Place:
    """A start position rolled now (after the 7s typed in from the table, if any)."""
    return Place(player, roll_start(rng, typed))


def move_from(
    player: PlayerId, rolls: Sequence[int], destination: str | None = None
) -> Move | MoveDice:
    """The action for a move's finished dice: a whole ``move``, or ``move-dice`` for a 7
    whose destination is chosen next (unless it is given)."""
    if rolls[-1] == FREE_CHOICE and destination is None:
        return MoveDice(player, tuple(rolls))
    return Move(player, tuple(rolls), destination)


def move(
    rng: random.Random, player: PlayerId, here: str | None, typed: Sequence[int] = ()
) -> Move | MoveDice:
    """A move rolled now (going on from the re-rolls typed in from the table)."""
    return move_from(player, roll_move(rng, here, typed))


def attack(rng: random.Random, player: PlayerId, target: PlayerId) -> Attack:
    """An attack whose d100 is rolled now."""
    return Attack(player, target, roll_d100(rng))
