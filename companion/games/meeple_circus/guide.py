"""The host guide of 米宝马戏团 Meeple Circus: phase, turn, what is allowed, what happened.

Design decisions:

* ``allowed`` answers from the same facts the rules check (the state's phase, the
  open performance's attempt, the verdict's ties and flags), so a key is enabled
  exactly when the rules would take some action of its type. The property test in
  ``tests/games/meeple_circus/test_guide.py`` holds the two together.
* Sentences name players, never ids, and times as the screen shows them
  (``units.py``); keys are the screen's business, so prompts say what to do, not
  which key does it.
* The start player (for history and exports) is act 1's first player, the one who
  "saw a circus most recently" (docs/rules/meeple-circus.md, 第一幕).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import asdict
from typing import Any

from companion.games.meeple_circus.help_text import RULES_SUMMARY
from companion.games.meeple_circus.rules import GAME
from companion.games.meeple_circus.rules.actions import (
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
from companion.games.meeple_circus.rules.state import SPEED_TOKEN_ACTS, CircusState
from companion.games.meeple_circus.rules.timing import judge
from companion.games.meeple_circus.units import NS_PER_S, format_elapsed, format_length
from companion.rules.base import N_, Action, PlayerId
from companion.rules.guide import Guide, Say, accepted, listing, say

BUILT_IN_TRACK_TITLES: dict[str, str] = {
    "big-top-march": N_("Big Top March"),
    "jugglers-galop": N_("The Jugglers' Galop"),
    "tightrope-waltz": N_("Tightrope Waltz"),
    "clown-car-polka": N_("Clown Car Polka"),
    "grand-finale": N_("Grand Finale March"),
}
"""The built-in tracks' titles by id (``companion.audio.tracks`` holds the same; the
guide may not import it): the log says "Big Top March", not "big-top-march"."""

STATUS_WORDS = {
    "counted": N_("counts"),
    "false-start": N_("false start"),
    "too-late": N_("too late"),
    "repeat": N_("repeat, no effect"),
    "voided": N_("voided by the host"),
    "discarded": N_("aborted attempt"),
    "uncertain-start": N_("at the start? host decides"),
    "uncertain-end": N_("at the end? host decides"),
    "not-performer": N_("not performing, no effect"),
}
"""What a press counts as, in words (one place: the guide, the screen and the board)."""


def names(state: CircusState, pids: Sequence[PlayerId]) -> Say:
    """The players as a list in the shown language (``Ann, Bo`` / ``安、波``)."""
    by_id = {p.id: p.name for p in state.players}
    return listing([by_id.get(pid, pid) for pid in pids])


def name(state: CircusState, pid: PlayerId | None) -> str:
    return {p.id: p.name for p in state.players}.get(pid, pid) if pid is not None else ""


class MeepleCircusGuide(Guide[CircusState]):
    summary = RULES_SUMMARY
    """The one-screen rules summary the help screen (?) shows."""
    start_player_entry = ("choose-first-player", "player")
    """Act 1's first player is logged by ``choose-first-player`` (see ``start_player``)."""

    def phase(self, state: CircusState) -> str:
        return state.phase

    def turn(self, state: CircusState) -> PlayerId | None:
        if state.phase == "preparation":
            return state.next_to_prepare()
        if state.phase == "performance":
            return state.performer
        return None

    start_player_entries = (("choose-first-player", "player"),)

    def start_player(self, state: CircusState) -> PlayerId | None:
        return state.acts[0].first_player if state.acts else None

    # ------------------------------------------------------------------ allowed

    def allowed(self, state: CircusState) -> frozenset[str]:
        phase = state.phase
        if phase == "over":
            return frozenset()
        tags: set[str] = set()
        if state.pending_pick is not None:
            tags.add(HostPick.type)
        if phase == "first-player":
            tags.add(ChooseFirstPlayer.type)
        elif phase == "preparation":
            tags |= {Prepare.type, ChooseMusic.type}
        elif phase == "performance":
            tags |= self._performance_allowed(state) | {ChooseMusic.type}
        elif phase == "evaluation":
            tags.add(ScorePlayer.type)
            if state.act is not None and state.act.scores:
                tags.add(CorrectScore.type)
        elif phase == "end":
            tags.add(CorrectScore.type)
            if state.act is not None and state.act.next_first_player is not None:
                tags.add(EndAct.type)
        return frozenset(tags)

    def _performance_allowed(self, state: CircusState) -> set[str]:
        perf = state.performance
        if perf is None:
            return set()
        tags = {Press.type}
        current = perf.current
        if current is None:
            tags.add(StartPerformance.type)
        else:
            tags.add(AbortPerformance.type)
            if current.running:
                tags.add(EndPerformance.type)
        if any(not rp.voided for rp in perf.presses):
            tags.add(VoidPress.type)
        verdict = judge(perf, speed_tokens=False)
        if any(
            j.status in ("uncertain-start", "uncertain-end")
            and perf.presses[j.index].settled is None
            for j in verdict.presses
        ):
            tags.add(SettlePress.type)
        if any(len(group) > 1 for group in verdict.order):
            tags.add(SettleTie.type)
        if current is not None and not current.running:
            full = state.verdict()
            if state.act_number not in SPEED_TOKEN_ACTS or (
                full is not None and full.tokens is not None
            ):
                tags.add(FinishPerformance.type)
        return tags

    def choices(self, state: CircusState, action_type: str) -> tuple[Mapping[str, Any], ...]:
        """The dialogs' lists, only what the rules accept now: a tied player for the
        host's pick; a press to void; an uncertain press and its two answers; each
        unsettled tie's players (the host orders them, and every order of exactly
        those players is accepted); a scored player whose evaluation to correct, with
        the evaluation saved (the form opens on it)."""
        if action_type not in self.allowed(state):
            return ()
        candidates: list[tuple[Mapping[str, Any], Action]] = []
        perf = state.performance
        if action_type == HostPick.type and state.pending_pick is not None:
            for pid in state.pending_pick.candidates:
                candidates.append(({"player": pid}, HostPick(pid)))
        elif action_type == VoidPress.type and perf is not None:
            for i in range(len(perf.presses)):
                candidates.append(({"index": i}, VoidPress(i)))
        elif action_type == SettlePress.type and perf is not None:
            for j in judge(perf, speed_tokens=False).presses:
                for counted in (True, False):
                    fields = {"index": j.index, "counted": counted}
                    candidates.append((fields, SettlePress(j.index, counted)))
        elif action_type == SettleTie.type and perf is not None:
            for group in judge(perf, speed_tokens=False).order:
                if len(group) > 1:
                    candidates.append(({"order": group}, SettleTie(group)))
        elif action_type == CorrectScore.type and state.act is not None:
            for saved in state.act.scores:
                action = CorrectScore(
                    saved.player,
                    saved.demands,
                    saved.blue,
                    saved.yellow,
                    saved.red_heights,
                    saved.guest_stars,
                    saved.challenges,
                )
                candidates.append((asdict(action), action))
        return accepted(GAME.apply, state, candidates)

    def why_not(self, state: CircusState, action_type: str) -> Say:
        perf = state.performance
        current = perf.current if perf is not None else None
        if state.phase == "over":
            return say(N_("The grand show is over; undo to change it."))
        if action_type == FinishPerformance.type and current is not None and current.running:
            return say(N_("The music is still playing: stop it or let it run out first."))
        if action_type == FinishPerformance.type and current is not None:
            verdict = state.verdict()
            what = names_of_undecided(state, verdict.undecided if verdict else ())
            return say(N_("The speed tokens are not decided yet: settle {what} first."), what=what)
        started = (FinishPerformance.type, EndPerformance.type, AbortPerformance.type)
        if action_type in started and state.phase == "performance" and current is None:
            return say(N_("The music has not started yet."))
        if action_type == EndPerformance.type and current is not None:
            return say(N_("The music is not playing."))
        if action_type in (SettlePress.type, SettleTie.type) and state.phase == "performance":
            return say(N_("Nothing to settle: the clock orders every press."))
        if action_type == VoidPress.type and state.phase == "performance":
            return say(N_("There is no press to void."))
        if action_type == StartPerformance.type and current is not None and current.running:
            return say(N_("The music is already playing."))
        if action_type == StartPerformance.type and current is not None:
            return say(N_("This performance has ended: finish it, or abort it to play it again."))
        if action_type == HostPick.type:
            return say(N_("There is no tie for the host to break now."))
        if action_type == ChooseMusic.type:
            return say(
                N_("Music is chosen for a performance: in its act's preparation or performance.")
            )
        if action_type == CorrectScore.type and state.phase in ("evaluation", "end"):
            return say(N_("No one is scored in this act yet."))
        return Say(N_("Not now. {prompt}"), {"prompt": self.prompt(state)})

    # ------------------------------------------------------------------ prompt

    def prompt(self, state: CircusState) -> Say:
        phase = state.phase
        act = state.act
        if phase == "first-player":
            return say(N_("Who saw a circus most recently? That player starts act 1."))
        if phase == "preparation":
            return say(
                N_("{name} takes one component tile and one program card."),
                name=name(state, state.next_to_prepare()),
            )
        if phase == "performance":
            return self._performance_prompt(state)
        if phase == "evaluation":
            unscored = state.unscored()
            return say(
                N_("Score {name}'s act {act}."),
                name=name(state, unscored[0] if unscored else None),
                act=state.act_number,
            )
        if phase == "end" and act is not None:
            if state.pending_pick is not None:
                return say(
                    N_(
                        "Tie for the fewest points between {names}: "
                        "the host picks the first player."
                    ),
                    names=names(state, state.pending_pick.candidates),
                )
            return say(
                N_("{name} removes one public demand card; then act {n} begins."),
                name=name(state, act.next_first_player),
                n=act.number + 1,
            )
        return say(N_("The grand show is over."))

    def _performance_prompt(self, state: CircusState) -> Say:
        perf = state.performance
        current = perf.current if perf is not None else None
        if current is None:
            if state.performer is not None:
                return say(
                    N_("{name} performs: start the music."), name=name(state, state.performer)
                )
            return say(N_("Everyone's hands off: start the music."))
        if current.running:
            return say(N_("The music plays: build, and press Tadaa! when done."))
        verdict = state.verdict()
        if verdict is not None and verdict.undecided:
            return say(
                N_("Settle {what}, then finish the performance."),
                what=names_of_undecided(state, verdict.undecided),
            )
        return say(N_("The music has stopped: finish the performance."))

    # ------------------------------------------------------------------ describe

    def describe(self, action: Action, before: CircusState, after: CircusState) -> Say:
        if isinstance(action, ChooseFirstPlayer):
            template = (
                N_("{name} starts act 1 (drawn at random).")
                if action.random
                else N_("{name} starts act 1.")
            )
            return say(template, name=name(after, action.player))
        if isinstance(action, HostPick):
            return say(
                N_("The host picks {name} as the next first player."),
                name=name(after, action.player),
            )
        if isinstance(action, Prepare):
            return say(
                N_("{name} took a component tile and a program card."),
                name=name(after, action.player),
            )
        if isinstance(action, ChooseMusic):
            return self._describe_music(action, after)
        if isinstance(action, StartPerformance):
            return self._describe_start(action, after)
        if isinstance(action, Press):
            return self._describe_press(action, after)
        if isinstance(action, EndPerformance):
            attempt = after.performance.current if after.performance is not None else None
            early = attempt is not None and attempt.end_reason == "stopped"
            elapsed = (
                format_elapsed(action.host_ns - attempt.start_ns) if attempt is not None else ""
            )
            template = (
                N_("The host stopped the music at {time}.")
                if early
                else N_("The music ended at {time}.")
            )
            return say(template, time=elapsed)
        if isinstance(action, AbortPerformance):
            return say(N_("Attempt aborted: its presses are discarded; the music starts again."))
        if isinstance(action, VoidPress | SettlePress):
            return self._describe_press_decision(action, before)
        if isinstance(action, SettleTie):
            return say(
                N_("Tie settled by the host: {names}."),
                names=" → ".join(name(after, p) for p in action.order),
            )
        if isinstance(action, FinishPerformance):
            return self._describe_finish(before, after)
        if isinstance(action, ScorePlayer | CorrectScore):
            return self._describe_score(action, before, after)
        if isinstance(action, EndAct):
            act = after.act
            return say(
                N_("Act {n} begins; {name} is the first player."),
                n=after.act_number,
                name=name(after, act.first_player if act else None),
            )
        return say(N_("{type}"), type=action.type)

    def _describe_music(self, action: ChooseMusic, after: CircusState) -> Say:
        what = music_words(action.music)
        order = after.performance_order()
        slot = after.music_slot()
        if slot < len(order):  # act 3: each performer has their own music
            return say(
                N_("The host picks the music for {name}'s show: {what}."),
                name=name(after, order[slot]),
                what=what,
            )
        return say(
            N_("The host picks the music for act {act}: {what}."), act=after.act_number, what=what
        )

    def _describe_start(self, action: StartPerformance, after: CircusState) -> Say:
        track = action.track or ""
        what: Say | str
        if track.startswith("countdown:") or not track:
            what = say(N_("a plain countdown"))
        elif track in BUILT_IN_TRACK_TITLES:
            what = say(BUILT_IN_TRACK_TITLES[track])
        else:
            what = file_title(track)
        length = format_length(action.length_ns)
        if after.performer is not None:
            return say(
                N_("{name}'s show starts: {what} ({length})."),
                name=name(after, after.performer),
                what=what,
                length=length,
            )
        return say(N_("The music starts: {what} ({length})."), what=what, length=length)

    def _describe_press(self, action: Press, after: CircusState) -> Say:
        verdict = after.verdict()
        judged = verdict.presses[-1] if verdict and verdict.presses else None
        status = STATUS_WORDS[judged.status] if judged else STATUS_WORDS["counted"]
        if judged is not None and judged.elapsed_ns is not None:
            return say(
                N_("{name}: Tadaa! at {time} ({status})."),
                name=name(after, action.player),
                time=format_elapsed(judged.elapsed_ns),
                status=say(status),
            )
        return say(
            N_("{name}: Tadaa! before the music ({status})."),
            name=name(after, action.player),
            status=say(status),
        )

    def _describe_press_decision(self, action: VoidPress | SettlePress, before: CircusState) -> Say:
        perf = before.performance
        who = ""
        if perf is not None and 0 <= action.index < len(perf.presses):
            who = name(before, perf.presses[action.index].press.player)
        if isinstance(action, VoidPress):
            return say(N_("Press #{n} by {name} voided by the host."), n=action.index + 1, name=who)
        template = (
            N_("Press #{n} by {name} counts (the host saw it inside the music).")
            if action.counted
            else N_("Press #{n} by {name} does not count (outside the music).")
        )
        return say(template, n=action.index + 1, name=who)

    def _describe_finish(self, before: CircusState, after: CircusState) -> Say:
        act = after.act
        if before.performer is not None:
            return say(N_("{name}'s show is over."), name=name(after, before.performer))
        tokens = sorted(act.speed_tokens if act else (), key=lambda kv: -kv[1])
        if not tokens:
            return say(N_("Performance closed: no speed tokens."))
        return say(
            N_("Performance closed: speed tokens {tokens}."),
            tokens=listing([f"{name(after, pid)} +{n}" for pid, n in tokens]),
        )

    def _describe_score(
        self, action: ScorePlayer | CorrectScore, before: CircusState, after: CircusState
    ) -> Say:
        act = after.acts[-1] if after.acts else None
        score = act.score_of(action.player) if act else None
        points = score.total if score else 0
        total = after.totals()[action.player]
        if isinstance(action, CorrectScore):
            old_act = before.act
            old = old_act.score_of(action.player) if old_act else None
            return say(
                N_(
                    "{name}'s act {act} evaluation corrected: {old} → {new} points (total {total})."
                ),
                name=name(after, action.player),
                act=act.number if act else 0,
                old=old.total if old else 0,
                new=points,
                total=total,
            )
        return say(
            N_("{name} scores {points} in act {act} (total {total})."),
            name=name(after, action.player),
            points=points,
            act=act.number if act else 0,
            total=total,
        )


def music_words(music: str) -> Say | str:
    """A music pick as the log reads it: a track id, a file's name (with its cut), or
    a plain countdown and its length.

    >>> music_words("/music/circus song.mp3 @ 2:00"), music_words("track:grand-finale")
    ('circus song.mp3 @ 2:00', 'grand-finale')
    """
    text = music.strip()
    if text.startswith("track:"):
        return text.removeprefix("track:")
    seconds = text.removeprefix("countdown:").strip()
    if text.startswith("countdown:") and seconds.isdigit():
        return say(
            N_("a plain countdown of {length}"), length=format_length(int(seconds) * NS_PER_S)
        )
    return text.replace("\\", "/").rsplit("/", 1)[-1] or text  # the file's name, no folders


def file_title(track: str) -> str:
    r"""A music file's track id as the screen names it: the file's name without its
    folders, its extension and its cut (the length is said beside it).

    >>> file_title("file:/music/circus song.mp3@30.0"), file_title("file:C:\\m\\a.wav")
    ('circus song', 'a')
    """
    text = re.sub(r"@[\d.:]+$", "", track.removeprefix("file:")).replace("\\", "/")
    name = text.rsplit("/", 1)[-1] or text
    stem, dot, _ext = name.rpartition(".")
    return stem if dot and stem else name


def names_of_undecided(state: CircusState, undecided: Sequence[str]) -> Say:
    """``press:3`` / ``tie:p1,p2`` as the host reads them: ``#4`` / ``Ann, Bo``; several
    of them ``#4; Ann, Bo`` (``#4；安、波`` in Chinese)."""
    out: Say = Say("")
    for number, item in enumerate(undecided):
        kind, _sep, what = item.partition(":")
        part = say("#{n}", n=int(what) + 1) if kind == "press" else names(state, what.split(","))
        out = part if number == 0 else say(N_("{first}; {then}"), first=out, then=part)
    return out


GUIDE = MeepleCircusGuide()
