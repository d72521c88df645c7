"""Shortcuts for driving a Meeple Circus game in tests (pure rules, no UI)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games.meeple_circus.rules import GAME
from companion.games.meeple_circus.rules.actions import (
    ChooseFirstPlayer,
    EndAct,
    EndPerformance,
    FinishPerformance,
    HostPick,
    Prepare,
    Press,
    ScorePlayer,
    StartPerformance,
)
from companion.games.meeple_circus.rules.state import CircusState
from companion.rules.base import Action, Player, seat_players

MS = 1_000_000
SECOND = 1_000 * MS
TRACK = 120 * SECOND


def key(player: str, t: int, uncertainty: int = 0) -> Press:
    return Press(player, t, uncertainty, "keyboard")


def box(player: str, t: int, device_us: int, uncertainty: int = 0, device: str = "BOX1") -> Press:
    return Press(player, t, uncertainty, "button-box", device=device, device_us=device_us)


@dataclass
class Table:
    """A game in progress: ``do`` applies actions, keeping every state."""

    players: tuple[Player, ...]
    options: dict[str, Any] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.state: CircusState = GAME.setup(self.players, GAME.check_options(self.options))

    @classmethod
    def of(cls, *names: str, birth_dates: list[str | None] | None = None, **options: Any) -> Table:
        return cls(seat_players(list(names), birth_dates=birth_dates), dict(options))

    def do(self, *actions: Action) -> CircusState:
        for action in actions:
            self.state = GAME.apply(self.state, action)
            self.actions.append(action)
        return self.state

    def prepare_all(self) -> None:
        for pid in self.state.preparation_order():
            self.do(Prepare(pid))

    def start_game(self, first: str = "p1") -> None:
        self.do(ChooseFirstPlayer(first))
        self.prepare_all()

    def rehearsal(self, *presses: Press, start: int = 0, length: int = TRACK) -> None:
        """Acts 1–2: play the music through with these presses, then finish."""
        self.do(StartPerformance(start, length, "t"))
        self.do(*presses)
        self.do(EndPerformance(start + length), FinishPerformance())

    def score_all(self, points: dict[str, int]) -> None:
        """Score each player ``points`` via blue acrobats (speed tokens add on)."""
        for pid in self.state.player_ids():
            self.do(ScorePlayer(pid, blue=points.get(pid, 0)))

    def grand_show(self, finish_after: int = 60 * SECOND) -> None:
        """Act 3: every performer presses ``finish_after`` into their own track."""
        t = 10 * TRACK
        for pid in self.state.performance_order():
            assert self.state.performer == pid
            self.do(StartPerformance(t, TRACK, "show"), key(pid, t + finish_after))
            self.do(FinishPerformance())
            t += 2 * TRACK

    def end_act(self) -> None:
        """End the act; a tie the host must break goes to the last tied player."""
        if self.state.pending_pick is not None:
            self.do(HostPick(self.state.pending_pick.candidates[-1]))
        self.do(EndAct())
