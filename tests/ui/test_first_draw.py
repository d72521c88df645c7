"""The first draw is an interface of the shared game screen (issue 25): a game's
``first_draw`` is run on the writer thread, committed, then shown — once per screen,
even where a game's ``on_mount`` also calls ``super().on_mount()``."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.session.clock import ManualClock
from companion.ui.app import make_app


@pytest.mark.parametrize(("game", "kind"), [("cat-box", "deal"), ("shadow-cats", "deal")])
async def test_a_new_session_is_dealt_once_and_shown_after_the_commit(
    tmp_path: Path, game: str, kind: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        app.start_session(game, ["Ann", "Bo", "Cy", "Di"], {})
        await app.settle()
        await pilot.pause()
        live = app.screen.session  # type: ignore[attr-defined]
        deals = [e for e in live.entries if e.payload.get("type") == kind]
        assert len(deals) == 1
        assert app.screen.first_draw() is None  # type: ignore[attr-defined]  # drawn: never again


async def test_a_refused_first_draw_is_shown_however_late_the_writer_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A roster file the preparer refuses: the setup panel says why, also when the
    writer's answer comes after the screen's first refresh (a loaded machine). The
    refusal drew nothing, so the reason showed only if the answer beat that refresh
    (CI failed on it)."""
    import time

    from textual.widgets import Static

    from companion.games.shadow_cats import prepare

    real = prepare.read_roster

    def slow(path: str | None) -> prepare.RosterSource:
        time.sleep(0.5)  # on the writer thread: the screen refreshes meanwhile
        return real(path)

    monkeypatch.setattr(prepare, "read_roster", slow)
    roster = tmp_path / "mine.toml"
    roster.write_text("this is not a roster = [", encoding="utf-8")
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", ["Ann", "Bo", "Cy", "Di"], {"roster_file": str(roster)})
        await app.settle()
        setup = str(app.screen.query_one("#sc-setup", Static).render())
        assert "Roster: " + str(roster) in setup
        assert len(setup.strip().splitlines()) > 1, setup  # the reason under the path
