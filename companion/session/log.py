"""Undo and redo as log entries, and the fold that turns a log into a state.

Semantics (the usual editor stack, recorded instead of rewritten):

* an ``action`` entry is pushed on the *done* stack and clears the *redo* stack;
* an ``undo`` entry pops the newest done action onto the redo stack;
* a ``redo`` entry pops the newest undone action back onto the done stack;
* ``hw`` entries (raw hardware events) never change the state.

The state is the fold of the game's ``apply`` over the done stack, in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.rules.base import Game, Outcome, Player, RuleError
from companion.rules.guide import Guide
from companion.session.store import Entry


def is_finished(game: Game[Any], guide: Guide[Any] | None, state: Any) -> bool:
    """The one rule for every game: a session is finished when its guide allows nothing
    more (and so the game has its outcome).

    A game over that still takes an entry (喵喵咪呀's Undercover after a Police win,
    喵窩暗影's final identities) is *not* finished: it stays listed for resume, is
    offered at start, and exports wait for it. ``tests/foundation/test_finished.py``
    checks, for every registered game and every state random play reaches, that
    ``allowed`` is empty exactly when this says finished.
    """
    if game.outcome(state) is None:
        return False
    return guide is None or not guide.allowed(state)


class ReplayError(Exception):
    """An entry of a log does not replay. ``index`` is 0-based in the entry list."""

    def __init__(self, index: int, seq: int, error: RuleError | str) -> None:
        self.index = index
        self.seq = seq
        self.error = error
        message = error if isinstance(error, str) else str(error)
        super().__init__(f"entry {index} (seq {seq}): {message}")


@dataclass
class Stacks:
    """Which action entries are in effect after a prefix of the log."""

    done: list[Entry]
    undone: list[Entry]

    @classmethod
    def empty(cls) -> Stacks:
        return cls([], [])

    def push(self, entry: Entry) -> str | None:
        """Apply one entry to the stacks; return a problem instead of raising."""
        if entry.kind == "action":
            self.done.append(entry)
            self.undone.clear()
        elif entry.kind == "undo":
            if not self.done:
                return "undo with nothing to undo"
            target = entry.payload.get("undoes")
            if target is not None and target != self.done[-1].seq:
                return f"undo names seq {target}, but the newest action is {self.done[-1].seq}"
            self.undone.append(self.done.pop())
        elif entry.kind == "redo":
            if not self.undone:
                return "redo with nothing to redo"
            target = entry.payload.get("redoes")
            if target is not None and target != self.undone[-1].seq:
                return f"redo names seq {target}, but the newest undone is {self.undone[-1].seq}"
            self.done.append(self.undone.pop())
        elif entry.kind != "hw":
            return f"unknown entry kind {entry.kind!r}"
        return None


def replay(
    game: Game[Any], players: Sequence[Player], options: dict[str, Any], entries: Sequence[Entry]
) -> tuple[Any, Outcome | None]:
    """Re-apply a whole log with the current rules: ``(state, outcome)``.

    Raises ``ReplayError`` naming the first entry that breaks the rules. Every
    action is applied in log order (also ones later undone), so an undone entry that
    was illegal is still caught; the result is the fold of the effective ones.
    """
    try:
        initial = game.setup(players, game.stored_options(options))
    except RuleError as exc:
        raise ReplayError(-1, 0, exc) from exc
    _stacks, states = fold(game, initial, entries)
    return states[-1], game.outcome(states[-1])


def fold(game: Game[Any], initial: Any, entries: Sequence[Entry]) -> tuple[Stacks, list[Any]]:
    """The undo/redo stacks and the state after each effective action.

    ``states[0]`` is ``initial``; ``states[-1]`` is the current state. Raises
    ``ReplayError`` at the first entry that does not apply.
    """
    states: list[Any] = [initial]
    stacks = Stacks.empty()
    for index, entry in enumerate(entries):
        problem = stacks.push(entry)
        if problem:
            raise ReplayError(index, entry.seq, problem)
        if entry.kind == "action":
            try:
                action = game.parse_action(entry.payload)
                states.append(game.apply(states[-1], action))
            except RuleError as exc:
                raise ReplayError(index, entry.seq, exc) from exc
        elif entry.kind == "undo":
            states.pop()
        elif entry.kind == "redo":
            redone = stacks.done[-1]
            try:
                states.append(game.apply(states[-1], game.parse_action(redone.payload)))
            except RuleError as exc:  # pragma: no cover - deterministic rules
                raise ReplayError(index, entry.seq, exc) from exc
    return stacks, states
