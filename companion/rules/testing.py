"""The testing hook every game offers the one conformance suite (issue 25).

Each game folder holds a ``testing.py`` whose ``TESTING`` (a ``GameTesting``) its
record names (``GameInfo.testing``). ``tests/conformance/`` runs every registered
game through the same properties with it: ``allowed`` is exactly what ``apply``
accepts, actions round-trip through the codec, random legal games replay from their
export and resume after every step, the board never shows what the hook declares
hidden, every shown sentence is translated in the game's own catalog, the start
player agrees with its log entries. A new game gets all of it by registering.

The hook only proposes input: ``candidates`` (actions worth trying now, legal or
not, at least one accepted of every allowed type) and ``random_step`` (a legal one,
by default drawn from the accepted candidates). Randomness comes from the ``rng``
the suite passes in (a ``random.Random``; typed ``Any`` here, as the rules layer
imports nothing impure), so a failing seed replays.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from companion.rules.base import Action, Game, RuleError

S = TypeVar("S")


class GameTesting(ABC, Generic[S]):
    """What the conformance suite needs to play a game at random."""

    tables: ClassVar[tuple[int, ...]]
    """Player counts to try (the smallest and a large table, say)."""
    options: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    """Option sets to try (each checked by the game's ``check_options``)."""
    steps: ClassVar[int] = 120
    """How many random steps one game takes at most."""

    @abstractmethod
    def candidates(self, state: S, rng: Any) -> Sequence[Action]:
        """Actions worth trying now: of every type the rules accept now at least one
        that passes, plus ones that should be refused."""

    def random_step(self, game: Game[S], state: S, rng: Any) -> Action | None:
        """A legal action to play now (``None``: nothing can be played)."""
        legal = [a for a in self.candidates(state, rng) if accepts(game, state, a)]
        return rng.choice(legal) if legal else None

    def hidden_texts(self, state: S) -> frozenset[str]:
        """Texts the players' board must never show in this state (what only the host
        sees); empty for a game with nothing hidden."""
        return frozenset()


def accepts(game: Game[S], state: S, action: Action) -> bool:
    try:
        game.apply(state, action)
    except RuleError:
        return False
    return True
