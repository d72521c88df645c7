"""History at scale: 10,000 sessions; open the history screen, statistics, exports.

    .venv/bin/python benchmarks/history_bench.py [--sessions 10000] [--runs 3] [--db PATH]

Sessions are real score-pad games (their logs replay): 2 to 6 players, 3 to 8
rounds of one score per player, a host "end", a few undo/redo pairs and
abandoned or unfinished ones mixed in. They are generated with the rules and
written in one transaction (``Store.import_sessions``) so generation takes
seconds, not one fsync per entry. Each measurement is the median of ``--runs``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.games.scorepad.rules import GAME as SCOREPAD  # noqa: E402
from companion.games.scorepad.rules import CloseRound, EndGame, Score  # noqa: E402
from companion.rules.base import action_to_json, seat_players  # noqa: E402
from companion.session import export as ex  # noqa: E402
from companion.session.detail import session_detail  # noqa: E402
from companion.session.results import query_results  # noqa: E402
from companion.session.stats import (  # noqa: E402
    compute,
    head_to_head,
    head_to_head_of,
    statistics_of,
)
from companion.session.store import Entry, SessionRow, Store  # noqa: E402

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "小明", "小红", "阿强", "Hal", "Ida"]


def stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def make_session(rng: random.Random, index: int, start: datetime) -> tuple[SessionRow, list[Entry]]:
    names = rng.sample(NAMES, rng.randint(2, 6))
    players = seat_players(names)
    options = SCOREPAD.check_options({"highest_wins": rng.random() < 0.8})
    state = SCOREPAD.setup(players, options)
    fate = rng.random()
    rounds = rng.randint(3, 8)
    entries: list[Entry] = []
    t = start
    seq = 0

    def add(kind: str, payload: dict[str, Any]) -> None:
        nonlocal seq, t
        seq += 1
        t += timedelta(seconds=rng.randint(5, 90))
        entries.append(Entry(seq, kind, payload, stamp(t), seq * 1_000_000_000))

    for _r in range(rounds):
        for p in players:
            action = Score(p.id, rng.randint(0, 12))
            state = SCOREPAD.apply(state, action)
            add("action", action_to_json(action))
        if rng.random() < 0.1:  # a mistake, undone and redone
            add("undo", {"undoes": seq})
            add("redo", {"redoes": seq - 1})
        state = SCOREPAD.apply(state, CloseRound())
        add("action", action_to_json(CloseRound()))
    status = "finished"
    outcome = None
    if fate < 0.05:
        status = "abandoned"
    elif fate < 0.08:
        status = "active"
    else:
        state = SCOREPAD.apply(state, EndGame())
        add("action", action_to_json(EndGame()))
        found = SCOREPAD.outcome(state)
        outcome = found.to_json() if found else None
    row = SessionRow(
        id=f"bench-{index:05d}",
        game="scorepad",
        options=options,
        players=players,
        started_at=stamp(start),
        ended_at=entries[-1].at if outcome else None,
        outcome=outcome,
        status=status,
    )
    return row, entries


def generate(store: Store, count: int, seed: int = 7) -> int:
    rng = random.Random(seed)
    start = datetime(2024, 1, 1, 19, 0, tzinfo=UTC)
    items = [make_session(rng, i, start + timedelta(hours=6 * i)) for i in range(count)]
    store.import_sessions(items)
    return sum(len(e) for _r, e in items)


CPU: list[float] = []
"""CPU seconds of the last ``timed`` call's runs (less sensitive to a busy machine)."""


def timed(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times = []
    CPU.clear()
    result = None
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        result = fn()
        times.append(time.perf_counter() - t0)
        CPU.append(time.process_time() - c0)
    return statistics.median(times), result


async def open_history_screen(db: Path, runs: int) -> list[float]:
    """Headless app: press h on the home screen until the table holds every row."""
    from textual.widgets import DataTable

    from companion.ui.app import make_app
    from companion.ui.history import HistoryScreen

    out = []
    for _ in range(runs):
        app = make_app(db, lang="zh")
        async with app.run_test(size=(160, 50)) as pilot:
            await pilot.pause()
            if app.screen.__class__.__name__ == "ResumeDialog":
                await pilot.press("escape")
                await pilot.pause()
            t0, c0 = time.perf_counter(), time.process_time()
            await pilot.press("h")
            screen = app.screen
            while not isinstance(screen, HistoryScreen):
                await pilot.pause()
                screen = app.screen
            table = screen.query_one("#history-table", DataTable)
            while table.row_count < len(screen.results) or not screen.results:
                await pilot.pause()
            await pilot.pause()  # first paint of the filled table
            out.append(time.perf_counter() - t0)
            CPU.append(time.process_time() - c0)
    return out


def open_frames(db: Path | None, runs: int, lang: str = "zh") -> dict[str, list[float]]:
    """``push_screen`` → the first idle frame with the table filled, in the app's own
    ``run()`` (headless, 160x48). ``db=None``: a bare Textual app whose screen holds
    what History's does (a Header, two Selects and three Inputs in a row, a Label, a
    DataTable of the first 100 sessions' seven cells as plain strings, a Footer),
    pushed over a plain home screen. The first open of a process is reported apart
    (``first``: it also reads the screen's CSS); ``rest`` are the later opens."""
    from screen_open import _idle_frame  # the same "idle frame" as a game screen's open
    from textual.app import App, ComposeResult
    from textual.containers import Horizontal
    from textual.screen import Screen
    from textual.widgets import DataTable, Footer, Header, Input, Label, Select, Static

    opens: list[float] = []
    if db is None:
        rows = [
            (
                f"2026-11-{d % 28 + 1:02} 20:15",
                "计分板",
                "Ann、Bo、小明、阿强",
                "小明",
                "Ann 31, Bo 28, 小明 40, 阿强 12",
                "42 min",
                "finished",
            )
            for d in range(100)
        ]

        class BareHistory(Screen[None]):
            def compose(self) -> ComposeResult:
                yield Header(show_clock=True)
                with Horizontal(id="filters"):
                    yield Select([(f"game {i}", str(i)) for i in range(6)], prompt="All games")
                    yield Input(placeholder="Player")
                    yield Input(placeholder="From (YYYY-MM-DD)")
                    yield Input(placeholder="To (YYYY-MM-DD)")
                    yield Select([("finished", "f"), ("unfinished", "a")], prompt="Any status")
                yield Label("10000 sessions")
                yield DataTable(cursor_type="row", zebra_stripes=True)
                yield Footer()

            def on_mount(self) -> None:
                table = self.query_one(DataTable)
                for title in ("Date", "Game", "Players", "Winners", "Scores", "Duration", "Status"):
                    table.add_column(title)
                table.add_rows(rows)
                table.focus()

        class Home(Screen[None]):
            def compose(self) -> ComposeResult:
                yield Header()
                yield Static("home")
                yield Footer()

        class BareApp(App[None]):
            CSS = "#filters { height: 3; } #filters Select, #filters Input { width: 24; }"

            def get_default_screen(self) -> Screen[None]:
                return Home()

        app: Any = BareApp()
        make = BareHistory
    else:
        from companion.ui.app import make_app
        from companion.ui.history import HistoryScreen

        app = make_app(db, lang=lang)
        make = HistoryScreen

    async def drive(pilot: Any) -> None:
        await pilot.pause()
        if app.screen.__class__.__name__ == "ResumeDialog":
            await pilot.press("escape")
            await pilot.pause()
        for _ in range(runs + 1):
            t0, c0 = time.perf_counter(), time.process_time()
            screen = make()
            await app.push_screen(screen)
            await _idle_frame(app, screen)
            opens.append((time.perf_counter() - t0) * 1e3)
            CPU.append(time.process_time() - c0)
            app.pop_screen()
            await pilot.pause()
        app.exit()

    CPU.clear()
    app.run(headless=True, size=(160, 48), auto_pilot=drive)
    return {"first": opens[:1], "rest": opens[1:]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    args = parser.parse_args()
    # On the project's disk (not a tmpfs /tmp), like a real data folder; removed at the end.
    folder = Path(tempfile.mkdtemp(prefix="history-bench-", dir=ROOT.parent))
    db = args.db or folder / "history.sqlite3"
    store = Store.open(db)
    t0 = time.perf_counter()
    n_entries = generate(store, args.sessions)
    print(
        f"generated {args.sessions} sessions, {n_entries} entries in "
        f"{time.perf_counter() - t0:.1f} s"
    )
    runs = args.runs
    ids = [r.id for r in query_results(store)]

    rows = []

    def report(what: str, seconds: float, extra: str = "", cpu: bool = True) -> None:
        rows.append((what, seconds, extra))
        cpu_ms = f"cpu {statistics.median(CPU) * 1000:7.0f} ms" if cpu and CPU else " " * 14
        print(f"{what:<52} wall {seconds * 1000:7.0f} ms  {cpu_ms}  {extra}")

    secs, results = timed(lambda: query_results(store), runs)
    report("query all session results (SQL)", secs, f"{len(results)} rows")
    # Old path (every result built, then folded) and new path (SQL over the summary
    # tables), side by side in this run, on the same database.
    secs, stats = timed(lambda: compute(query_results(store)), runs)
    report(
        "all statistics, old: query_results + compute",
        secs,
        f"{len(stats.players)} players, {stats.plays} plays",
    )
    secs, fast = timed(lambda: statistics_of(store), runs)
    report(
        "all statistics, new: SQL aggregates (statistics_of)",
        secs,
        f"{len(fast.players)} players, {fast.plays} plays",
    )
    secs, _h = timed(lambda: head_to_head(query_results(store), "Ann", "小明"), runs)
    report("head-to-head, old: query_results + fold", secs)
    secs, _h = timed(lambda: head_to_head_of(store, "Ann", "小明"), runs)
    report("head-to-head, new: one SQL self-join", secs)
    from companion.session.results import count_results, player_names

    def open_data() -> int:
        count_results(store)
        query_results(store, limit=100)
        return len(player_names(store))

    secs, _n = timed(open_data, runs)
    report("history screen's data: count + first page + player names", secs)
    secs, detail = timed(lambda: session_detail(store, ids[len(ids) // 2]), runs)
    report("open one session's detail (replay + fold)", secs, f"{len(detail.entries)} entries")
    csv_path = folder / "all.csv"
    secs, _ = timed(lambda: ex.write_atomic(csv_path, ex.export_text(store, ids, "csv")), runs)
    report("export all to CSV (atomic write)", secs, f"{csv_path.stat().st_size / 1e6:.1f} MB")
    json_path = folder / "all.json"

    def old_json() -> None:
        # The previous path of History's export: every session checked (sound_sessions),
        # all checked again, the whole document built in memory, then written.
        sound = ex.sound_sessions(store, ids)
        ex.check_exportable(store, sound)
        ex.write_atomic(json_path, ex.sessions_json_text(store, sound))

    secs, _ = timed(old_json, 1)
    report("export all to JSON, old: check twice, built whole", secs)
    secs, _ = timed(lambda: ex.export_file(store, ids, "json", json_path, skip_damaged=True), runs)
    report(
        "export all to JSON, new: streamed, checked once",
        secs,
        f"{json_path.stat().st_size / 1e6:.1f} MB",
    )
    bg_path = folder / "all.bgstats.json"
    secs, _ = timed(lambda: ex.write_atomic(bg_path, ex.export_text(store, ids, "bgstats")), runs)
    report("export all to BG Stats JSON", secs)

    def import_all() -> int:
        target = folder / f"import-{time.perf_counter_ns()}.sqlite3"
        with Store.open(target) as fresh:
            return len(ex.import_file(fresh, json_path).added)

    secs, added = timed(import_all, 1)
    report("import the JSON into an empty DB (replays all)", secs, f"{added} sessions")
    import cProfile
    import pstats

    profile = cProfile.Profile()
    profile.runcall(import_all)
    print("  import, where the time goes (cumulative, profiled):")
    stats_out = pstats.Stats(profile)
    for name in ("parse_export", "replay_session", "import_sessions", "refresh"):
        for (file, _line, func), row in stats_out.stats.items():  # type: ignore[attr-defined]
            if func == name and "companion" in file:
                print(f"    {func:<20} {row[3]:6.2f} s  ({file.split('companion/')[-1]})")
    store.close()
    CPU.clear()
    screen = asyncio.run(open_history_screen(db, runs))
    report(
        "open the history screen (h → table filled, painted)",
        statistics.median(screen),
        "runs: " + ", ".join(f"{s:.2f}s" for s in screen),
    )
    # The same open timed to its first idle frame (as screen_open.py times a game
    # screen), beside a bare Textual screen holding History's widgets and 100 rows,
    # alternated so the machine's load of the moment hits both alike.
    frames: dict[str, list[float]] = {"bare": [], "app": [], "app first": []}
    for _round in range(2):
        frames["bare"] += open_frames(None, runs)["rest"]
        opened = open_frames(db, runs)
        frames["app"] += opened["rest"]
        frames["app first"] += opened["first"]
    for who, label in (
        ("bare", "open, bare Textual screen (100 rows), to idle frame"),
        ("app", "open the history screen, to idle frame (later opens)"),
        ("app first", "open the history screen, to idle frame (first open)"),
    ):
        CPU.clear()
        report(label, statistics.median(frames[who]) / 1e3, f"{len(frames[who])} opens", cpu=False)
    shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
