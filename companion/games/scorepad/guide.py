"""The score pad's host guide: what can be done now, what to do next, what happened."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.scorepad.rules import CloseRound, EndGame, Score, ScorepadState
from companion.rules.base import N_, Action
from companion.rules.guide import Guide, Say, say


def _name(state: ScorepadState, pid: str) -> str:
    return next((p.name for p in state.players if p.id == pid), pid)


class ScorepadGuide(Guide[ScorepadState]):
    summary = N_(
        "Score pad: a plain score sheet for any game.\n"
        "Write points for a player in the open round (positive or negative), as many "
        "entries as you like; close the round when everyone has played it.\n"
        "After an entry the highlight moves on to the next player by itself: press "
        "Enter again for them, or an arrow key to move from there.\n"
        "With a target score the game ends when a round is closed in which some total "
        "reached the target, so everyone has the same number of turns. The host can end "
        "the game at any time. Highest (or lowest) total wins; equal totals share the win."
    )

    def title(self, options: Mapping[str, Any]) -> str | None:
        name = str(options.get("game_name") or "").strip()
        return name or None

    def phase(self, state: ScorepadState) -> str:
        if state.ended is not None:
            return "over"
        return "round" if state.current else "round-empty"

    def allowed(self, state: ScorepadState) -> frozenset[str]:
        if state.ended is not None:
            return frozenset()
        if state.current:
            return frozenset({Score.type, CloseRound.type, EndGame.type})
        return frozenset({Score.type, EndGame.type})

    def prompt(self, state: ScorepadState) -> Say:
        if state.ended is not None:
            return say(N_("The game is over; undo to change it."))
        if not state.current:
            return say(N_("Round {n}: write each player's points."), n=state.round_number)
        return say(
            N_("Round {n}: write more points, or close the round (c)."), n=state.round_number
        )

    def why_not(self, state: ScorepadState, action_type: str) -> Say:
        if state.ended is not None:
            return say(N_("The game is over; undo to change it."))
        if action_type == CloseRound.type:
            return say(N_("Round {n} has no scores yet."), n=state.round_number)
        return super().why_not(state, action_type)

    def describe(self, action: Action, before: ScorepadState, after: ScorepadState) -> Say:
        if isinstance(action, Score):
            return say(
                N_("{name} {points} in round {n} (total {total})"),
                name=_name(before, action.player),
                points=f"{action.points:+d}",
                n=before.round_number,
                total=after.totals()[action.player],
            )
        if isinstance(action, CloseRound):
            if after.ended is not None:
                return say(N_("Round {n} closed; the target is reached."), n=before.round_number)
            return say(N_("Round {n} closed."), n=before.round_number)
        if isinstance(action, EndGame):
            return say(N_("The host ended the game."))
        return say("{type}", type=action.type)


GUIDE = ScorepadGuide()
