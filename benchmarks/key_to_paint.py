"""Key → painted effect, per game, beside a bare Textual app doing the same widget update.

Issue 26. For every game a session is started with the players the snapshot tests
use and played to the middle of a game with the game's own conformance hook
(``companion/games/<id>/testing.py``: ``TESTING.random_step``, seeded), then its
screen is opened in the app's own ``run()`` (headless, driven by an auto-pilot) at
80x24 and at 160x48. Timed keys:

* the committing keys every game has, undo and redo (``ctrl+z`` then ``ctrl+y``, so
  the state returns to the same place and the next pair measures the same work),
* the game's own most-pressed key where it commits with no dialog (the score pad's
  ``+``/``-``),

typed alone (each key only once the app is idle again) and in a burst of 21 keys
posted at once (undo/redo alternating: 11 undos, 10 redos).

**When the effect is painted.** ``App._display`` (where Textual hands a frame to the
driver; headless it returns at once) is wrapped: it renders the frame's update to the
terminal's bytes as a real driver would (``CompositorUpdate.render_segments``) and
timestamps it. ``GameScreen._refresh_all`` (the re-render after the writer reported
the commit) is wrapped to timestamp its end. A key's latency runs from posting it to
the first frame handed over after its ``_refresh_all`` ended: the commit on the
writer thread, the hop back, the re-render and the compositor's paint. A burst's
figure is from posting the first key to the first frame after the 21st re-render,
divided by 21.

**The bare app** (``BareApp``): a ``DataTable`` (one row per player, 8 columns) and
a ``Log``. ``ctrl+z``/``ctrl+y`` commit one row to SQLite on a worker thread (as the
companion's writer does), then ``update_cell`` one cell and append one log line;
timed the same way. It runs alternating with each game, in the same process.

    .venv/bin/python benchmarks/key_to_paint.py [--keys 30] [--rounds 3] [--game scorepad]
    .venv/bin/python benchmarks/key_to_paint.py --profile scorepad   # cProfile of 160x48 keys
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import os
import platform
import pstats
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# Before Textual: the companion's screens ask for 120 frames a second (companion/ui), as
# the app does; the bare app beside it runs at the same rate. TEXTUAL_FPS=60 in the
# environment measures both at Textual's default.
import companion.ui  # noqa: E402, F401  # isort: skip
from textual import events  # noqa: E402
from textual._compositor import CompositorUpdate  # noqa: E402
from textual.app import App, ComposeResult  # noqa: E402
from textual.binding import Binding, BindingType  # noqa: E402
from textual.widgets import DataTable, Log  # noqa: E402

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]
BURST = ["ctrl+z", "ctrl+y"] * 10 + ["ctrl+z"]
SIZES = ((80, 24), (160, 48))
CHARACTERS = {"plus": "+", "minus": "-"}
GAME_KEYS: dict[str, tuple[str, ...]] = {"scorepad": ("plus", "minus")}
"""A game's own committing keys that open no dialog (besides undo/redo)."""


def key(name: str) -> events.Key:
    return events.Key(name, CHARACTERS.get(name, name if len(name) == 1 else None))


class Frames:
    """Timestamps of frames handed to the driver and of re-renders ending."""

    def __init__(self) -> None:
        self.frames: list[float] = []
        self.renders: list[float] = []
        self.wake: asyncio.Event | None = None
        """Set at each frame and re-render: the timer waits on it, it does not poll
        (a polling loop on the app's own event loop would compete with the app)."""

    def hook_display(self, app: App[Any]) -> None:
        display = app._display

        def timed(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is None or app._batch_count:
                return
            if isinstance(renderable, CompositorUpdate):
                renderable.render_segments(app.console)  # what a real driver writes
            self.frames.append(time.perf_counter())
            if self.wake is not None:
                self.wake.set()

        app._display = timed  # type: ignore[method-assign]

    def rendered(self) -> None:
        self.renders.append(time.perf_counter())
        if self.wake is not None:
            self.wake.set()

    def painted_after(self, t: float) -> float | None:
        return next((f for f in self.frames if f > t), None)

    async def key_to_paint(
        self, app: App[Any], names: list[str], timeout: float = 5.0
    ) -> tuple[float, float]:
        """Post ``names`` at once; seconds until the frame after the last one's re-render
        (wall, and the process's CPU time meanwhile)."""
        before = len(self.renders)
        cpu = time.process_time()
        start = time.perf_counter()
        for name in names:
            app.post_message(key(name))
        deadline = start + timeout
        self.wake = asyncio.Event()
        settle = getattr(app, "settle", None)
        if settle is not None and len(names) > 1:
            # A key of the burst may be refused (say, nothing left to redo): no re-render
            # of its own. The burst is over when every key has landed and been rendered.
            await settle(timeout)
        while time.perf_counter() < deadline:
            self.wake.clear()  # before looking: a frame from now on wakes the wait below
            done = len(self.renders) >= before + len(names)
            if done or (settle is not None and len(names) > 1 and len(self.renders) > before):
                end = self.renders[min(before + len(names), len(self.renders)) - 1]
                painted = self.painted_after(end)
                if painted is None and not done and time.perf_counter() - end > 0.25:
                    painted = end  # its last re-render changed nothing on screen
                if painted is not None:
                    return painted - start, time.process_time() - cpu
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), 0.05)
        raise TimeoutError(f"no paint after {names} ({len(self.renders) - before} renders)")


async def quiet(app: Any) -> None:
    """Until the app is idle (keys landed, writes committed and rendered, frame painted)."""
    settle = getattr(app, "settle", None)
    if settle is not None:
        await settle()
    await asyncio.sleep(0.03)  # past the next frame: the key after this one starts clean


async def measure_keys(
    app: App[Any], frames: Frames, keys: list[list[str]], bursts: int
) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"alone": [], "burst": [], "cpu": []}
    await quiet(app)
    for names in keys:
        for name in names:
            wall, cpu = await frames.key_to_paint(app, [name])
            out["alone"].append(wall)
            out["cpu"].append(cpu)
            await quiet(app)
    for _ in range(bursts):
        try:
            wall, _cpu = await frames.key_to_paint(app, BURST, 20.0)
        except TimeoutError as error:  # reported, not averaged in
            print(f"  burst lost: {error}", file=sys.stderr)
            continue
        out["burst"].append(wall / len(BURST))
        await quiet(app)
    return out


# ---------------------------------------------------------------------- the companion


def mid_game(app: Any, game_id: str, steps: int) -> Any:
    """A session of ``game_id`` played ``steps`` random legal steps in: the tests'
    ``tests.open_game.mid_game``, so the benchmark times the sessions they count."""
    from companion.games import find_game
    from tests.open_game import mid_game as played

    return played(app, find_game(game_id), steps)


def run_companion(
    game_id: str, size: tuple[int, int], keys: int, bursts: int, profile: bool = False
) -> dict[str, list[float]]:
    from companion.session.clock import ManualClock
    from companion.ui.app import make_app
    from companion.widgets.game_screen import GameScreen

    frames = Frames()
    result: dict[str, list[float]] = {}
    refresh_all = GameScreen._refresh_all

    def timed_refresh(self: GameScreen) -> None:
        refresh_all(self)
        frames.rendered()

    GameScreen._refresh_all = timed_refresh  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            app = make_app(Path(tmp) / "db.sqlite3", lang="en", clock=ManualClock())
            frames.hook_display(app)
            live = mid_game(app, game_id, 24)
            plan = [["ctrl+z", "ctrl+y"]] * keys
            plan += [list(GAME_KEYS.get(game_id.replace("-", "_"), ()))] * keys

            async def drive(pilot: Any) -> None:
                await pilot.pause()
                app.open_session(live)
                await quiet(app)
                profiler = cProfile.Profile() if profile else None
                if profiler is not None:
                    profiler.enable()
                result.update(await measure_keys(app, frames, plan, bursts))
                if profiler is not None:
                    profiler.disable()
                    pstats.Stats(profiler).sort_stats("cumulative").print_stats(45)
                    if os.environ.get("KEY_TO_PAINT_PROFILE"):
                        profiler.dump_stats(os.environ["KEY_TO_PAINT_PROFILE"])
                app.exit()

            app.run(headless=True, size=size, auto_pilot=drive)
    finally:
        GameScreen._refresh_all = refresh_all  # type: ignore[method-assign]
    return result


# ---------------------------------------------------------------------- the bare app


class BareApp(App[None]):
    """The equivalent widget update in a bare Textual app: a cell and a log line."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "change(-1)", "Undo"),
        Binding("ctrl+y", "change(1)", "Redo"),
    ]

    def __init__(self, db: Path, frames: Frames) -> None:
        super().__init__()
        self.frames = frames
        self.writer = ThreadPoolExecutor(max_workers=1)
        self.db = sqlite3.connect(db, check_same_thread=False, isolation_level=None)
        self.db.execute("create table log (seq integer primary key, body text)")
        self.total = 0
        self.seq = 0

    def compose(self) -> ComposeResult:
        yield DataTable(id="table")
        yield Log(id="log")

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Player", key="Player")
        for n in range(1, 7):
            table.add_column(f"R{n}", key=f"R{n}")
        table.add_column("Total", key="Total")
        for name in NAMES[:4]:
            table.add_row(name, *["3"] * 6, "18", key=name)

    def action_change(self, by: int) -> None:
        loop = asyncio.get_running_loop()
        self.seq += 1
        seq = self.seq

        def commit() -> None:
            self.db.execute("begin immediate")
            self.db.execute("insert into log values (?, ?)", (seq, f"{by:+d}"))
            self.db.execute("commit")
            loop.call_soon_threadsafe(self.committed, seq, by)

        self.writer.submit(commit)

    def committed(self, seq: int, by: int) -> None:
        self.total += by
        self.query_one(DataTable).update_cell("Ann", "Total", str(18 + self.total))
        self.query_one(Log).write_line(f"#{seq} Ann {by:+d} → {18 + self.total}")
        self.frames.rendered()


def run_bare(size: tuple[int, int], keys: int, bursts: int) -> dict[str, list[float]]:
    frames = Frames()
    result: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        app = BareApp(Path(tmp) / "bare.sqlite3", frames)
        frames.hook_display(app)

        async def drive(pilot: Any) -> None:
            await pilot.pause()
            plan = [["ctrl+z", "ctrl+y"]] * keys
            result.update(await measure_keys(app, frames, plan, bursts))
            app.exit()

        app.run(headless=True, size=size, auto_pilot=drive)
        app.writer.shutdown()
        app.db.close()
    return result


# ---------------------------------------------------------------------- report


def p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def row(label: str, values: dict[str, list[float]]) -> str:
    alone, burst = values["alone"], values["burst"]
    return (
        f"{label:26} {p(alone, 0.5):7.1f} {p(alone, 0.99):7.1f} {p(values['cpu'], 0.5):7.1f} "
        f"{statistics.median(burst or [0]) * 1000:9.1f} {max(burst or [0]) * 1000:9.1f} "
        f"{len(alone):6d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=15, help="undo/redo pairs per run")
    parser.add_argument("--bursts", type=int, default=2, help="21-key bursts per run")
    parser.add_argument("--rounds", type=int, default=2, help="alternated runs per game")
    parser.add_argument("--game", action="append", help="one game id (repeatable)")
    parser.add_argument("--size", action="append", help="WxH (repeatable); default both")
    parser.add_argument("--profile", help="cProfile one game's keys at 160x48")
    args = parser.parse_args()
    if args.profile:
        run_companion(args.profile, (160, 48), args.keys, args.bursts, profile=True)
        return
    from companion.games import GAMES

    games = args.game or [g.id for g in GAMES]
    sizes = [tuple(int(n) for n in s.split("x")) for s in args.size] if args.size else SIZES
    load = os.getloadavg()
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}"
    )
    print(
        f"{'(ms)':26} {'p50':>7} {'p99':>7} {'cpu':>7} {'burst/key':>9} {'worst':>9} {'keys':>6}"
        "   (typed alone: p50, p99, CPU p50; 21-key burst: median per key, worst)"
    )
    for size in sizes:
        bare: dict[str, list[float]] = {"alone": [], "burst": [], "cpu": []}
        for game in games:
            mine: dict[str, list[float]] = {"alone": [], "burst": [], "cpu": []}
            for _ in range(args.rounds):  # alternate: the machine's load hits both alike
                runs: list[tuple[dict[str, list[float]], Callable[[], Any]]] = [
                    (bare, lambda: run_bare(size, args.keys, args.bursts)),  # noqa: B023
                    (mine, lambda: run_companion(game, size, args.keys, args.bursts)),  # noqa: B023
                ]
                for into, run in runs:
                    got = run()
                    into["alone"] += got["alone"]
                    into["burst"] += got["burst"]
                    into["cpu"] += got["cpu"]
            print(row(f"{game} {size[0]}x{size[1]}", mine), flush=True)
        print(row(f"bare Textual {size[0]}x{size[1]}", bare), flush=True)
    load = os.getloadavg()
    print(f"load after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
