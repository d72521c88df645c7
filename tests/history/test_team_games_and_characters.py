"""The history of team games, characters and acts reads right (issue 22, "Reading").

Seen on screen: a Meowfia game won by the five Meowfia showed 名次 6 for each of the
three police; a Shadow Cats session never said who played which character; Meeple
Circus's table per act showed only the running totals, not what each act scored.
Each test failed before its fix.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from history_builders import outcome_session
from textual.widgets import DataTable

from companion.games import find_game
from companion.i18n import _
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.detail import session_detail
from companion.session.live import LiveSession
from companion.session.results import query_results
from companion.session.store import Store
from companion.ui.app import make_app
from companion.ui.history_detail import SessionDetailScreen

EIGHT = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]


def finished_game(store: Store, game: str, count: int, seed: int = 0) -> str:
    """A random legal game of ``game`` played to its end through a live session."""
    info = find_game(game)
    testing = info.testing
    assert testing is not None
    for attempt in range(20):
        rng = random.Random(seed + attempt)
        live = LiveSession.start(
            store, game, seat_players(EIGHT[:count]), dict(testing.options[0]), clock=ManualClock()
        )
        for _step in range(testing.steps * 5):
            action = testing.random_step(info.rules, live.state, rng)
            if action is None:
                break
            live.act(action)
        if live.finished:
            return live.id
    raise AssertionError(f"{game}: no random game ended")


def rank_cells(screen: Any) -> dict[str, str]:
    table = screen.query_one("#detail-final", DataTable)
    titles = [str(c.label) for c in table.columns.values()]
    rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
    name, rank = titles.index(_("Player")), titles.index(_("Rank"))
    return {row[name]: row[rank] for row in rows}


def test_the_losers_of_a_team_game_share_the_rank_after_the_winners() -> None:
    store = Store.memory()
    outcome_session(
        store,
        "meowfia",
        EIGHT,
        winners=EIGHT[:5],
        sides={n: "meowfia" if i < 5 else "police" for i, n in enumerate(EIGHT)},
    )
    [res] = query_results(store)
    assert {p.name: p.rank for p in res.players} == {
        **dict.fromkeys(EIGHT[:5], 1),
        **dict.fromkeys(EIGHT[5:], 2),
    }


@pytest.mark.parametrize("game", ["meowfia", "shadow-cats"])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_detail_ranks_a_team_game_one_and_two(
    tmp_path: Path, game: str, lang: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        sid = finished_game(app.store, game, 8)
        app.push_screen(SessionDetailScreen(app.store, sid))
        await pilot.pause()
        ranks = rank_cells(app.screen)
        result = app.screen.detail.result
        assert set(ranks.values()) <= {"1", "2"}, ranks
        assert {n for n, r in ranks.items() if r == "1"} == {p.name for p in result.winners}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_shadow_cats_session_names_each_players_character(
    tmp_path: Path, lang: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        sid = finished_game(app.store, "shadow-cats", 5)
        detail = session_detail(app.store, sid)
        state = detail.state
        expected = {p.name: state.character(p.id).display_name(lang) for p in detail.row.players}
        app.push_screen(SessionDetailScreen(app.store, sid))
        await pilot.pause()
        table = app.screen.query_one("#detail-final", DataTable)
        titles = [str(c.label) for c in table.columns.values()]
        assert _("Character") in titles, titles
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        name, character = titles.index(_("Player")), titles.index(_("Character"))
        assert {row[name]: row[character] for row in rows} == expected


async def test_meeple_circus_shows_what_each_act_scored(tmp_path: Path) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        sid = finished_game(app.store, "meeple-circus", 4)
        detail = session_detail(app.store, sid)
        app.push_screen(SessionDetailScreen(app.store, sid))
        await pilot.pause()
        table = app.screen.query_one("#detail-rounds", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        players = detail.row.players
        assert [r[0] for r in rows[:3]] == ["act 1", "act 2", "act 3"], rows
        before = dict.fromkeys((p.id for p in players), 0.0)
        for row, rnd in zip(rows, detail.rounds, strict=False):
            for cell, p in zip(row[1:], players, strict=True):
                gained = rnd.scores.get(p.id, 0.0) - before[p.id]
                # the act's own points, then the total after it
                assert cell.startswith(f"{gained:+g}"), (row, rnd)
                assert cell.endswith(f"{rnd.scores.get(p.id, 0.0):g}"), (row, rnd)
            before = {p.id: rnd.scores.get(p.id, 0.0) for p in players}
