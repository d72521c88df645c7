"""Pure rules of every game, and the registry that names them.

A game is *available* once its rules module exists and exposes ``GAME``; until its
issue lands an entry is listed as not yet available rather than faked.
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass
from typing import Any

from companion.rules.base import N_, Game, SetupError


@dataclass(frozen=True)
class GameInfo:
    """A registry entry: the id, display names in both languages, and aliases."""

    id: str
    name_en: str
    name_zh: str
    module: str
    aliases: tuple[str, ...] = ()

    @property
    def available(self) -> bool:
        try:
            return importlib.util.find_spec(self.module) is not None
        except ModuleNotFoundError:
            return False

    def name(self, lang: str) -> str:
        return self.name_zh if lang.startswith("zh") else self.name_en

    def load(self) -> Game[Any]:
        """The game's rules, or ``SetupError`` if it is not available yet."""
        if not self.available:
            raise SetupError(N_("{game} is not available yet."), game=self.name_en)
        game: Game[Any] = importlib.import_module(self.module).GAME
        return game


GAMES: tuple[GameInfo, ...] = (
    GameInfo("meeple-circus", "Meeple Circus", "米宝马戏团",
             "companion.rules.meeple_circus", ("meeple", "circus", "mc")),
    GameInfo("meowfia", "Meowfia", "喵喵咪呀", "companion.rules.meowfia", ("miaomiao",)),
    GameInfo("shadow-cats", "Shadow Cats", "喵窩暗影", "companion.rules.shadow_cats",
             ("shadow", "cats")),
    GameInfo("cat-box", "Nine Cards: Cat Box", "九张牌：喵喵开箱", "companion.rules.cat_box",
             ("catbox", "box")),
    GameInfo("scorepad", "Score pad", "计分板", "companion.rules.scorepad", ("pad", "score")),
)


def find_game(name: str) -> GameInfo:
    """The entry for an id or alias (case-insensitive), or ``SetupError``.

    >>> find_game("Pad").id
    'scorepad'
    """
    key = name.strip().lower()
    for info in GAMES:
        if key == info.id or key in info.aliases:
            return info
    raise SetupError(N_("Unknown game {name!r}. Known games: {known}."),
                     name=name, known=", ".join(g.id for g in GAMES))
