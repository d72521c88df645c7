"""Skull rules (pure: no clock, no randomness, no files; the lost disc's draw arrives
inside an action).

What the companion knows is what the table shows: how many discs each player has
left and has placed on their mat this round (face down: never which), the bids,
and each disc the challenger turns over as the host records it. It never learns a
face-down disc, nor which disc a failed challenger lost (the draw says "the 3rd of
4"; only the host, who takes it, sees it). See ``README.md`` for the rule decisions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from companion.rules.base import (
    N_,
    Action,
    BadActionError,
    Game,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    Outcome,
    Player,
    PlayerId,
    action_types_of,
    check_player_count,
    player_by_id,
)
from companion.rules.guide import Termination as BaseTermination

DISCS = 4
"""Discs per player at the start: three flowers and one skull."""
WINS_NEEDED = 2
"""Successful challenges that win the game."""
MIN_PLAYERS, MAX_PLAYERS = 3, 6

Face = Literal["flower", "skull"]
Phase = Literal["opening", "play", "bidding", "reveal", "lose", "over"]


class Termination(BaseTermination):
    """How a game of Skull ends."""

    TWO_CHALLENGES = "two-challenges"
    """A player won their second challenge."""
    LAST_STANDING = "last-standing"
    """Every other player lost their last disc."""


@dataclass(frozen=True)
class Place(Action):
    """``player`` puts one disc face down on their mat (which one, the table never says)."""

    type = "place"
    player: PlayerId


@dataclass(frozen=True)
class Bid(Action):
    """``player`` bids to turn over ``count`` flowers (opens or raises the bidding)."""

    type = "bid"
    player: PlayerId
    count: int


@dataclass(frozen=True)
class Pass(Action):
    """``player`` drops out of this round's bidding."""

    type = "pass"
    player: PlayerId


@dataclass(frozen=True)
class TurnOver(Action):
    """The challenger turns over the top disc of ``owner``'s stack; ``face`` is what
    the table sees (the host records it)."""

    type = "turn-over"
    owner: PlayerId
    face: Face


@dataclass(frozen=True)
class LoseDisc(Action):
    """The failed challenger loses a disc: ``drawn`` of their ``of`` discs, counted
    from the left once shuffled face down (drawn by the companion; only the host sees
    which disc it is)."""

    type = "lose-disc"
    drawn: int
    of: int


ALL_ACTIONS = (Place, Bid, Pass, TurnOver, LoseDisc)


@dataclass(frozen=True)
class SkullState:
    players: tuple[Player, ...]
    discs: tuple[int, ...]
    """Discs each player still owns (0: out of the game), by seat."""
    wins: tuple[int, ...]
    """Successful challenges, by seat."""
    round: int = 1
    phase: Phase = "opening"
    starter: int = 0
    """Seat index of who plays first after the opening (and first in the bidding)."""
    turn: int | None = None
    """Seat index of who acts now (None in the opening: everyone places one disc)."""
    placed: tuple[int, ...] = ()
    """Discs on each mat this round."""
    bid: int = 0
    bidder: int | None = None
    passed: tuple[bool, ...] = ()
    turned: tuple[tuple[int, Face], ...] = ()
    """This challenge's turned discs: (owner's seat, face), in order."""
    skull_owner: int | None = None
    lost: tuple[int, int] | None = None
    """The last draw of a lost disc (drawn, of): the host's alone, never shown."""
    winner: int | None = None
    ended_by: Termination | None = None

    def seat_of(self, pid: PlayerId) -> int:
        player_by_id(self.players, pid)
        return next(i for i, p in enumerate(self.players) if p.id == pid)

    def alive(self, seat: int) -> bool:
        return self.discs[seat] > 0

    def total_placed(self) -> int:
        return sum(self.placed)

    def turned_from(self, seat: int) -> int:
        return sum(1 for owner, _face in self.turned if owner == seat)

    def flowers(self) -> int:
        return sum(1 for _owner, face in self.turned if face == "flower")

    def next_seat(self, seat: int, skip_passed: bool = False) -> int:
        n = len(self.players)
        for step in range(1, n + 1):
            i = (seat + step) % n
            if self.alive(i) and not (skip_passed and self.passed[i]):
                return i
        return seat

    def id_of(self, seat: int | None) -> PlayerId | None:
        return None if seat is None else self.players[seat].id


class Skull(Game[SkullState]):
    id = "skull"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    action_types = action_types_of(*ALL_ACTIONS)

    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> SkullState:
        check_player_count(players, MIN_PLAYERS, MAX_PLAYERS)
        n = len(players)
        return _new_round(SkullState(tuple(players), (DISCS,) * n, (0,) * n, round=0), 0)

    def apply(self, state: SkullState, action: Action) -> SkullState:
        if state.phase == "over":
            raise GameOverError(N_("The game is over; undo to change it."))
        if isinstance(action, Place):
            return _place(state, action)
        if isinstance(action, Bid):
            return _bid(state, action)
        if isinstance(action, Pass):
            return _pass(state, action)
        if isinstance(action, TurnOver):
            return _turn_over(state, action)
        if isinstance(action, LoseDisc):
            return _lose(state, action)
        raise BadActionError(N_("Skull has no action {type!r}."), type=action.type)

    def outcome(self, state: SkullState) -> Outcome | None:
        if state.phase != "over" or state.winner is None or state.ended_by is None:
            return None
        name = state.players[state.winner].name
        summary = (
            N_("{names} wins a second challenge.")
            if state.ended_by is Termination.TWO_CHALLENGES
            else N_("{names} is the last player with discs.")
        )
        scores = {p.id: state.wins[i] for i, p in enumerate(state.players)}
        return Outcome(
            state.ended_by,
            (state.players[state.winner].id,),
            scores=scores,
            summary=summary,
            params={"names": name},
        )

    def scores(self, state: SkullState) -> Mapping[PlayerId, int]:
        return {p.id: state.wins[i] for i, p in enumerate(state.players)}

    def progress_label(self, state: SkullState) -> str:
        return f"round {state.round}"


def _new_round(state: SkullState, starter: int) -> SkullState:
    n = len(state.players)
    return replace(
        state,
        round=state.round + 1,
        phase="opening",
        starter=starter,
        turn=None,
        placed=(0,) * n,
        bid=0,
        bidder=None,
        passed=tuple(not state.alive(i) for i in range(n)),
        turned=(),
        skull_owner=None,
    )


def _name(state: SkullState, seat: int) -> str:
    return state.players[seat].name


def _check_turn(state: SkullState, seat: int) -> None:
    if state.turn is not None and seat != state.turn:
        raise NotYourTurnError(
            N_("It is {player}'s turn, not {other}'s."),
            player=_name(state, state.turn),
            other=_name(state, seat),
        )


def _place(state: SkullState, action: Place) -> SkullState:
    seat = state.seat_of(action.player)
    if not state.alive(seat):
        raise IllegalActionError(N_("{player} has no discs left."), player=_name(state, seat))
    placed = list(state.placed)
    if state.phase == "opening":
        if placed[seat]:
            raise IllegalActionError(
                N_("{player} has placed the opening disc already."), player=_name(state, seat)
            )
        placed[seat] = 1
        after = replace(state, placed=tuple(placed))
        if all(placed[i] or not state.alive(i) for i in range(len(placed))):
            return replace(after, phase="play", turn=state.starter)
        return after
    if state.phase != "play":
        raise IllegalActionError(N_("No more discs are placed once the bidding has begun."))
    _check_turn(state, seat)
    if placed[seat] >= state.discs[seat]:
        raise IllegalActionError(
            N_("{player} has every disc on the mat already: bid."), player=_name(state, seat)
        )
    placed[seat] += 1
    return replace(state, placed=tuple(placed), turn=state.next_seat(seat))


def _bid(state: SkullState, action: Bid) -> SkullState:
    seat = state.seat_of(action.player)
    if state.phase not in ("play", "bidding"):
        raise IllegalActionError(N_("Bids are made after every player has placed a disc."))
    _check_turn(state, seat)
    total = state.total_placed()
    if not state.bid < action.count <= total:
        raise IllegalActionError(
            N_("A bid is more than {bid} and at most the {total} discs on the mats."),
            bid=state.bid,
            total=total,
        )
    after = replace(state, phase="bidding", bid=action.count, bidder=seat)
    if action.count == total or all(after.passed[i] for i in range(len(after.passed)) if i != seat):
        return _reveal(after)
    return replace(after, turn=after.next_seat(seat, skip_passed=True))


def _pass(state: SkullState, action: Pass) -> SkullState:
    seat = state.seat_of(action.player)
    if state.phase != "bidding":
        raise IllegalActionError(N_("Nobody can pass before the first bid."))
    _check_turn(state, seat)
    passed = list(state.passed)
    passed[seat] = True
    after = replace(state, passed=tuple(passed))
    if sum(1 for p in passed if not p) == 1:
        return _reveal(after)
    return replace(after, turn=after.next_seat(seat, skip_passed=True))


def _reveal(state: SkullState) -> SkullState:
    return replace(state, phase="reveal", turn=state.bidder)


def _turn_over(state: SkullState, action: TurnOver) -> SkullState:
    if state.phase != "reveal" or state.bidder is None:
        raise IllegalActionError(N_("Discs are turned over once the bidding is won."))
    if action.face not in ("flower", "skull"):
        raise BadActionError(N_("A disc is a flower or a skull, not {face!r}."), face=action.face)
    owner = state.seat_of(action.owner)
    challenger = state.bidder
    own_left = state.placed[challenger] - state.turned_from(challenger)
    if own_left and owner != challenger:
        raise IllegalActionError(
            N_("{player} turns their own stack first ({n} left)."),
            player=_name(state, challenger),
            n=own_left,
        )
    if state.turned_from(owner) >= state.placed[owner]:
        raise IllegalActionError(
            N_("{player}'s stack is turned over already."), player=_name(state, owner)
        )
    after = replace(state, turned=(*state.turned, (owner, action.face)))
    if action.face == "skull":
        return replace(after, phase="lose", skull_owner=owner)
    if after.flowers() < state.bid:
        return after
    wins = list(state.wins)
    wins[challenger] += 1
    after = replace(after, wins=tuple(wins))
    if wins[challenger] >= WINS_NEEDED:
        return replace(
            after, phase="over", turn=None, winner=challenger, ended_by=Termination.TWO_CHALLENGES
        )
    return _new_round(after, challenger)


def _lose(state: SkullState, action: LoseDisc) -> SkullState:
    if state.phase != "lose" or state.bidder is None:
        raise IllegalActionError(N_("A disc is lost only after a skull is turned over."))
    challenger = state.bidder
    have = state.discs[challenger]
    if action.of != have or not 1 <= action.drawn <= have:
        raise BadActionError(N_("The lost disc is drawn from the challenger's {n} discs."), n=have)
    discs = list(state.discs)
    discs[challenger] -= 1
    after = replace(state, discs=tuple(discs), lost=(action.drawn, action.of))
    standing = [i for i in range(len(discs)) if discs[i] > 0]
    if len(standing) == 1:
        return replace(
            after, phase="over", turn=None, winner=standing[0], ended_by=Termination.LAST_STANDING
        )
    if after.alive(challenger):
        starter = challenger
    elif state.skull_owner is not None and state.skull_owner != challenger:
        starter = state.skull_owner
    else:
        starter = after.next_seat(challenger)
    return _new_round(after, starter)


GAME = Skull()
