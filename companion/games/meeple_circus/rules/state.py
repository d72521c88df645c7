"""The state of a Meeple Circus game: acts, phases, performances, evaluations.

Design decisions:

* Bookkeeping (act, phase, whose turn) is data in the state; everything that can
  be derived — preparation order, act-3 order, totals, the Tadaa verdict — is a
  method, so it can never disagree with the facts it comes from.
* Totals never reset between acts: a player's total is the sum of every act's
  evaluation (including speed tokens, which are fixed when a performance closes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from companion.games.meeple_circus.rules.timing import Performance, Verdict, judge
from companion.rules.base import Player, PlayerId

Phase = Literal["first-player", "preparation", "performance", "evaluation", "end", "over"]
"""Where the game is: choosing act 1's first player, then each act's four phases
(准备 preparation, 表演 performance, 评价 evaluation, 结束 end), then over."""

ACTS = (1, 2, 3)
SPEED_TOKEN_ACTS = (1, 2)
"""Acts whose performance awards the 2 and 1 speed tokens (all at once)."""
GUEST_STAR_ACTS = (2, 3)
CHALLENGE_ACTS = (3,)
GUEST_STAR_MULTIPLIER = {2: 1, 3: 2}
"""Guest stars score as printed in act 2 and double in act 3 (盛大演出)."""

SOURCES = ("demands", "blue", "yellow", "red", "speed", "guest_stars", "challenges")
"""The seven scoring sources of an evaluation, in the order the form shows them."""


@dataclass(frozen=True)
class ActScore:
    """One player's evaluation in one act, as entered (plus the speed token)."""

    player: PlayerId
    act: int
    demands: tuple[int, ...] = ()
    blue: int = 0
    yellow: int = 0
    red_heights: tuple[int, ...] = ()
    speed: int = 0
    guest_stars: tuple[int, ...] = ()
    challenges: tuple[int, ...] = ()

    def breakdown(self) -> dict[str, int]:
        """Points per source (see ``SOURCES``)."""
        return {
            "demands": sum(self.demands),
            "blue": self.blue,
            "yellow": self.yellow,
            "red": sum(self.red_heights),
            "speed": self.speed,
            "guest_stars": sum(self.guest_stars) * GUEST_STAR_MULTIPLIER.get(self.act, 1),
            "challenges": sum(self.challenges),
        }

    @property
    def total(self) -> int:
        return sum(self.breakdown().values())


@dataclass(frozen=True)
class ActState:
    """One act: its first player, who prepared, the performances and evaluations."""

    number: int
    first_player: PlayerId
    prepared: tuple[PlayerId, ...] = ()
    performances: tuple[Performance, ...] = ()
    """Acts 1–2: one shared performance. Act 3: one per performer, in order."""
    speed_tokens: tuple[tuple[PlayerId, int], ...] = ()
    scores: tuple[ActScore, ...] = ()
    next_first_player: PlayerId | None = None
    """Decided at the end of the act (fewest points → youngest → host pick)."""
    music_choices: tuple[tuple[int, str], ...] = ()
    """The host's ``choose-music`` picks: (performance index, music); the last one wins."""

    def music_choice(self, index: int) -> str | None:
        """What the host chose for performance ``index`` of this act, if anything."""
        return dict(self.music_choices).get(index)

    def score_of(self, pid: PlayerId) -> ActScore | None:
        return next((s for s in self.scores if s.player == pid), None)

    def token_of(self, pid: PlayerId) -> int:
        return dict(self.speed_tokens).get(pid, 0)


@dataclass(frozen=True)
class PendingPick:
    """A tie only the host can break: who, among ``candidates``, for ``purpose``."""

    purpose: Literal["next-first-player"]
    candidates: tuple[PlayerId, ...]
    reason: Literal["no-birth-dates", "same-birth-date"]


@dataclass(frozen=True)
class CircusState:
    players: tuple[Player, ...]
    max_height: int
    """Highest mark of the measuring stick (测高尺); red heights run 1..max_height."""
    fun_technical: bool
    """The Fun/Technical challenge variant was agreed before the game."""
    music: tuple[str, str, str] = ("", "", "")
    """The host's music setting per act (see docs; the rules only record it)."""
    phase: Phase = "first-player"
    acts: tuple[ActState, ...] = ()
    first_player_random: bool = False
    pending_pick: PendingPick | None = None

    # ------------------------------------------------------------------ derived

    @property
    def act(self) -> ActState | None:
        """The current act (None before the first player of act 1 is chosen)."""
        return self.acts[-1] if self.acts else None

    @property
    def act_number(self) -> int:
        return self.acts[-1].number if self.acts else 1

    def player_ids(self) -> tuple[PlayerId, ...]:
        return tuple(p.id for p in self.players)

    def clockwise_from(self, pid: PlayerId) -> tuple[PlayerId, ...]:
        """Every player, starting at ``pid`` and going clockwise (seating order)."""
        ids = self.player_ids()
        i = ids.index(pid)
        return ids[i:] + ids[:i]

    def preparation_order(self) -> tuple[PlayerId, ...]:
        act = self.act
        return self.clockwise_from(act.first_player) if act is not None else ()

    def next_to_prepare(self) -> PlayerId | None:
        act = self.act
        if self.phase != "preparation" or act is None:
            return None
        return next((p for p in self.preparation_order() if p not in act.prepared), None)

    def performance_order(self) -> tuple[PlayerId, ...]:
        """Act 3: who performs, in order (from the first player, clockwise).

        The act's first player is the player with the fewest points after act 2
        (ties: youngest, then host), which is exactly who performs first.
        """
        return self.preparation_order() if self.act_number == 3 else ()

    @property
    def performance(self) -> Performance | None:
        """The performance now open (act 3: the current performer's)."""
        act = self.act
        if self.phase != "performance" or act is None or not act.performances:
            return None
        return act.performances[-1]

    def music_slot(self) -> int:
        """The performance the next music times: its index in the act (act 3: the
        current performer's; 0 before the performance phase opens it)."""
        act = self.act
        return max(0, len(act.performances) - 1) if act is not None else 0

    def music_setting(self) -> str:
        """What times the performance that plays next: the host's pick (``choose-music``),
        else the act's music option."""
        act = self.act
        chosen = act.music_choice(self.music_slot()) if act is not None else None
        return chosen if chosen is not None else self.music[self.act_number - 1]

    @property
    def performer(self) -> PlayerId | None:
        perf = self.performance
        return perf.performer if perf is not None else None

    def verdict(self) -> Verdict | None:
        """The judged presses of the open performance."""
        perf = self.performance
        if perf is None:
            return None
        return judge(perf, speed_tokens=self.act_number in SPEED_TOKEN_ACTS)

    def totals(self, through_act: int | None = None) -> dict[PlayerId, int]:
        """Every player's running total (through ``through_act`` when given)."""
        totals = {p.id: 0 for p in self.players}
        for act in self.acts:
            if through_act is not None and act.number > through_act:
                break
            for score in act.scores:
                totals[score.player] += score.total
        return totals

    def unscored(self) -> tuple[PlayerId, ...]:
        act = self.act
        if act is None:
            return ()
        return tuple(p for p in self.player_ids() if act.score_of(p) is None)

    def birth_dates(self) -> Mapping[PlayerId, str | None]:
        return {p.id: p.birth_date for p in self.players}
