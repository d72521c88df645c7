"""A finished 喵喵咪呀 game exported to JSON replays (``companion replay``) to the same outcome."""

from __future__ import annotations

import json
import random

import pytest
from meowfia_play import play_a_whole_game

from companion.cli import main as cli_main
from companion.games.meowfia.rules import (
    GAME,
)
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.export import export_text, parse_document, replay_session
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store


@pytest.fixture
def finished(tmp_path):
    store = Store.open(tmp_path / "db.sqlite3")
    players = seat_players(["Ann", "Bo", "小明", "Di", "Ed", "Fa"])
    live = LiveSession.start(
        store,
        "meowfia",
        players,
        {"revote_tied_only": False},
        clock=ManualClock(),
        rng=random.Random(4),
    )
    play_a_whole_game(live)
    yield store, live
    store.close()


def test_the_game_ends_with_every_side_known(finished):
    _store, live = finished
    outcome = live.outcome
    assert outcome is not None and outcome.termination == "intercepts"
    assert outcome.winners == ("p1", "p6")
    assert set(outcome.sides) == {p.id for p in live.players}
    state = live.state
    assert len(state.rounds) == 3 and state.intercepts == 3 and state.smuggles == 0
    assert [b.result for b in state.ballots] == ["tie", "accused", "accused", "accused"]
    assert state.ballots[1].weight("p6") == 2


def test_export_replays_to_the_same_outcome(finished, tmp_path, capsys):
    store, live = finished
    text = export_text(store, [live.id], "json")
    [(row, entries)] = parse_document(text)
    replayed = replay_session(row, entries)
    assert replayed.outcome == live.outcome
    assert replayed.matches_record
    state, outcome = replay(GAME, row.players, row.options, entries)
    assert state == live.state and outcome == live.outcome

    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    assert cli_main(["--lang", "en", "replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["termination"] == "intercepts"
    assert printed["sides"]["p6"] == "police"
    assert printed["winners"] == ["p1", "p6"]
