"""Process start to the first home screen, against a bare Textual app, alternated in one run.

The bare app is what any Textual program pays (Python, Textual, a Header, a Static and
a Footer); the companion adds its own imports, the database open, the .po catalogs
and the home screen's queries. Each run is a new process (headless), started, mounted
until its first screen is up, and exited: "up" is the home screen mounted with its
games listed and one frame painted after that (the bare app: one frame after its
mount). The two kinds alternate so that machine load hits both alike. The number to
read is the ratio of the medians; beside it the ratio of the median CPU time (user +
system, from the children's ``rusage``), which scatters much less on a loaded machine.

Both run with Python's bytecode caches, as an installed companion does: the warm-up
run writes the companion's ``__pycache__`` (Textual's came with its wheel). An
environment with ``PYTHONDONTWRITEBYTECODE`` set (some sandboxes and CI images) would
otherwise make every companion run compile its ~40 modules from source (~25 ms) while
the bare app reads Textual's caches; ``--no-bytecode-cache`` measures that case.

    .venv/bin/python benchmarks/startup.py [--runs 20] [--lang zh] [--no-bytecode-cache]
    .venv/bin/python benchmarks/startup.py --baseline /tmp/main   # an older checkout too
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BARE = """
from textual.app import App
from textual.widgets import Footer, Header, Static
class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()
    def on_mount(self):
        self.call_after_refresh(self.exit)
Bare().run(headless=True)
"""

COMPANION = """
import sys
from companion.ui.app import make_app
from companion.ui.home import HomeScreen
app = make_app(sys.argv[1], lang=sys.argv[2])
def ready():
    screen = app.screen
    games = screen.query("#games") if isinstance(screen, HomeScreen) else None
    if screen.is_mounted and games and games.first().option_count:
        screen.call_after_refresh(app.exit)  # home mounted, its games listed: paint once
    else:
        app.set_timer(0.001, ready)
app.call_after_refresh(ready)
app.run(headless=True)
"""


ENV = dict(os.environ)


CPU: dict[str, list[float]] = {}
"""Each kind's CPU seconds per run (the child's user + system time, from ``rusage``):
under load the wall times scatter, the CPU a process needs much less."""


def one(code: str, *args: str, tree: Path = ROOT, kind: str = "") -> float:
    """One new process running ``code`` with the companion of ``tree`` importable."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    env = {**ENV, "PYTHONPATH": str(tree)}
    subprocess.run([sys.executable, "-c", code, *args], check=True, cwd=tree, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    CPU.setdefault(kind, []).append(cpu)
    return wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--lang", default="en")
    parser.add_argument(
        "--no-bytecode-cache",
        action="store_true",
        help="keep PYTHONDONTWRITEBYTECODE as the environment has it",
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        help="also time the companion checked out in this folder (git worktree add …)",
    )
    args = parser.parse_args()
    if not args.no_bytecode_cache:
        ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}, "
        f"bytecode caches {'off' if 'PYTHONDONTWRITEBYTECODE' in ENV else 'on'}"
    )
    bare: list[float] = []
    companion: list[float] = []
    baseline: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        one(BARE)  # warm the file cache (and write the bytecode caches) for each
        one(COMPANION, str(Path(tmp) / "warm.sqlite3"), args.lang)
        if args.baseline:
            one(COMPANION, str(Path(tmp) / "warm-b.sqlite3"), args.lang, tree=args.baseline)
        CPU.clear()
        for i in range(args.runs):
            bare.append(one(BARE, kind="bare"))
            db = str(Path(tmp) / f"s{i}.sqlite3")
            companion.append(one(COMPANION, db, args.lang, kind="companion"))
            if args.baseline:
                db = str(Path(tmp) / f"b{i}.sqlite3")
                baseline.append(one(COMPANION, db, args.lang, tree=args.baseline, kind="baseline"))
    mb = statistics.median(bare)
    cb = statistics.median(CPU["bare"])
    print(
        f"bare Textual app (Header, Static, Footer): median {mb * 1e3:.0f} ms, "
        f"CPU {cb * 1e3:.0f} ms, n={len(bare)}"
    )
    for name, times in (("companion", companion), ("baseline", baseline)):
        if times:
            mc = statistics.median(times)
            cc = statistics.median(CPU[name])
            print(
                f"{name} to home screen ({args.lang}): median {mc * 1e3:.0f} ms, "
                f"max {max(times) * 1e3:.0f} ms, ratio of medians {mc / mb:.2f}x; "
                f"CPU {cc * 1e3:.0f} ms, {cc / cb:.2f}x"
            )


if __name__ == "__main__":
    main()
