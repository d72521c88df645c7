"""Shadow Cats timings: roster parsing, rules throughput, replay, and live commits.

    .venv/bin/python benchmarks/shadow_cats_bench.py [--games 200] [--db-dir DIR]

Random games are played by a simulated table (dice from the session helpers,
truthful reveals) until a team wipe; the numbers go into docs/PERFORMANCE.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from companion.games.shadow_cats import prepare as sc
from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import (
    Attack,
    EndTurn,
    FinalIdentities,
    Forest,
    IdentityEntry,
    Move,
    Place,
    Reveal,
)
from companion.games.shadow_cats.rules.board import LOCATIONS
from companion.games.shadow_cats.rules.roster import parse_roster
from companion.games.shadow_cats.rules.state import ShadowState
from companion.rules.base import Action, RuleError, action_to_json, seat_players
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Entry, Store


def next_action(
    state: ShadowState, rng: random.Random, hidden: dict[str, str], setup: Action
) -> Action:
    if state.phase == "setup":
        return setup
    if state.phase == "start":
        return Place(state.next_to_place or "", sc.roll_start(rng))
    if state.phase == "ended":
        return FinalIdentities(
            tuple(
                IdentityEntry(s.player, hidden[s.player])  # type: ignore[arg-type]
                for s in state.seats
                if s.identity is None
            )
        )
    if state.pending_reveal:
        return Reveal(state.pending_reveal, hidden[state.pending_reveal])  # type: ignore[arg-type]
    pid = state.turn or ""
    if state.step == "move":
        rolls = sc.roll_move(rng, state.seat(pid).location)
        there = (
            rng.choice([x for x in LOCATIONS if x != state.seat(pid).location])
            if rolls[-1] == 7
            else None
        )
        return Move(pid, rolls, there)
    if state.step == "forest":
        others = [s.player for s in state.living() if s.player != pid]
        return Forest(pid, rng.choice(others), "damage") if others else Forest(pid, pid, "heal")
    targets = state.in_range(pid)
    return Attack(pid, rng.choice(targets), sc.roll_d100(rng)) if targets else EndTurn(pid)


def play(seed: int, n: int) -> tuple[list[Action], float]:
    rng = random.Random(seed)
    players = seat_players([f"P{i}" for i in range(n)])
    setup = sc.random_setup(sc.default_roster(), players, rng)
    cards = ["red"] * setup.red + ["blue"] * setup.blue + ["neutral"] * setup.neutral
    rng.shuffle(cards)
    hidden = {p.id: c for p, c in zip(players, cards, strict=True)}
    state = GAME.apply(GAME.setup(players, {}), setup)
    actions: list[Action] = [setup]
    start = time.perf_counter()  # play only: the setup's roster parse is measured apart
    while not state.over:
        action = next_action(state, rng, hidden, setup)
        state = GAME.apply(state, action)
        actions.append(action)
    return actions, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--db-dir", default=None)
    args = ap.parse_args()

    text = sc.default_roster().text
    runs = []
    for _ in range(200):
        t = time.perf_counter()
        parse_roster(text, "default_roster.toml")
        runs.append(time.perf_counter() - t)
    print(
        f"parse default roster (23 characters, 46 items): median "
        f"{statistics.median(runs) * 1e3:.2f} ms"
    )

    for n in (5, 10):
        lengths, rates, times = [], [], []
        for seed in range(args.games):
            actions, spent = play(seed, n)
            lengths.append(len(actions))
            times.append(spent)
            rates.append((len(actions) - 1) / spent)
        print(
            f"{n} players: {args.games} games, median {statistics.median(lengths):.0f} actions "
            f"(max {max(lengths)}), apply median {statistics.median(rates):,.0f} actions/s, "
            f"whole game median {statistics.median(times) * 1e3:.1f} ms"
        )

    # one long log: games back to back are not possible, so replay the longest 10-player one
    longest = max((play(seed, 10)[0] for seed in range(50)), key=len)
    entries = [Entry(i + 1, "action", action_to_json(a), "t", i) for i, a in enumerate(longest)]
    players = seat_players([f"P{i}" for i in range(10)])
    t = time.perf_counter()
    for _ in range(10):
        replay(GAME, players, {}, entries)
    print(
        f"replay a {len(entries)}-entry 10-player log (parse + check + fold): "
        f"{(time.perf_counter() - t) / 10 * 1e3:.1f} ms"
    )

    folder = Path(args.db_dir or tempfile.mkdtemp())
    store = Store.open(folder / "shadow_bench.sqlite3")
    session = LiveSession.start(store, "shadow-cats", players, {}, rng=random.Random(1))
    commit = []
    for action in longest:
        t = time.perf_counter()
        try:
            session.act(action)
        except RuleError:
            break
        commit.append(time.perf_counter() - t)
    commit.sort()
    print(
        f"LiveSession.act with SQLite commit ({folder}): {len(commit)} actions, median "
        f"{statistics.median(commit) * 1e3:.2f} ms, p99 "
        f"{commit[int(len(commit) * 0.99) - 1] * 1e3:.2f} ms, setup action "
        f"{commit[-1] * 1e3:.1f} ms max"
    )
    t = time.perf_counter()
    LiveSession.resume(store, session.id)
    print(f"resume that session: {(time.perf_counter() - t) * 1e3:.1f} ms")
    store.close()


if __name__ == "__main__":
    main()
