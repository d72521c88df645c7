"""A session being played: the one place where actions are checked, logged and folded.

Design decisions:

* ``act`` applies the action to the current state *first*: a ``RuleError`` leaves
  both the state and the database untouched. Only then is the entry committed, and
  only after the commit does the in-memory state change. So whatever the screen
  shows is already on disk.
* States after each effective action are kept on a stack, so undo is a pop and
  redo re-applies one action: no replay of the whole log per key press.
* Time and randomness are owned here (``clock``, ``rng``) and passed *into*
  actions by the caller; the rules never read them.
* One lock serialises every mutation: the UI writer thread and a hardware reader
  thread may both record entries.
* No seq counter lives here: the store computes every seq inside the write
  transaction (``Store.append_next``). An action, undo or redo is computed from the
  state as of the newest entry this session has seen; if the database holds a newer
  one (a second window wrote it), the write is refused (``StaleSessionError``),
  the session reloads what the other window wrote, and the host tries again. A
  hardware entry does not depend on the state, so it is always written; if it
  lands after entries this session had not seen, the session reloads them.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import GameInfo, find_game
from companion.rules.base import (
    N_,
    Action,
    Game,
    IllegalActionError,
    Outcome,
    Player,
    action_to_json,
)
from companion.session.clock import Clock, SystemClock

__all__ = [
    "Change",
    "Clock",
    "LiveSession",
    "NothingToRedoError",
    "NothingToUndoError",
    "StaleSessionError",
    "SystemClock",
]
from companion.session.log import Stacks, fold, is_finished
from companion.session.store import Entry, SessionRow, StaleError, Store


class NothingToUndoError(IllegalActionError):
    """Undo with an empty history."""


class NothingToRedoError(IllegalActionError):
    """Redo with nothing undone since the last new action."""


class StaleSessionError(IllegalActionError):
    """Another window wrote to this session; it was reloaded and nothing was written."""


@dataclass(frozen=True)
class Change:
    """What one committed entry did (returned to the UI)."""

    entry: Entry
    state: Any
    outcome: Outcome | None


class LiveSession:
    """A running session bound to a store. Create with ``start`` or ``resume``."""

    def __init__(
        self,
        store: Store,
        row: SessionRow,
        info: GameInfo,
        game: Game[Any],
        initial: Any,
        clock: Clock | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.store = store
        self.row = row
        self.info = info
        self.game = game
        self.clock: Clock = clock or SystemClock()
        self.rng = rng or random.SystemRandom()
        self._lock = threading.RLock()
        self._entries: list[Entry] = []
        self._stacks = Stacks.empty()
        self._states: list[Any] = [initial]
        self._initial = initial

    # ------------------------------------------------------------------ creation

    @classmethod
    def start(
        cls,
        store: Store,
        game_id: str,
        players: Sequence[Player],
        options: Mapping[str, Any],
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
        session_id: str | None = None,
    ) -> LiveSession:
        """Check the setup, then create the session row. Bad setup writes nothing.

        ``session_id``: the row's id (default: a new uuid; the tour's demos use it).
        """
        info = find_game(game_id)
        game = info.load()
        opts = game.check_options(options)
        initial = game.setup(tuple(players), opts)
        clock = clock or SystemClock()
        sid = store.create_session(
            info.id, opts, players, session_id=session_id, started_at=clock.now()
        )
        return cls(store, store.session(sid), info, game, initial, clock, rng)

    @classmethod
    def resume(
        cls,
        store: Store,
        session_id: str,
        *,
        clock: Clock | None = None,
        rng: random.Random | None = None,
    ) -> LiveSession:
        """Rebuild a session from its log exactly as it was."""
        row = store.session(session_id)
        info = find_game(row.game)
        game = info.load()
        initial = game.setup(row.players, game.stored_options(row.options))
        live = cls(store, row, info, game, initial, clock, rng)
        live._load(store.entries(row.id))
        return live

    def _load(self, entries: list[Entry]) -> None:
        # One pass: checks every entry (ReplayError if the log no longer applies)
        # and keeps the state stack for undo.
        self._stacks, self._states = fold(self.game, self._initial, entries)
        self._entries = entries

    def reload(self) -> None:
        """Read the whole log again (another window wrote to it)."""
        with self._lock:
            self.row = self.store.session(self.id)
            self._load(self.store.entries(self.id))

    @property
    def last_seq(self) -> int:
        """The newest seq this session has seen (0 before the first entry)."""
        return self._entries[-1].seq if self._entries else 0

    # ------------------------------------------------------------------ reading

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def players(self) -> tuple[Player, ...]:
        return self.row.players

    @property
    def options(self) -> dict[str, Any]:
        return self.row.options

    @property
    def state(self) -> Any:
        return self._states[-1]

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)

    @property
    def finished(self) -> bool:
        """The game has its outcome and its guide allows nothing more (``is_finished``)."""
        return self._finished(self.state)

    def _finished(self, state: Any) -> bool:
        return is_finished(self.game, self.info.guide, state)

    @property
    def entries(self) -> list[Entry]:
        return list(self._entries)

    @property
    def undone(self) -> set[int]:
        return {e.seq for e in self._stacks.undone}

    @property
    def can_undo(self) -> bool:
        return bool(self._stacks.done)

    @property
    def can_redo(self) -> bool:
        return bool(self._stacks.undone)

    def player(self, pid: str) -> Player:
        for p in self.players:
            if p.id == pid:
                return p
        raise KeyError(pid)

    # ------------------------------------------------------------------ writing

    def act(self, action: Action | Mapping[str, Any]) -> Change:
        """Check, commit, then apply one action. ``RuleError`` changes nothing."""
        with self._lock:
            parsed = action if isinstance(action, Action) else self.game.parse_action(action)
            new_state = self.game.apply(self.state, parsed)
            outcome = self.game.outcome(new_state)
            return self._commit("action", action_to_json(parsed), new_state, outcome)

    def undo(self) -> Change:
        with self._lock:
            if not self._stacks.done:
                raise NothingToUndoError(N_("Nothing to undo."))
            target = self._stacks.done[-1]
            state = self._states[-2]
            return self._commit("undo", {"undoes": target.seq}, state, self.game.outcome(state))

    def redo(self) -> Change:
        with self._lock:
            if not self._stacks.undone:
                raise NothingToRedoError(N_("Nothing to redo."))
            target = self._stacks.undone[-1]
            state = self.game.apply(self.state, self.game.parse_action(target.payload))
            return self._commit("redo", {"redoes": target.seq}, state, self.game.outcome(state))

    def record_hardware(self, payload: Mapping[str, Any], mono_ns: int | None = None) -> Entry:
        """Keep a raw hardware event (accepted or not) beside the actions."""
        with self._lock:
            seen = self.last_seq
            entry = self.store.append_next(
                self.id,
                "hw",
                dict(payload),
                mono_ns if mono_ns is not None else self.clock.monotonic_ns(),
                at=self.clock.now(),
            )
            if entry.seq == seen + 1:
                self._entries.append(entry)
            else:  # another window wrote in between: take its entries too
                self.reload()
            return entry

    def abandon(self) -> None:
        """Stop offering this session for resume; it stays in history, marked."""
        with self._lock:
            self.store.set_status(self.id, "abandoned")

    def _commit(
        self, kind: str, payload: dict[str, Any], new_state: Any, outcome: Outcome | None
    ) -> Change:
        was_over = self.game.outcome(self.state) is not None
        was_finished = self._finished(self.state)
        finished = outcome is not None and self._finished(new_state)
        try:
            entry = self.store.append_next(
                self.id,
                kind,
                payload,
                self.clock.monotonic_ns(),
                after=self.last_seq,
                outcome=outcome.to_json() if outcome is not None else None,
                reopen=was_over and outcome is None,
                at=self.clock.now(),
                finished=finished,
            )
        except StaleError as exc:
            self.reload()
            raise StaleSessionError(
                N_(
                    "This session was changed in another window; it was reloaded and "
                    "nothing was saved. Look at the screen and try again."
                )
            ) from exc
        # Committed: only now does memory change.
        self._entries.append(entry)
        if finished and not was_finished:
            from companion.session.backup import auto_backup  # deferred: rarely needed

            auto_backup(self.store)  # the session just finished: at most one backup a day
        problem = self._stacks.push(entry)
        if problem:  # pragma: no cover - undo/redo checked their stacks above
            raise RuntimeError(problem)
        if kind == "undo":
            self._states.pop()
        else:  # an action or a redo: the state was computed before the commit
            self._states.append(new_state)
        return Change(entry, new_state, outcome)
