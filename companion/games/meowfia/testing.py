"""喵喵咪呀's testing hook for the conformance suite (``companion.rules.testing``)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction

from companion.games.meowfia.rules import (
    BUILDINGS,
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
)
from companion.rules.base import Action, Game
from companion.rules.testing import GameTesting, accepts

S = 1_000_000_000


class MeowfiaTesting(GameTesting[MeowfiaState]):
    tables = (5, 8)
    options = ({"revote_tied_only": False}, {"revote_tied_only": True, "smuggling_seconds": 30})
    steps = 150

    def candidates(self, state: MeowfiaState, rng: random.Random) -> Sequence[Action]:
        ids = [p.id for p in state.players]
        out: list[Action] = [SmugglingDone(), Revote()]
        for a in ids:
            out += [Question(a), Question(a, "N"), Abstain(a), Retract(a), Identify(a)]
            out += [SetWeight(a, Fraction(2), "ability")]
            for tile in ("undercover", "meowfia"):
                out += [Reveal(a, tile), RevealTile(a, tile, "ability")]
            for b in ids:
                out += [Start(a, b), Vote(a, b)]
        for building in BUILDINGS:
            out += [Inspect(building, "contraband"), Inspect(building, "empty")]
        for marker in ("ring", "message", "rose"):
            out += [MoveMarker(marker, to, "ability") for to in (*ids, None)]
        for counter in ("smuggles", "intercepts"):
            out += [SetCounter(counter, value, "mistake") for value in range(4)]
        since = state.timer.since_ns if state.timer else 0
        for command in ("start", "pause", "resume"):
            out += [Timer(command, since), Timer(command, since + 10_000 * S)]
        return out

    def random_step(
        self, game: Game[MeowfiaState], state: MeowfiaState, rng: random.Random
    ) -> Action | None:
        """Mostly what a host would enter next (the game moves on), sometimes anything."""
        progress = [a for a in progress_actions(state, rng) if accepts(game, state, a)]
        if progress and rng.random() < 0.85:
            return rng.choice(progress)
        return super().random_step(game, state, rng)


def progress_actions(state: MeowfiaState, rng: random.Random, abstain: float = 0.0) -> list[Action]:
    """Moves that push the game forward, as a host would enter them next; a voter
    with someone to point at abstains with probability ``abstain`` (the tests' random
    games use 0.1; the random stream is untouched at 0)."""
    ids = [p.id for p in state.players]
    if state.phase == "setup":
        sheriff = rng.choice(ids)
        return [Start(sheriff, rng.choice([i for i in ids if i != sheriff]))]
    if state.phase == "smuggling":
        return [SmugglingDone()]
    if state.phase == "inspection":
        current = state.current_round
        if current is None:
            return []
        out: list[Action] = [Inspect(rng.choice(BUILDINGS), rng.choice(("contraband", "empty")))]
        if current.next_to_question is not None:
            out.append(Question(current.next_to_question, rng.choice((None, *BUILDINGS))))
        return out
    if state.phase == "reckoning":
        ballot = state.ballot
        if ballot is None:
            return []
        if ballot.result == "tie":
            return [Revote()]
        if ballot.result == "accused" and ballot.accused is not None:
            return [Reveal(ballot.accused, rng.choice(("meowfia", "meowfia", "undercover")))]
        waiting = [v for v in ballot.voters if ballot.cast_of(v) is None]
        if not waiting:
            return []
        voter = rng.choice(waiting)
        targets = [c for c in ballot.candidates if c != voter]
        if not targets or (abstain and rng.random() < abstain):
            return [Abstain(voter)]
        return [Vote(voter, rng.choice(targets))]
    hidden = [pid for pid in state.hidden if pid != state.undercover]
    return [Identify(rng.choice(hidden))] if hidden and state.undercover is None else []


TESTING = MeowfiaTesting()
