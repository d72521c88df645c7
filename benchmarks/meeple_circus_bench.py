"""Meeple Circus: how long judging presses, replaying a game and stamping a key take.

    .venv/bin/python benchmarks/meeple_circus_bench.py

1. ``judge``: the whole verdict of a performance (statuses, order, ties, tokens) for
   5 players and a growing number of presses — it runs on every screen refresh and
   every action, so it must stay far below a frame (16 ms). The worst case has 8
   presses flagged at the music's edges, which the judge resolves by trying all 256
   ways of settling them.
2. Replay of a full 3-act, 5-player game log (``companion.session.log.replay``).
3. Key → stamp: in the running app (headless, real monotonic clock), the time from
   the test pressing a player's key to the press being stamped with the session
   clock. It is the part of the keyboard's ±20 ms uncertainty that the companion
   itself adds (a real keyboard adds its 8–10 ms USB polling, the terminal a little).
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.meeple_circus.rules import GAME  # noqa: E402
from companion.games.meeple_circus.rules.actions import (  # noqa: E402
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
from companion.games.meeple_circus.rules.timing import Attempt, Performance, RecordedPress, judge  # noqa: E402
from companion.rules.base import action_to_json, seat_players  # noqa: E402
from companion.session.log import replay  # noqa: E402
from companion.session.store import Entry  # noqa: E402

MS = 1_000_000
S = 1_000 * MS
PLAYERS = ("p1", "p2", "p3", "p4", "p5")


def _timeit(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def bench_judge() -> list[str]:
    rows = []
    start, length = 1 * S, 120 * S
    for n in (5, 20, 50):
        presses = tuple(
            RecordedPress(Press(PLAYERS[i % 5], start + (i + 1) * 700 * MS, 20 * MS, "keyboard"), 0)
            for i in range(n)
        )
        perf = Performance(None, (Attempt(start, length, "t", start + length, "music"),), presses)
        times = _timeit(lambda perf=perf: judge.__wrapped__(perf, speed_tokens=True), 200)
        rows.append((f"{n} presses, none flagged", times))
    # Worst case: 8 presses on the edges (4 at the start, 4 at the end).
    edge = tuple(
        RecordedPress(Press(PLAYERS[i % 5], start + (i - 2) * MS, 10 * MS, "keyboard"), 0)
        for i in range(4)
    ) + tuple(
        RecordedPress(Press(PLAYERS[i % 5], start + length + (i - 2) * MS, 10 * MS, "keyboard"), 0)
        for i in range(4)
    )
    perf = Performance(None, (Attempt(start, length, "t", start + length, "music"),), edge)
    rows.append(
        (
            "8 presses flagged at the edges (up to 256 settlements)",
            _timeit(lambda: judge.__wrapped__(perf, speed_tokens=True), 50),
        )
    )
    lines = []
    for label, times in rows:
        ms = sorted(t * 1000 for t in times)
        lines.append(
            f"| judge: {label} | median {statistics.median(ms):.3f} ms, max {ms[-1]:.3f} ms |"
        )
    return lines


def full_game_log() -> tuple[list[Entry], tuple]:
    players = seat_players(["A", "B", "C", "D", "E"])
    state = GAME.setup(players, GAME.check_options({}))
    actions = []

    def do(action) -> None:
        nonlocal state
        state = GAME.apply(state, action)
        actions.append(action)

    do(ChooseFirstPlayer("p1"))
    t = 10 * S
    for act in (1, 2, 3):
        for pid in state.preparation_order():
            do(Prepare(pid))
        performers = state.performance_order() or (None,)
        for performer in performers:
            do(StartPerformance(t, 120 * S, "t"))
            who = [performer] if performer else list(PLAYERS)
            for i, pid in enumerate(who):
                do(Press(pid, t + (30 + i) * S, 20 * MS, "keyboard"))
                do(Press(pid, t + (31 + i) * S, 20 * MS, "keyboard"))
            if state.performance.current.running:
                do(EndPerformance(t + 120 * S))
            do(FinishPerformance())
            t += 200 * S
        for i, pid in enumerate(PLAYERS):
            extra = {"guest_stars": (3,)} if act > 1 else {}
            do(ScorePlayer(pid, demands=(3, 2), blue=i, red_heights=(4,), **extra))
        if act < 3:
            if state.pending_pick:
                do(HostPick(state.pending_pick.candidates[0]))
            do(EndAct())
    entries = [Entry(i + 1, "action", action_to_json(a), "", 0) for i, a in enumerate(actions)]
    return entries, players


def bench_replay() -> list[str]:
    entries, players = full_game_log()
    times = _timeit(lambda: replay(GAME, players, {}, entries), 20)
    ms = sorted(t * 1000 for t in times)
    return [
        f"| replay a full 5-player game ({len(entries)} actions) | "
        f"median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms |"
    ]


async def _key_to_stamp(samples: int) -> list[float]:
    from companion.audio.backend import SilentBackend
    from companion.session.clock import SystemClock
    from companion.ui.app import make_app

    class StampClock(SystemClock):
        """The system clock, remembering its last reading (the press stamp)."""

        last = 0

        def monotonic_ns(self) -> int:
            StampClock.last = super().monotonic_ns()
            return StampClock.last

    out = []
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp) / "b.sqlite3", clock=StampClock(), audio=SilentBackend("bench"))
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            app.start_session("meeple-circus", ["A", "B"], {"music_act1": "countdown:3600"})
            await app.settle()
            for key in ("1", "p", "p", "s"):
                await pilot.press(key)
                await app.settle()
            for i in range(samples):
                key = "1" if i % 2 else "2"
                before = time.monotonic_ns()
                await pilot.press(key)
                await app.settle()
                stamped = max(j.press.host_ns for j in app.screen.circus.verdict().presses)
                out.append((stamped - before) / MS)
    return out


def bench_keys() -> list[str]:
    ms = sorted(asyncio.run(_key_to_stamp(100)))
    return [
        f"| key → stamp (headless Pilot, 100 presses) | median {statistics.median(ms):.2f} ms, "
        f"p90 {ms[int(len(ms) * 0.9)]:.2f} ms, max {ms[-1]:.2f} ms |"
    ]


def main() -> None:
    print("| what | result |")
    print("| --- | --- |")
    for line in (*bench_judge(), *bench_replay(), *bench_keys()):
        print(line)


if __name__ == "__main__":
    main()
