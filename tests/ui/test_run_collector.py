"""``CompanionApp.run`` rests the garbage collector until the first frame, then turns
it back on: a host's evening must not run without it (memory would only grow)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import gc, sys
from companion.ui.app import make_app
from companion.ui.home import HomeScreen
app = make_app(sys.argv[1], lang="en")
seen = []
def ready():
    if isinstance(app.screen, HomeScreen) and app.screen.is_mounted:
        app.call_after_refresh(lambda: (seen.append(gc.isenabled()), app.exit()))
    else:
        app.set_timer(0.01, ready)
app.call_after_refresh(ready)
app.run(headless=True)
print("during", seen, "after", gc.isenabled())
"""


def test_the_collector_is_back_on_once_the_home_screen_is_up(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path / "db.sqlite3")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert "during [True] after True" in done.stdout, done.stdout + done.stderr
