"""计分板 Score pad: a plain score sheet for any board game.

Rules it enforces (docs/games/scorepad.md):

* 1 to 12 players, unique names.
* Play goes in rounds. Any number of ``score`` entries (positive or negative whole
  points) may be written for any player in the open round.
* ``close-round`` closes the open round and opens the next. With a target score,
  the game ends when a round is closed in which some total reached the target
  (everyone gets the same number of rounds — a careful host's reading).
* ``end`` ends the game by hand at any time.
* "highest wins" or "lowest wins"; equal best totals share the win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from companion.rules.base import (
    N_,
    Action,
    Game,
    GameOverError,
    IllegalActionError,
    OptionSpec,
    Outcome,
    Player,
    PlayerId,
    SetupError,
    action_types_of,
    check_player_count,
    player_by_id,
)
from companion.rules.guide import Termination as BaseTermination


class Termination(BaseTermination):
    """How a score-pad game ended."""

    TARGET_REACHED = "target-reached"
    """A round was closed in which some total reached the target score."""
    HOST_ENDED = "host-ended"
    """The host ended the game by hand (``end``)."""


MIN_PLAYERS = 1
MAX_PLAYERS = 12
MAX_ABS_POINTS = 1_000_000
MAX_GAME_NAME = 60


@dataclass(frozen=True)
class Score(Action):
    """Add ``points`` (may be negative) to ``player`` in the open round."""

    type = "score"
    player: PlayerId
    points: int


@dataclass(frozen=True)
class CloseRound(Action):
    """Close the open round (and end the game if the target was reached)."""

    type = "close-round"


@dataclass(frozen=True)
class EndGame(Action):
    """The host ends the game now."""

    type = "end"


@dataclass(frozen=True)
class ScorepadState:
    players: tuple[Player, ...]
    highest_wins: bool
    target: int | None
    rounds: tuple[tuple[tuple[PlayerId, int], ...], ...]
    """Closed rounds, each as (player, points) entries in the order written."""
    current: tuple[tuple[PlayerId, int], ...] = ()
    """Entries of the open round."""
    ended: Termination | None = None
    """Why the game ended, or None while it runs."""

    @property
    def round_number(self) -> int:
        """1-based number of the open round."""
        return len(self.rounds) + 1

    def totals(self) -> dict[PlayerId, int]:
        totals = {p.id: 0 for p in self.players}
        for entries in (*self.rounds, self.current):
            for pid, pts in entries:
                totals[pid] += pts
        return totals

    def round_points(self, index: int) -> dict[PlayerId, int]:
        """Points per player in round ``index`` (0-based; ``len(rounds)`` = open round)."""
        entries = self.rounds[index] if index < len(self.rounds) else self.current
        out = {p.id: 0 for p in self.players}
        for pid, pts in entries:
            out[pid] += pts
        return out

    def target_reached(self) -> bool:
        return self.target is not None and any(t >= self.target for t in self.totals().values())


class Scorepad(Game[ScorepadState]):
    id = "scorepad"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec("highest_wins", N_("Highest total wins (off: lowest wins)"), bool, True),
        OptionSpec(
            "target",
            N_("Target score that ends the game (0: none)"),
            int,
            0,
            minimum=0,
            maximum=MAX_ABS_POINTS,
        ),
        OptionSpec(
            "game_name",
            N_("Name of the game played (shown in history and exports)"),
            str,
            "",
        ),
    )
    action_types = action_types_of(Score, CloseRound, EndGame)

    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> ScorepadState:
        check_player_count(players, MIN_PLAYERS, MAX_PLAYERS)
        opts = self.check_options(options)
        if len(str(opts.get("game_name") or "")) > MAX_GAME_NAME:
            raise SetupError(N_("A game name has at most {n} characters."), n=MAX_GAME_NAME)
        target = int(opts["target"]) or None
        return ScorepadState(
            players=tuple(players),
            highest_wins=bool(opts["highest_wins"]),
            target=target,
            rounds=(),
        )

    def apply(self, state: ScorepadState, action: Action) -> ScorepadState:
        if state.ended is not None:
            raise GameOverError(N_("The game is over; undo to change it."))
        if isinstance(action, Score):
            player_by_id(state.players, action.player)
            if abs(action.points) > MAX_ABS_POINTS:
                raise IllegalActionError(
                    N_("{points} points is more than a score pad takes."), points=action.points
                )
            return replace(state, current=(*state.current, (action.player, action.points)))
        if isinstance(action, CloseRound):
            if not state.current:
                raise IllegalActionError(N_("Round {n} has no scores yet."), n=state.round_number)
            closed = replace(state, rounds=(*state.rounds, state.current), current=())
            if closed.target_reached():
                return replace(closed, ended=Termination.TARGET_REACHED)
            return closed
        if isinstance(action, EndGame):
            if state.current:
                state = replace(state, rounds=(*state.rounds, state.current), current=())
            return replace(state, ended=Termination.HOST_ENDED)
        raise IllegalActionError(N_("The score pad has no action {type!r}."), type=action.type)

    def outcome(self, state: ScorepadState) -> Outcome | None:
        if state.ended is None:
            return None
        totals = state.totals()
        best = max(totals.values()) if state.highest_wins else min(totals.values())
        winners = tuple(p.id for p in state.players if totals[p.id] == best)
        names = ", ".join(p.name for p in state.players if p.id in winners)
        summary = (
            N_("{names} win with {score}.")
            if len(winners) > 1
            else N_("{names} wins with {score}.")
        )
        return Outcome(
            termination=state.ended,
            winners=winners,
            scores=MappingProxyType(dict(totals)),
            summary=summary,
            params={"names": names, "score": best},
            highest_wins=state.highest_wins,
        )

    def scores(self, state: ScorepadState) -> Mapping[PlayerId, int]:
        return state.totals()

    def progress_label(self, state: ScorepadState) -> str:
        # An ended pad has no open round: its last round is the last one played ("round
        # 6" after five rounds read as a sixth round), unless points were still open.
        if state.ended is not None and not state.current and state.rounds:
            return f"round {len(state.rounds)}"
        return f"round {state.round_number}"


GAME = Scorepad()
