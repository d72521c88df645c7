"""What the terminal really shows: the composited screen (with the screens below a
dialog), as plain text lines. Used by the tests that check every character is there."""

from __future__ import annotations

import io
from collections import Counter

from rich.console import Console


def visible_text(app) -> str:  # type: ignore[no-untyped-def]
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    )
    return console.export_text()


def missing_characters(message: str, shown: str) -> str:
    """The characters of ``message`` (spaces aside) that are not on screen, as often as
    they occur: a dropped 不 is caught even if another 不 is visible elsewhere."""
    need = Counter(c for c in message if not c.isspace())
    have = Counter(shown)
    return "".join(c * (n - have[c]) for c, n in need.items() if have[c] < n)
