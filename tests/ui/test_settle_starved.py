"""``settle()`` returns when what it promises is on screen, however starved the process.

It ended with Textual's ``wait_for_idle``, which takes a process that used little CPU
over 20 ms for one with nothing left to do. On a loaded machine (CI: four workers on
two cores) the process gets no CPU for those 20 ms and looks idle with work still
queued: a screen pushed by ``start_session`` not yet mounted (so its first draw not yet
submitted: Shadow Cats' roster error missing from the setup panel), or the footer's
rebuild for the new bindings (the kill-resume tests read a blank footer line). CI
failed on both. Modelled here: ``wait_for_idle`` sees a process that did no work while
no time passed, as a starved one does.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
import textual._wait
from textual.widgets import Static

from companion.session.clock import ManualClock
from companion.ui.app import make_app

NAMES = ["Ann", "Bo", "Cy", "Dee", "Eve"]


@pytest.fixture
def starved(monkeypatch: pytest.MonkeyPatch) -> None:
    async def no_time(_seconds: float) -> None:
        await asyncio.sleep(0)

    monkeypatch.setattr(textual._wait, "sleep", no_time)
    monkeypatch.setattr(textual._wait, "process_time", lambda: 0.0)


def footer_line(app) -> str:  # type: ignore[no-untyped-def]
    return [strip.text for strip in app.screen._compositor.render_strips()][-1]


@pytest.mark.parametrize("game", ["scorepad", "meowfia", "cat-box"])
async def test_after_settle_the_footer_shows_the_screens_keys(
    tmp_path: Path, starved: None, game: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.start_session(game, NAMES, {})
        await app.settle()
        line = footer_line(app)
        assert "^z Undo" in line and "^p Commands" in line, line
        await pilot.press("ctrl+q")


async def test_after_settle_a_first_draw_s_refusal_is_shown(tmp_path: Path, starved: None) -> None:
    roster = tmp_path / "mine.toml"
    roster.write_text("this is not a roster = [", encoding="utf-8")
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", NAMES[:4], {"roster_file": str(roster)})
        await app.settle()
        setup = str(app.screen.query_one("#sc-setup", Static).render())
        assert "Roster: " + str(roster) in setup
        assert len(setup.strip().splitlines()) > 1, setup  # the reason under the path
        await pilot.press("ctrl+q")
