"""A Police win that still waits for the Undercover is not a finished session.

Issue 21, item 1: the store marked the session finished at the outcome, so Home listed
it finished, resume refused it and every export counted the real Undercover as a
loser. The one rule (``is_finished``: the guide allows nothing more) keeps it active
until ``identify`` is entered; undo brings it back; import and exports agree.
"""

from __future__ import annotations

import csv
import io
import json
import random

import pytest

from companion.games.meowfia.rules import (
    Identify,
    Inspect,
    Reveal,
    SetCounter,
    SmugglingDone,
    Start,
    Vote,
)
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.export import (
    NotFinishedError,
    export_text,
    import_sessions,
    load_sessions,
    session_document,
)
from companion.session.live import LiveSession
from companion.session.results import session_results
from companion.session.store import Store

NAMES = ("甲", "乙", "丙", "丁", "戊")


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as s:
        yield s


def police_win(store: Store) -> LiveSession:
    """The issue's game: Sheriff 甲, contraband, intercepts corrected to 3, 丁 accused
    and a Meowfia member: the Police win, the Undercover not yet entered."""
    live = LiveSession.start(
        store, "meowfia", seat_players(NAMES), {}, clock=ManualClock(), rng=random.Random(1)
    )
    live.act(Start("p1", "p5"))
    live.act(SmugglingDone())
    live.act(Inspect("N", "contraband"))
    live.act(SetCounter("intercepts", 3, "测试"))
    for voter, target in (("p2", "p4"), ("p3", "p4"), ("p4", "p2"), ("p5", "p4")):
        live.act(Vote(voter, target))
    live.act(Reveal("p4", "meowfia"))
    assert live.outcome is not None and live.outcome.termination == "intercepts"
    return live


def test_a_police_win_waiting_for_the_undercover_stays_active(store):
    live = police_win(store)
    assert not live.finished
    row = store.session(live.id)
    assert (row.status, row.ended_at) == ("active", None)
    assert row.outcome is not None  # the provisional result is kept, for the record
    assert [r.id for r in store.sessions(status="active")] == [live.id]


def test_identify_finishes_it_and_undo_reopens_it(store):
    live = police_win(store)
    live.act(Identify("p3"))
    assert live.finished
    row = store.session(live.id)
    assert row.status == "finished" and row.ended_at is not None
    assert "p3" in row.outcome["winners"]
    live.undo()
    row = store.session(live.id)
    assert (row.status, row.ended_at) == ("active", None)
    live.redo()
    assert store.session(live.id).status == "finished"


def test_resume_finds_it_where_it_was(store):
    live = police_win(store)
    again = LiveSession.resume(store, live.id)
    assert not again.finished
    assert again.info.guide.allowed(again.state) == frozenset({"identify"})


def test_exports_say_incomplete_and_bg_stats_waits(store):
    live = police_win(store)
    text = export_text(store, [live.id], "csv")
    rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
    assert {r["status"] for r in rows} == {"incomplete"}
    dee = next(r for r in rows if r["player"] == "丁")
    assert dee["winner"] == ""  # not "false": nobody is a loser yet
    with pytest.raises(NotFinishedError, match="waits for an entry"):
        export_text(store, [live.id], "bgstats")
    (res,) = session_results(store, [live.id])
    assert res.incomplete and not res.finished
    live.act(Identify("p3"))
    play = json.loads(export_text(store, [live.id], "bgstats"))
    winners = {p["name"] for p in play["players"] if p["winner"]}
    assert winners == {"甲", "丙"}


def test_import_recomputes_the_status_with_the_one_rule(store, tmp_path):
    live = police_win(store)
    ((row, entries),) = load_sessions(store, [live.id])
    doc = session_document(row, entries)
    # A file written by an older version: the session recorded as finished.
    doc["status"], doc["ended_at"] = "finished", entries[-1].at
    with Store.open(tmp_path / "other.sqlite3") as other:
        from companion.session.export import parse_document

        import_sessions(other, parse_document(json.dumps(doc)))
        stored = other.session(live.id)
        assert (stored.status, stored.ended_at) == ("active", None)


def test_a_session_an_older_version_stored_as_finished_is_resumable(store):
    """Databases written before the fix hold such sessions as finished: History's
    resume sees (by replay) that an entry is still allowed and reopens it."""
    from companion.ui.history import _still_waiting

    live = police_win(store)
    with store.transaction() as c:  # what the older version wrote
        c.execute(
            "UPDATE sessions SET status = 'finished', ended_at = ? WHERE id = ?",
            (live.entries[-1].at, live.id),
        )
    assert _still_waiting(store, live.id)
    store.mark_unfinished(live.id)
    row = store.session(live.id)
    assert (row.status, row.ended_at) == ("active", None) and row.outcome is not None
    live.act(Identify("p2"))
    assert not _still_waiting(store, live.id)
