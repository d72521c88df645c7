"""The plug-in record of one game: every part, named once, in one place.

Design decisions:

* One explicit record per game (Harlequin's adapter registry): ids, aliases, names in
  both languages, BGG id, and every part. ``companion/games/__init__.py`` lists the
  records; nothing is found by guessing a module name, and a missing part fails
  ``tests/foundation/test_registry.py`` loudly instead of being listed "not yet available".
* Every part is a ``Part`` reference resolved on first use (``info.rules``,
  ``info.guide``, ``info.screen.load()``): reading the registry imports no game, so
  the home screen comes up without importing four rules packages (300 ms on the
  2-core machine) and the session layer and the CLI never import Textual through it.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
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
    rules_part: Part
    """The rules object (a ``Game``)."""
    screen: Part
    """The host screen class (a ``GameScreen``)."""
    board: Part
    """The players' board view class (a ``BoardView``)."""
    prepare: Part | None = None
    """The preparer: rolls, deals and reads data files, returning actions to record
    (``None`` for a game that draws nothing and reads no file, such as the score pad)."""
    guide_part: Part | None = None
    """The host guide (a ``Guide``)."""
    termination_part: Part | None = None
    """The game's ``Termination`` enum."""
    testing_part: Part | None = None
    """The testing hook (a ``companion.rules.testing.GameTesting``) that the conformance
    suite plays the game with; every registered game has one (the suite says so)."""
    aliases: tuple[str, ...] = ()
    bgg_id: int | None = None
    """BoardGameGeek id (for BG Stats exports, read from here only); ``None`` where the
    game has none we could verify (BG Stats then matches the play by name)."""
    catch_all: bool = False
    """A sheet for any other game (the score pad): listed after every real game,
    wherever its registry line stands."""
    side_labels: Mapping[str, str] = field(default_factory=dict)
    """The sides/roles its outcomes store (``Outcome`` winners' ``side``) → an English
    label marked with ``N_``, translated in the game's domain (history and stats)."""

    @property
    def domain(self) -> str:
        """The game's folder under ``companion/games/`` (from its rules' module path):
        its translation domain, whose catalog ``companion/games/<domain>/locale/`` is
        read before the shared one while the game is shown (``companion.i18n``)."""
        return self.rules_part.module.split(".")[2]

    def name(self, lang: str) -> str:
        return self.name_zh if lang.startswith("zh") else self.name_en

    @property
    def rules(self) -> Game[Any]:
        game: Game[Any] = self.rules_part.load()
        return game

    @property
    def guide(self) -> Guide[Any] | None:
        guide: Guide[Any] | None = self.guide_part.load() if self.guide_part else None
        return guide

    @property
    def termination(self) -> type[Termination] | None:
        enum: type[Termination] | None = (
            self.termination_part.load() if self.termination_part else None
        )
        return enum

    @property
    def testing(self) -> Any:
        """The testing hook, or ``None`` (a failure of the conformance suite)."""
        return self.testing_part.load() if self.testing_part else None

    def load(self) -> Game[Any]:
        """The game's rules."""
        return self.rules
