"""Skull host guide (pure): phase, what is allowed, what to do next, a sentence per action."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, get_args

from companion.games.skull.rules import (
    GAME,
    Bid,
    Face,
    LoseDisc,
    Pass,
    Place,
    SkullState,
    TurnOver,
)
from companion.rules.base import N_, Action, PlayerId
from companion.rules.guide import Guide, Say, accepted, say


def _name(state: SkullState, seat: int | None) -> str:
    return state.players[seat].name if seat is not None else ""


class SkullGuide(Guide[SkullState]):
    summary = N_(
        "Skull: each player has 4 discs, 3 flowers and a skull. In the opening everyone "
        "places one disc face down (p). Then, in turn, a player places another disc (p) or "
        "bids (b) how many flowers they will turn over; the others raise (b) or pass (s) "
        "until one bidder is left. The challenger turns over their own stack first, then "
        "the top discs of others' stacks: record each disc as it shows (f flower, k skull). "
        "Enough flowers win the challenge: two wins win the game. A skull loses the "
        "challenger a disc, drawn at random (d); only the host looks at it. A player "
        "without discs is out; the last player standing wins."
    )

    def phase(self, state: SkullState) -> str:
        return state.phase

    def allowed(self, state: SkullState) -> frozenset[str]:
        if state.phase == "opening":
            return frozenset({Place.type})
        if state.phase == "play":
            out = {Bid.type}
            if state.turn is not None and state.placed[state.turn] < state.discs[state.turn]:
                out.add(Place.type)
            return frozenset(out)
        if state.phase == "bidding":
            out = {Pass.type}
            if state.bid < state.total_placed():
                out.add(Bid.type)
            return frozenset(out)
        if state.phase == "reveal":
            return frozenset({TurnOver.type})
        if state.phase == "lose":
            return frozenset({LoseDisc.type})
        return frozenset()

    def choices(self, state: SkullState, action_type: str) -> tuple[Mapping[str, Any], ...]:
        """The "whose stack?" list of a turned disc: each owner and face the rules
        accept now (the challenger's own stack first, no stack turned over already)."""
        if action_type != TurnOver.type or action_type not in self.allowed(state):
            return ()
        faces: tuple[Face, ...] = get_args(Face)
        candidates = [
            ({"owner": p.id, "face": face}, TurnOver(p.id, face))
            for p in state.players
            for face in faces
        ]
        return accepted(GAME.apply, state, candidates)

    def turn(self, state: SkullState) -> PlayerId | None:
        return state.id_of(state.turn)

    def prompt(self, state: SkullState) -> Say:
        who = _name(state, state.turn)
        if state.phase == "opening":
            waiting = sum(
                1 for i in range(len(state.players)) if state.alive(i) and not state.placed[i]
            )
            return say(
                N_("Round {n}: every player places one disc face down ({left} to go)."),
                n=state.round,
                left=waiting,
            )
        if state.phase == "play":
            return say(N_("{player}: place another disc or bid."), player=who)
        if state.phase == "bidding":
            return say(N_("{player}: raise the bid of {bid} or pass."), player=who, bid=state.bid)
        if state.phase == "reveal":
            challenger = state.bidder
            assert challenger is not None
            own = state.placed[challenger] - state.turned_from(challenger)
            if own:
                return say(
                    N_(
                        "{player} turns over their own discs first ({n} left): "
                        "{flowers} of {bid} flowers."
                    ),
                    player=who,
                    n=own,
                    flowers=state.flowers(),
                    bid=state.bid,
                )
            return say(
                N_(
                    "{player} turns over the top disc of another stack: {flowers} of {bid} flowers."
                ),
                player=who,
                flowers=state.flowers(),
                bid=state.bid,
            )
        if state.phase == "lose":
            return say(
                N_("A skull! {player} loses a disc: draw it (d)."),
                player=_name(state, state.bidder),
            )
        return Say(N_("The game is over; undo to change it."))

    def describe(self, action: Action, before: SkullState, after: SkullState) -> Say:
        if isinstance(action, Place):
            return say(N_("{player} places a disc."), player=_by_id(before, action.player))
        if isinstance(action, Bid):
            return say(
                N_("{player} bids {n}."), player=_by_id(before, action.player), n=action.count
            )
        if isinstance(action, Pass):
            return say(N_("{player} passes."), player=_by_id(before, action.player))
        if isinstance(action, TurnOver):
            owner = _by_id(before, action.owner)
            if action.face == "skull":
                return say(
                    N_("{player} turns over a skull from {owner}'s stack."),
                    player=_name(before, before.bidder),
                    owner=owner,
                )
            challenger = before.bidder
            if challenger is not None and after.wins[challenger] > before.wins[challenger]:
                return say(
                    N_("{player} turns over a flower from {owner}'s stack and wins the challenge."),
                    player=_name(before, before.bidder),
                    owner=owner,
                )
            return say(
                N_("{player} turns over a flower from {owner}'s stack."),
                player=_name(before, before.bidder),
                owner=owner,
            )
        if isinstance(action, LoseDisc):
            left = after.discs[before.bidder] if before.bidder is not None else 0
            return say(
                N_("{player} loses a disc ({n} left)."), player=_name(before, before.bidder), n=left
            )
        return say(N_("{type}"), type=action.type)


def _by_id(state: SkullState, pid: PlayerId) -> str:
    return next((p.name for p in state.players if p.id == pid), pid)


GUIDE = SkullGuide()
