"""The plug-in record of one game: every part, named once, in one place.

Design decisions:

* One explicit record per game (Harlequin's adapter registry): ids, aliases, names in
  both languages, BGG id, and every part. ``companion/games/__init__.py`` lists the
  records; nothing is found by guessing a module name, and a missing part fails
  ``tests/foundation/test_registry.py`` loudly instead of being listed "not yet available".
* The pure parts (rules, guide, termination enum) are objects on the record. The parts
  that need Textual or the session side (screen, board view, preparer) are ``Part``
  references resolved on first use: the session layer and the CLI read the registry
  without importing Textual (it is slow to import, and ``session`` must never see it).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from companion.rules.base import Game
from companion.rules.guide import Guide, Termination


@dataclass(frozen=True)
class Part:
    """An explicit reference ``module:attribute`` (or a whole module) loaded on first use."""

    module: str
    attribute: str | None = None

    def load(self) -> Any:
        module = importlib.import_module(self.module)
        return module if self.attribute is None else getattr(module, self.attribute)


@dataclass(frozen=True)
class GameInfo:
    """A registry record: everything the companion knows about one game."""

    id: str
    name_en: str
    name_zh: str
    rules: Game[Any]
    screen: Part
    """The host screen class (a ``GameScreen``)."""
    board: Part
    """The players' board view class (a ``BoardView``)."""
    prepare: Part | None = None
    """The preparer: rolls, deals and reads data files, returning actions to record
    (``None`` for a game that draws nothing and reads no file, such as the score pad)."""
    guide: Guide[Any] | None = None
    termination: type[Termination] | None = None
    aliases: tuple[str, ...] = ()
    bgg_id: int | None = None
    """BoardGameGeek id (for BG Stats exports); ``None`` where the game has none."""

    def name(self, lang: str) -> str:
        return self.name_zh if lang.startswith("zh") else self.name_en

    def load(self) -> Game[Any]:
        """The game's rules (kept for callers written before the plug-in record)."""
        return self.rules
