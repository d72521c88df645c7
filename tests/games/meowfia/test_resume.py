"""Kill after every key: a scripted 喵喵咪呀 game, reopened from its database after each key.

A model of a kill that really reopens the database: after key *k* the database file
is copied with SQLite's backup API (exactly what is committed on disk at that moment),
and later a fresh app — a new ``Store`` on the copy, a new app, ``LiveSession.resume``,
a different random source — opens it. Its view-model and screen text must equal what
the host saw after key *k*: the first questioned player drawn at key 1 is the same
after every reopen (no re-draw), and the timer pressed at key 2 is still there.

A key that commits nothing (one inside a dialog) leaves the database as it was, so
its reopen is the previous key's reopen: a fresh app is opened only after keys that
wrote an entry, or when the screen changed all the same (a running timer).

Not compared: the message line (a refusal or notice lasts until the next action) and
the smuggling narration step (``space``, a reading aid that is not in the log; the
script does not press it).
"""

from __future__ import annotations

import io
import random
import sqlite3
from pathlib import Path

import pytest
from rich.console import Console
from textual.widget import Widget
from textual.widgets import DataTable, Static

from companion.games.meowfia.screen import MeowfiaScreen
from companion.games.meowfia.view import host_view
from companion.session.clock import ManualClock
from companion.ui.app import make_app

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa"]
OPTIONS = {"smuggling_seconds": 30, "discussion_seconds": 60}
SIZE = (120, 40)
S = 1_000_000_000

KEYS = [
    "1",  # Ann is the Sheriff; the first questioned player is drawn
    "t",  # the smuggling timer starts
    "t",  # and pauses
    "d",  # placement done
    "q",  # the first player questioned
    "c",  # the next one, with a claim …
    "e",  # … of the East building
    "o",  # open a building …
    "n",  # … the North one …
    "c",  # … the real contraband: a reckoning
    "t",  # the discussion timer
    "3",  # votes, voter by voter (Bo, Cy, Di, Ed, Fa)
    "2",
    "3",
    "3",
    "3",  # Cy is accused
    "v",  # turn the tile …
    "m",  # … a Meowfia member …
    "enter",  # … no role name
    "d",  # round 2
    "o",
    "s",
    "e",  # an empty box: a smuggle
    "m",  # manual: move the ring …
    "r",
    "4",  # … to Di …
    "a",  # … with a reason
    "b",
    "enter",
    "ctrl+z",  # undone
    "ctrl+y",  # and redone
    "m",  # round 3, manual: a tile revealed outside a vote …
    "t",
    "4",  # … Di's …
    "u",  # … shows the Undercover …
    "x",  # … (the reason) …
    "enter",  # … and the Meowfia win
]


def plain(content: object) -> str:
    out = io.StringIO()
    Console(file=out, width=200, color_system=None, legacy_windows=False).print(content)
    return out.getvalue()


def shown(widget: Widget) -> bool:
    return widget.display and all(
        getattr(a, "display", True) for a in widget.ancestors if isinstance(a, Widget)
    )


def screen_text(screen: MeowfiaScreen) -> list[str]:
    """Every text the game screen shows (its panels and the vote table), in order."""
    skip = ("message-line", "mf-prompt", "mf-steps")
    texts = [plain(w.content) for w in screen.query(Static) if w.id not in skip and shown(w)]
    for table in screen.query(DataTable):
        if shown(table):
            for row in range(table.row_count):
                texts.append(" | ".join(plain(c) for c in table.get_row_at(row)))
            texts.append(f"cursor {table.cursor_row}")
    return texts


def snapshot(screen: MeowfiaScreen) -> tuple[object, list[str]]:
    # The banner's timer follows the (manual) clock on a 0.2 s real-time ticker; under a
    # loaded machine that tick may not have come since the clock moved: tick now, as the
    # screen would within 0.2 s, so both apps are read at the clock's time.
    screen._tick()
    state = screen.session.state
    return host_view(state, screen.session.clock.monotonic_ns()), screen_text(screen)


def backup(db: Path, copy: Path) -> None:
    source = sqlite3.connect(db)
    target = sqlite3.connect(copy)
    with target:
        source.backup(target)
    source.close()
    target.close()


@pytest.mark.slow
async def test_every_key_resumes_to_the_same_screen(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    clock = ManualClock(start_ns=1000 * S)
    app = make_app(db, lang="en", clock=clock, rng=random.Random(7))
    seen: list[tuple[Path | None, int, tuple[object, list[str]]]] = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        live = app.start_session("meowfia", NAMES, OPTIONS)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MeowfiaScreen)
        written = len(live.entries)
        copy = tmp_path / "start.sqlite3"
        backup(db, copy)
        seen.append((copy, clock.monotonic_ns(), snapshot(screen)))
        for k, key in enumerate(KEYS):
            clock.advance(1)  # a second passes between keys: the timer moves on
            await pilot.press(key)
            await app.settle()
            await pilot.pause()
            now = snapshot(screen)
            if len(live.entries) == written:
                # Nothing committed: the file is as it was after the key before; only
                # a running timer can have changed the screen (then reopen that file).
                seen.append((None if now == seen[-1][2] else copy, clock.monotonic_ns(), now))
                continue
            written = len(live.entries)
            copy = tmp_path / f"after-{k:02d}.sqlite3"
            backup(db, copy)
            seen.append((copy, clock.monotonic_ns(), now))
        first = live.state.first
        assert live.state.ended == "undercover-revealed"
    for k, (copy, now_ns, before) in enumerate(seen[1:]):
        if copy is None:
            continue
        fresh = make_app(
            copy, lang="en", clock=ManualClock(start_ns=now_ns), rng=random.Random(1000 + k)
        )
        async with fresh.run_test(size=SIZE) as pilot:
            await pilot.pause()
            resumed = fresh.resume_session(live.id)
            await pilot.pause()
            screen = fresh.screen
            assert isinstance(screen, MeowfiaScreen)
            if resumed.state.first is not None:
                assert resumed.state.first == first  # drawn once, at key 1
            after = snapshot(screen)
            assert after[0] == before[0], f"view-model differs after key {k} ({KEYS[k]!r})"
            assert after[1] == before[1], f"screen differs after key {k} ({KEYS[k]!r})"
