"""A burst of keys that goes on past a dialog's close lands as if typed slowly (issue 13, 3).

``tmux send-keys s 5 Enter s 7 Enter`` on the score pad: the Enter that closes the points
dialog submits a write; the keys after it were routed at once, before the dialog had
closed and before the commit had landed, so "s 7 Enter" was typed into the closing
dialog, judged against the old state or dropped (the score pad kept only the 5). The
same in every chain: keys for a dialog, the Enter that closes it and commits, then keys
for the game screen or the next dialog. Each test here failed before the fix; the
invariant they check is "a burst == the same keys typed one at a time with waits".
"""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from textual import events

from companion.games import find_game
from companion.games.scorepad.screen import ScorepadScreen
from companion.session.clock import ManualClock
from companion.ui.app import CompanionApp, make_app
from companion.ui.home import HomeScreen
from companion.widgets.game_screen import GameScreen

SIZE = (120, 36)
CHARACTERS = {
    "enter": "\r",
    "plus": "+",
    "minus": "-",
    "escape": "\x1b",
    "space": " ",
    "tab": "\t",
}


def key_event(name: str) -> events.Key:
    """The event a terminal sends for the key ``name`` (as Textual's driver makes it)."""
    character = CHARACTERS.get(name, name if len(name) == 1 else None)
    return events.Key(name, character)


async def burst(pilot: Any, app: CompanionApp, keys: list[str]) -> None:
    """Every key posted at once, as ``tmux send-keys`` delivers one call, then wait."""
    for name in keys:
        app.post_message(key_event(name))
    for _ in range(30):
        await pilot.pause()
    await app.settle()
    await app.settle()


async def slowly(pilot: Any, app: CompanionApp, keys: list[str]) -> None:
    """One key at a time, each after everything before it has landed."""
    for name in keys:
        await pilot.press(name)
        await app.settle()


def scores(app: CompanionApp) -> list[tuple[str, int]]:
    screen = app.screen
    assert isinstance(screen, GameScreen)
    return [
        (e.payload["player"], e.payload["points"])
        for e in screen.session.entries
        if e.payload["type"] == "score"
    ]


async def _score_pad(pilot: Any, app: CompanionApp) -> ScorepadScreen:
    await pilot.pause()
    app.start_session("scorepad", ["Ann", "Bo"], {})
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, ScorepadScreen)
    return screen


async def test_score_then_score_again_in_one_burst(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _score_pad(pilot, app)
        await burst(pilot, app, ["s", "5", "enter", "s", "7", "enter"])
        assert scores(app) == [("p1", 5), ("p2", 7)]
        assert app.screen is screen  # no dialog left open


async def test_three_rounds_in_one_burst(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _score_pad(pilot, app)
        keys: list[str] = []
        for first, second in [("5", "7"), ("2", "9"), ("1", "3")]:
            # "c" closes the round: judged against the state after both scores landed.
            keys += ["s", first, "enter", "s", second, "enter", "c"]
        await burst(pilot, app, keys)
        assert scores(app) == [
            ("p1", 5),
            ("p2", 7),
            ("p1", 2),
            ("p2", 9),
            ("p1", 1),
            ("p2", 3),
        ]
        assert screen.pad.round_number == 4
        assert screen.pad.totals() == {"p1": 8, "p2": 19}
        assert app.screen is screen


async def _entries_after(
    tmp_path: Path,
    game: str,
    names: list[str],
    keys: list[str],
    *,
    at_once: bool,
    options: dict[str, Any] | None = None,
) -> tuple[list[dict[str, Any]], type]:
    app = make_app(
        tmp_path / ("burst" if at_once else "slow") / "db.sqlite3",
        lang="en",
        clock=ManualClock(),
        rng=random.Random(5),
    )
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        live = app.start_session(game, names, options or {})
        await pilot.pause()
        await app.settle()
        await (burst if at_once else slowly)(pilot, app, keys)
        return [e.payload for e in live.entries], type(app.screen)


async def test_a_meowfia_chain_of_commits_dialogs_and_votes_in_one_burst(tmp_path: Path) -> None:
    """Sheriff (commit), placement done (commit, allowed only after the first landed),
    open a building: two dialogs, the second's answer commits the reckoning, which
    shows the vote grid; then three votes for the grid."""
    names = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa"]
    keys = ["1", "d", "o", "n", "c", "3", "2", "2"]
    slow, slow_screen = await _entries_after(tmp_path, "meowfia", names, keys, at_once=False)
    assert [p["type"] for p in slow] == ["start", "smuggling-done", "inspect"] + ["vote"] * 3
    fast, fast_screen = await _entries_after(tmp_path, "meowfia", names, keys, at_once=True)
    assert fast == slow
    assert fast_screen is slow_screen


async def test_a_cat_box_chain_of_rolls_and_placements_in_one_burst(tmp_path: Path) -> None:
    """Ann's roll typed and committed inside the roll dialog, her token placed (the
    dialog closes and the placement commits), then Bo's roll dialog, opened against
    the state after that commit, and his dice, and Cy's."""
    names = ["Ann", "Bo", "Cy", "Di"]
    keys = ["r", "1", "1", "2", "6", "enter", "1"]
    keys += ["r", "2", "3", "4", "1", "enter", "1"]
    keys += ["r", "1", "2", "1", "2", "enter", "n"]
    options = {"start_player": "p1"}
    slow, slow_screen = await _entries_after(
        tmp_path, "cat-box", names, keys, at_once=False, options=options
    )
    assert [p["type"] for p in slow[:5]] == ["deal", "roll", "place", "roll", "place"]
    assert {p.get("player") for p in slow[1:]} >= {"p1", "p2", "p3"}
    fast, fast_screen = await _entries_after(
        tmp_path, "cat-box", names, keys, at_once=True, options=options
    )
    assert fast == slow
    assert fast_screen is slow_screen


async def test_a_burst_from_home_through_the_form_into_the_score_pad(tmp_path: Path) -> None:
    """Choose the score pad, seat two players, start (a write), then score twice."""
    keys = ["end", "enter", "A", "n", "n", "enter", "B", "o", "enter", "ctrl+s"]
    keys += ["s", "5", "enter", "s", "7", "enter"]
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        await burst(pilot, app, keys)
        screen = app.screen
        assert isinstance(screen, ScorepadScreen)
        assert [p.name for p in screen.session.players] == ["Ann", "Bo"]
        assert scores(app) == [("p1", 5), ("p2", 7)]
        assert screen.session.info.id == find_game("scorepad").id


# ---------------------------------------------------------------- burst == slow typing

# What a host types on the score pad, one "word" at a time; a burst is any sequence of
# them, typed without a pause.
WORDS: list[list[str]] = [
    ["s", "5", "enter"],
    ["s", "1", "2", "enter"],
    ["s", "minus", "3", "enter"],
    ["enter", "plus", "7", "enter"],  # enter on a row opens the same dialog
    ["plus"],
    ["minus"],
    ["c"],  # close the round (refused while it is empty: the guide says why)
    ["down"],
    ["up"],
    ["s", "4", "escape"],  # cancelled: nothing is written
    ["s", "x", "enter", "backspace", "3", "enter"],  # refused in the dialog, then fixed
    ["ctrl+z"],
    ["E", "n"],  # "end the game?" no
]
typed_words = st.lists(st.sampled_from(WORDS), min_size=2, max_size=6)


async def _pad_entries(tmp_path: Path, keys: list[str], *, at_once: bool) -> list[dict[str, Any]]:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        screen = await _score_pad(pilot, app)
        await (burst if at_once else slowly)(pilot, app, keys)
        assert app.screen is screen
        return [e.payload for e in screen.session.entries]


@settings(
    max_examples=5,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(typed_words)
def test_a_burst_of_score_pad_keys_is_the_same_as_typing_them_slowly(
    tmp_path_factory: pytest.TempPathFactory, words: list[list[str]]
) -> None:
    keys = [key for w in words for key in w]
    slow = asyncio.run(_pad_entries(tmp_path_factory.mktemp("slow"), keys, at_once=False))
    fast = asyncio.run(_pad_entries(tmp_path_factory.mktemp("burst"), keys, at_once=True))
    assert fast == slow, keys


# ---------------------------------------------------------------- a real terminal


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_one_send_keys_call_in_a_real_terminal_scores_both(tmp_path: Path) -> None:
    """The real app in tmux: a fresh database, the score pad from Home, and the whole
    burst (seat two players, start, score 5 then 7) in ONE ``send-keys`` call."""
    db = tmp_path / "db.sqlite3"
    env = {**os.environ, "COMPANION_DB": str(db), "TERM": "xterm-256color"}
    name = f"burst{os.getpid()}"
    tmux = ["tmux", "-L", f"companion-burst-{os.getpid()}"]  # our own server
    command = f"{sys.executable} -m companion --db {db} --lang en"

    def screen() -> str:
        return subprocess.run(
            [*tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True
        ).stdout

    def wait_for(text: str, seconds: float = 20) -> str:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{screen()}")

    keys = ["End", "Enter", "Ann", "Enter", "Bo", "Enter", "C-s"]  # the pad is listed last
    keys += ["s", "5", "Enter", "s", "7", "Enter"]
    try:
        subprocess.run(
            [*tmux, "new-session", "-d", "-s", name, "-x", "120", "-y", "36", command],
            env=env,
            check=True,
        )
        wait_for("Score pad")  # Home is up (a fresh database shows the welcome)
        subprocess.run([*tmux, "send-keys", "-t", name, *keys], check=True)
        wait_for("R1 (open)")
        deadline = time.monotonic() + 10
        entries: list[tuple[str, int]] = []
        while time.monotonic() < deadline and len(entries) < 2:
            time.sleep(0.2)
            entries = _stored_scores(db)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
    assert entries == [("p1", 5), ("p2", 7)], screen()


def _stored_scores(db: Path) -> list[tuple[str, int]]:
    """The score entries in the database, in log order (read as another program would)."""
    import json

    if not db.exists():
        return []
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as connection:
        try:
            rows = connection.execute("SELECT payload FROM entries ORDER BY seq").fetchall()
        except sqlite3.OperationalError:  # not created yet
            return []
    payloads = [json.loads(row[0]) for row in rows]
    return [(p["player"], p["points"]) for p in payloads if p.get("type") == "score"]
