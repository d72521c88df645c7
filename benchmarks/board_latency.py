"""Latency of the table board: from an action committed by the host to the board showing it.

    benchmarks/board_latency.py                 # terminal board and browser, 200 + 100 actions
    benchmarks/board_latency.py --actions 50    # fewer
    benchmarks/board_latency.py --no-browser    # terminal board only
    benchmarks/board_latency.py --no-terminal   # browser only

A *host* process (a stand-in for the host app: ``LiveSession`` on the same SQLite
file, WAL, ``synchronous=FULL``) writes one score-pad action at a time, at random
intervals of 20–80 ms, and reports ``time.monotonic_ns()`` right after ``act()``
returns — the commit is on disk. CLOCK_MONOTONIC is one clock for every process of
the machine, so the two ends compare directly.

* **terminal**: the board app (``make_board``, default 20 ms ``data_version`` poll)
  runs headless in this process; "shown" is when its ``show()`` has updated the
  widgets for that entry (the frame is painted on Textual's next refresh, at most
  1/60 s later — not included).
* **browser**: ``companion board --web`` (textual-serve) with Debian's Chromium under
  Playwright; "shown" is when the xterm.js screen buffer in the page holds the
  board's status line for that entry (``entry N``), polled by ``page.evaluate``
  (about 1 ms a round trip). This is the whole path: poll, render, the app's
  output through textual-serve's websocket, xterm.js.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

HOST_SCRIPT = """
import json, sys, time
from companion.rules.base import seat_players
from companion.session.live import LiveSession
from companion.session.store import Store
store = Store.open(sys.argv[1])
live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo", "Cy", "Di"]), {})
print(json.dumps({"session": live.id}), flush=True)
points = 0
for line in sys.stdin:
    if line.strip() == "quit":
        break
    points += 1
    change = live.act({"type": "score", "player": "p%d" % (points % 4 + 1), "points": points})
    print(json.dumps({"seq": change.entry.seq, "t": time.monotonic_ns()}), flush=True)
store.close()
"""

# Keep the page's xterm.js Terminal (textual-serve holds it in a closure).
GRAB_TERMINAL = """
window.__terminals = [];
Object.defineProperty(Object.prototype, 'terminal', {
  configurable: true,
  set(value) {
    Object.defineProperty(this, 'terminal', {value, writable: true, configurable: true,
                                             enumerable: true});
    if (value && value.buffer) window.__terminals.push(value);
  },
});
"""
STATUS_LINE = """() => {
  const t = window.__terminals[0];
  if (!t) return '';
  const b = t.buffer.active, out = [];
  for (let i = Math.max(0, t.rows - 2); i < t.rows; i++) {
    const line = b.getLine(b.viewportY + i);
    out.push(line ? line.translateToString(true) : '');
  }
  return out.join(' ');
}"""


class Host:
    """The writing process."""

    def __init__(self, db: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HOST_SCRIPT, str(db)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        self.session = self._read()["session"]

    def _read(self) -> dict[str, object]:
        assert self.proc.stdout is not None
        data: dict[str, object] = json.loads(self.proc.stdout.readline())
        return data

    def act(self) -> tuple[int, int]:
        """Commit one action; (seq, monotonic ns just after the commit)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write("go\n")
        self.proc.stdin.flush()
        report = self._read()
        return int(report["seq"]), int(report["t"])  # type: ignore[call-overload]

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def summary(name: str, samples_ns: list[int]) -> str:
    ms = sorted(s / 1e6 for s in samples_ns)
    p99 = ms[min(len(ms) - 1, round(0.99 * (len(ms) - 1)))]
    return (
        f"{name:9s} n={len(ms):4d}  median {statistics.median(ms):6.1f} ms  "
        f"p99 {p99:6.1f} ms  min {ms[0]:5.1f}  max {ms[-1]:6.1f}"
    )


async def terminal(db: Path, actions: int, rng: random.Random) -> list[int]:
    from companion.ui.board import make_board

    host = Host(db)
    app = make_board(db)
    shown_at: dict[int, int] = {}
    original = app.show

    async def show(snapshot):  # type: ignore[no-untyped-def]
        await original(snapshot)
        shown_at.setdefault(snapshot.last_seq, time.monotonic_ns())

    app.show = show  # type: ignore[method-assign]
    samples: list[int] = []
    try:
        async with app.run_test(size=(160, 50)):
            await app.caught_up(0)
            for _ in range(actions):
                await asyncio.sleep(rng.uniform(0.02, 0.08))
                seq, committed = await asyncio.get_running_loop().run_in_executor(None, host.act)
                await app.caught_up(seq)
                shown = min(t for s, t in shown_at.items() if s >= seq)
                samples.append(shown - committed)
    finally:
        host.close()
    return samples


def browser(db: Path, actions: int, rng: random.Random) -> list[int]:
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs Debian's chromium (apt-get install chromium)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    host = Host(db)
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "--db",
            str(db),
            "--lang",
            "en",
            "board",
            "--web",
            "--port",
            str(port),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
    )
    samples: list[int] = []
    try:
        assert server.stdout is not None
        url = ""
        while "token=" not in url:
            url = server.stdout.readline().strip()
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path=chromium,
                args=[
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-background-networking",
                ],
            )
            page = browser.new_page(viewport={"width": 1600, "height": 900})
            page.add_init_script(GRAB_TERMINAL)
            page.goto(url + "&fontsize=16")
            deadline = time.monotonic() + 30
            while "entry 0" not in page.evaluate(STATUS_LINE):
                if time.monotonic() > deadline:
                    raise SystemExit("the browser board never showed the session")
                time.sleep(0.01)
            for _ in range(actions):
                time.sleep(rng.uniform(0.02, 0.08))
                seq, committed = host.act()
                needle = f"entry {seq} "
                while needle not in page.evaluate(STATUS_LINE) + " ":
                    time.sleep(0.001)
                samples.append(time.monotonic_ns() - committed)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
        host.close()
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--no-terminal", action="store_true")
    args = parser.parse_args()
    rng = random.Random(1)
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} cores, Python "
        f"{platform.python_version()}"
    )
    with tempfile.TemporaryDirectory() as folder:
        results = []
        if not args.no_terminal:
            samples = asyncio.run(terminal(Path(folder) / "t.db", args.actions, rng))
            results.append(summary("terminal", samples))
        if not args.no_browser:
            results.append(
                summary("browser", browser(Path(folder) / "b.db", max(1, args.actions // 2), rng))
            )
    print("\n".join(results))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
