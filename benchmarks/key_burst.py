"""What the typed-key gate costs: one key, and a burst, on the score pad (headless).

The gate (``CompanionApp.on_event``) delivers a typed key only once the key before it
has landed. Measured side by side in one run, alternating, against the app of the
commit before the gate (``--baseline``, read with ``git show``: Textual routes every
key the moment it arrives; game-screen bindings typed during a write were queued):

* one key that commits (``plus``): from posting the key until its entry is committed
  and the writer has reported back, with nothing else typed (slow typing: what the
  gate adds to each key);
* a burst of 21 keys (``s 5 enter s 7 enter c`` three times) posted at once: until
  every key has landed, and how many of the 9 entries the burst should make are there.

    .venv/bin/python benchmarks/key_burst.py [--keys 30] [--bursts 5] [--baseline 043c238]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from textual import events  # noqa: E402

import companion.ui.app as app_module  # noqa: E402
from companion.session.clock import ManualClock  # noqa: E402
from companion.ui.app import CompanionApp, make_app  # noqa: E402
from companion.ui.home import HomeScreen  # noqa: E402

BURST = ["s", "5", "enter", "s", "7", "enter", "c"] * 3
BURST_ENTRIES = 9
CHARACTERS = {"enter": "\r", "plus": "+"}


def baseline_app(commit: str) -> type[CompanionApp]:
    """``CompanionApp`` as it was at ``commit`` (its module loaded beside today's)."""
    source = subprocess.run(
        ["git", "show", f"{commit}:companion/ui/app.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    module = types.ModuleType("baseline_app")
    module.__file__ = str(ROOT / "companion" / "ui" / "app.py")  # its CSS file
    sys.modules[module.__name__] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)
    app_class: type[CompanionApp] = module.CompanionApp
    return app_class


def key(name: str) -> events.Key:
    return events.Key(name, CHARACTERS.get(name, name if len(name) == 1 else None))


async def until(condition: Any, timeout: float = 10.0) -> None:
    deadline = time.perf_counter() + timeout
    while not condition() and time.perf_counter() < deadline:
        await asyncio.sleep(0.0005)


async def run(
    app_class: type[CompanionApp], keys: int, bursts: int
) -> tuple[list[float], list[float], list[int]]:
    folder = Path(tempfile.mkdtemp(dir=ROOT / "benchmarks"))
    app = make_app(folder / "db.sqlite3", lang="en", clock=ManualClock())
    if type(app) is not app_class:
        app = app_class(app.store, "en", ManualClock(), None)
    one: list[float] = []
    burst: list[float] = []
    made: list[int] = []
    try:
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            for _ in range(bursts):
                live = app.start_session("scorepad", ["Ann", "Bo"], {})
                await app.settle()
                for _ in range(keys):
                    before = len(live.entries)
                    start = time.perf_counter()
                    app.post_message(key("plus"))
                    await until(lambda: len(live.entries) > before and not app.writes_pending)  # noqa: B023
                    one.append(time.perf_counter() - start)
                    await app.settle()
                before = len(live.entries)
                start = time.perf_counter()
                for name in BURST:
                    app.post_message(key(name))
                await until(lambda: len(live.entries) - before >= BURST_ENTRIES, 3.0)  # noqa: B023
                await app.settle()
                burst.append(time.perf_counter() - start)
                made.append(len(live.entries) - before)
                while not isinstance(app.screen, HomeScreen):  # a lost key can leave a dialog
                    app.pop_screen()
                    await pilot.pause()
    finally:
        for path in folder.iterdir():
            path.unlink()
        folder.rmdir()
    return one, burst, made


def ms(values: list[float]) -> str:
    ordered = sorted(values)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return f"median {statistics.median(values) * 1000:.1f} ms, p90 {p90 * 1000:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=30, help="single keys per round")
    parser.add_argument("--bursts", type=int, default=5, help="rounds (one burst each)")
    parser.add_argument("--baseline", default="043c238", help="the commit before the gate")
    args = parser.parse_args()
    classes = {False: baseline_app(args.baseline), True: CompanionApp}
    results: dict[bool, tuple[list[float], list[float], list[int]]] = {
        True: ([], [], []),
        False: ([], [], []),
    }
    for _ in range(args.bursts):  # alternate, so machine load hits both alike
        for gated in (False, True):
            # Screens look the app class up by name (``isinstance(self.app, CompanionApp)``).
            app_module.CompanionApp = classes[gated]  # type: ignore[misc]
            try:
                one, burst, made = asyncio.run(run(classes[gated], args.keys, 1))
            finally:
                app_module.CompanionApp = CompanionApp  # type: ignore[misc]
            results[gated][0].extend(one)
            results[gated][1].extend(burst)
            results[gated][2].extend(made)
    print(f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, ", end="")
    print(f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}")
    for gated, label in ((False, f"before the gate ({args.baseline})"), (True, "gated")):
        one, burst, made = results[gated]
        print(f"{label}:")
        print(f"  one key (plus) to its commit: {ms(one)} over {len(one)} keys")
        if gated:  # before the gate keys were lost: the wait only ends at its timeout
            print(f"  burst of {len(BURST)} keys until it landed: {ms(burst)} over {len(burst)}")
        print(f"  entries the burst made (of {BURST_ENTRIES}): {made}")


if __name__ == "__main__":
    main()
