"""Cat Box: how fast the rules answer, per key press and per game.

    .venv/bin/python benchmarks/cat_box_bench.py

Measures (time.perf_counter, medians of repeated runs):
* ``check_roll`` — what the roll dialog computes on every digit the host types
  (bust, FAQ 6, the slots met, where a token may go) on a busy display;
* ``apply`` — one action, over whole random games (the driver of the property tests);
* the guide and the view-model per commit — what the screen and the board compute
  beyond the rules: ``GUIDE.allowed`` + ``GUIDE.prompt`` + ``table_view`` for the host
  and for the board, on the same states, side by side with ``apply`` in the same run;
* parsing the default card file;
* a whole 4-player game through ``LiveSession`` on an on-disk SQLite store (WAL,
  synchronous=FULL), then its replay and resume from the log.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "cat_box"))

from test_cat_box_properties import choose

from companion.games.cat_box.guide import GUIDE
from companion.games.cat_box.prepare import deal_for, default_card_text
from companion.games.cat_box.rules import GAME, CatBoxState, parse_card_file
from companion.games.cat_box.view import table_view
from companion.rules.base import RuleError, seat_players
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal"]


def play(players: int, seed: int) -> tuple[list[CatBoxState], list[float]]:
    rng = random.Random(seed)
    group = seat_players(NAMES[:players])
    state = GAME.apply(GAME.setup(group, GAME.check_options({})), deal_for(group, {}, rng))
    states, times = [state], []
    while state.ended is None:
        action = choose(state, rng)
        start = time.perf_counter()
        try:
            state = GAME.apply(state, action)
        except RuleError:
            continue
        times.append(time.perf_counter() - start)
        states.append(state)
    return states, times


def us(seconds: float) -> str:
    return f"{seconds * 1e6:.0f} µs"


def main() -> None:
    apply_times: list[float] = []
    busy: list[CatBoxState] = []
    every: list[CatBoxState] = []
    actions_per_game = []
    for seed in range(40):
        states, times = play(8 if seed % 2 else 4, seed)
        apply_times += times
        actions_per_game.append(len(times))
        every += states
        busy += [
            s
            for s in states
            if s.ended is None and sum(len(slot) for d in s.display for slot in d.tokens) >= 6
        ]
    print(
        f"apply: {len(apply_times)} actions in 40 games (4 and 8 players), "
        f"median {us(statistics.median(apply_times))}, "
        f"p99 {us(sorted(apply_times)[int(len(apply_times) * 0.99)])}, "
        f"max {us(max(apply_times))}; actions per game median "
        f"{statistics.median(actions_per_game):.0f}"
    )
    rng = random.Random(1)
    checks = []
    for state in busy[:2000]:
        pid = state.current
        assert pid is not None
        common = tuple(rng.randint(1, 6) for _ in range(3))
        rolled = (rng.randint(1, 6), rng.randint(1, 6))
        start = time.perf_counter()
        state.check_roll(pid, common, rolled)
        checks.append(time.perf_counter() - start)
    print(
        f"check_roll on displays with >= 6 tokens: {len(checks)} checks, median "
        f"{us(statistics.median(checks))}, max {us(max(checks))}"
    )
    guided, viewed = [], []
    for state in every[:: max(1, len(every) // 3000)]:
        start = time.perf_counter()
        GUIDE.allowed(state)
        GUIDE.prompt(state)
        middle = time.perf_counter()
        table_view(state)
        table_view(state, board=True)
        guided.append(middle - start)
        viewed.append(time.perf_counter() - middle)
    print(
        f"per commit, on {len(guided)} states of the same games: guide (allowed + prompt) "
        f"median {us(statistics.median(guided))}, max {us(max(guided))}; view-model "
        f"(host + board) median {us(statistics.median(viewed))}, max {us(max(viewed))}; "
        f"apply median {us(statistics.median(apply_times))} (same run)"
    )
    text = default_card_text()
    parses = []
    for _ in range(200):
        start = time.perf_counter()
        parse_card_file(text, "default_cards.toml")
        parses.append(time.perf_counter() - start)
    print(f"parse the default card file: median {us(statistics.median(parses))}")
    with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parent) as folder:
        store = Store.open(Path(folder) / "bench.db")
        rng = random.Random(7)
        live = LiveSession.start(
            store, "cat-box", seat_players(NAMES[:4]), {}, rng=random.Random(7)
        )
        commits = []
        live.act(deal_for(live.players, live.options, live.rng))
        while live.outcome is None:
            action = choose(live.state, rng)
            start = time.perf_counter()
            try:
                live.act(action)
            except RuleError:
                continue
            commits.append(time.perf_counter() - start)
        entries = store.entries(live.id)
        start = time.perf_counter()
        replay(GAME, live.players, live.options, entries)
        replayed = time.perf_counter() - start
        start = time.perf_counter()
        LiveSession.resume(store, live.id)
        resumed = time.perf_counter() - start
        print(
            f"live game: {len(entries)} entries; act (rules + commit) median "
            f"{statistics.median(commits) * 1e3:.2f} ms, max {max(commits) * 1e3:.1f} ms; "
            f"replay {replayed * 1e3:.1f} ms; resume {resumed * 1e3:.1f} ms"
        )
        store.close()


if __name__ == "__main__":
    main()
