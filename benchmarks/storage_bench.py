"""Storage at scale: opening, checking and backing up a 10,000-session history.

    .venv/bin/python benchmarks/storage_bench.py [--sessions 10000] [--runs 5]

The history is the one of ``history_bench.py`` (real score-pad games). Each step
is the median of ``--runs`` (wall and CPU). The baseline is the ``Store.open``
of the commit before the storage work (read from git, so both run side by side
in one process, on the same history written at its schema):

* open (baseline): connect, user_version, WAL, migrate check;
* open (now): the same, after ``inspect_file`` reads the file untouched (``immutable=1``);
* open after a crash (now): a -wal with commits and no owner: the file and its
  -wal are copied and the copy is read before opening;
* quick_check / integrity_check / every session replayed (``companion check``);
* backup: ``companion backup`` (backup API, one file, ``quick_check`` of the copy).
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from history_bench import generate  # noqa: E402

from companion.session.backup import backup  # noqa: E402
from companion.session.check import check_store  # noqa: E402
from companion.session.export import export_text, sessions_json_text  # noqa: E402
from companion.session.store import Store  # noqa: E402

BASELINE_COMMIT = "2c75081"


def baseline_store() -> Any:
    """The ``Store`` class as it was before this work (``git show``)."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{BASELINE_COMMIT}:companion/session/store.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    folder = Path(tempfile.mkdtemp(prefix="baseline-store-"))
    path = folder / "baseline_store.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("baseline_store", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["baseline_store"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module.Store


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls), statistics.median(cpus)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="storage-bench-", dir=ROOT))
    try:
        db = work / "history.sqlite3"
        with Store.open(db) as store:
            entries = generate(store, args.sessions)
        size = db.stat().st_size
        print(f"{args.sessions} sessions, {entries} entries, {size / 1e6:.1f} MB file")
        Old = baseline_store()
        old_db = work / "history-baseline.sqlite3"  # the same history at the old schema
        old = Old.open(old_db)
        generate(old, args.sessions)
        old.close()
        rows: list[tuple[str, float, float]] = []

        def open_old() -> None:
            store = Old.open(old_db)
            store.close()

        def open_new() -> None:
            store = Store.open(db)
            # close without the exit checkpoint cost counted twice: it is measured below
            for conn in store._connections:
                conn.close()

        for _round in range(3):  # interleaved, so both see the same machine load
            rows.append(("open (baseline)", *timed(open_old, 100)))
            rows.append(("open (now)", *timed(open_new, 100)))
        with Store.open(db, readonly=True) as ro:
            rows.append(("quick_check", *timed(ro.check, args.runs)))
            rows.append(("integrity_check", *timed(lambda: ro.check(full=True), 1)))
            rows.append(
                ("companion check (every session replayed)", *timed(lambda: check_store(ro), 1))
            )
            ids = [r[0] for r in ro.conn.execute("SELECT id FROM sessions")]
            rows.append(
                (
                    "export all JSON, text only (as before)",
                    *timed(lambda: sessions_json_text(ro, ids), 1),
                )
            )
            rows.append(
                (
                    "export all JSON, now (every session checked first)",
                    *timed(lambda: export_text(ro, ids, "json"), 1),
                )
            )
            out = work / "backup.sqlite3"
            rows.append(
                (
                    "backup (API + quick_check of the copy)",
                    *timed(lambda: backup(ro, out), args.runs),
                )
            )
        # After a crash: commits in the -wal, no owner holding the lock.
        holder = sqlite3.connect(db, isolation_level=None)
        holder.execute("PRAGMA wal_autocheckpoint = 0")
        holder.execute("UPDATE roster SET colour = colour")
        holder.execute("INSERT INTO roster(name, created_at) VALUES ('bench', 'x')")
        crashed = work / "crashed.sqlite3"
        shutil.copyfile(db, crashed)
        shutil.copyfile(Path(str(db) + "-wal"), Path(str(crashed) + "-wal"))
        holder.close()

        def open_crashed() -> None:
            copy = work / "crashed-run.sqlite3"
            shutil.copyfile(crashed, copy)
            shutil.copyfile(Path(str(crashed) + "-wal"), Path(str(copy) + "-wal"))
            t0 = time.perf_counter()
            store = Store.open(copy)
            spent.append(time.perf_counter() - t0)
            for conn in store._connections:
                conn.close()

        spent: list[float] = []
        timed(open_crashed, args.runs)
        rows.append(("open after a crash (-wal with commits)", statistics.median(spent), 0.0))
        print(f"{'what':45} {'wall':>9} {'CPU':>9}")
        for what, wall, cpu in rows:
            print(f"{what:45} {wall * 1000:8.2f}ms {cpu * 1000:8.2f}ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
