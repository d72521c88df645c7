"""Foundation numbers: append latency (synchronous=FULL), replay of 10,000 entries, start-up.

    .venv/bin/python benchmarks/foundation_log.py [--db-dir DIR]

The database goes on the same disk as the user data folder would (default: a
temporary folder under the current directory, not /tmp, which may be RAM-backed).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules.base import seat_players  # noqa: E402
from companion.session.live import LiveSession  # noqa: E402
from companion.session.log import replay  # noqa: E402
from companion.session.store import Store  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_append(folder: Path, n: int) -> list[float]:
    with Store.open(folder / "append.sqlite3") as store:
        live = LiveSession.start(store, "scorepad", seat_players(["A", "B", "C", "D"]), {})
        times = []
        for i in range(n):
            action = {"type": "score", "player": f"p{i % 4 + 1}", "points": i % 9 - 4}
            t0 = time.perf_counter()
            live.act(action)
            times.append(time.perf_counter() - t0)
        return times


def bench_replay(folder: Path, n: int) -> tuple[float, float]:
    with Store.open(folder / "replay.sqlite3") as store:
        sid = store.create_session(
            "scorepad", {"highest_wins": True, "target": 0}, seat_players(["A", "B", "C", "D"])
        )
        with store.transaction() as c:
            import json

            rows = []
            for seq in range(1, n + 1):
                payload = (
                    {"type": "close-round"}
                    if seq % 10 == 0
                    else {"type": "score", "player": f"p{seq % 4 + 1}", "points": seq % 7}
                )
                rows.append((sid, seq, "action", json.dumps(payload), "t", seq))
            c.executemany(
                "INSERT INTO entries(session_id, seq, kind, payload, at, mono_ns) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                rows,
            )
        t0 = time.perf_counter()
        entries = store.entries(sid)
        row = store.session(sid)
        from companion.games import find_game

        replay(find_game("scorepad").load(), row.players, row.options, entries)
        t_replay = time.perf_counter() - t0
        t0 = time.perf_counter()
        LiveSession.resume(store, sid)
        t_resume = time.perf_counter() - t0
        return t_replay, t_resume


FIRST_SCREEN = """
import sys, time
from companion.ui.app import make_app
from companion.ui.home import HomeScreen
app = make_app(sys.argv[1], lang=sys.argv[2])
def ready():
    if isinstance(app.screen, HomeScreen):
        app.exit()
    else:
        app.set_timer(0.001, ready)
app.call_after_refresh(ready)
app.run(headless=True)
"""


def bench_first_screen(folder: Path, runs: int, lang: str) -> list[float]:
    times = []
    for i in range(runs):
        db = folder / f"start-{lang}-{i}.sqlite3"
        t0 = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", FIRST_SCREEN, str(db), lang],
            check=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db-dir", default=None)
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--starts", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.db_dir or ROOT) as tmp:
        folder = Path(tmp)
        print(
            f"machine: {platform.platform()}, {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, SQLite {__import__('sqlite3').sqlite_version}"
        )
        appends = bench_append(folder, args.appends)
        print(
            f"append one action (synchronous=FULL, WAL), n={len(appends)}: "
            f"median {statistics.median(appends) * 1e3:.2f} ms, "
            f"p99 {percentile(appends, 0.99) * 1e3:.2f} ms, "
            f"max {max(appends) * 1e3:.2f} ms"
        )
        t_replay, t_resume = bench_replay(folder, args.entries)
        print(
            f"replay {args.entries} entries (read + validate + fold): {t_replay * 1e3:.0f} ms; "
            f"resume (replay check + state stack): {t_resume * 1e3:.0f} ms"
        )
        for lang in ("en", "zh"):
            starts = bench_first_screen(folder, args.starts, lang)
            print(
                f"process start to first screen ({lang}, headless), n={len(starts)}: "
                f"median {statistics.median(starts) * 1e3:.0f} ms, "
                f"max {max(starts) * 1e3:.0f} ms"
            )


if __name__ == "__main__":
    main()
