"""喵喵咪呀 Meowfia: rounds, the weighted ballot with the 1.5 ring, revotes, both win paths.

Rules enforced: ``docs/rules/meowfia.md`` (the reading of the original
``meowfia.zh-Hans.txt``); decisions the page leaves open are listed in
``docs/games/meowfia.md``. In short:

* ``start`` names the Sheriff and round 1's first questioned player (random, drawn
  by the caller). Each later round starts one seat further clockwise, skipping the
  Sheriff, so the player questioned last changes from round to round.
* An empty box adds a smuggle (the 3rd ends the game for the Meowfia); contraband
  adds an intercept and always opens a reckoning, even on the 3rd.
* The ring goes to the player the Sheriff questioned last at the 1st reckoning
  (sessions stored before the ``ring_to_questioned`` option: the last in the order),
  then to each accused. A ballot closes by itself when every voter has voted or abstained; a tie
  needs ``revote``; a single leader needs ``reveal``.
* Revealing the Undercover wins for the Meowfia and takes priority over the 3rd
  intercept; the Police win when a reckoning with 3 intercepts ends without it.
* After the end only ``identify`` (who was the Undercover) is accepted, which
  completes every player's side in the outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from types import MappingProxyType
from typing import Any

from companion.games.meowfia.rules.actions import (
    ALL_ACTIONS,
    Abstain,
    Identify,
    Inspect,
    MoveMarker,
    Question,
    Retract,
    Reveal,
    RevealTile,
    Revote,
    SetCounter,
    SetWeight,
    SmugglingDone,
    Start,
    Tile,
    Timer,
    Vote,
)
from companion.games.meowfia.rules.state import (
    TARGET,
    Adjustment,
    Ballot,
    Cast,
    MeowfiaState,
    PhaseTimer,
    Questioned,
    RevealRecord,
    RoundRecord,
    WeightChange,
    format_weight,
)
from companion.games.meowfia.rules.termination import Termination
from companion.rules.base import (
    N_,
    Action,
    BadActionError,
    Game,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OptionSpec,
    Outcome,
    Player,
    PlayerId,
    RuleError,
    action_types_of,
    check_player_count,
    player_by_id,
)
from companion.rules.guide import listing

MIN_PLAYERS = 5
MAX_PLAYERS = 10
MAX_REASON = 200
MAX_ROLE = 40
MAX_WEIGHT = Fraction(10)
MAX_TIMER = 3600
NS = 1_000_000_000


def _reason(text: str) -> str:
    cleaned = " ".join(text.split())
    if not cleaned:
        raise BadActionError(N_("A manual action needs a short reason."))
    if len(cleaned) > MAX_REASON:
        raise BadActionError(
            N_("A reason is at most {limit} characters (this one has {n})."),
            limit=MAX_REASON,
            n=len(cleaned),
        )
    return cleaned


def _role(text: str | None, tile: Tile) -> str | None:
    if text is None:
        return None
    cleaned = " ".join(text.split())
    if not cleaned:
        return None
    if tile == "undercover":
        raise BadActionError(N_("The Undercover tile has no role name."))
    if len(cleaned) > MAX_ROLE:
        raise BadActionError(
            N_("A role name is at most {limit} characters (this one has {n})."),
            limit=MAX_ROLE,
            n=len(cleaned),
        )
    return cleaned


def reason_refusal(text: str) -> RuleError | None:
    """Why the rules would refuse ``text`` as a manual action's reason (None: fine), so
    a dialog can say it next to the field and keep the text."""
    try:
        _reason(text)
    except RuleError as error:
        return error
    return None


def role_refusal(text: str) -> RuleError | None:
    """Why the rules would refuse ``text`` as a Meowfia member's role name (None: fine)."""
    try:
        _role(text, "meowfia")
    except RuleError as error:
        return error
    return None


class Meowfia(Game[MeowfiaState]):
    id = "meowfia"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec(
            "revote_tied_only",
            N_("Revote among the tied players only"),
            bool,
            False,
            help=N_("Off: after a tie every candidate can be voted for again."),
        ),
        OptionSpec(
            "smuggling_seconds",
            N_("Smuggling timer in seconds (0: none)"),
            int,
            0,
            minimum=0,
            maximum=MAX_TIMER,
        ),
        OptionSpec(
            "discussion_seconds",
            N_("Discussion timer in seconds (0: none)"),
            int,
            0,
            minimum=0,
            maximum=MAX_TIMER,
        ),
        OptionSpec(
            "ring_to_questioned",
            N_("The ring goes to the player the Sheriff questioned last"),
            bool,
            True,
            help=N_(
                "Off: to the last player in the questioning order, questioned or not "
                "(for tables that do not record the questions)."
            ),
        ),
    )
    legacy_options = MappingProxyType({"ring_to_questioned": False})
    """Sessions stored before the option existed gave the ring to the last in the order."""
    action_types = action_types_of(*ALL_ACTIONS)

    # ------------------------------------------------------------------ setup

    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> MeowfiaState:
        check_player_count(players, MIN_PLAYERS, MAX_PLAYERS)
        opts = self.check_options(options)
        return MeowfiaState(
            players=tuple(players),
            revote_tied_only=bool(opts["revote_tied_only"]),
            smuggling_seconds=int(opts["smuggling_seconds"]),
            discussion_seconds=int(opts["discussion_seconds"]),
            ring_to_questioned=bool(opts["ring_to_questioned"]),
        )

    # ------------------------------------------------------------------ apply

    def apply(self, state: MeowfiaState, action: Action) -> MeowfiaState:
        if state.ended is not None:
            if isinstance(action, Identify):
                return self._identify(state, action)
            raise GameOverError(
                N_(
                    "The game is over; only the Undercover can still be "
                    "entered. Undo to change the game."
                )
            )
        if isinstance(action, Identify):
            raise IllegalActionError(
                N_("Who was the Undercover is entered only after the game is over.")
            )
        if state.phase == "setup":
            if isinstance(action, Start):
                return self._start(state, action)
            raise IllegalActionError(N_("Name the Sheriff first."))
        handler = self._handlers().get(type(action))
        if handler is None:
            raise IllegalActionError(N_("喵喵咪呀 has no action {type!r}."), type=action.type)
        return self._timer_belongs(self._settle(handler(state, action)))

    def _timer_belongs(self, state: MeowfiaState) -> MeowfiaState:
        """A phase timer ends with its phase: a new round, phase or ballot clears it."""
        timer = state.timer
        if timer is None:
            return state
        if (timer.round, timer.phase, timer.ballot) != (
            state.round_number,
            state.phase,
            len(state.ballots),
        ):
            return replace(state, timer=None)
        return state

    def _handlers(self) -> dict[type[Action], Callable[[MeowfiaState, Any], MeowfiaState]]:
        return {
            Start: self._start_again,
            SmugglingDone: self._smuggling_done,
            Question: self._question,
            Inspect: self._inspect,
            Vote: self._vote,
            Abstain: self._abstain,
            Retract: self._retract,
            Revote: self._revote,
            Reveal: self._reveal,
            MoveMarker: self._move_marker,
            SetWeight: self._set_weight,
            RevealTile: self._reveal_tile,
            SetCounter: self._set_counter,
            Timer: self._timer,
        }

    # ------------------------------------------------------------------ helpers

    def _player(self, state: MeowfiaState, pid: PlayerId) -> Player:
        return player_by_id(state.players, pid)

    def _order_from(self, state: MeowfiaState, first: PlayerId) -> tuple[PlayerId, ...]:
        """The questioning order: clockwise from ``first``, skipping the Sheriff."""
        ids = [p.id for p in state.players]
        at = ids.index(first)
        clockwise = ids[at:] + ids[:at]
        return tuple(pid for pid in clockwise if pid != state.sheriff)

    def _new_round(self, state: MeowfiaState) -> MeowfiaState:
        previous = state.current_round
        if previous is None:
            assert state.first is not None
            order = self._order_from(state, state.first)
        else:
            # One seat further clockwise (skipping the Sheriff) than the last round.
            order = previous.order[1:] + previous.order[:1]
        record = RoundRecord(number=state.round_number + 1, order=order)
        return replace(state, rounds=(*state.rounds, record), phase="smuggling")

    def _with_round(self, state: MeowfiaState, **changes: Any) -> MeowfiaState:
        current = state.current_round
        assert current is not None
        return replace(state, rounds=(*state.rounds[:-1], replace(current, **changes)))

    def _with_ballot(self, state: MeowfiaState, ballot: Ballot) -> MeowfiaState:
        return replace(state, ballots=(*state.ballots[:-1], ballot))

    def _open_ballot(
        self, state: MeowfiaState, candidates: tuple[PlayerId, ...], number: int
    ) -> MeowfiaState:
        current = state.current_round
        assert current is not None
        ballot = Ballot(
            round=current.number,
            reckoning=state.reckonings,
            number=number,
            voters=state.voters,
            candidates=candidates,
            ring=state.ring,
        )
        return replace(state, ballots=(*state.ballots, ballot), phase="reckoning")

    def _open_ballot_only(self, state: MeowfiaState) -> Ballot:
        """The open ballot, or the error that says why ``what`` cannot happen now."""
        ballot = state.ballot
        if ballot is None:
            raise IllegalActionError(
                N_("No vote is open now: votes are cast only during a reckoning.")
            )
        if ballot.result == "tie":
            raise IllegalActionError(N_("The ballot ended in a tie; start the revote first."))
        if ballot.result == "accused":
            raise IllegalActionError(
                N_("The ballot is closed: {name} is accused. Undo to change it."),
                name=state.name(ballot.accused),
            )
        return ballot

    def _voter(self, state: MeowfiaState, pid: PlayerId) -> Player:
        player = self._player(state, pid)
        if pid == state.sheriff:
            raise IllegalActionError(
                N_("{name} is the Sheriff; the Sheriff does not vote."), name=player.name
            )
        return player

    def _end(self, state: MeowfiaState, termination: Termination) -> MeowfiaState:
        undercover = state.undercover
        if undercover is None and len(state.hidden) == 1:
            undercover = state.hidden[0]  # every other tile showed a Meowfia member
        return replace(state, ended=termination, phase="over", undercover=undercover)

    def _settle(self, state: MeowfiaState) -> MeowfiaState:
        """Check the win conditions after every action (3 smuggles win at once)."""
        if state.ended is None and state.smuggles >= TARGET:
            return self._end(state, Termination.SMUGGLES)
        return state

    def _check_last_hidden(self, state: MeowfiaState, pid: PlayerId, tile: Tile) -> None:
        if tile == "meowfia" and state.hidden == (pid,):
            raise IllegalActionError(
                N_("{name} is the last hidden player, so their tile must be the Undercover."),
                name=state.name(pid),
            )

    # ------------------------------------------------------------------ the flow

    def _start(self, state: MeowfiaState, action: Start) -> MeowfiaState:
        sheriff = self._player(state, action.sheriff)
        first = self._player(state, action.first)
        if first.id == sheriff.id:
            raise IllegalActionError(
                N_("The Sheriff questions; {name} cannot be questioned first."), name=first.name
            )
        return self._new_round(replace(state, sheriff=sheriff.id, first=first.id))

    def _start_again(self, state: MeowfiaState, action: Start) -> MeowfiaState:
        raise IllegalActionError(
            N_("{name} is already the Sheriff; a game has exactly one."),
            name=state.name(state.sheriff),
        )

    def _smuggling_done(self, state: MeowfiaState, action: SmugglingDone) -> MeowfiaState:
        if state.phase != "smuggling":
            raise IllegalActionError(
                N_("The smuggling of round {n} is already done."), n=state.round_number
            )
        return replace(self._with_round(state, smuggling_done=True), phase="inspection")

    def _question(self, state: MeowfiaState, action: Question) -> MeowfiaState:
        player = self._player(state, action.player)
        current = state.current_round
        assert current is not None
        if state.phase != "inspection":
            raise IllegalActionError(
                N_(
                    "Questioning happens during the inspection, after "
                    "the smuggling and before a building is opened."
                )
            )
        if player.id == state.sheriff:
            raise IllegalActionError(
                N_("{name} is the Sheriff and asks the questions."), name=player.name
            )
        expected = current.next_to_question
        if expected is None:
            raise IllegalActionError(
                N_("Everyone has been questioned in round {n}."), n=current.number
            )
        if player.id != expected:
            raise NotYourTurnError(
                N_("{expected} is questioned next, not {name}."),
                expected=state.name(expected),
                name=player.name,
            )
        entry = Questioned(player.id, action.claim)
        return self._with_round(state, questioned=(*current.questioned, entry))

    def _inspect(self, state: MeowfiaState, action: Inspect) -> MeowfiaState:
        current = state.current_round
        assert current is not None
        if current.result is not None:
            raise IllegalActionError(
                N_("The inspection result of round {n} is already entered."), n=current.number
            )
        if state.phase != "inspection":
            raise IllegalActionError(
                N_("Confirm the smuggling is done before entering the inspection result.")
            )
        state = self._with_round(state, building=action.building, result=action.result)
        if action.result == "empty":
            state = replace(state, smuggles=state.smuggles + 1)
            if state.smuggles >= TARGET:
                return self._end(state, Termination.SMUGGLES)
            return self._new_round(state)
        state = replace(state, intercepts=state.intercepts + 1, reckonings=state.reckonings + 1)
        if state.reckonings == 1:
            # 首次进入清算阶段时，将戒指标记交给本轮最后一名被警长盘问的玩家: the player
            # questioned last; if nobody was, the ring stays where it is (nobody, or
            # where a role put it) and the host gives it by hand.
            ring = current.ring_goes_to(state.ring_to_questioned)
            state = replace(state, ring=ring if ring is not None else state.ring)
        return self._open_ballot(state, state.hidden, number=1)

    # ------------------------------------------------------------------ the ballot

    def _vote(self, state: MeowfiaState, action: Vote) -> MeowfiaState:
        ballot = self._open_ballot_only(state)
        voter = self._voter(state, action.voter)
        target = self._player(state, action.target)
        if target.id == state.sheriff:
            raise IllegalActionError(
                N_("{name} is the Sheriff and cannot be voted for."), name=target.name
            )
        if target.id == voter.id:
            raise IllegalActionError(N_("{name} cannot vote for themself."), name=voter.name)
        if state.revealed_tile(target.id) is not None:
            raise IllegalActionError(
                N_("{name} is already revealed and cannot be voted for."), name=target.name
            )
        if target.id not in ballot.candidates:
            raise IllegalActionError(
                N_("This revote is among {names} only."),
                names=listing([state.name(c) for c in ballot.candidates]),
            )
        return self._cast(state, ballot, voter, target.id)

    def _abstain(self, state: MeowfiaState, action: Abstain) -> MeowfiaState:
        ballot = self._open_ballot_only(state)
        voter = self._voter(state, action.voter)
        return self._cast(state, ballot, voter, None)

    def _cast(
        self, state: MeowfiaState, ballot: Ballot, voter: Player, target: PlayerId | None
    ) -> MeowfiaState:
        if ballot.cast_of(voter.id) is not None:
            raise IllegalActionError(N_("{name} already voted on this ballot."), name=voter.name)
        ballot = replace(ballot, casts=(*ballot.casts, Cast(voter.id, target)))
        if ballot.complete:
            ballot = replace(ballot, result="accused" if len(ballot.leaders()) == 1 else "tie")
        return self._with_ballot(state, ballot)

    def _retract(self, state: MeowfiaState, action: Retract) -> MeowfiaState:
        ballot = self._open_ballot_only(state)
        voter = self._voter(state, action.voter)
        if ballot.cast_of(voter.id) is None:
            raise IllegalActionError(N_("{name} has not voted on this ballot."), name=voter.name)
        casts = tuple(c for c in ballot.casts if c.voter != voter.id)
        return self._with_ballot(state, replace(ballot, casts=casts))

    def _revote(self, state: MeowfiaState, action: Revote) -> MeowfiaState:
        ballot = state.ballot
        if ballot is None or ballot.result != "tie":
            raise IllegalActionError(N_("A revote follows only a tied ballot."))
        candidates = state.hidden
        if state.revote_tied_only:
            # Players revealed by hand since the tie are out; if none is left, all are in.
            tied = tuple(pid for pid in ballot.tied if pid in state.hidden)
            candidates = tied or state.hidden
        return self._open_ballot(state, candidates, number=ballot.number + 1)

    def _reveal(self, state: MeowfiaState, action: Reveal) -> MeowfiaState:
        ballot = state.ballot
        if ballot is None or ballot.result != "accused":
            raise IllegalActionError(
                N_("Nobody is accused yet: a tile is turned after a ballot with one leader.")
            )
        accused = ballot.accused
        player = self._player(state, action.player)
        if player.id != accused:
            raise IllegalActionError(
                N_("{accused} is accused, not {name}."),
                accused=state.name(accused),
                name=player.name,
            )
        role = _role(action.role, action.tile)
        self._check_last_hidden(state, player.id, action.tile)
        record = RevealRecord(player.id, action.tile, role, state.round_number, "vote")
        state = self._with_round(
            replace(state, revealed=(*state.revealed, record)), accused=player.id
        )
        if action.tile == "undercover":
            # Catching the Undercover wins even on the Police's 3rd intercept.
            return self._end(replace(state, undercover=player.id), Termination.UNDERCOVER_CAUGHT)
        if state.intercepts >= TARGET:
            return self._end(state, Termination.INTERCEPTS)
        return self._new_round(replace(state, ring=player.id))

    # ------------------------------------------------------------------ manual actions

    def _adjust(
        self, state: MeowfiaState, kind: str, subject: str, value: str, reason: str
    ) -> MeowfiaState:
        note = Adjustment(state.round_number, kind, subject, value, reason)
        return replace(state, adjustments=(*state.adjustments, note))

    def _move_marker(self, state: MeowfiaState, action: MoveMarker) -> MeowfiaState:
        reason = _reason(action.reason)
        to = self._player(state, action.to).id if action.to is not None else None
        state = self._adjust(state, action.type, action.marker, to or "-", reason)
        if action.marker == "ring":
            state = replace(state, ring=to)
            ballot = state.ballot
            if ballot is not None and ballot.result == "open":
                state = self._with_ballot(state, replace(ballot, ring=to))
            return state
        if action.marker == "message":
            return replace(state, message=to)
        return replace(state, rose=to)

    def _set_weight(self, state: MeowfiaState, action: SetWeight) -> MeowfiaState:
        reason = _reason(action.reason)
        ballot = state.ballot
        if ballot is None or ballot.result != "open":
            raise IllegalActionError(N_("A weight is changed only on an open ballot."))
        voter = self._voter(state, action.voter)
        if not 0 <= action.weight <= MAX_WEIGHT:
            raise IllegalActionError(
                N_("A weight is between 0 and {limit}, not {weight}."),
                limit=format_weight(MAX_WEIGHT),
                weight=format_weight(action.weight),
            )
        change = WeightChange(voter.id, action.weight, reason)
        state = self._with_ballot(
            state, replace(ballot, weight_changes=(*ballot.weight_changes, change))
        )
        return self._adjust(state, action.type, voter.id, format_weight(action.weight), reason)

    def _reveal_tile(self, state: MeowfiaState, action: RevealTile) -> MeowfiaState:
        reason = _reason(action.reason)
        player = self._player(state, action.player)
        if player.id == state.sheriff:
            raise IllegalActionError(
                N_("{name} is the Sheriff; that tile is public already."), name=player.name
            )
        if state.revealed_tile(player.id) is not None:
            raise IllegalActionError(N_("{name}'s tile is already revealed."), name=player.name)
        ballot = state.ballot
        if ballot is not None and ballot.result != "tie":
            raise IllegalActionError(
                N_("Not during a vote: finish the ballot (and its reveal) first.")
            )
        role = _role(action.role, action.tile)
        self._check_last_hidden(state, player.id, action.tile)
        record = RevealRecord(player.id, action.tile, role, state.round_number, "manual", reason)
        state = replace(state, revealed=(*state.revealed, record))
        state = self._adjust(state, action.type, player.id, action.tile, reason)
        if action.tile == "undercover":
            # The Police win only while the Undercover stays unmasked (卧底仍未被识破).
            return self._end(replace(state, undercover=player.id), Termination.UNDERCOVER_REVEALED)
        return state

    def _set_counter(self, state: MeowfiaState, action: SetCounter) -> MeowfiaState:
        reason = _reason(action.reason)
        if not 0 <= action.value <= TARGET:
            raise IllegalActionError(
                N_("A counter goes from 0 to {target}, not {value}."),
                target=TARGET,
                value=action.value,
            )
        if action.counter == "intercepts" and action.value >= TARGET and state.phase != "reckoning":
            raise IllegalActionError(
                N_("The 3rd intercept is entered as an inspection result: it opens a reckoning.")
            )
        state = self._adjust(state, action.type, action.counter, str(action.value), reason)
        if action.counter == "smuggles":
            return replace(state, smuggles=action.value)
        return replace(state, intercepts=action.value)

    # ------------------------------------------------------------------ the phase timer

    def _timer(self, state: MeowfiaState, action: Timer) -> MeowfiaState:
        if state.phase not in ("smuggling", "reckoning"):
            raise IllegalActionError(
                N_("The phase timer runs during the smuggling and a reckoning's discussion.")
            )
        seconds = state.timer_seconds()
        if seconds <= 0:
            raise IllegalActionError(
                N_("No timer for this phase: set its seconds in the session options.")
            )
        if action.host_ns < 0:
            raise BadActionError(N_("timer.host_ns: a time is never negative."))
        timer, now = state.timer, action.host_ns
        if action.command == "start":
            if timer is not None and timer.remaining_ns(now) > 0:
                raise IllegalActionError(N_("The timer is already set: pause or resume it."))
            length = seconds * NS
            timer = PhaseTimer(
                state.round_number, state.phase, len(state.ballots), length, now, length, True
            )
        elif action.command == "pause":
            if timer is None or not timer.running or timer.remaining_ns(now) == 0:
                raise IllegalActionError(N_("The timer is not running."))
            timer = replace(timer, since_ns=now, left_ns=timer.remaining_ns(now), running=False)
        else:
            if timer is None or timer.running:
                raise IllegalActionError(N_("The timer is not paused."))
            timer = replace(timer, since_ns=now, running=True)
        return replace(state, timer=timer)

    # ------------------------------------------------------------------ after the game

    def _identify(self, state: MeowfiaState, action: Identify) -> MeowfiaState:
        player = self._player(state, action.undercover)
        if state.undercover is not None:
            raise IllegalActionError(
                N_("The Undercover is already known: {name}."), name=state.name(state.undercover)
            )
        if player.id == state.sheriff:
            raise IllegalActionError(
                N_("{name} is the Sheriff, not the Undercover."), name=player.name
            )
        if state.revealed_tile(player.id) is not None:
            raise IllegalActionError(N_("{name}'s tile showed a Meowfia member."), name=player.name)
        return replace(state, undercover=player.id)

    # ------------------------------------------------------------------ outcome

    def outcome(self, state: MeowfiaState) -> Outcome | None:
        side = state.winning_side
        if state.ended is None or side is None:
            return None
        sides = {p.id: s for p in state.players if (s := state.side_of(p.id)) is not None}
        winners = tuple(p.id for p in state.players if sides.get(p.id) == side)
        names = ", ".join(state.name(pid) for pid in winners)
        known = state.undercover is not None
        summary = {
            ("smuggles", True): N_("The Meowfia win with 3 smuggles: {names}."),
            ("smuggles", False): N_(
                "The Meowfia win with 3 smuggles (enter who was the "
                "Undercover to name every winner)."
            ),
            ("undercover-caught", True): N_(
                "The Meowfia win: {undercover} was the Undercover. Winners: {names}."
            ),
            ("undercover-revealed", True): N_(
                "The Meowfia win: {undercover}'s tile showed the Undercover. Winners: {names}."
            ),
            ("intercepts", True): N_("The Police win with 3 intercepts: {names}."),
            ("intercepts", False): N_(
                "The Police win with 3 intercepts: {names} and the Undercover (enter who it was)."
            ),
        }[(state.ended, known)]
        params = MappingProxyType(
            {
                "names": names,
                "undercover": state.name(state.undercover),
                "side": side,
                "rounds": state.round_number,
                "smuggles": state.smuggles,
                "intercepts": state.intercepts,
            }
        )
        return Outcome(
            termination=Termination(state.ended),
            winners=winners,
            sides=MappingProxyType(sides),
            summary=summary,
            params=params,
        )

    def scores(self, state: MeowfiaState) -> Mapping[PlayerId, int | Fraction]:
        """No personal scores in 喵喵咪呀 (the source: 本游戏不使用个人分数)."""
        return {}

    def progress_label(self, state: MeowfiaState) -> str:
        """``"round 3, reckoning"``: the history groups by the round and translates both parts."""
        phase = PROGRESS_PHASES[state.phase]
        if state.round_number == 0:
            return phase
        return f"round {state.round_number}, {phase}"


PROGRESS_PHASES = {
    "setup": N_("setup"),
    "smuggling": N_("smuggling"),
    "inspection": N_("inspection"),
    "reckoning": N_("reckoning"),
    "over": N_("game over"),
}
"""Phase words of ``progress_label`` (English, translated by the history screen)."""
