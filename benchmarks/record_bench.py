"""The cost of the history record (``companion.session.record``): append p99 and open.

    .venv/bin/python benchmarks/record_bench.py [--appends 3000] [--sessions 300]

One process, one disk (a temporary folder on the project disk, where the data
folder lives), both variants alternated in blocks of 100 appends so that load on
the shared machine falls on both alike:

* append with the record (now): ``Store.append_next`` (``synchronous=FULL``
  commit); the ~1 kB record is then written by the record writer thread (one
  ``pwrite`` over the open file);
* append without it (baseline): the same store with the record switched off.

And the open of a history of ``--sessions`` finished sessions with the record
(one count of the sessions, one index seek per recent session, read ``immutable``)
against the open with the record check switched off.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.rules.base import seat_players  # noqa: E402
from companion.session import store as store_module  # noqa: E402
from companion.session.live import LiveSession  # noqa: E402
from companion.session.store import Store  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_appends(folder: Path, n: int) -> dict[str, list[float]]:
    db = folder / "append.sqlite3"
    store = Store.open(db)
    sid = store.create_session("scorepad", {}, seat_players(["Ann", "Bo"]))
    record = store._record
    times: dict[str, list[float]] = {"with record": [], "without record": []}
    payload = {"type": "score", "player": "p1", "points": 3}
    for block in range(n // 100):
        label = "with record" if block % 2 == 0 else "without record"
        store._record = record if label == "with record" else None
        for _ in range(100):
            t = time.perf_counter()
            store.append_next(sid, "action", payload, time.monotonic_ns())
            times[label].append((time.perf_counter() - t) * 1000)
    store._record = record
    store.close()
    return times


def build_history(db: Path, sessions: int) -> None:
    with Store.open(db) as store:
        for n in range(sessions):
            live = LiveSession.start(store, "scorepad", seat_players(["Ann", f"P{n}"]), {})
            for k in range(8):
                live.act({"type": "score", "player": "p1", "points": k})


def bench_open(folder: Path, sessions: int, runs: int) -> dict[str, list[float]]:
    db = folder / "history.sqlite3"
    build_history(db, sessions)
    times: dict[str, list[float]] = {"open with record check": [], "open without": []}
    real = store_module._refuse_behind
    for run in range(runs * 2):
        label = "open with record check" if run % 2 == 0 else "open without"
        store_module._refuse_behind = real if run % 2 == 0 else (lambda p: None)
        t = time.perf_counter()
        Store.open(db).close()
        times[label].append((time.perf_counter() - t) * 1000)
    store_module._refuse_behind = real
    return times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--appends", type=int, default=3000)
    parser.add_argument("--sessions", type=int, default=300)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--dir", default=str(ROOT), help="where the databases are made")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="record-bench-", dir=args.dir) as tmp:
        folder = Path(tmp)
        print(f"appends: {args.appends} (alternated blocks of 100), folder {folder}")
        for label, values in bench_appends(folder, args.appends).items():
            print(
                f"  {label:16} median {statistics.median(values):6.2f} ms  "
                f"p99 {pct(values, 0.99):6.2f} ms  max {max(values):6.2f} ms  (n={len(values)})"
            )
        print(f"open of {args.sessions} sessions x 8 entries, {args.runs} runs each, alternated")
        for label, values in bench_open(folder, args.sessions, args.runs).items():
            print(f"  {label:24} median {statistics.median(values):6.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
