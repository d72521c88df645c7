"""The summary tables kept at commit time (issue 26): what they hold, and the work saved.

* For random finished (and unfinished, abandoned) sessions of every game, played
  through a live session, the summary rows equal what replaying each session's log
  gives (winners, scores, ranks, sides, characters).
* The statistics, head-to-head and plays over time from SQL equal the fold over the
  results (``compute``, ``head_to_head``, ``player_plays``) for random histories.
* Opening History and the statistics replays no session and reads no log entry:
  counted, not timed.
* A database written at schema 3 (before the summary) is filled by the migration and
  shows the same history.
"""

from __future__ import annotations

import json
import random
import sqlite3
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from history_builders import T0, outcome_session, scorepad_session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import GAMES
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.export import replay_session
from companion.session.live import LiveSession
from companion.session.results import (
    HistoryFilter,
    player_names,
    query_results,
    ranks_from_outcome,
)
from companion.session.stats import (
    compute,
    head_to_head,
    head_to_head_of,
    player_plays,
    player_plays_of,
    statistics_of,
)
from companion.session.store import MIGRATIONS, Store

NAMES = ["Ann", "Bo", "小明", "Di", "Ed", "Fa", "Gu", "Hu"]


def seats_of(store: Store, sid: str) -> list[tuple[Any, ...]]:
    return store.conn.execute(
        "SELECT pid, name, side, character, score, rank, winner FROM summary_seats "
        "WHERE session_id = ? ORDER BY seat",
        (sid,),
    ).fetchall()


def play(store: Store, game: str, count: int, seed: int, steps_factor: int = 5) -> LiveSession:
    info = next(g for g in GAMES if g.id == game)
    testing = info.testing
    assert testing is not None
    rng = random.Random(seed)
    live = LiveSession.start(
        store, game, seat_players(NAMES[:count]), dict(testing.options[0]), clock=ManualClock()
    )
    for _ in range(testing.steps * steps_factor):
        action = testing.random_step(info.rules, live.state, rng)
        if action is None:
            break
        live.act(action)
    return live


@pytest.mark.parametrize("info", GAMES, ids=[g.id for g in GAMES])
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_the_summary_equals_what_replaying_each_session_gives(info, seed, data) -> None:
    testing = info.testing
    count = data.draw(st.sampled_from(testing.tables))
    # Most games end within the walk; a short one leaves some unfinished.
    factor = data.draw(st.sampled_from([5, 5, 1]))
    store = Store.memory()
    live = play(store, info.id, count, seed, factor)
    if data.draw(st.booleans()) and not live.finished:
        store.set_status(live.id, "abandoned")
    row = store.session(live.id)
    replayed = replay_session(row, store.entries(live.id))
    outcome = replayed.outcome
    finished = replayed.finished and row.status == "finished"
    ranks = (
        ranks_from_outcome(outcome.to_json(), [p.id for p in row.players])
        if finished and outcome
        else {}
    )
    characters = dict(outcome.characters) if outcome is not None else {}
    sides = dict(outcome.sides) if outcome is not None else {}
    scores = outcome.to_json()["scores"] if outcome is not None and finished else {}
    expected = [
        (
            p.id,
            p.name,
            sides.get(p.id),
            characters[p.id]["id"] if p.id in characters else None,
            json.dumps(scores[p.id]) if p.id in scores else None,
            ranks.get(p.id),
            int(finished and outcome is not None and p.id in outcome.winners),
        )
        for p in row.players
    ]
    assert seats_of(store, live.id) == expected
    (fin,) = store.conn.execute(
        "SELECT finished FROM summaries WHERE session_id = ?", (live.id,)
    ).fetchone()
    assert fin == int(finished)
    if info.id == "shadow-cats" and outcome is not None:  # every character is named
        assert all(seat[3] is not None for seat in expected)


def random_history(rng: random.Random, store: Store, n: int) -> None:
    names = ["Ann", "bo", "小明", "Cy", "Dee"]
    for i in range(n):
        start = T0 + timedelta(hours=rng.randint(0, 2000))
        chosen = rng.sample(names, rng.randint(2, 4))
        # One player, spelled two ways across sessions: the same player.
        chosen = [("Bo" if rng.random() < 0.5 else "bo") if c == "bo" else c for c in chosen]
        kind = rng.random()
        if kind < 0.5:
            rounds = [{nm: rng.randint(0, 9) for nm in chosen} for _r in range(rng.randint(1, 3))]
            end = rng.choice(["end", "end", "end", "open", "abandon"])
            scorepad_session(
                store,
                chosen,
                rounds,
                start=start,
                end=end,
                highest_wins=rng.random() < 0.7,
                session_id=f"pad-{i}",
            )
        else:
            winners = rng.sample(chosen, rng.randint(1, len(chosen)))
            status = rng.choice(["finished", "finished", "active", "abandoned"])
            game = rng.choice(["meowfia", "shadow-cats", "skull"])
            scores = {nm: rng.randint(0, 3) for nm in chosen} if game == "skull" else None
            sides = (
                {nm: rng.choice(["police", "meowfia"]) for nm in chosen}
                if game == "meowfia"
                else None
            )
            outcome_session(
                store,
                game,
                chosen,
                winners=winners,
                scores=scores,
                sides=sides,
                start=start,
                minutes=rng.randint(5, 90),
                status=status,
            )


def same_stats(a: Any, b: Any) -> None:
    assert (a.sessions, a.plays) == (b.sessions, b.plays)
    assert [(p.name, p.plays, p.wins, p.abandoned) for p in a.players] == [
        (p.name, p.plays, p.wins, p.abandoned) for p in b.players
    ]
    for pa, pb in zip(a.players, b.players, strict=True):
        assert [(g.key, g.title, g.plays, g.wins, g.best) for g in pa.games] == [
            (g.key, g.title, g.plays, g.wins, g.best) for g in pb.games
        ]
        for ga, gb in zip(pa.games, pb.games, strict=True):
            assert ga.average == pytest.approx(gb.average)
    assert [(g.key, g.title, g.plays, g.abandoned, g.unfinished, g.sides) for g in a.games] == [
        (g.key, g.title, g.plays, g.abandoned, g.unfinished, g.sides) for g in b.games
    ]
    for ga, gb in zip(a.games, b.games, strict=True):
        assert ga.average_duration_s == pytest.approx(gb.average_duration_s)
        if ga.scores is None or gb.scores is None:
            assert ga.scores is gb.scores
        else:
            assert ga.scores.buckets == gb.scores.buckets
            assert ga.scores.median == gb.scores.median
            assert ga.scores.mean == pytest.approx(gb.scores.mean)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 100_000), n=st.integers(0, 14))
def test_statistics_from_sql_equal_the_fold_over_the_results(seed: int, n: int) -> None:
    rng = random.Random(seed)
    store = Store.memory()
    random_history(rng, store, n)
    filters = [
        HistoryFilter(),
        HistoryFilter(player="bo"),
        HistoryFilter(game="meowfia"),
        HistoryFilter(status="finished"),
        HistoryFilter(since=(T0 + timedelta(days=30)).date()),
    ]
    for flt in filters:
        results = query_results(store, flt)
        same_stats(statistics_of(store, flt), compute(results))
        for a, b in (("Ann", "小明"), ("BO", "cy"), ("Dee", "Ann")):
            assert head_to_head_of(store, a, b, flt) == head_to_head(results, a, b)
        for name in ("Ann", "bo", "小明"):
            for game in (None, "scorepad", "meowfia"):
                assert player_plays_of(store, name, game, flt) == player_plays(results, name, game)


class Counter:
    """Every SQL statement the store's connection runs (``set_trace_callback``)."""

    def __init__(self, store: Store) -> None:
        self.statements: list[str] = []
        store.conn.set_trace_callback(self.statements.append)

    def reading(self, table: str) -> list[str]:
        return [s for s in self.statements if f"FROM {table}" in s or f"JOIN {table}" in s]


async def test_opening_history_and_its_statistics_replays_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import DataTable

    import companion.session.log as log
    from companion.ui.app import make_app
    from companion.ui.history import HistoryScreen
    from companion.ui.history_stats import StatsScreen

    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        random_history(random.Random(3), store, 30)
    replays: list[str] = []
    real_replay = log.replay

    def counting(game, *args, **kwargs):  # type: ignore[no-untyped-def]
        replays.append(game)
        return real_replay(game, *args, **kwargs)

    monkeypatch.setattr(log, "replay", counting)
    import companion.session.detail as detail
    import companion.session.export as export

    monkeypatch.setattr(detail, "replay", counting)
    monkeypatch.setattr(export, "replay", counting)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        replays.clear()
        counter = Counter(app.store)
        app.push_screen(HistoryScreen(app.store))
        await pilot.pause()
        table = app.screen.query_one("#history-table", DataTable)
        assert table.row_count == 30
        assert replays == []
        # The list reads the log for its page only (last entry, start player), never a
        # scan of every session's JSON.
        assert not [s for s in counter.statements if "json_each" in s]
        await pilot.press("s")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, StatsScreen)
        for _ in range(50):
            if screen.ready:
                break
            await pilot.pause(0.05)
        assert screen.ready and replays == []
        assert screen.stats.sessions == 30
    # The statistics are a fixed number of SQL statements, whatever the history's size.
    with Store.open(db) as store:
        counter = Counter(store)
        statistics_of(store)
        assert not counter.reading("entries")
        assert len(counter.statements) <= 12, counter.statements


def test_a_schema_3_database_is_summarised_by_the_migration(tmp_path: Path) -> None:
    """Written by the previous version (schema 3, no summary): it opens and shows the
    same history, statistics included."""
    db = tmp_path / "old.sqlite3"
    with Store.open(db) as store:
        random_history(random.Random(8), store, 12)
        before = [(r.id, r.players, r.status, r.outcome) for r in query_results(store)]
        stats_before = compute(query_results(store))
        names_before = player_names(store)
    # Take the file back to schema 3: what the previous version wrote.
    conn = sqlite3.connect(db)
    conn.executescript(
        "DROP TABLE summary_seats; DROP TABLE summaries; DROP INDEX sessions_by_start; "
        "PRAGMA user_version = 3;"
    )
    conn.close()
    with Store.open(db) as store:
        assert store.schema_version == len(MIGRATIONS)
        after = [(r.id, r.players, r.status, r.outcome) for r in query_results(store)]
        assert after == before
        same_stats(statistics_of(store), stats_before)
        assert player_names(store) == names_before
        n = store.conn.execute("SELECT count(*) FROM summaries").fetchone()[0]
        assert n == len(before)


def test_an_export_of_everything_is_streamed_and_appears_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import companion.session.export as ex

    store = Store.memory()
    ids = [
        scorepad_session(store, ["Ann", "Bo"], [{"Ann": i, "Bo": 1}], start=T0 + timedelta(days=i))
        for i in range(7)
    ]
    monkeypatch.setattr(ex, "CHUNK", 2)
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "all.json"
    seen_on_disk: list[str] = []
    real_check = ex.check_exportable

    def check(s: Store, sids: list[str], counts: object = None) -> None:
        # Before each session is checked, what is already on disk (the temporary file).
        temps = [p for p in folder.iterdir() if p.name.endswith(".tmp")]
        seen_on_disk.append(temps[0].read_text(encoding="utf-8") if temps else "")
        real_check(s, sids, counts)  # type: ignore[arg-type]

    monkeypatch.setattr(ex, "check_exportable", check)
    ex.export_file(store, ids, "json", target, exported_at="2026-01-01T00:00:00+00:00")
    on_disk = list(seen_on_disk)  # before export_text checks them again
    text = target.read_text(encoding="utf-8")
    assert text == ex.export_text(store, ids, "json", exported_at="2026-01-01T00:00:00+00:00")
    assert [sid for sid in ids if sid in text] == ids
    # Written as it goes: when the last session was checked, the first ones were on disk.
    assert ids[0] in on_disk[-1] and ids[-1] not in on_disk[-1]
    assert [p.name for p in folder.iterdir()] == ["all.json"]

    # A session that would not import back, met halfway: no file, no debris.
    target.unlink()

    def refuse_fifth(s: Store, sids: list[str], counts: object = None) -> None:
        if sids[0] == ids[4]:
            raise ex.NotExportable(ex.N_("broken {session}"), session=sids[0], reason="x")
        real_check(s, sids, counts)  # type: ignore[arg-type]

    monkeypatch.setattr(ex, "check_exportable", refuse_fifth)
    with pytest.raises(ex.NotExportable):
        ex.export_file(store, ids, "json", target)
    assert list(folder.iterdir()) == []
    # Leaving damaged sessions out instead: the rest is written, the fifth named.
    ex.export_file(store, ids, "json", target, skip_damaged=True)
    written = target.read_text(encoding="utf-8")
    assert ids[4] not in written and all(sid in written for sid in ids if sid != ids[4])
    assert set(store.damaged) == {ids[4]}
