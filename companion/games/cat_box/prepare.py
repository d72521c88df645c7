"""喵喵开箱: read a card file and deal, with the session's randomness.

Design decisions:

* The rules parse card files but never read them (no I/O in rules); this module
  reads the host's file (the ``card_file`` option) or the default set shipped in
  the rules package, and hands the text to ``parse_card_file``.
* The deck is shuffled and (if the host left it to chance) the start player
  drawn with ``session.rng``, and the result goes *into* a ``deal`` action together
  with the whole parsed card set: the log, not the file, is the record, so a
  replay is exact even after the file is edited or lost.
* Dice the companion rolls come from ``session.rng`` too and go into ``roll``.
"""

from __future__ import annotations

import random
from importlib.resources import files
from pathlib import Path

from companion.games.cat_box.rules import DEFAULT_CARDS, CardSet, Deal, parse_card_file
from companion.rules.base import N_, DataFileError, Player

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
