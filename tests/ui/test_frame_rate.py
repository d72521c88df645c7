"""The companion's screens paint at up to 120 frames a second (issue 26), unless the
host set ``TEXTUAL_FPS``. Checked in a new interpreter: Textual reads the variable once,
when it is first imported (here the test runner imported it long before)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PROBE = (
    "import companion.ui.app, textual.constants as c, textual.screen as s; "
    "print(c.MAX_FPS, round(1 / s.UPDATE_PERIOD))"
)


@pytest.mark.parametrize(("env", "fps"), [(None, "120 120"), ("30", "30 30")])
def test_the_app_asks_textual_for_120_frames_a_second(env: str | None, fps: str) -> None:
    environ = {k: v for k, v in os.environ.items() if k != "TEXTUAL_FPS"}
    if env is not None:
        environ["TEXTUAL_FPS"] = env
    out = subprocess.run(
        [sys.executable, "-c", PROBE], env=environ, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == fps
