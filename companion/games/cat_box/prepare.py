"""喵喵开箱: read a card file and deal, with the session's randomness.

Design decisions:

* The rules parse card files but never read them (no I/O in rules); this module
  reads the host's file (the ``card_file`` option) or the default set shipped in
  the rules package, and hands the text to ``parse_card_file``.
* The deck is shuffled and (if the host left it to chance) the start player
  drawn with ``session.rng``, and the result goes *into* a ``deal`` action together
  with the whole parsed card set: the log, not the file, is the record, so a
  replay is exact even after the file is edited or lost.
* Dice the companion rolls come from ``session.rng`` too and go into ``roll``:
  ``roll_for`` runs on the writer thread (the screen calls
  ``submit(lambda: roll_for(...))``), so the draw is on disk before anyone sees it —
  no kill, no escape, no second dialog can give a free re-roll. The screen never calls
  ``random`` itself.
* ``check_options`` is what the new-session form asks before anything is written: a
  card file that is missing or wrong is refused there, next to its field, instead of
  starting a session with nothing dealt.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

from companion.games.cat_box.rules import (
    DEFAULT_CARDS,
    CardSet,
    CatBoxState,
    Deal,
    Roll,
    parse_card_file,
)
from companion.rules.base import N_, DataFileError, NotYourTurnError, Player, PlayerId, RuleError

DEFAULT_SOURCE = "default"


def default_card_text() -> str:
    """The TOML text of the shipped default set."""
    return files("companion.games.cat_box.rules").joinpath(DEFAULT_CARDS).read_text("utf-8")


def load_card_set(path: str | Path | None) -> tuple[CardSet, str]:
    """``(card set, source)`` from ``path``, or the default set when it is empty.

    Raises ``DataFileError`` naming the file for a missing, unreadable or invalid file.
    """
    if path is None or not str(path).strip():
        return parse_card_file(default_card_text(), DEFAULT_CARDS), DEFAULT_SOURCE
    file = Path(str(path).strip()).expanduser()
    try:
        text = file.read_text("utf-8")
    except FileNotFoundError:
        raise DataFileError(N_("{file}: no such card file."), file=str(file)) from None
    except UnicodeDecodeError:
        raise DataFileError(N_("{file}: a card file must be UTF-8 text."), file=str(file)) from None
    except OSError as exc:
        raise DataFileError(
            N_("{file}: cannot read it: {problem}"),
            file=str(file),
            problem=exc.strerror or str(exc),
        ) from None
    return parse_card_file(text, file.name), str(file)


def make_deal(
    card_set: CardSet,
    players: tuple[Player, ...],
    start_option: str,
    rng: random.Random,
    source: str = DEFAULT_SOURCE,
) -> Deal:
    """Shuffle the non-start cards and pick the start player (unless the host chose)."""
    deck = [c.id for c in card_set.cards if not c.start]
    rng.shuffle(deck)
    start = start_option if start_option != "random" else rng.choice(players).id
    return Deal(card_set=card_set, deck=tuple(deck), start=start, source=source)


def deal_for(players: tuple[Player, ...], options: dict[str, object], rng: random.Random) -> Deal:
    """The ``deal`` action for a session's players and options."""
    card_file = options.get("card_file")
    card_set, source = load_card_set(card_file if isinstance(card_file, str) else None)
    start = options.get("start_player")
    return make_deal(card_set, players, start if isinstance(start, str) else "random", rng, source)


def roll_dice(rng: random.Random, count: int) -> tuple[int, ...]:
    """``count`` fair dice."""
    return tuple(rng.randint(1, 6) for _ in range(count))


COMMON_DICE = 3


def roll_for(
    state: CatBoxState,
    player: PlayerId,
    typed_common: Sequence[int],
    typed_rolled: Sequence[int],
    player_dice: int,
    rng: random.Random,
) -> Roll:
    """The ``roll`` action: the dice the host typed, the missing ones rolled with ``rng``.

    ``player_dice`` (1 or 2) is how many player dice the roll has in all; ``state`` is
    read only to refuse a roll by anyone but the player whose turn it is (nothing is
    drawn then).
    """
    if state.current != player or state.pending is not None:
        raise NotYourTurnError(N_("It is not {name}'s roll now."), name=state.name(player))
    common = (*typed_common, *roll_dice(rng, COMMON_DICE - len(typed_common)))
    rolled = (*typed_rolled, *roll_dice(rng, max(0, player_dice - len(typed_rolled))))
    return Roll(player, tuple(common), tuple(rolled))


def check_options(options: Mapping[str, Any]) -> dict[str, RuleError]:
    """Problems of the new-session form's options, by option name (empty: fine).

    The card file is read and parsed here, so a missing or broken file is refused on
    the form with the reason next to its field (not after the session has started).
    """
    card_file = options.get("card_file")
    if not isinstance(card_file, str) or not card_file.strip():
        return {}
    try:
        load_card_set(card_file)
    except RuleError as error:
        return {"card_file": error}
    return {}
