"""The score pad's game name in every export, in the statistics and on the board
(issue 21, item 6). Before, History said "Carcassonne" but the CSV ``game`` column,
BG Stats ``game.name`` and the statistics said "Score pad", and every score-pad game
was averaged together."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

from companion.games.scorepad.rules import CloseRound, EndGame, Score
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.export import export_text, import_file, parse_document
from companion.session.live import LiveSession
from companion.session.results import query_results
from companion.session.stats import compute
from companion.session.store import Store


def _game(store: Store, name: str | None, points: tuple[int, int]) -> str:
    options = {"game_name": name} if name else {}
    live = LiveSession.start(
        store,
        "scorepad",
        seat_players(["Ann", "Bo"]),
        options,
        clock=ManualClock(),
        rng=random.Random(1),
    )
    live.act(Score("p1", points[0]))
    live.act(Score("p2", points[1]))
    live.act(CloseRound())
    live.act(EndGame())
    return live.id


def _history(tmp_path: Path) -> tuple[Store, dict[str, str]]:
    store = Store.open(tmp_path / "db.sqlite3")
    ids = {
        "carc1": _game(store, "Carcassonne", (80, 60)),
        "carc2": _game(store, "carcassonne", (100, 70)),  # the same game, typed otherwise
        "azul": _game(store, "Azul", (20, 30)),
        "plain": _game(store, None, (5, 4)),
    }
    return store, ids


def test_csv_and_bg_stats_name_the_game(tmp_path) -> None:
    store, ids = _history(tmp_path)
    with store:
        text = export_text(store, [ids["carc1"], ids["plain"]], "csv", lang="zh")
        rows = list(csv.DictReader(io.StringIO(text.lstrip("\ufeff"))))
        assert {r["game"] for r in rows if r["session_id"] == ids["carc1"]} == {"Carcassonne"}
        assert {r["game"] for r in rows if r["session_id"] == ids["plain"]} == {"计分板"}
        assert {r["game_id"] for r in rows} == {"scorepad"}
        play = json.loads(export_text(store, [ids["azul"]], "bgstats"))
        assert play["game"]["name"] == "Azul"
        assert play["game"]["sourceGameId"] == "scorepad:azul"  # never one game for all
        plain = json.loads(export_text(store, [ids["plain"]], "bgstats"))
        assert plain["game"]["name"] == "Score pad"
        assert plain["game"]["sourceGameId"] == "scorepad"


def test_json_carries_the_name_and_old_files_without_it_import(tmp_path) -> None:
    store, ids = _history(tmp_path)
    with store:
        doc = json.loads(export_text(store, [ids["carc1"]], "json"))
        assert doc["title"] == "Carcassonne"
        many = json.loads(export_text(store, list(ids.values()), "json"))
        assert [s["title"] for s in many["sessions"]].count("Azul") == 1
        # A file written before the field existed: no "title"; it imports, and the
        # name still comes back (from the options it always held).
        del doc["title"]
        old = tmp_path / "old.json"
        old.write_text(json.dumps(doc), encoding="utf-8")
        assert parse_document(old.read_text(encoding="utf-8"))
    with Store.open(tmp_path / "other.sqlite3") as other:
        report = import_file(other, old)
        assert report.added == [ids["carc1"]]
        (res,) = query_results(other)
        assert res.title == "Carcassonne"


def test_statistics_keep_each_named_game_apart(tmp_path) -> None:
    store, _ids = _history(tmp_path)
    with store:
        stats = compute(query_results(store))
    by_key = {g.key: g for g in stats.games}
    assert set(by_key) == {"scorepad", "scorepad:carcassonne", "scorepad:azul"}
    carc = by_key["scorepad:carcassonne"]
    assert carc.plays == 2 and carc.title.casefold() == "carcassonne"  # one game
    assert carc.scores is not None and carc.scores.mean == (80 + 60 + 100 + 70) / 4
    assert stats.game("scorepad:azul").scores.mean == 25
    ann = stats.player("Ann")
    assert ann.game("scorepad:carcassonne").plays == 2
    assert ann.game("scorepad:azul").wins == 0
