"""History and exports of a Cat Box game: who started, how it ended, who won.

The start player is the ``deal``'s (the host's choice or the preparer's draw), which
the guide answers (``GUIDE.start_player``); history, CSV and BG Stats must show it.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from test_cat_box_export import play_to_the_end

from companion.games import find_game
from companion.games.cat_box.guide import GUIDE
from companion.games.cat_box.rules import Termination
from companion.session.export import bgstats_play, csv_text
from companion.session.results import session_results
from companion.session.store import Store


@pytest.fixture
def finished(tmp_path: Path):
    store = Store.open(tmp_path / "c.db")
    live = play_to_the_end(store, 11, {"start_player": "p3"})
    assert live.outcome is not None
    return store, live


def test_the_guide_knows_who_started_and_how_it_ended(finished) -> None:
    _store, live = finished
    assert GUIDE.start_player(live.state) == "p3"
    # the history's query reads the entry the guide names; it agrees with start_player
    [(kind, field)] = GUIDE.start_player_entries
    deals = [e.payload for e in live.entries if e.payload.get("type") == kind]
    assert deals[-1][field] == GUIDE.start_player(live.state)
    assert find_game("cat-box").termination is Termination
    assert Termination(live.outcome.termination) in set(Termination)


def test_history_has_the_termination_and_the_winners(finished) -> None:
    store, live = finished
    [res] = session_results(store, [live.id])
    assert res.termination == live.outcome.termination
    assert {p.pid for p in res.players if p.winner} == set(live.outcome.winners)
    rows = list(csv.DictReader(io.StringIO(csv_text([res]))))
    assert {r["player"] for r in rows if r["winner"] == "true"} == {
        live.player(pid).name for pid in live.outcome.winners
    }
    assert {r["score"] for r in rows} == {str(s) for s in live.outcome.scores.values()}


def test_history_and_bgstats_name_the_start_player(finished) -> None:
    store, live = finished
    [res] = session_results(store, [live.id])
    assert [p.start_player for p in res.players] == [False, False, True, False]
    play = bgstats_play(res)
    assert [p["startPlayer"] for p in play["players"]] == [False, False, True, False]
