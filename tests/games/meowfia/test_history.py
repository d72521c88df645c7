"""喵喵咪呀 in the history and the exports: termination, sides, winners and the start player.

The start player of a 喵喵咪呀 game is **the Sheriff** (the guide's ``start_player``; see
``docs/games/meowfia.md``), not round 1's first questioned player, which the history
used to record because the ``start`` action's ``first`` field looked like one.
"""

from __future__ import annotations

import csv
import io
import random
from datetime import UTC

import pytest
from meowfia_play import play_a_whole_game

from companion.games import find_game
from companion.games.meowfia.rules import Termination
from companion.rules.base import seat_players
from companion.session import export as ex
from companion.session.clock import ManualClock
from companion.session.live import LiveSession
from companion.session.results import session_results
from companion.session.store import Store

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa"]


@pytest.fixture
def finished(tmp_path):
    store = Store.open(tmp_path / "db.sqlite3")
    live = LiveSession.start(
        store, "meowfia", seat_players(NAMES), {}, clock=ManualClock(), rng=random.Random(4)
    )
    play_a_whole_game(live)
    assert live.state.first != live.state.sheriff
    yield store, live
    store.close()


def test_the_guide_names_the_sheriff_and_the_termination_is_the_enum(finished) -> None:
    _store, live = finished
    info = find_game("meowfia")
    assert info.guide is not None and info.guide.start_player(live.state) == "p1"
    assert info.termination is Termination
    assert live.outcome is not None and live.outcome.termination is Termination.INTERCEPTS


def test_history_row_termination_sides_and_winners(finished) -> None:
    store, live = finished
    [res] = session_results(store, [live.id])
    assert res.termination == Termination.INTERCEPTS == "intercepts"
    assert {p.name: p.side for p in res.players} == {
        "Ann": "police",
        "Bo": "meowfia",
        "Cy": "meowfia",
        "Di": "meowfia",
        "Ed": "meowfia",
        "Fa": "police",
    }
    assert [p.name for p in res.winners] == ["Ann", "Fa"]


def test_history_start_player_is_the_sheriff(finished) -> None:
    store, live = finished
    [res] = session_results(store, [live.id])
    assert [p.name for p in res.players if p.start_player] == ["Ann"]


def test_csv_sides_and_winners(finished) -> None:
    store, live = finished
    text = ex.csv_text(session_results(store, [live.id]), tz=UTC)
    rows = list(csv.DictReader(io.StringIO(text[1:], newline="")))
    assert [(r["player"], r["side"], r["winner"]) for r in rows] == [
        ("Ann", "police", "true"),
        ("Bo", "meowfia", "false"),
        ("Cy", "meowfia", "false"),
        ("Di", "meowfia", "false"),
        ("Ed", "meowfia", "false"),
        ("Fa", "police", "true"),
    ]
    assert {r["game_id"] for r in rows} == {"meowfia"}


def test_bgstats_roles_and_no_points(finished) -> None:
    store, live = finished
    play = ex.bgstats_play(session_results(store, [live.id])[0], tz=UTC)
    assert play["game"]["noPoints"] is True
    assert [(p["name"], p["role"], p["winner"]) for p in play["players"]] == [
        ("Ann", "police", True),
        ("Bo", "meowfia", False),
        ("Cy", "meowfia", False),
        ("Di", "meowfia", False),
        ("Ed", "meowfia", False),
        ("Fa", "police", True),
    ]
    assert "Police win" in play["comments"]


def test_bgstats_start_player_is_the_sheriff(finished) -> None:
    store, live = finished
    play = ex.bgstats_play(session_results(store, [live.id])[0], tz=UTC)
    assert [p["name"] for p in play["players"] if p["startPlayer"]] == ["Ann"]
