"""An import runs with the cycle collector paused, and gives it back (issue 26)."""

from __future__ import annotations

import gc
import json

import pytest

from companion.rules.base import seat_players
from companion.session import export as ex
from companion.session.live import LiveSession
from companion.session.store import Store


@pytest.fixture
def export_path(tmp_path):
    source = Store.open(tmp_path / "source.sqlite3")
    live = LiveSession.start(source, "scorepad", seat_players(["Ann", "Bo"]), {})
    live.act({"type": "score", "player": "p1", "points": 3})
    path = tmp_path / "one.json"
    ex.export_file(source, [live.id], "json", path)
    source.close()
    return path


def test_the_collector_is_paused_while_an_import_reads_and_writes_and_back_after(
    tmp_path, export_path, monkeypatch
):
    seen: list[bool] = []
    replay = ex.replay_session

    def watched(row, entries):
        seen.append(gc.isenabled())
        return replay(row, entries)

    monkeypatch.setattr(ex, "replay_session", watched)
    decode = json.loads
    monkeypatch.setattr(
        ex.json, "loads", lambda *a, **k: (seen.append(gc.isenabled()), decode(*a, **k))[1]
    )
    assert gc.isenabled()
    with Store.open(tmp_path / "target.sqlite3") as target:
        assert len(ex.import_file(target, export_path).added) == 1
    assert seen and not any(seen)  # the parse and the replay, both paused
    assert gc.isenabled()


def test_the_collector_comes_back_after_a_refused_import(tmp_path, monkeypatch):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "companion-sessions", "version": 1, "sessions": 3}')
    with Store.open(tmp_path / "target.sqlite3") as target, pytest.raises(ex.ExportError):
        ex.import_file(target, bad)
    assert gc.isenabled()


def test_a_collector_the_process_had_turned_off_stays_off(tmp_path, export_path):
    gc.disable()
    try:
        with Store.open(tmp_path / "target.sqlite3") as target:
            ex.import_file(target, export_path)
        assert not gc.isenabled()
    finally:
        gc.enable()
