"""Opening a game screen: from ``push_screen`` to its first idle frame, per game.

Each game runs in a new process (the app's own ``run()``, headless, at 160x48 unless
``--size``, driven by an auto-pilot),
on a new database in a temporary folder. A session of the game is started with the
players and default options the snapshot tests use (``LiveSession.start``, not timed),
then its screen is built and pushed, and the clock stops at the first frame after
which nothing is left to do: the screen and every widget on it mounted, no message
waiting in any of their queues, no write in flight (a game may record a draw when it
opens), and one more refresh painted. The screen is then left (``escape``) and the
next session opened, ``--runs`` times.

The first open of a process also imports the game's screen, view and guide modules;
it is reported apart ("first"), the median is over the later opens. Besides wall time
the script counts, during each open, how often the footer was recomposed and how many
times Textual restyled a node (``Stylesheet.apply``) — the work the opening repeats.

    .venv/bin/python benchmarks/screen_open.py [--runs 10] [--game meowfia] [--lang zh]
    .venv/bin/python benchmarks/screen_open.py --baseline /tmp/main   # old and new, one run

``--baseline DIR`` also measures the companion checked out in DIR (say ``git worktree
add /tmp/main main``), alternating with this tree game by game.

Before each game (and with ``--game bare`` alone) a bare Textual app is measured the same
way in the same run: its screen has what a game screen has at least (a Header, a
DataTable of six players by eight columns, a RichLog of 40 lines beside it, a Footer),
pushed over a plain home screen, so that the load of the moment hits both alike; the
ratio to read is a game's median over the bare app's.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
NAMES = ["大伟", "Ann", "小明", "Bo", "美美", "Cy"]


def _first_count(info: Any) -> int:
    return int(max(info.rules.min_players, 3 if info.id == "scorepad" else 4))


async def _idle_frame(app: Any, screen: Any) -> None:
    """Until a frame is painted with nothing left to do on ``screen``."""
    loop = asyncio.get_running_loop()
    while True:
        painted: asyncio.Future[None] = loop.create_future()
        screen.call_after_refresh(painted.set_result, None)
        await painted
        busy = getattr(app, "writes_pending", False) or any(
            not node._message_queue.empty() for node in screen.walk_children(with_self=True)
        )
        if not busy:
            return


def measure_bare(runs: int, size: tuple[int, int]) -> dict[str, Any]:
    """The bare app: a screen of the same size with a DataTable and a log, pushed and
    left like a game screen (no companion module imported)."""
    from textual.app import App, ComposeResult
    from textual.binding import BindingType
    from textual.containers import Horizontal, Vertical
    from textual.screen import Screen
    from textual.widgets import DataTable, Footer, Header, RichLog, Static

    class Bare(Screen[None]):
        BINDINGS: ClassVar[list[BindingType]] = [
            ("escape", "app.pop_screen", "Home"),
            ("u", "undo", "Undo"),
        ]

        def compose(self) -> ComposeResult:
            yield Header()
            with Horizontal():
                with Vertical():
                    yield Static("Round 1 · Ann to play", id="banner")
                    yield DataTable(id="players", cursor_type="row", zebra_stripes=True)
                    yield Static("", id="message")
                yield RichLog(id="log", wrap=True)
            yield Footer()

        def on_mount(self) -> None:
            table = self.query_one(DataTable)
            table.add_columns(*(f"column {c}" for c in range(8)))
            for r, name in enumerate(NAMES):
                table.add_row(name, *(f"{r * c}" for c in range(1, 8)))
            log = self.query_one(RichLog)
            log.styles.width = "32%"
            for n in range(40):
                log.write(f"12:00:{n:02} #{n} {NAMES[n % 6]} played a card")
            table.focus()

    class Home(Screen[None]):
        def compose(self) -> ComposeResult:
            yield Header()
            yield Static("home")
            yield Footer()

    opens: list[dict[str, float]] = []

    class BareApp(App[None]):
        def get_default_screen(self) -> Screen[None]:
            return Home()

    app = BareApp()

    async def drive(pilot: Any) -> None:
        await pilot.pause()
        for _ in range(runs + 1):
            t0, c0 = time.perf_counter(), time.process_time()
            screen = Bare()
            await app.push_screen(screen)
            await _idle_frame(app, screen)
            opens.append(
                {
                    "wall_ms": (time.perf_counter() - t0) * 1e3,
                    "cpu_ms": (time.process_time() - c0) * 1e3,
                }
            )
            app.pop_screen()
            await pilot.pause()
        app.exit()

    app.run(headless=True, size=size, auto_pilot=drive)
    first, rest = opens[0], opens[1:]
    return {
        "game": "bare",
        "first_ms": first["wall_ms"],
        "median_ms": statistics.median(o["wall_ms"] for o in rest),
        "max_ms": max(o["wall_ms"] for o in rest),
        "cpu_ms": statistics.median(o["cpu_ms"] for o in rest),
        "footer": 0,
        "apply": 0,
    }


def measure(game_id: str, runs: int, lang: str, size: tuple[int, int]) -> dict[str, Any]:
    import textual.css.stylesheet as stylesheet
    from textual.widgets import Footer

    from companion.games import find_game
    from companion.rules.base import seat_players
    from companion.session.clock import ManualClock
    from companion.session.live import LiveSession
    from companion.ui.app import make_app
    from companion.ui.home import HomeScreen

    counts = {"footer": 0, "apply": 0}
    recompose, apply = Footer.recompose, stylesheet.Stylesheet.apply

    async def counted_recompose(self: Any) -> None:
        counts["footer"] += 1
        await recompose(self)

    def counted_apply(self: Any, *args: Any, **kwargs: Any) -> Any:
        counts["apply"] += 1
        return apply(self, *args, **kwargs)

    Footer.recompose = counted_recompose  # type: ignore[method-assign]
    stylesheet.Stylesheet.apply = counted_apply  # type: ignore[method-assign]

    info = find_game(game_id)
    players = seat_players(NAMES[: _first_count(info)])
    opens: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as tmp:
        app = make_app(Path(tmp) / "db.sqlite3", lang=lang, clock=ManualClock())

        async def drive(pilot: Any) -> None:
            await pilot.pause()
            for _ in range(runs + 1):
                live = LiveSession.start(
                    app.store, info.id, players, {}, clock=app.clock, rng=random.Random(7)
                )
                counts["footer"] = counts["apply"] = 0
                t0, c0 = time.perf_counter(), time.process_time()
                screen = info.screen.load()(live)
                await app.push_screen(screen)
                await _idle_frame(app, screen)
                opens.append(
                    {
                        "wall_ms": (time.perf_counter() - t0) * 1e3,
                        "cpu_ms": (time.process_time() - c0) * 1e3,
                        "footer": counts["footer"],
                        "apply": counts["apply"],
                    }
                )
                app.pop_screen()
                await pilot.pause()
                assert isinstance(app.screen, HomeScreen)
            app.exit()

        # The app's own run() (as ``companion`` starts it, collector frozen and all),
        # headless, driven by a pilot.
        app.run(headless=True, size=size, auto_pilot=drive)
    first, rest = opens[0], opens[1:]
    return {
        "game": game_id,
        "first_ms": first["wall_ms"],
        "median_ms": statistics.median(o["wall_ms"] for o in rest),
        "max_ms": max(o["wall_ms"] for o in rest),
        "cpu_ms": statistics.median(o["cpu_ms"] for o in rest),
        "footer": statistics.median(o["footer"] for o in rest),
        "apply": statistics.median(o["apply"] for o in rest),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--size", default="160x48")
    parser.add_argument("--game", action="append", help="one game id (repeatable); default all")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # the per-game child process
    parser.add_argument("--baseline", type=Path, help="a checkout to measure alongside")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    if args.one:
        size = (width, height)
        one = args.one
        if one == "bare":
            result = measure_bare(args.runs, size)
        else:
            result = measure(one, args.runs, args.lang, size)
        print(json.dumps(result))
        return

    from companion.games import GAMES

    games = args.game or [g.id for g in GAMES]
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load {os.getloadavg()[0]:.1f}; "
        f"{args.size}, {args.lang}, {args.runs} opens per game after the first"
    )
    print(
        f"{'game':15} {'tree':9} {'first':>8} {'median':>8} {'max':>8} {'cpu':>8} "
        f"{'footer rebuilds':>16} {'restyles':>9} {'× bare (wall, cpu)':>19}"
    )
    bare: dict[str, Any] = {}
    trees = [("this", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    for game in games:
        runs = [("bare", ROOT, "bare")] if game != "bare" else []
        for name, tree, one in runs + [(name, tree, game) for name, tree in trees]:
            env = {**os.environ, "PYTHONPATH": str(tree)}
            env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed (benchmarks/startup.py)
            child = [sys.executable, __file__, "--one", one, "--runs", str(args.runs)]
            child += ["--lang", args.lang, "--size", args.size]
            out = subprocess.run(
                child,
                check=True,
                cwd=tree,
                env=env,
                capture_output=True,
                text=True,
            ).stdout
            r = json.loads(out.strip().splitlines()[-1])
            if one == "bare":
                bare = r
            ratio = (
                f"{r['median_ms'] / bare['median_ms']:9.2f}× {r['cpu_ms'] / bare['cpu_ms']:6.2f}×"
                if bare and one != "bare"
                else ""
            )
            print(
                f"{r['game']:15} {name:9} {r['first_ms']:6.0f}ms {r['median_ms']:6.0f}ms "
                f"{r['max_ms']:6.0f}ms {r['cpu_ms']:6.0f}ms {r['footer']:16.0f} {r['apply']:9.0f} "
                f"{ratio}"
            )


if __name__ == "__main__":
    main()
