"""Damage sweep: damaged copies of a real history, opened the ways a host would.

    .venv/bin/python benchmarks/damage_sweep.py [--flips 120] [--seed 1]

A history of score-pad and Tadaa-free games (a few hundred entries) is played with
``LiveSession``; a daily backup is made part-way. Two states are kept: *clean*
(the app closed: the file alone holds everything) and *crashed* (copied while the
app still had it open: the newest commits are only in the ``-wal``). Damaged
copies:

* the clean file truncated at every page boundary (0 bytes included);
* byte changes at sampled positions of the clean file, of the crashed file and
  of its ``-wal``; the ``-wal`` truncated at sampled frame boundaries; the
  ``-wal`` deleted.

Each copy is opened as the app opens it (``Store.open``), then read as Home,
History, ``stats``, ``export --all`` and ``check`` read it. Outcomes:

* refused: a ``StoreError`` with a message, the files byte-identical after;
* offered restore: refused naming what is missing and a backup; ``companion
  restore`` is then run and the result must open and be sound;
* opened intact: every session reads back as it was played;
* opened naming damage: each session that does not read back as played is named
  (the listing, ``check``) or the file is named damaged;
* silent: a session missing or changed and nothing says so;
* raw error: an exception that is not the store's message, or SQLite's own text
  ("OperationalError", "Could not decode", "malformed") on the screen or CLI.

Goal: 0 silent, 0 raw errors. ``--code DIR`` runs the sweep against another
checkout's ``companion`` package (the baseline: ``git archive``'d main).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import random
import shutil
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PAGE = 4096
FRAME = 24 + PAGE
RAW = ("OperationalError", "Could not decode", "Traceback", "DatabaseError", "disk image is")


def setup_path(code: Path) -> None:
    sys.path.insert(0, str(code))


def play_history(db: Path, rng: random.Random) -> None:
    from companion.rules.base import seat_players
    from companion.session.backup import auto_backup
    from companion.session.live import LiveSession
    from companion.session.store import Store

    store = Store.open(db)
    for n in range(14):
        names = [*["Ann", "Bo", "Cy", "Dee"][: rng.randint(2, 4)], f"G{n}"]
        live = LiveSession.start(
            store, "scorepad", seat_players(names), {"game_name": f"Evening {n}"}
        )
        for _ in range(rng.randint(12, 30)):
            pid = f"p{rng.randint(1, len(names))}"
            live.act({"type": "score", "player": pid, "points": rng.randint(-3, 12)})
        live.record_hardware({"button": 1, "note": "n" * rng.randint(0, 200)})
        if n == 8:
            auto_backup(store, now=1.0e9)  # the daily backup, part-way through the evening
    return store  # type: ignore[return-value]


def snapshot(store: Any) -> dict[str, Any]:
    return {row.id: (row, store.entries(row.id)) for row in store.sessions()}


def files_of(db: Path) -> list[Path]:
    return [db.with_name(db.name + s) for s in ("", "-wal", "-shm")]


def fingerprint(db: Path) -> dict[str, str | None]:
    return {
        f.name: hashlib.sha256(f.read_bytes()).hexdigest() if f.is_file() else None
        for f in files_of(db)
    }


def copy_state(src_dir: Path, dst_dir: Path) -> None:
    if dst_dir.exists():
        shutil.rmtree(dst_dir)
    shutil.copytree(src_dir, dst_dir)


def run_cli(db: Path, *argv: str) -> tuple[int, str]:
    from companion.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(["--db", str(db), *argv])
        except SystemExit as exc:
            code = int(exc.code or 0) if not isinstance(exc.code, str) else 2
    return code, out.getvalue() + err.getvalue()


def explain(text: str = "") -> None:
    """With --verbose: why a case counted as a raw error."""
    if VERBOSE:
        import traceback

        print(text or traceback.format_exc(), file=sys.stderr)


VERBOSE = False


def probe(db: Path, truth: dict[str, Any]) -> str:
    """What a host meets with this copy (one of the outcomes above)."""
    from companion.session.check import check_store
    from companion.session.store import DamagedError, Store, StoreError

    try:
        from companion.session.store import HistoryMissing
    except ImportError:  # the baseline has no record
        HistoryMissing = ()  # type: ignore[assignment,misc]
    before = fingerprint(db)
    try:
        store = Store.open(db)
    except HistoryMissing as exc:  # type: ignore[misc]
        if fingerprint(db) != before:
            return "silent"  # refused, but the file was changed
        if any(r in str(exc) for r in RAW):
            explain(str(exc))
            return "raw error"
        if getattr(exc, "offer", None) is None:
            return "refused"
        code, text = run_cli(db, "restore")
        if code != 0 or any(r in text for r in RAW):
            explain(f"restore exit {code}: {text}")
            return "raw error"
        with Store.open(db) as back:
            report = check_store(back)
            if not report.ok:
                return "silent"
        return "offered restore"
    except StoreError as exc:
        if any(r in str(exc) for r in RAW):
            explain(str(exc))
            return "raw error"
        return "refused" if fingerprint(db) == before else "silent"
    except Exception:
        explain()
        return "raw error"
    try:
        # Home: the unfinished and the past sessions; History; check.
        store.sessions(status="active")
        listed = store.sessions(limit=50)
        from companion.ui.home import last_seq_text

        for row in listed:
            last_seq_text(store, row.id)  # as Home shows it
        from companion.session.results import query_results

        query_results(store)
        report = check_store(store)
        named = set(store.damaged) | {d.session_id for d in report.damaged}
        file_named = bool(report.file_problems) or bool(getattr(store, "unreadable", None))
        intact = damaged = silent = 0
        for sid, want in truth.items():
            try:
                got = (store.session(sid), store.entries(sid))
            except DamagedError:
                damaged += 1
                continue
            except StoreError:  # not there at all
                if file_named:
                    damaged += 1
                else:
                    silent += 1
                continue
            if got == want:
                intact += 1
            elif sid in named or file_named:
                damaged += 1
            else:
                silent += 1
    except Exception:
        explain()
        return "raw error"
    finally:
        store.close()
    for command in (
        ("stats", "--json"),
        ("export", "--all", "--out", str(db) + ".json"),
        ("check",),
    ):
        code, text = run_cli(db, *command)
        if code not in (0, 1, 2) or any(r in text for r in RAW):
            explain(text)
            return "raw error"
    if silent:
        return "silent"
    return "opened naming damage" if damaged else "opened intact"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--flips", type=int, default=120, help="byte changes per file")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose companion runs")
    parser.add_argument("--verbose", action="store_true", help="print each raw error")
    parser.add_argument("--only", default="", help="only the damage families with this text")
    args = parser.parse_args()
    global VERBOSE
    VERBOSE = args.verbose
    setup_path(Path(args.code))
    from companion.session.store import Store

    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="damage-sweep-"))
    live_dir, clean_dir, crash_dir = work / "live", work / "clean", work / "crash"
    live_dir.mkdir()
    db_name = "companion.sqlite3"
    store = play_history(live_dir / db_name, rng)
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the first part: in the file
    from companion.rules.base import seat_players
    from companion.session.live import LiveSession

    for n in range(4):  # the newest games: only in the -wal when the copy is taken
        live = LiveSession.start(store, "scorepad", seat_players(["Ann", f"W{n}"]), {})
        for k in range(rng.randint(15, 30)):
            live.act({"type": "score", "player": "p1", "points": k})
    truth = snapshot(store)
    copy_state(live_dir, crash_dir)  # as a crash leaves it: the app still has it open
    store.close()
    copy_state(live_dir, clean_dir)
    for lock in list(crash_dir.glob("*.lock")) + list(clean_dir.glob("*.lock")):
        lock.unlink()
    entries = sum(len(e) for _, e in truth.values())
    clean_db = clean_dir / db_name
    wal_size = (crash_dir / (db_name + "-wal")).stat().st_size
    print(
        f"history: {len(truth)} sessions, {entries} entries; clean file "
        f"{clean_db.stat().st_size} bytes; crashed -wal {wal_size} bytes "
        f"({(wal_size - 32) // FRAME} frames)"
    )
    cases: list[tuple[str, Path, Any]] = []
    size = clean_db.stat().st_size
    for cut in range(0, size, PAGE):
        cases.append(("truncate db (clean)", clean_dir, ("", "truncate", cut)))
    for state, folder in (("clean", clean_dir), ("crashed", crash_dir)):
        n = (folder / db_name).stat().st_size
        for pos in rng.sample(range(n), min(args.flips, n)):
            cases.append((f"flip db ({state})", folder, ("", "flip", pos)))
    for pos in rng.sample(range(32, wal_size), min(args.flips, wal_size - 32)):
        cases.append(("flip -wal (crashed)", crash_dir, ("-wal", "flip", pos)))
    frames = (wal_size - 32) // FRAME
    for k in sorted(rng.sample(range(frames), min(20, frames))):
        cases.append(("truncate -wal (crashed)", crash_dir, ("-wal", "truncate", 32 + k * FRAME)))
    cases.append(("delete -wal (crashed)", crash_dir, ("-wal", "delete", 0)))
    cases.append(("delete -wal and -shm (crashed)", crash_dir, ("-wal", "delete-both", 0)))
    tally: dict[str, Counter[str]] = {}
    case_dir = work / "case"
    for family, folder, (suffix, how, at) in cases:
        if args.only not in family:
            continue
        copy_state(folder, case_dir)
        target = case_dir / (db_name + suffix)
        data = bytearray(target.read_bytes())
        if how == "truncate":
            target.write_bytes(bytes(data[:at]))
        elif how == "flip":
            data[at] = (data[at] + rng.randint(1, 255)) % 256
            target.write_bytes(bytes(data))
        else:
            target.unlink()
            if how == "delete-both":
                (case_dir / (db_name + "-shm")).unlink(missing_ok=True)
        outcome = probe(case_dir / db_name, truth)
        tally.setdefault(family, Counter())[outcome] += 1
    total: Counter[str] = Counter()
    kinds = (
        "refused",
        "offered restore",
        "opened intact",
        "opened naming damage",
        "silent",
        "raw error",
    )
    print("| damage | cases | " + " | ".join(kinds) + " |")
    print("|---|---:|" + "---:|" * len(kinds))
    for family, counts in tally.items():
        total += counts
        row = " | ".join(str(counts[k]) for k in kinds)
        print(f"| {family} | {sum(counts.values())} | {row} |")
    print(f"| **all** | {sum(total.values())} | " + " | ".join(str(total[k]) for k in kinds) + " |")
    shutil.rmtree(work)
    del Store
    return 1 if total["silent"] or total["raw error"] else 0


if __name__ == "__main__":
    sys.exit(main())
