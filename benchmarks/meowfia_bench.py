"""喵喵咪呀 benchmarks: rules speed on a 10-player table, and a long game through the log.

    .venv/bin/python benchmarks/meowfia_bench.py [--db PATH]

Measures
* ``apply`` of one vote on a 10-player ballot (9 voters), and the live totals;
* a whole 10-player game (5 rounds, 3 reckonings, a revote in each) applied in memory;
* the same game committed action by action through ``LiveSession.act`` on a file
  database (WAL, ``synchronous=FULL``), then replayed and resumed from the log;
* the host guide and the view-model on every state of that game (what each key and
  each timer tick costs the screen and the board), side by side with the rules' bare
  count (``ballot.totals()`` + ``leaders()``, what the screen used to start from).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.games.meowfia.guide import GUIDE
from companion.games.meowfia.rules import (
    GAME,
    Abstain,
    Identify,
    Inspect,
    MeowfiaState,
    Question,
    Reveal,
    Revote,
    SmugglingDone,
    Start,
    Vote,
)
from companion.games.meowfia.view import host_view, table_view
from companion.rules.base import Action, seat_players
from companion.session.clock import ManualClock
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store

PLAYERS = seat_players([f"玩家{i}" for i in range(1, 11)])


def whole_game() -> list[Action]:
    """A 10-player game: 2 smuggles, 3 reckonings each with a tie then a revote."""
    state = GAME.setup(PLAYERS, {})
    actions: list[Action] = []

    def do(action: Action) -> None:
        nonlocal state
        state = GAME.apply(state, action)
        actions.append(action)

    do(Start("p1", "p4"))
    for round_no, found in enumerate(["empty", "contraband", "empty", "contraband", "contraband"]):
        do(SmugglingDone())
        current = state.current_round
        assert current is not None
        for pid in current.order:
            do(Question(pid, "N"))
        do(Inspect("E", found))  # type: ignore[arg-type]
        if found == "empty":
            continue
        ballot = state.ballot
        assert ballot is not None
        a, b = [v for v in ballot.candidates if v != state.ring][:2]
        for voter in ballot.voters:  # a tie: a and b vote for each other, the rest abstain
            do(Vote(voter, b if voter == a else a) if voter in (a, b) else Abstain(voter))
        do(Revote())
        ballot = state.ballot
        assert ballot is not None
        target = ballot.candidates[0]
        other = ballot.candidates[1]
        for voter in ballot.voters:
            do(Vote(voter, other if voter == target else target))
        do(Reveal(target, "meowfia", f"role {round_no}"))
    assert state.ended == "intercepts"
    hidden = state.hidden
    do(Identify(hidden[0]))
    return actions


def time_votes(repeat: int) -> list[float]:
    state: MeowfiaState = GAME.setup(PLAYERS, {})
    for action in (Start("p1", "p2"), SmugglingDone(), Inspect("N", "contraband")):
        state = GAME.apply(state, action)
    ballot = state.ballot
    assert ballot is not None
    samples = []
    for _ in range(repeat):
        voter = random.choice(ballot.voters[:-1])
        target = ballot.voters[-1]
        t = time.perf_counter_ns()
        after = GAME.apply(state, Vote(voter, target))
        after.ballot.totals()  # type: ignore[union-attr]
        samples.append((time.perf_counter_ns() - t) / 1e6)
    return samples


def time_views(actions: list[Action], repeat: int) -> dict[str, list[float]]:
    """Per state of the game: the guide, the view-models, and the bare count, in ms."""
    states = [GAME.setup(PLAYERS, {})]
    for action in actions:
        states.append(GAME.apply(states[-1], action))
    out: dict[str, list[float]] = {
        "bare count (totals + leaders), ballot states": [],
        "view tally (host_view), ballot states": [],
        "guide.allowed": [],
        "guide.prompt rendered": [],
        "guide.describe rendered": [],
        "table_view (the board)": [],
        "host_view (the screen)": [],
    }

    def timed(key: str, fn: object) -> None:
        t = time.perf_counter_ns()
        fn()  # type: ignore[operator]
        out[key].append((time.perf_counter_ns() - t) / 1e6)

    for _ in range(repeat):
        for i, state in enumerate(states):
            ballot = state.ballot
            if ballot is not None:
                timed(
                    "bare count (totals + leaders), ballot states",
                    lambda b=ballot: (b.totals(), b.leaders()),
                )
                timed("view tally (host_view), ballot states", lambda s=state: host_view(s, 0))
            timed("guide.allowed", lambda s=state: GUIDE.allowed(s))
            timed("guide.prompt rendered", lambda s=state: GUIDE.prompt(s).render())
            if i:
                timed(
                    "guide.describe rendered",
                    lambda i=i: GUIDE.describe(actions[i - 1], states[i - 1], states[i]).render(),
                )
            timed("table_view (the board)", lambda s=state: table_view(s, 0))
            timed("host_view (the screen)", lambda s=state: host_view(s, 0))
    return out


def ms(values: list[float]) -> str:
    values = sorted(values)
    p99 = values[int(len(values) * 0.99) - 1]
    return f"median {statistics.median(values):.3f} ms, p99 {p99:.3f} ms, max {values[-1]:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    print("vote + totals on a 9-voter ballot:", ms(time_votes(5000)))

    actions = whole_game()
    samples = []
    for _ in range(50):
        t = time.perf_counter()
        state = GAME.setup(PLAYERS, {})
        for action in actions:
            state = GAME.apply(state, action)
        samples.append((time.perf_counter() - t) * 1000)
    print(f"whole 10-player game in memory ({len(actions)} actions):", ms(samples))
    for name, values in time_views(actions, 20).items():
        print(f"{name}:", ms(values))

    folder = args.db.parent if args.db else Path(tempfile.mkdtemp(dir=Path.cwd()))
    db = args.db or folder / "meowfia_bench.sqlite3"
    with Store.open(db) as store:
        live = LiveSession.start(store, "meowfia", PLAYERS, {}, clock=ManualClock())
        acts = []
        for action in actions:
            t = time.perf_counter()
            live.act(action)
            acts.append((time.perf_counter() - t) * 1000)
        print("LiveSession.act (commit with fsync):", ms(acts))
        entries = store.entries(live.id)
        t = time.perf_counter()
        replay(GAME, PLAYERS, live.options, entries)
        print(f"replay of the {len(entries)}-entry log: {(time.perf_counter() - t) * 1000:.1f} ms")
        t = time.perf_counter()
        LiveSession.resume(store, live.id)
        print(f"resume: {(time.perf_counter() - t) * 1000:.1f} ms")
    if args.db is None:
        for p in folder.iterdir():
            p.unlink()
        folder.rmdir()


if __name__ == "__main__":
    main()
