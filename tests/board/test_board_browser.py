"""The web board in a real browser: Debian's Chromium, driven by Playwright.

The page draws the terminal on a canvas (xterm.js), so the test reads what the
browser's terminal holds — its screen buffer — through a hook installed before the
page's scripts run. Playwright never downloads a browser: it is given the system's.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs Debian's chromium (apt-get install chromium)"
)

S = 1_000_000_000

# Keep every xterm.js Terminal the page creates (textual-serve keeps it in a closure).
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
SCREEN = """() => {
  const t = window.__terminals[0];
  if (!t) return '';
  const b = t.buffer.active, out = [];
  for (let i = 0; i < t.rows; i++) {
    const line = b.getLine(b.viewportY + i);
    out.push(line ? line.translateToString(true) : '');
  }
  return out.join('\\n');
}"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def web_board(tmp_path: Path) -> Iterator[tuple[str, int, Path]]:
    db = tmp_path / "c.db"
    port = free_port()
    proc = subprocess.Popen(
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
    )
    try:
        assert proc.stdout is not None
        url = ""
        for _ in range(5):
            line = proc.stdout.readline()
            if "token=" in line:
                url = line.strip()
                break
        assert url.startswith(f"http://127.0.0.1:{port}/?token="), url
        yield url, port, db
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def wait_for(
    read: Callable[[], str], ok: Callable[[str], bool], what: str, timeout: float = 20.0
) -> str:
    deadline = time.monotonic() + timeout
    text = ""
    while time.monotonic() < deadline:
        text = read()
        if ok(text):
            return text
        time.sleep(0.05)
    raise AssertionError(f"the browser never showed {what}; it shows:\n{text}")


def test_web_board_in_chromium(web_board: tuple[str, int, Path], start_writer) -> None:
    from playwright.sync_api import sync_playwright

    url, port, db = web_board
    # Without the token: refused, for a plain client and for the browser.
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10)
    assert refused.value.code == 403

    writer = start_writer(db, "meeple-circus", ["Ann", "Bo", "Cy"])
    writer.send({"type": "choose-first-player", "player": "p1"})
    for pid in ("p1", "p2", "p3"):
        writer.send({"type": "prepare", "player": pid})

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
            ],
        )
        try:
            page = browser.new_page(viewport={"width": 1600, "height": 900})
            response = page.goto(f"http://127.0.0.1:{port}/")
            assert response is not None and response.status == 403
            page.add_init_script(GRAB_TERMINAL)
            response = page.goto(url + "&fontsize=16")
            assert response is not None and response.status == 200

            def screen() -> str:
                return str(page.evaluate(SCREEN))

            wait_for(
                screen,
                lambda t: "Meeple Circus" in t and "Preparation" not in t and "Performance" in t,
                "the performance phase",
            )

            # The music starts now: the countdown runs in the browser.
            writer.send(
                {"type": "start-performance", "host_ns": time.monotonic_ns(), "length_ns": 90 * S}
            )
            first = wait_for(screen, lambda t: "Music playing" in t, "the music playing")
            time.sleep(1.2)
            later = wait_for(screen, lambda t: t != first, "the countdown moving")
            assert "Music playing" in later
            assert "No Tadaa! yet" in later

            # A Tadaa! is logged by the host: it appears, with its place and token.
            writer.send(
                {
                    "type": "press",
                    "player": "p2",
                    "host_ns": time.monotonic_ns(),
                    "uncertainty_ns": 1_000_000,
                    "source": "keyboard",
                }
            )
            shown = wait_for(
                screen,
                lambda t: (
                    "No Tadaa! yet" not in t
                    and any(" Bo " in line and "speed token +2" in line for line in t.splitlines())
                ),
                "Bo's Tadaa!",
            )
            assert "Tadaa! order" in shown
        finally:
            browser.close()
