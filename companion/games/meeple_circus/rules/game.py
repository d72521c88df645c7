"""米宝马戏团 Meeple Circus rules: phases, performances, evaluation, tie-breaks, outcome.

Rules it enforces: ``docs/games/meeple-circus.md`` (from ``docs/rules/meeple-circus.md``).

Design decisions (where the rules page is silent, the careful host's reading):

* Act 3's performance order starts at act 3's first player and goes clockwise: the
  first player of act 3 *is* the player with the fewest points after act 2 (same
  tie-breaks: youngest, then the host), so one decision serves both rules.
* "Youngest" uses birth dates. If any tied player has no birth date, or the
  youngest share a birth date, the host picks among them (``host-pick``).
* Presses are accepted only in the performance phase (before the music starts they
  are false starts); in other phases a press is refused with a message.
* Stopping the music early in acts 1–2 is allowed once every player has a counted
  press (the rules' condition); otherwise the host aborts. In act 3 the host may
  stop at any time (the performer declared the show done), and the performer's
  counted press stops it by itself.
* The act-3 evaluation closes the game: the last ``score`` of act 3 ends it.
* Printed values (demand cards, guest stars, challenges) are 1–20; acrobat counts
  0–99: anything outside is a typing mistake, refused.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.games.meeple_circus.rules.actions import (
    CLOCKED_SOURCES,
    AbortPerformance,
    ChooseFirstPlayer,
    ChooseMusic,
    CorrectScore,
    EndAct,
    EndPerformance,
    FinishPerformance,
    HostPick,
    Prepare,
    Press,
    ScorePlayer,
    SettlePress,
    SettleTie,
    StartPerformance,
    VoidPress,
)
from companion.games.meeple_circus.rules.state import (
    CHALLENGE_ACTS,
    GUEST_STAR_ACTS,
    SPEED_TOKEN_ACTS,
    ActScore,
    ActState,
    CircusState,
    PendingPick,
)
from companion.games.meeple_circus.rules.termination import Termination
from companion.games.meeple_circus.rules.timing import (
    Attempt,
    Performance,
    RecordedPress,
    judge,
)
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
    SetupError,
    action_types_of,
    check_player_count,
    player_by_id,
)
from companion.rules.guide import Say, listing

MIN_PLAYERS = 2
MAX_PLAYERS = 5
DEFAULT_MAX_HEIGHT = 7
"""The printed measuring stick (测高尺) runs 1 to 7."""
MAX_PRINTED_VALUE = 20
MAX_COUNT = 99
COUNTDOWN_MIN_S = 15
COUNTDOWN_MAX_S = 900
"""A plain countdown's bounds (the same as the audio settings': 15 s to 15 min)."""
MAX_LENGTH_NS = 60 * 60 * 1_000_000_000
"""A performance's music lasts at most an hour (a typo guard, not a rule)."""


def parse_music_setting(value: str) -> tuple[str, int | None]:
    """Read an act's music setting: ``""`` (default track), ``countdown:SECONDS``
    (a plain countdown) or a WAV file path. Returns (kind, seconds).

    >>> parse_music_setting("countdown:120"), parse_music_setting("")
    (('countdown', 120), ('default', None))
    """
    text = value.strip()
    if not text:
        return "default", None
    if text.startswith("countdown:"):
        seconds = text.removeprefix("countdown:").strip()
        if not seconds.isdigit() or not COUNTDOWN_MIN_S <= int(seconds) <= COUNTDOWN_MAX_S:
            raise SetupError(
                N_("A countdown lasts {low} to {high} whole seconds, not {value!r}."),
                low=COUNTDOWN_MIN_S,
                high=COUNTDOWN_MAX_S,
                value=seconds,
            )
        return "countdown", int(seconds)
    return "file", None


def check_music_choice(value: str) -> str:
    """The kind of a ``choose-music`` pick: ``track``, ``countdown`` or ``file``.

    Written as an act's option, or ``track:ID``; empty is refused (the pick names music).

    >>> check_music_choice("track:grand-finale"), check_music_choice("countdown:90")
    ('track', 'countdown')
    """
    text = value.strip()
    if text.startswith("track:"):
        track = text.removeprefix("track:")
        if not track or any(ch.isspace() for ch in track):
            raise BadActionError(
                N_("A built-in track is written track:ID, not {value!r}."), value=text
            )
        return "track"
    if not text:
        raise BadActionError(N_("Choose a track, a music file or a countdown."))
    try:
        kind, _seconds = parse_music_setting(text)
    except SetupError as exc:
        raise BadActionError(exc.template, **exc.params) from None
    return kind


class MeepleCircus(Game[CircusState]):
    id = "meeple-circus"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec(
            "max_height",
            N_("Highest mark of the measuring stick"),
            int,
            DEFAULT_MAX_HEIGHT,
            minimum=1,
            maximum=MAX_PRINTED_VALUE,
        ),
        OptionSpec(
            "fun_technical",
            N_("Fun and Technical challenges variant (agreed by all)"),
            bool,
            False,
        ),
        OptionSpec(
            "music_act1",
            N_("Act 1 music: file.wav or countdown:SECONDS"),
            str,
            "",
        ),
        OptionSpec(
            "music_act2",
            N_("Act 2 music: file.wav or countdown:SECONDS"),
            str,
            "",
        ),
        OptionSpec(
            "music_act3",
            N_("Act 3 music: file.wav or countdown:SECONDS"),
            str,
            "",
        ),
    )
    action_types = action_types_of(
        ChooseFirstPlayer,
        HostPick,
        Prepare,
        ChooseMusic,
        StartPerformance,
        Press,
        EndPerformance,
        AbortPerformance,
        VoidPress,
        SettlePress,
        SettleTie,
        FinishPerformance,
        ScorePlayer,
        CorrectScore,
        EndAct,
    )

    # ------------------------------------------------------------------ setup

    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> CircusState:
        check_player_count(players, MIN_PLAYERS, MAX_PLAYERS)
        opts = self.check_options(options)
        colours = [p.colour.strip().casefold() for p in players if p.colour]
        if len(set(colours)) != len(colours):
            raise SetupError(N_("Two players have the same ring colour; each ring is one colour."))
        for p in players:
            if p.birth_date is not None:
                try:
                    datetime.date.fromisoformat(p.birth_date)
                except ValueError:
                    raise SetupError(
                        N_("{name}'s birth date {value!r} is not a date like 2015-04-30."),
                        name=p.name,
                        value=p.birth_date,
                    ) from None
        music = (str(opts["music_act1"]), str(opts["music_act2"]), str(opts["music_act3"]))
        for setting in music:
            parse_music_setting(setting)
        return CircusState(
            players=tuple(players),
            max_height=int(opts["max_height"]),
            fun_technical=bool(opts["fun_technical"]),
            music=music,
        )

    # ------------------------------------------------------------------ apply

    def apply(self, state: CircusState, action: Action) -> CircusState:
        if state.phase == "over":
            raise GameOverError(N_("The grand show is over; undo to change it."))
        if isinstance(action, ChooseFirstPlayer):
            return self._choose_first(state, action)
        if isinstance(action, HostPick):
            return self._host_pick(state, action)
        if isinstance(action, Prepare):
            return self._prepare(state, action)
        if isinstance(action, ChooseMusic):
            return self._choose_music(state, action)
        if isinstance(action, StartPerformance):
            return self._start(state, action)
        if isinstance(action, Press):
            return self._press(state, action)
        if isinstance(action, EndPerformance):
            return self._end(state, action)
        if isinstance(action, AbortPerformance):
            return self._abort(state, action)
        if isinstance(action, VoidPress):
            return self._void(state, action)
        if isinstance(action, SettlePress):
            return self._settle_press(state, action)
        if isinstance(action, SettleTie):
            return self._settle_tie(state, action)
        if isinstance(action, FinishPerformance):
            return self._finish(state, action)
        if isinstance(action, ScorePlayer):
            return self._score(state, action)
        if isinstance(action, CorrectScore):
            return self._correct(state, action)
        if isinstance(action, EndAct):
            return self._end_act(state)
        raise IllegalActionError(N_("Meeple Circus has no action {type!r}."), type=action.type)

    # ------------------------------------------------------------------ first player

    def _choose_first(self, state: CircusState, action: ChooseFirstPlayer) -> CircusState:
        if state.phase != "first-player":
            raise IllegalActionError(N_("Act 1's first player has already been chosen."))
        player_by_id(state.players, action.player)
        return replace(
            state,
            phase="preparation",
            acts=(ActState(number=1, first_player=action.player),),
            first_player_random=action.random,
        )

    def _host_pick(self, state: CircusState, action: HostPick) -> CircusState:
        pending = state.pending_pick
        if pending is None:
            raise IllegalActionError(N_("There is no tie for the host to break now."))
        player = player_by_id(state.players, action.player)
        if action.player not in pending.candidates:
            raise IllegalActionError(
                N_("{name} is not among the tied players ({tied})."),
                name=player.name,
                tied=_listed(state, pending.candidates),
            )
        act = _current_act(state)
        acts = (*state.acts[:-1], replace(act, next_first_player=action.player))
        return replace(state, acts=acts, pending_pick=None)

    # ------------------------------------------------------------------ preparation

    def _prepare(self, state: CircusState, action: Prepare) -> CircusState:
        player = player_by_id(state.players, action.player)
        if state.phase != "preparation":
            raise IllegalActionError(N_("It is not the preparation phase."))
        act = _current_act(state)
        if action.player in act.prepared:
            raise IllegalActionError(
                N_("{name} has already prepared in this act."), name=player.name
            )
        due = state.next_to_prepare()
        if due != action.player:
            raise NotYourTurnError(
                N_("It is {due}'s turn to prepare, not {name}'s."),
                due=_listed(state, (due,) if due else ()),
                name=player.name,
            )
        act = replace(act, prepared=(*act.prepared, action.player))
        state = _with_act(state, act)
        if len(act.prepared) < len(state.players):
            return state
        first = Performance(performer=act.first_player if act.number == 3 else None)
        return _with_act(replace(state, phase="performance"), replace(act, performances=(first,)))

    # ------------------------------------------------------------------ performance

    def _require_performance(self, state: CircusState) -> Performance:
        if state.phase == "preparation":
            raise IllegalActionError(
                N_("Preparation is not done: {name} still has to prepare."),
                name=_listed(state, (state.next_to_prepare() or "",)),
            )
        perf = state.performance
        if perf is None:
            raise IllegalActionError(N_("There is no performance now."))
        return perf

    def _choose_music(self, state: CircusState, action: ChooseMusic) -> CircusState:
        if state.phase not in ("preparation", "performance"):
            raise IllegalActionError(
                N_("Music is chosen for a performance: in its act's preparation or performance.")
            )
        check_music_choice(action.music)
        act = _current_act(state)
        slot = state.music_slot()
        picks = tuple(p for p in act.music_choices if p[0] != slot)
        return _with_act(state, replace(act, music_choices=(*picks, (slot, action.music.strip()))))

    def _start(self, state: CircusState, action: StartPerformance) -> CircusState:
        perf = self._require_performance(state)
        if action.length_ns <= 0 or action.length_ns > MAX_LENGTH_NS:
            raise BadActionError(
                N_("The music must last between 1 ns and an hour, not {length} ns."),
                length=action.length_ns,
            )
        current = perf.current
        if current is not None and current.running:
            raise IllegalActionError(N_("The music is already playing."))
        if current is not None:
            raise IllegalActionError(
                N_("This performance has ended: finish it, or abort it to play it again.")
            )
        if perf.attempts and action.host_ns < (perf.attempts[-1].stop_ns or 0):
            raise BadActionError(N_("The music cannot start before the aborted attempt stopped."))
        attempt = Attempt(start_ns=action.host_ns, length_ns=action.length_ns, track=action.track)
        return _with_performance(state, replace(perf, attempts=(*perf.attempts, attempt)))

    def _press(self, state: CircusState, action: Press) -> CircusState:
        player = player_by_id(state.players, action.player)
        _check_press(action)
        if state.phase != "performance":
            raise IllegalActionError(
                N_("{name}'s Tadaa! was not recorded: presses count only in a performance."),
                name=player.name,
            )
        perf = self._require_performance(state)
        if already_recorded(perf, action):
            raise IllegalActionError(
                N_("{name}'s Tadaa! is already recorded: the same press of the same button."),
                name=player.name,
            )
        index = perf.current_index
        if perf.attempts and perf.attempts[-1].aborted:
            last = perf.attempts[-1]
            if last.stop_ns is not None and last.start_ns <= action.host_ns <= last.stop_ns:
                index = len(perf.attempts) - 1  # a late report from the aborted attempt
        perf = replace(perf, presses=(*perf.presses, RecordedPress(action, index)))
        current = perf.current
        if perf.performer is not None and current is not None and current.running:
            # Act 3: the performer's counted Tadaa ends their show (the music stops).
            judged = judge(perf, speed_tokens=False).presses[-1]
            if judged.status == "counted":
                current = replace(current, stop_ns=action.host_ns, end_reason="tadaa")
                perf = replace(perf, attempts=(*perf.attempts[:-1], current))
        return _with_performance(state, perf)

    def _end(self, state: CircusState, action: EndPerformance) -> CircusState:
        perf = self._require_performance(state)
        current = perf.current
        if current is None or not current.running:
            raise IllegalActionError(N_("The music is not playing."))
        if action.host_ns < current.start_ns:
            raise BadActionError(N_("The music cannot end before it started."))
        early = action.host_ns < current.scheduled_end_ns
        if early and perf.performer is None:
            verdict = judge(perf, speed_tokens=False)
            missing = [p for p in state.player_ids() if p not in verdict.counted_players()]
            if missing:
                raise IllegalActionError(
                    N_(
                        "The music can stop early only once every player has pressed; "
                        "still building: {names}. Abort to restart instead."
                    ),
                    names=_listed(state, missing),
                )
        current = replace(
            current, stop_ns=action.host_ns, end_reason="stopped" if early else "music"
        )
        return _with_performance(state, replace(perf, attempts=(*perf.attempts[:-1], current)))

    def _abort(self, state: CircusState, action: AbortPerformance) -> CircusState:
        perf = self._require_performance(state)
        current = perf.current
        if current is None:
            raise IllegalActionError(
                N_("No performance has started, so there is nothing to abort.")
            )
        if action.host_ns < current.start_ns:
            raise BadActionError(N_("The music cannot stop before it started."))
        stop = current.stop_ns if current.stop_ns is not None else action.host_ns
        aborted = replace(current, stop_ns=stop, aborted=True, abort_reason=action.reason)
        return _with_performance(state, replace(perf, attempts=(*perf.attempts[:-1], aborted)))

    def _press_at(self, state: CircusState, index: int) -> tuple[Performance, RecordedPress]:
        perf = self._require_performance(state)
        if not 0 <= index < len(perf.presses):
            raise BadActionError(
                N_("There is no press number {number} in this performance."), number=index + 1
            )
        return perf, perf.presses[index]

    def _void(self, state: CircusState, action: VoidPress) -> CircusState:
        perf, rp = self._press_at(state, action.index)
        if rp.voided:
            raise IllegalActionError(
                N_("Press number {number} is already void."), number=action.index + 1
            )
        presses = list(perf.presses)
        presses[action.index] = replace(rp, voided=True)
        return _with_performance(state, replace(perf, presses=tuple(presses)))

    def _settle_press(self, state: CircusState, action: SettlePress) -> CircusState:
        perf, rp = self._press_at(state, action.index)
        status = judge(perf, speed_tokens=False).presses[action.index].status
        if rp.settled is not None:
            raise IllegalActionError(
                N_("Press number {number} is already settled; undo to change."),
                number=action.index + 1,
            )
        if status not in ("uncertain-start", "uncertain-end"):
            raise IllegalActionError(
                N_(
                    "Press number {number} is clearly inside or outside the music; "
                    "there is nothing to settle."
                ),
                number=action.index + 1,
            )
        presses = list(perf.presses)
        presses[action.index] = replace(rp, settled=action.counted)
        return _with_performance(state, replace(perf, presses=tuple(presses)))

    def _settle_tie(self, state: CircusState, action: SettleTie) -> CircusState:
        perf = self._require_performance(state)
        for pid in action.order:
            player_by_id(state.players, pid)
        if len(set(action.order)) != len(action.order):
            raise BadActionError(N_("A player appears twice in the order."))
        verdict = judge(perf, speed_tokens=False)
        ties = [group for group in verdict.order if len(group) > 1]
        if not any(set(group) == set(action.order) for group in ties):
            if not ties:
                raise IllegalActionError(N_("There is no tie to settle."))
            raise IllegalActionError(
                N_("Give the order of exactly the tied players: {tied}."),
                tied=Say(
                    " / ".join(f"{{g{i}}}" for i in range(len(ties))),
                    {f"g{i}": _listed(state, group) for i, group in enumerate(ties)},
                ),
            )
        return _with_performance(state, replace(perf, tie_orders=(*perf.tie_orders, action.order)))

    def _finish(self, state: CircusState, action: FinishPerformance) -> CircusState:
        perf = self._require_performance(state)
        current = perf.current
        if current is None:
            raise IllegalActionError(N_("The performance has not started yet."))
        if current.running:
            raise IllegalActionError(N_("The music is still playing."))
        act = _current_act(state)
        if act.number in SPEED_TOKEN_ACTS:
            verdict = judge(perf, speed_tokens=True)
            if verdict.tokens is None:
                raise IllegalActionError(
                    N_("The speed tokens are not decided yet: settle {what} first."),
                    what=_describe_undecided(state, verdict.undecided),
                )
            tokens = tuple(
                (pid, verdict.tokens[pid]) for pid in state.player_ids() if pid in verdict.tokens
            )
            act = replace(act, speed_tokens=tokens)
            return _with_act(replace(state, phase="evaluation"), act)
        order = state.performance_order()
        done = len(act.performances)
        if done < len(order):
            nxt = Performance(performer=order[done])
            return _with_act(state, replace(act, performances=(*act.performances, nxt)))
        return replace(state, phase="evaluation")

    # ------------------------------------------------------------------ evaluation

    def _score(self, state: CircusState, action: ScorePlayer) -> CircusState:
        player = player_by_id(state.players, action.player)
        if state.phase != "evaluation":
            raise IllegalActionError(N_("It is not the evaluation phase."))
        act = _current_act(state)
        if act.score_of(action.player) is not None:
            raise IllegalActionError(
                N_("{name} is already scored in act {act}; undo to change it."),
                name=player.name,
                act=act.number,
            )
        act = replace(act, scores=(*act.scores, _act_score(state, act, action)))
        state = _with_act(state, act)
        if state.unscored():
            return state
        if act.number == 3:
            return replace(state, phase="over")
        return _decide_next_first(replace(state, phase="end"))

    def _correct(self, state: CircusState, action: CorrectScore) -> CircusState:
        player = player_by_id(state.players, action.player)
        if state.phase not in ("evaluation", "end"):
            raise IllegalActionError(
                N_("Evaluations can be corrected only while their act is open.")
            )
        act = _current_act(state)
        if act.score_of(action.player) is None:
            raise IllegalActionError(
                N_("{name} has no evaluation in act {act} to correct yet."),
                name=player.name,
                act=act.number,
            )
        corrected = _act_score(state, act, action)
        scores = tuple(corrected if s.player == action.player else s for s in act.scores)
        state = _with_act(state, replace(act, scores=scores))
        if state.phase == "end":
            return _decide_next_first(state)
        return state

    def _end_act(self, state: CircusState) -> CircusState:
        if state.phase != "end":
            raise IllegalActionError(N_("The act is not at its end yet."))
        act = _current_act(state)
        if act.next_first_player is None:
            pending = state.pending_pick
            raise IllegalActionError(
                N_("The host must first pick the next first player among {tied}."),
                tied=_listed(state, pending.candidates if pending else ()),
            )
        nxt = ActState(number=act.number + 1, first_player=act.next_first_player)
        return replace(state, phase="preparation", acts=(*state.acts, nxt))

    # ------------------------------------------------------------------ outcome

    def outcome(self, state: CircusState) -> Outcome | None:
        if state.phase != "over":
            return None
        totals = state.totals()
        best = max(totals.values())
        winners = tuple(p.id for p in state.players if totals[p.id] == best)
        names = _names(state, winners)
        summary = (
            N_("{names} share the victory with {score} points.")
            if len(winners) > 1
            else N_("{names} wins with {score} points.")
        )
        return Outcome(
            termination=Termination.GRAND_SHOW_ENDED,
            winners=winners,
            scores=MappingProxyType(dict(totals)),
            summary=summary,
            params={"names": names, "score": best},
        )

    def scores(self, state: CircusState) -> Mapping[PlayerId, int]:
        return state.totals()

    def progress_label(self, state: CircusState) -> str:
        if state.phase == "over":
            return "game over"
        if state.phase == "first-player":
            return "act 1, choosing the first player"
        return f"act {state.act_number}, {state.phase}"


# --------------------------------------------------------------------------- helpers


def youngest(
    candidates: Sequence[PlayerId], birth_dates: Mapping[PlayerId, str | None]
) -> tuple[PlayerId | None, PendingPick | None]:
    """Break a tie by youngest; if that cannot decide, the host picks.

    >>> youngest(["p1", "p2"], {"p1": "2010-01-01", "p2": "2012-05-05"})
    ('p2', None)
    >>> youngest(["p1", "p2"], {"p1": "2010-01-01", "p2": None})[1].reason
    'no-birth-dates'
    """
    if len(candidates) == 1:
        return candidates[0], None
    dates = [birth_dates.get(pid) for pid in candidates]
    if any(d is None for d in dates):
        return None, PendingPick("next-first-player", tuple(candidates), "no-birth-dates")
    latest = max(d for d in dates if d is not None)
    young = tuple(pid for pid, d in zip(candidates, dates, strict=True) if d == latest)
    if len(young) == 1:
        return young[0], None
    return None, PendingPick("next-first-player", young, "same-birth-date")


def fewest_points(state: CircusState) -> tuple[PlayerId, ...]:
    """Players with the fewest points, in seating order."""
    totals = state.totals()
    low = min(totals.values())
    return tuple(pid for pid in state.player_ids() if totals[pid] == low)


def _decide_next_first(state: CircusState) -> CircusState:
    winner, pending = youngest(fewest_points(state), state.birth_dates())
    act = replace(_current_act(state), next_first_player=winner)
    return replace(_with_act(state, act), pending_pick=pending)


def _act_score(state: CircusState, act: ActState, action: ScorePlayer | CorrectScore) -> ActScore:
    """The evaluation an action enters (checked), with the act's speed token."""
    _check_counts(action, state.max_height)
    if action.guest_stars and act.number not in GUEST_STAR_ACTS:
        raise IllegalActionError(N_("Guest stars first appear in act 2."))
    if action.challenges and act.number not in CHALLENGE_ACTS:
        raise IllegalActionError(N_("Challenges score in act 3 only."))
    return ActScore(
        player=action.player,
        act=act.number,
        demands=action.demands,
        blue=action.blue,
        yellow=action.yellow,
        red_heights=action.red_heights,
        speed=act.token_of(action.player),
        guest_stars=action.guest_stars,
        challenges=action.challenges,
    )


def _current_act(state: CircusState) -> ActState:
    act = state.act
    if act is None:
        raise IllegalActionError(N_("Choose act 1's first player first."))
    return act


def _with_act(state: CircusState, act: ActState) -> CircusState:
    return replace(state, acts=(*state.acts[:-1], act))


def _with_performance(state: CircusState, perf: Performance) -> CircusState:
    act = _current_act(state)
    return _with_act(state, replace(act, performances=(*act.performances[:-1], perf)))


def _names(state: CircusState, pids: Sequence[PlayerId]) -> str:
    by_id = {p.id: p.name for p in state.players}
    return ", ".join(by_id.get(pid, pid) for pid in pids)


def _listed(state: CircusState, pids: Sequence[PlayerId]) -> Say:
    """The players' names as one list in the shown language's punctuation (``Bo, Eve``;
    ``Bo、Eve`` in Chinese): for a refusal's parameters, rendered with the refusal."""
    by_id = {p.id: p.name for p in state.players}
    return listing([by_id.get(pid, pid) for pid in pids])


def _describe_undecided(state: CircusState, undecided: Sequence[str]) -> str:
    parts = []
    for item in undecided:
        kind, _, what = item.partition(":")
        if kind == "press":
            parts.append(f"#{int(what) + 1}")
        else:
            parts.append(_names(state, what.split(",")))
    return "; ".join(parts)


def press_identity(press: Press) -> tuple[str, int, int | None] | None:
    """What makes a box's, a HID button's or a phone's press one event: its device,
    the device's own time and the button. A keyboard press has none (None)."""
    if press.device is None or press.device_us is None:
        return None
    return (press.device, press.device_us, press.button)


def already_recorded(perf: Performance, press: Press) -> bool:
    """The performance holds this very press already (delivered twice: the hub's
    message and a restart's redelivery of its raw log entry can both arrive)."""
    identity = press_identity(press)
    return identity is not None and any(press_identity(rp.press) == identity for rp in perf.presses)


def _check_press(press: Press) -> None:
    if press.uncertainty_ns < 0:
        raise BadActionError(N_("A press's uncertainty cannot be negative."))
    if press.source in CLOCKED_SOURCES:
        if press.device is None or press.device_us is None:
            if press.source == "phone":
                raise BadActionError(N_("A phone press needs the phone and its clock."))
            raise BadActionError(N_("A button-box press needs the device and its clock."))
    elif press.device is not None or press.device_us is not None:
        raise BadActionError(N_("A keyboard press has no device clock."))


def _check_counts(action: ScorePlayer | CorrectScore, max_height: int) -> None:
    problems = field_problems(action, max_height)
    if problems:
        raise next(iter(problems.values()))


def field_problems(
    action: ScorePlayer | CorrectScore, max_height: int
) -> dict[str, BadActionError]:
    """What is wrong with each field of an evaluation, by field (``blue``, ``yellow``,
    ``demands``, ``red_heights``, ``guest_stars``, ``challenges``), every one of them:
    the evaluation form shows each next to its field, and counts only the others."""
    problems: dict[str, BadActionError] = {}
    for name, value, template in (
        (
            "blue",
            action.blue,
            N_("The blue acrobat count must be a whole number from 0 to {most}, not {value}."),
        ),
        (
            "yellow",
            action.yellow,
            N_("The yellow acrobat count must be a whole number from 0 to {most}, not {value}."),
        ),
    ):
        if not 0 <= value <= MAX_COUNT:
            problems[name] = BadActionError(template, most=MAX_COUNT, value=value)
    lists = (
        (
            "demands",
            action.demands,
            MAX_PRINTED_VALUE,
            N_("A public demand's printed value is from 1 to {most}, not {value}."),
        ),
        (
            "red_heights",
            action.red_heights,
            max_height,
            N_("A red acrobat's height must be on the measuring stick (1 to {most}), not {value}."),
        ),
        (
            "guest_stars",
            action.guest_stars,
            MAX_PRINTED_VALUE,
            N_("A guest star's printed value is from 1 to {most}, not {value}."),
        ),
        (
            "challenges",
            action.challenges,
            MAX_PRINTED_VALUE,
            N_("A challenge's printed value is from 1 to {most}, not {value}."),
        ),
    )
    for name, values, most, template in lists:
        if len(values) > MAX_COUNT:
            problems[name] = BadActionError(
                N_("A list holds at most {most} entries."), most=MAX_COUNT
            )
            continue
        wrong = next((v for v in values if not 1 <= v <= most), None)
        if wrong is not None:
            problems[name] = BadActionError(template, most=most, value=wrong)
    return problems
