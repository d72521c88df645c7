"""JSON export/import/replay, CSV and BG Stats exports, atomic files."""

from __future__ import annotations

import csv
import io
import json
import os
import urllib.parse
from datetime import UTC, timedelta
from pathlib import Path
from typing import Any

import pytest
from history_builders import T0, scorepad_session

from companion.cli import main
from companion.rules.base import seat_players
from companion.session import export as ex
from companion.session.live import LiveSession
from companion.session.results import query_results, session_results
from companion.session.store import Store


def dump(store: Store) -> tuple[list[Any], list[Any]]:
    """Everything a history is made of, in a comparable form."""
    sessions = store.conn.execute("SELECT * FROM sessions ORDER BY id").fetchall()
    entries = store.conn.execute("SELECT * FROM entries ORDER BY session_id, seq").fetchall()
    return sessions, entries


@pytest.fixture
def history(tmp_path: Path) -> Store:
    store = Store.open(tmp_path / "source.db")
    scorepad_session(
        store,
        ["Ann", "Bo, the 2nd", '小明 "Ming"'],
        [{"Ann": 6, "Bo, the 2nd": 5}, {'小明 "Ming"': 12}],
        undo_last_score=True,
    )
    scorepad_session(
        store,
        ["Ann", "Bo"],
        [{"Ann": 3, "Bo": 8}],
        highest_wins=False,
        start=T0 + timedelta(days=1),
        minutes=95,
    )
    scorepad_session(
        store, ["Ann", "Cy"], [{"Ann": 1}], end="abandon", start=T0 + timedelta(days=2)
    )
    live = LiveSession.start(store, "scorepad", seat_players(["Dee", "Eve"]), {})
    live.act({"type": "score", "player": "p1", "points": 4})
    live.record_hardware({"device": "box-1", "button": 2, "device_us": 1234}, 99)
    live.undo()
    live.redo()
    return store


def test_json_export_import_gives_identical_history(history: Store, tmp_path: Path) -> None:
    ids = [r.id for r in query_results(history)]
    path = tmp_path / "all.json"
    ex.write_atomic(path, ex.export_text(history, ids, "json", exported_at="now"))
    doc = json.loads(path.read_text("utf-8"))
    assert doc["format"] == "companion-sessions" and len(doc["sessions"]) == 4
    assert all(s["format"] == "companion-session" for s in doc["sessions"])
    target = Store.open(tmp_path / "empty.db")
    report = ex.import_file(target, path)
    assert sorted(report.added) == sorted(ids) and report.skipped == []
    assert dump(target) == dump(history)


def test_single_session_document(history: Store) -> None:
    sid = query_results(history)[-1].id  # the oldest: finished, with an undo
    doc = json.loads(ex.export_text(history, [sid], "json"))
    assert doc["format"] == "companion-session" and doc["version"] == 1
    assert doc["id"] == sid and doc["game"] == "scorepad"
    assert doc["options"] == {"highest_wins": True, "target": 0}
    assert [p["name"] for p in doc["players"]] == ["Ann", "Bo, the 2nd", '小明 "Ming"']
    assert [e["kind"] for e in doc["entries"]].count("undo") == 1
    first = doc["entries"][0]
    assert set(first) == {"seq", "kind", "payload", "at", "mono_ns"}
    assert doc["outcome"]["winners"] == ["p3"] and doc["status"] == "finished"
    assert doc["started_at"] and doc["ended_at"]


def test_duplicate_import_is_a_no_op(history: Store, tmp_path: Path) -> None:
    path = tmp_path / "all.json"
    path.write_text(ex.export_text(history, [r.id for r in query_results(history)], "json"))
    target = Store.open(tmp_path / "t.db")
    ex.import_file(target, path)
    before = dump(target)
    again = ex.import_file(target, path)
    assert again.added == [] and len(again.skipped) == 4
    assert dump(target) == before
    # Importing into the source itself is also a no-op.
    assert ex.import_file(history, path).added == []


def test_corrupt_import_leaves_the_database_untouched(history: Store, tmp_path: Path) -> None:
    ids = [r.id for r in query_results(history)]
    doc = json.loads(ex.export_text(history, ids, "json"))
    # The 3rd session's 2nd entry now scores a player who does not exist.
    broken = doc["sessions"][2]
    broken["entries"][1]["payload"] = {"type": "score", "player": "p9", "points": 1}
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    target = Store.open(tmp_path / "t.db")
    scorepad_session(target, ["Zed"], [{"Zed": 1}])  # something already there
    before = dump(target)
    with pytest.raises(ex.ImportRefused) as info:
        ex.import_file(target, path)
    err = info.value
    assert err.session_id == broken["id"] and err.index == 1
    assert "p9" in str(err) and "entry 1" in str(err)
    assert dump(target) == before  # the two good sessions before it were not written


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("not json at all", "not valid JSON"),
        ("[1, 2]", "not a companion export"),
        ('{"format": "something-else", "version": 1}', '"something-else"'),
        ('{"format": "companion-session", "version": 99}', "newer companion"),
        ('{"format": "companion-sessions", "version": 1, "sessions": {}}', '"sessions" must be'),
    ],
)
def test_not_this_format(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "x.json"
    path.write_text(text)
    store = Store.open(tmp_path / "t.db")
    before = dump(store)
    with pytest.raises(ex.ExportError) as info:
        ex.import_file(store, path)
    assert needle in str(info.value)
    assert dump(store) == before


def test_bad_fields_are_named(history: Store) -> None:
    sid = query_results(history)[-1].id
    doc = json.loads(ex.export_text(history, [sid], "json"))
    doc["entries"][3]["seq"] = "four"
    with pytest.raises(ex.ExportError, match=r"entries\[3\]\.seq: expected a whole number"):
        ex.parse_document(json.dumps(doc))
    doc["entries"][3]["seq"] = 1
    with pytest.raises(ex.ExportError, match="does not follow"):
        ex.parse_document(json.dumps(doc))
    del doc["players"]
    with pytest.raises(ex.ExportError, match="players is missing"):
        ex.parse_document(json.dumps(doc))


def test_replay_round_trip(
    history: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for res in query_results(history):
        row = history.session(res.id)
        replayed = ex.replay_session(row, history.entries(res.id))
        assert replayed.outcome_json == row.outcome
        path = tmp_path / f"{res.id}.json"
        path.write_text(ex.export_text(history, [res.id], "json"))
        assert main(["replay", str(path)]) == 0
        assert json.loads(capsys.readouterr().out) == row.outcome


def test_replay_reports_the_broken_entry(
    history: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = query_results(history)[-1].id
    doc = json.loads(ex.export_text(history, [sid], "json"))
    doc["entries"].insert(
        2,
        {
            "seq": 3,
            "kind": "action",
            "payload": {"type": "close-round"},
            "at": "2026-03-01T19:00:00.000Z",
            "mono_ns": 1,
        },
    )
    for i, e in enumerate(doc["entries"][3:], start=4):
        e["seq"] = i + 100  # keep seqs increasing
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc))
    # The inserted entry closes round 1 (legal: it has two scores); the original
    # close-round right after it now closes an empty round, which the rules refuse.
    code = main(["replay", str(path)])
    err = capsys.readouterr().err
    assert code == 3
    assert "entry 3" in err and "has no scores yet" in err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_replay_notes_an_outcome_that_changed(
    history: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = query_results(history)[-1].id
    doc = json.loads(ex.export_text(history, [sid], "json"))
    doc["outcome"]["winners"] = ["p1"]
    path = tmp_path / "changed.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path)]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["winners"] == ["p3"]
    assert "different outcome" in captured.err


def test_csv_rows_bom_and_quoting(history: Store) -> None:
    results = query_results(history)
    text = ex.csv_text(results, tz=UTC)
    assert text.startswith("\ufeff")
    raw = text.encode("utf-8")
    # A BOM-aware reader (utf-8-sig) sees clean headers; csv parses RFC 4180 quoting.
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
    assert list(rows[0]) == list(ex.CSV_COLUMNS)
    assert len(rows) == sum(len(r.players) for r in results) == 9
    assert "\r\n" in text and '"小明 ""Ming"""' in text and '"Bo, the 2nd"' in text
    oldest = [r for r in rows if r["date"] == "2026-03-01 19:00:00"]
    assert [(r["player"], r["seat"], r["score"], r["rank"], r["winner"]) for r in oldest] == [
        ("Ann", "1", "6", "2", "false"),
        ("Bo, the 2nd", "2", "5", "3", "false"),
        ('小明 "Ming"', "3", "12", "1", "true"),
    ]
    assert {r["game"] for r in rows} == {"Score pad"} and {r["game_id"] for r in rows} == {
        "scorepad"
    }
    abandoned = [r for r in rows if r["status"] == "abandoned"]
    assert len(abandoned) == 2 and all(r["score"] == r["winner"] == "" for r in abandoned)
    zh = list(csv.reader(io.StringIO(ex.csv_text(results, lang="zh", tz=UTC)[1:])))
    assert zh[1][2] == "计分板"


def test_bgstats_payload(history: Store) -> None:
    finished = [r for r in query_results(history) if r.finished]
    lowest = next(r for r in finished if not r.highest_wins)
    play = ex.bgstats_play(lowest, tz=UTC)
    assert set(play) == {
        "sourceName",
        "sourcePlayId",
        "playDate",
        "durationMin",
        "game",
        "players",
        "comments",
    }
    assert play["sourceName"] == "Tabletop Companion" and play["sourcePlayId"] == lowest.id
    assert play["playDate"] == "2026-03-02 19:00:00"
    assert play["durationMin"] == 95 and isinstance(play["durationMin"], int)
    assert play["game"] == {
        "name": "Score pad",
        "highestWins": False,
        "noPoints": False,
        "sourceGameId": "scorepad",
    }  # no bggId for a score pad
    assert play["players"] == [
        {
            "name": "Ann",
            "score": 3,
            "rank": 1,
            "role": "",
            "winner": True,
            "startPlayer": False,
            "sourcePlayerId": "ann",
        },
        {
            "name": "Bo",
            "score": 8,
            "rank": 2,
            "role": "",
            "winner": False,
            "startPlayer": False,
            "sourcePlayerId": "bo",
        },
    ]
    for p in play["players"]:
        assert isinstance(p["score"], int | float) and isinstance(p["rank"], int)
        assert isinstance(p["winner"], bool) and isinstance(p["startPlayer"], bool)
    link = ex.bgstats_link(play)
    assert link.startswith("bgstats://app.bgstatsapp.com/createPlay.html?data=")
    data = urllib.parse.parse_qs(urllib.parse.urlsplit(link).query)["data"][0]
    assert json.loads(data) == play
    assert ex.bgstats_link(play, app=False).startswith("https://app.bgstatsapp.com/")
    unfinished = next(r for r in query_results(history) if not r.finished)
    with pytest.raises(ex.NotFinishedError):
        ex.bgstats_play(unfinished)


def test_bgstats_game_without_points_and_known_bgg_id() -> None:
    store = Store.memory()
    from history_builders import outcome_session

    sid = outcome_session(
        store,
        "meowfia",
        ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"],
        winners=["Ann"],
        sides={"Ann": "police", "Bo": "meowfia"},
    )
    play = ex.bgstats_play(session_results(store, [sid])[0], tz=UTC)
    assert play["game"]["noPoints"] is True and "bggId" not in play["game"]
    assert all("score" not in p for p in play["players"])
    assert play["players"][0]["role"] == "police" and play["players"][0]["rank"] == 1
    assert play["players"][1]["rank"] == 2
    mc = outcome_session(
        store, "meeple-circus", ["Ann", "Bo"], winners=["Bo"], scores={"Ann": 20, "Bo": 31}
    )
    play = ex.bgstats_play(session_results(store, [mc])[0])
    assert play["game"]["bggId"] == 193214 and play["game"]["name"] == "Meeple Circus"


def test_atomic_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "out.csv"
    ex.write_atomic(path, "old")
    assert path.read_text() == "old"

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(ex.ExportError, match="No space left"):
        ex.write_atomic(path, "new")
    monkeypatch.undo()
    assert path.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]  # no temp file left
    with pytest.raises(ex.ExportError, match="does not exist"):
        ex.write_atomic(tmp_path / "nowhere" / "x.json", "{}")
    with pytest.raises(ex.ExportError, match="is a folder"):
        ex.write_atomic(tmp_path, "{}")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_unwritable_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(ex.ExportError, match="Cannot write"):
            ex.write_atomic(folder / "x.json", "{}")
    finally:
        folder.chmod(0o700)


def test_export_command(history: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(history.path)
    history.close()
    out = tmp_path / "ann.csv"
    assert (
        main(["--db", db, "export", "--player", "ANN", "--format", "csv", "--out", str(out)]) == 0
    )
    rows = list(csv.DictReader(io.StringIO(out.read_text("utf-8-sig"), newline="")))
    assert len({r["session_id"] for r in rows}) == 3
    assert "Exported 3 sessions" in capsys.readouterr().err
    assert (
        main(
            [
                "--db",
                db,
                "export",
                "--since",
                "2026-03-02",
                "--until",
                "2026-03-02",
                "--format",
                "bgstats",
            ]
        )
        == 0
    )
    play = json.loads(capsys.readouterr().out)
    assert play[0]["durationMin"] == 95  # a filtered set is always a list
    with pytest.raises(SystemExit) as info:
        main(["--db", db, "export", "--format", "json"])
    assert info.value.code == 2
    assert "Say which sessions" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--db", db, "export", "--all", "--out", str(tmp_path / "no" / "x.json")])
    assert "does not exist" in capsys.readouterr().err
    target = tmp_path / "copy.db"
    everything = tmp_path / "all.json"
    assert main(["--db", db, "export", "--all", "--out", str(everything)]) == 0
    assert main(["--db", str(target), "import", str(everything)]) == 0
    assert "4 imported, 0 already present" in capsys.readouterr().out
    assert main(["--db", str(target), "import", str(everything)]) == 0
    assert "0 imported, 4 already present" in capsys.readouterr().out
    assert dump(Store.open(target)) == dump(Store.open(db))


@pytest.mark.parametrize("bulk", [1, 10_000])
def test_fast_many_session_text_equals_the_document(
    history: Store, bulk: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ex, "CHUNK", bulk)  # a session at a time, or all in one read
    ids = [r.id for r in query_results(history)]
    fast = json.loads(ex.sessions_json_text(history, ids, exported_at="x"))
    slow = json.loads(
        ex.dumps_document(ex.sessions_document(ex.load_sessions(history, ids), exported_at="x"))
    )
    assert fast == slow
    assert ex.parse_document(ex.sessions_json_text(history, [ids[0][:8]]))[0][0].id == ids[0]
    assert json.loads(ex.sessions_json_text(history, []))["sessions"] == []
