"""喵喵咪呀's host guide: what can happen now, what the host does next, what just happened.

Design decisions:

* Pure, like the rules: a function of the state (and of an action for ``describe``).
  ``allowed`` is the exact set of action types the rules accept now — the tests check
  it against ``apply`` over every candidate action of every type, in every state the
  game generators reach — so the screen enables its keys from it, never from a table
  of its own.
* ``why_not`` uses the rules' own refusal sentences (the same templates, so one
  translation), picked from the state instead of by dry-running ``apply``.
* The start player (for history and exports) is **the Sheriff**: the Sheriff leads
  every round (questions the players, opens the building, 由警长负责进行盘问和选择建筑)
  and is the only player whose role is public from the start. Round 1's first
  questioned player is drawn at random and stays in the state as ``first``; it is
  where the questioning order begins, not who starts the game (decided in
  ``docs/games/meowfia.md``).
* Sentences name players by name, never by id; buildings and tiles are ``Say``
  values of their own so they are translated where the sentence is shown.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.meowfia.help_text import RULES_SUMMARY
from companion.games.meowfia.rules import (
    GAME,
    TARGET,
    Abstain,
    Identify,
    Inspect,
    MeowfiaState,
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
    Timer,
    Vote,
    format_weight,
)
from companion.games.meowfia.rules.actions import Counter, Marker, Tile
from companion.rules.base import N_, Action, PlayerId
from companion.rules.guide import Guide, Say, accepted, listing, say

NS = 1_000_000_000

BUILDING_NAMES = {"N": N_("North"), "E": N_("East"), "S": N_("South"), "W": N_("West")}
TILE_NAMES = {"undercover": N_("the Undercover"), "meowfia": N_("a Meowfia member")}
MARKER_NAMES = {
    "ring": N_("The ring"),
    "message": N_("The message marker"),
    "rose": N_("The rose marker"),
}
COUNTER_NAMES = {"smuggles": N_("Smuggles"), "intercepts": N_("Intercepts")}
SIDE_WINS = {"police": N_("The Police win!"), "meowfia": N_("The Meowfia win!")}

BALLOT_TYPES = frozenset({"vote", "abstain", "retract", "set-weight"})
RUNNING_TYPES = frozenset({"move-marker", "set-counter"})


def clock(ns: int) -> str:
    """``"1:05"``: seconds rounded up, as a countdown shows them."""
    seconds = -(-max(0, ns) // NS)
    return f"{seconds // 60}:{seconds % 60:02d}"


def building(code: str | None) -> Say:
    return say(BUILDING_NAMES[code]) if code in BUILDING_NAMES else say("-")


class MeowfiaGuide(Guide[MeowfiaState]):
    """The host guide of 喵喵咪呀 (``GUIDE`` below is the one instance)."""

    summary = RULES_SUMMARY

    def phase(self, state: MeowfiaState) -> str:
        """``setup``, ``smuggling``, ``inspection``, ``reckoning`` or ``over``."""
        return state.phase

    def turn(self, state: MeowfiaState) -> PlayerId | None:
        """The player the Sheriff questions now (inspection); else everyone or no one."""
        current = state.current_round
        if state.phase == "inspection" and current is not None:
            return current.next_to_question
        return None

    start_player_entries = (("start", "sheriff"),)

    def start_player(self, state: MeowfiaState) -> PlayerId | None:
        """The Sheriff (see the module docstring), once named."""
        return state.sheriff

    # ------------------------------------------------------------------ what is legal

    def allowed(self, state: MeowfiaState) -> frozenset[str]:
        if state.ended is not None:
            return frozenset({"identify"} if state.undercover is None and state.hidden else ())
        if state.phase == "setup":
            return frozenset({"start"})
        allowed = set(RUNNING_TYPES)
        if state.phase == "smuggling":
            allowed.add("smuggling-done")
        current = state.current_round
        if state.phase == "inspection" and current is not None:
            allowed.add("inspect")
            if current.next_to_question is not None:
                allowed.add("question")
        ballot = state.ballot
        if (ballot is None or ballot.result == "tie") and state.hidden:
            allowed.add("reveal-tile")
        if ballot is not None:
            if ballot.result == "tie":
                allowed.add("revote")
            elif ballot.result == "accused":
                allowed.add("reveal")
            else:
                waiting = [v for v in ballot.voters if ballot.cast_of(v) is None]
                allowed.add("set-weight")
                if waiting:
                    allowed.add("abstain")
                if any(c != v for v in waiting for c in ballot.candidates):
                    allowed.add("vote")
                if ballot.casts:
                    allowed.add("retract")
        if state.timer_seconds() > 0:
            allowed.add("timer")
        return frozenset(allowed)

    def choices(self, state: MeowfiaState, action_type: str) -> tuple[Mapping[str, Any], ...]:
        """The manual dialog's lists: a counter's values, a tile to reveal, a marker's
        holder — only those the rules accept now (no 3rd intercept while smuggling)."""
        if action_type not in self.allowed(state):
            return ()
        ids = [p.id for p in state.players]
        candidates: list[tuple[Mapping[str, Any], Action]] = []
        if action_type == "set-counter":
            counters: tuple[Counter, ...] = ("smuggles", "intercepts")
            for counter in counters:
                for value in range(TARGET + 1):
                    fields = {"counter": counter, "value": value}
                    candidates.append((fields, SetCounter(counter, value, "-")))
        elif action_type == "reveal-tile":
            tiles: tuple[Tile, ...] = ("undercover", "meowfia")
            for pid in state.hidden:
                for tile in tiles:
                    candidates.append(({"player": pid, "tile": tile}, RevealTile(pid, tile, "-")))
        elif action_type == "move-marker":
            markers: tuple[Marker, ...] = ("ring", "message", "rose")
            for marker in markers:
                for to in (*ids, None):
                    candidates.append(({"marker": marker, "to": to}, MoveMarker(marker, to, "-")))
        return accepted(GAME.apply, state, candidates)

    def confirm(self, state: MeowfiaState, action_type: str) -> Say | None:
        """Opening a building before the questioning is done (完成盘问后，警长必须从四座
        建筑中选择一座) is asked; the ring note says who would take it at the 1st reckoning."""
        current = state.current_round
        if action_type != "inspect" or state.phase != "inspection" or current is None:
            return None
        if current.questioning_done:
            return None
        asked = [q.player for q in current.questioned]
        if not asked:
            question = say(N_("Nobody has been questioned yet; open a building now?"))
        elif len(asked) == 1:
            question = say(
                N_("Only {names} has been questioned; open a building now?"),
                names=state.name(asked[0]),
            )
        else:
            question = say(
                N_("Only {names} have been questioned; open a building now?"),
                names=self._names(tuple(asked), state),
            )
        if state.reckonings:
            return question
        ring = current.ring_goes_to(state.ring_to_questioned)
        if ring is None:
            note = say(N_("If it holds the contraband, nobody takes the ring (give it by hand)."))
        else:
            note = say(
                N_("If it holds the contraband, {name} takes the ring."), name=state.name(ring)
            )
        return say(N_("{question}\n{note}"), question=question, note=note)

    def why_not(self, state: MeowfiaState, action_type: str) -> Say:
        if state.ended is not None:
            if action_type == "identify" and state.undercover is not None:
                return say(
                    N_("The Undercover is already known: {name}."),
                    name=state.name(state.undercover),
                )
            return say(
                N_(
                    "The game is over; only the Undercover can still be "
                    "entered. Undo to change the game."
                )
            )
        if action_type == "identify":
            return say(N_("Who was the Undercover is entered only after the game is over."))
        if state.phase == "setup":
            return say(N_("Name the Sheriff first."))
        current = state.current_round
        n = state.round_number
        ballot = state.ballot
        if action_type == "start":
            return say(
                N_("{name} is already the Sheriff; a game has exactly one."),
                name=state.name(state.sheriff),
            )
        if action_type == "smuggling-done":
            return say(N_("The smuggling of round {n} is already done."), n=n)
        if action_type == "question":
            if state.phase == "inspection" and current is not None:
                return say(N_("Everyone has been questioned in round {n}."), n=n)
            return say(
                N_(
                    "Questioning happens during the inspection, after "
                    "the smuggling and before a building is opened."
                )
            )
        if action_type == "inspect":
            if state.phase == "smuggling":
                return say(
                    N_("Confirm the smuggling is done before entering the inspection result.")
                )
            return say(N_("The inspection result of round {n} is already entered."), n=n)
        if action_type in BALLOT_TYPES:
            if ballot is None:
                if action_type == "set-weight":
                    return say(N_("A weight is changed only on an open ballot."))
                return say(N_("No vote is open now: votes are cast only during a reckoning."))
            if ballot.result == "tie":
                return say(N_("The ballot ended in a tie; start the revote first."))
            if ballot.result == "accused":
                return say(
                    N_("The ballot is closed: {name} is accused. Undo to change it."),
                    name=state.name(ballot.accused),
                )
            if action_type == "retract":
                return say(N_("Nobody has voted on this ballot yet."))
            return say(
                N_("This revote is among {names} only."),
                names=self._names(ballot.candidates, state),
            )
        if action_type == "revote":
            return say(N_("A revote follows only a tied ballot."))
        if action_type == "reveal":
            return say(
                N_("Nobody is accused yet: a tile is turned after a ballot with one leader.")
            )
        if action_type == "reveal-tile":
            if ballot is not None:
                return say(N_("Not during a vote: finish the ballot (and its reveal) first."))
            return say(N_("Every tile is already revealed."))
        if action_type == "timer":
            if state.phase not in ("smuggling", "reckoning"):
                return say(
                    N_("The phase timer runs during the smuggling and a reckoning's discussion.")
                )
            return say(N_("No timer for this phase: set its seconds in the session options."))
        return super().why_not(state, action_type)

    # ------------------------------------------------------------------ what to do next

    def prompt(self, state: MeowfiaState) -> Say:
        if state.ended is not None:
            if state.undercover is None:
                return say(
                    N_(
                        "Game over: enter who was the Undercover, so every player's side "
                        "is recorded."
                    )
                )
            return say(N_("Game over. Undo to change the game, or go back home."))
        current = state.current_round
        if state.phase == "setup" or current is None:
            return say(
                N_(
                    "Name the Sheriff by their seat number; the first player to be "
                    "questioned is then drawn at random."
                )
            )
        if state.phase == "smuggling":
            return say(
                N_(
                    "Smuggling: the Sheriff closes their eyes while the others hide the "
                    "contraband and 3 empty boxes, one per building; confirm when all four "
                    "buildings hold a token."
                )
            )
        if state.phase == "inspection":
            nxt = current.next_to_question
            if nxt is not None:
                return say(
                    N_(
                        "Inspection: the Sheriff questions {name} next (record it, with the "
                        "building claimed if you like), or opens a building now."
                    ),
                    name=state.name(nxt),
                )
            return say(
                N_(
                    "Inspection: everyone has been questioned; enter the building the "
                    "Sheriff opens and what it held."
                )
            )
        ballot = state.ballot
        assert ballot is not None
        if ballot.result == "tie":
            return say(
                N_("Tie between {names}: nobody is accused; start the revote."),
                names=self._names(ballot.tied, state),
            )
        if ballot.result == "accused":
            return say(
                N_("{name} is accused: turn their tile and enter what it shows."),
                name=state.name(ballot.accused),
            )
        ring = (
            say(N_("{name}'s vote counts 1.5."), name=state.name(ballot.ring))
            if ballot.ring
            else say(N_("Nobody holds the ring."))
        )
        return say(
            N_(
                "Reckoning {k}: after the discussion everyone but the Sheriff points at once; "
                "enter each vote ({entered} of {voters} so far). {ring}"
            ),
            k=ballot.reckoning,
            entered=len(ballot.casts),
            voters=len(ballot.voters),
            ring=ring,
        )

    # ------------------------------------------------------------------ what happened

    def describe(self, action: Action, before: MeowfiaState, after: MeowfiaState) -> Say:
        sentence = self._sentence(action, before, after)
        if before.ended is None and after.winning_side is not None:
            return say(N_("{what} {end}"), what=sentence, end=say(SIDE_WINS[after.winning_side]))
        return sentence

    def _sentence(self, action: Action, before: MeowfiaState, after: MeowfiaState) -> Say:
        name = after.name
        if isinstance(action, Start):
            return say(
                N_("{sheriff} is the Sheriff; {first} is questioned first (drawn at random)."),
                sheriff=name(action.sheriff),
                first=name(action.first),
            )
        if isinstance(action, SmugglingDone):
            return say(
                N_("Round {n}: the smuggling is done; the inspection begins."),
                n=before.round_number,
            )
        if isinstance(action, Question):
            if action.claim is None:
                return say(N_("{name} was questioned."), name=name(action.player))
            return say(
                N_("{name} was questioned and claims the {building} building."),
                name=name(action.player),
                building=building(action.claim),
            )
        if isinstance(action, Inspect):
            if action.result == "contraband":
                return say(
                    N_(
                        "The Sheriff opens the {building} building: the real contraband! "
                        "Intercepts {n}/{target}; a reckoning begins."
                    ),
                    building=building(action.building),
                    n=after.intercepts,
                    target=TARGET,
                )
            return say(
                N_(
                    "The Sheriff opens the {building} building: an empty box. "
                    "Smuggles {n}/{target}."
                ),
                building=building(action.building),
                n=after.smuggles,
                target=TARGET,
            )
        if isinstance(action, Vote | Abstain):
            return self._cast(action, before, after)
        if isinstance(action, Retract):
            return say(N_("{name}'s vote is cleared."), name=name(action.voter))
        if isinstance(action, Revote):
            ballot = after.ballot
            return say(
                N_("Revote: ballot {b} of reckoning {k}."),
                b=ballot.number if ballot else "?",
                k=ballot.reckoning if ballot else "?",
            )
        if isinstance(action, Reveal):
            return self._reveal(action.player, action.tile, action.role, after)
        if isinstance(action, Identify):
            return say(N_("{name} was the Undercover."), name=name(action.undercover))
        if isinstance(action, MoveMarker):
            return say(
                N_("{marker} goes to {name} ({reason})."),
                marker=say(MARKER_NAMES[action.marker]),
                name=name(action.to) if action.to else say(N_("nobody")),
                reason=action.reason,
            )
        if isinstance(action, SetWeight):
            return say(
                N_("{name}'s weight on this ballot is {weight} ({reason})."),
                name=name(action.voter),
                weight=format_weight(action.weight),
                reason=action.reason,
            )
        if isinstance(action, RevealTile):
            return say(
                N_("Revealed outside a vote ({reason}): {what}"),
                reason=action.reason,
                what=self._reveal(action.player, action.tile, action.role, after),
            )
        if isinstance(action, SetCounter):
            return say(
                N_("{counter} corrected to {value} ({reason})."),
                counter=say(COUNTER_NAMES[action.counter]),
                value=action.value,
                reason=action.reason,
            )
        if isinstance(action, Timer):
            return self._timer(action, after)
        return say("{type}", type=action.type)

    def _cast(self, action: Vote | Abstain, before: MeowfiaState, after: MeowfiaState) -> Say:
        ballot = before.ballot
        weight = format_weight(ballot.weight(action.voter)) if ballot else "1"
        if isinstance(action, Vote):
            cast = say(
                N_("{voter} points at {target} ({weight})."),
                voter=after.name(action.voter),
                target=after.name(action.target),
                weight=weight,
            )
        else:
            cast = say(N_("{voter} abstains."), voter=after.name(action.voter))
        closed = after.ballots[-1] if after.ballots else None
        if closed is None or closed.result == "open":
            return cast
        totals = closed.totals()
        best = format_weight(max(totals.values())) if totals else "0"
        if closed.result == "tie":
            result = say(
                N_("The ballot closes in a tie at {total} between {names}."),
                total=best,
                names=self._names(closed.tied, after),
            )
        else:
            result = say(
                N_("The ballot closes: {name} is accused with {total}."),
                name=after.name(closed.accused),
                total=best,
            )
        return say(N_("{what} {result}"), what=cast, result=result)

    def _reveal(self, pid: PlayerId, tile: str, role: str | None, after: MeowfiaState) -> Say:
        if tile == "undercover":
            return say(N_("{name}'s tile shows the Undercover!"), name=after.name(pid))
        if role:
            return say(
                N_("{name}'s tile shows a Meowfia member ({role})."),
                name=after.name(pid),
                role=role,
            )
        return say(N_("{name}'s tile shows a Meowfia member."), name=after.name(pid))

    def _timer(self, action: Timer, after: MeowfiaState) -> Say:
        timer = after.timer
        left = clock(timer.remaining_ns(action.host_ns)) if timer else "0:00"
        if action.command == "start":
            if after.phase == "smuggling":
                return say(N_("The smuggling timer starts: {time}."), time=left)
            return say(N_("The discussion timer starts: {time}."), time=left)
        if action.command == "pause":
            return say(N_("The timer is paused with {time} left."), time=left)
        return say(N_("The timer runs again with {time} left."), time=left)

    @staticmethod
    def _names(pids: tuple[PlayerId, ...], state: MeowfiaState) -> Say:
        return listing([state.name(pid) for pid in pids])


GUIDE = MeowfiaGuide()
