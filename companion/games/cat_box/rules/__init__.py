"""九张牌：喵喵开箱 Nine Cards: Cat Box — push-your-luck dice, hiss checks, opening boxes.

The rules page is ``docs/rules/cat-box.md`` (the companion's reading of it:
``docs/games/cat-box.md``). The package is split by reason to change:
``conditions`` (the tease-condition vocabulary), ``cards`` (card data and the TOML
card-file format), ``actions``, ``state`` (with the roll check the screen shows) and
``game`` (``apply``). ``default_cards.toml`` is the shipped, made-up
default set; the session layer reads it (rules do no I/O).
"""

from companion.games.cat_box.rules.actions import (
    AdjustTokens,
    Deal,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    UseEnvy,
)
from companion.games.cat_box.rules.cards import (
    BoxCard,
    CardSet,
    Envy,
    check_card_set,
    parse_card_file,
)
from companion.games.cat_box.rules.game import GAME, CatBox
from companion.games.cat_box.rules.state import (
    BIG_TOKEN,
    INSTANT_WIN,
    CatBoxState,
    DisplayedCard,
    Notice,
    PendingRoll,
    RollCheck,
    Seat,
    Termination,
)

DEFAULT_CARDS = "default_cards.toml"
"""The shipped default card set, a data file inside this package."""

__all__ = [
    "BIG_TOKEN",
    "DEFAULT_CARDS",
    "GAME",
    "INSTANT_WIN",
    "AdjustTokens",
    "BoxCard",
    "CardSet",
    "CatBox",
    "CatBoxState",
    "Deal",
    "DisplayedCard",
    "Envy",
    "Notice",
    "Open",
    "Pass",
    "PendingRoll",
    "Place",
    "RemoveToken",
    "Retire",
    "Roll",
    "RollCheck",
    "Seat",
    "SetDice",
    "Termination",
    "UseEnvy",
    "check_card_set",
    "parse_card_file",
]
