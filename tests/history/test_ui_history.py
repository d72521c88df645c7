"""Pilot: filter the history, open a session, export it; abandon and resume from it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from history_builders import T0, outcome_session, scorepad_session
from textual.widgets import DataTable, Input, Label, Static

from companion.session import export as ex
from companion.session.clock import ManualClock
from companion.session.store import Store
from companion.ui.app import make_app
from companion.ui.history import HistoryScreen
from companion.ui.history_detail import SessionDetailScreen
from companion.ui.history_stats import StatsScreen
from companion.widgets.dialogs import ChoiceDialog, ConfirmDialog, PromptDialog
from companion.widgets.game_screen import GameScreen

SIZE = (160, 50)


def build(db: Path, *, unfinished: bool = False) -> dict[str, str]:
    store = Store.open(db)
    ids = {
        "pad1": scorepad_session(
            store, ["Ann", "Bo", "小明"], [{"Ann": 6, "Bo": 5}, {"小明": 12}], undo_last_score=True
        ),
        "pad2": scorepad_session(
            store, ["Ann", "Cy"], [{"Ann": 3, "Cy": 8}], start=T0 + timedelta(days=1)
        ),
        "meow": outcome_session(
            store,
            "meowfia",
            ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"],
            winners=["Cy"],
            sides={"Ann": "police", "Cy": "meowfia"},
            start=T0 + timedelta(days=2),
        ),
    }
    if unfinished:
        ids["open"] = scorepad_session(
            store, ["Dee", "Eve"], [{"Dee": 2}], end="open", start=T0 + timedelta(days=3)
        )
    store.close()
    return ids


async def type_text(pilot, text):
    for ch in text:
        await pilot.press(ch)


def table_rows(screen) -> list[list[str]]:
    table = screen.query_one("#history-table", DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


async def test_filter_open_export(tmp_path):
    db = tmp_path / "h.sqlite3"
    ids = build(db)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert len(table_rows(screen)) == 3
        # Filter by player: only the two sessions with 小明 or Bo... here Bo.
        await pilot.press("p")
        await type_text(pilot, "bo")
        await pilot.pause()
        rows = table_rows(screen)
        assert len(rows) == 2 and all("Bo" in r[2] for r in rows)
        # And by dates: only the first day.
        await pilot.press("tab")
        await type_text(pilot, "2026-03-01")
        await pilot.press("tab")
        await type_text(pilot, "2026-03-01")
        await pilot.pause()
        rows = table_rows(screen)
        assert len(rows) == 1
        assert rows[0][1] == "Score pad" and rows[0][3] == "小明"
        assert rows[0][4] == "Ann 6 · Bo 5 · 小明 12"
        assert "1 session" in str(screen.query_one("#history-count", Label).render())
        # A half-typed date is a hint, not an error.
        await pilot.press("backspace")
        await pilot.pause()
        assert "not a date" in str(screen.query_one("#history-count", Label).render())
        await pilot.press("1", "enter")  # back to a full date; enter goes to the table
        await pilot.pause()
        assert len(table_rows(screen)) == 1
        # Open it.
        await pilot.press("enter")
        await pilot.pause()
        detail = app.screen
        assert isinstance(detail, SessionDetailScreen)
        assert detail.session_id == ids["pad1"]
        heading = str(detail.query_one("#detail-heading", Static).render())
        assert "小明 wins with 12." in heading
        rounds = detail.query_one("#detail-rounds", DataTable)
        assert [str(c) for c in rounds.get_row_at(0)] == ["round 1", "+6 → 6", "+5 → 5", "+0 → 0"]
        assert [str(c) for c in rounds.get_row_at(1)] == ["round 2", "+0 → 6", "+0 → 5", "+12 → 12"]
        timeline = detail.query_one("#detail-timeline", DataTable)
        cells = [str(timeline.get_row_at(i)[2]) for i in range(timeline.row_count)]
        assert any("(undone)" in c for c in cells) and any("Undone: " in c for c in cells)
        await pilot.press("2", "3", "4")  # every tab renders
        await pilot.pause()
        # Export it as JSON through the dialogs.
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("enter")  # JSON is first
        await pilot.pause()
        prompt = app.screen
        assert isinstance(prompt, PromptDialog)
        target = tmp_path / "one.json"
        prompt.query_one(Input).value = str(target)
        await pilot.press("enter")
        await app.settle()
        doc = json.loads(target.read_text("utf-8"))
        assert doc["format"] == "companion-session" and doc["id"] == ids["pad1"]
        row, entries = ex.parse_document(target.read_text("utf-8"))[0]
        assert ex.replay_session(row, entries).outcome_json == doc["outcome"]
        # A path that cannot be written is a message, and nothing else happens.
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("down", "enter")  # CSV
        await pilot.pause()
        app.screen.query_one(Input).value = str(tmp_path / "missing" / "x.csv")
        await pilot.press("enter")
        await app.settle()
        assert isinstance(app.screen, SessionDetailScreen)
        assert not (tmp_path / "missing").exists()
        # Back to the list; export the filtered set as CSV.
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("x")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        app.screen.query_one(Input).value = str(tmp_path / "set.csv")
        await pilot.press("enter")
        await app.settle()
        text = (tmp_path / "set.csv").read_text("utf-8-sig")
        assert text.count(ids["pad1"]) == 3 and ids["pad2"] not in text


async def test_statistics_screen_in_chinese(tmp_path):
    db = tmp_path / "h.sqlite3"
    build(db)
    app = make_app(db, lang="zh", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("s")
        await app.settle()
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        players = stats.query_one("#stats-player-table", DataTable)
        first = [str(c) for c in players.get_row_at(0)]
        assert first[:4] == ["Ann", "3", "0", "0%"]
        sides = stats.query_one("#stats-sides", DataTable)
        assert sides.row_count == 2
        await pilot.press("4")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        header = app.screen.query_one("#history-table", DataTable)
        labels = [str(c.label) for c in header.columns.values()]
        assert "游戏" in labels


async def test_abandon_and_resume_from_history(tmp_path):
    db = tmp_path / "h.sqlite3"
    ids = build(db, unfinished=True)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("escape")  # "continue an unfinished session?" — not now
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert screen.selected().id == ids["open"]  # newest first
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        await app.settle()
        assert app.store.session(ids["open"]).status == "abandoned"
        assert table_rows(screen)[0][6] == "abandoned"  # still in the history, marked
        await pilot.press("a")  # only unfinished sessions can be abandoned
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)
        assert app.screen.session.id == ids["open"]
        assert app.store.session(ids["open"]).status == "active"


async def test_import_from_the_history(tmp_path):
    source = Store.open(tmp_path / "s.sqlite3")
    sid = scorepad_session(source, ["Gus", "Hal"], [{"Gus": 4}])
    good = tmp_path / "good.json"
    good.write_text(ex.export_text(source, [sid], "json"), "utf-8")
    doc = json.loads(good.read_text("utf-8"))
    doc["entries"][0]["payload"]["player"] = "p5"
    doc["id"] = "another-id"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), "utf-8")
    db = tmp_path / "h.sqlite3"
    build(db)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        for path in (bad, good, good):
            await pilot.press("i")
            await pilot.pause()
            assert isinstance(app.screen, PromptDialog)
            app.screen.query_one(Input).value = str(path)
            await pilot.press("enter")
            await app.settle()
        assert app.screen is screen
        ids = [r.id for r in screen.results]
        assert sid in ids and "another-id" not in ids and len(ids) == 4
        assert any("Gus" in r[2] for r in table_rows(screen))
        messages = [n.message for n in app._notifications]
        assert any("was not imported" in m and "p5" in m for m in messages)
        assert any("0 imported, 1 already present" in m for m in messages)


async def test_the_detail_says_where_a_game_stood_in_words(tmp_path):
    """'最终状态' listed the state's fields (``highest_wins: true``, ``target: 10``,
    ``ended: –``); it shows the progress and the guide's next step, in Chinese."""
    db = tmp_path / "h.sqlite3"
    ids = build(db, unfinished=True)
    app = make_app(db, lang="zh", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.push_screen(SessionDetailScreen(app.store, ids["open"]))
        await pilot.pause()
        state = str(app.screen.query_one("#detail-state", Static).render())
        assert "最终状态" in state and "下一步" in state, state
        for internal in ("highest_wins", "target", "ended", "current", "rounds"):
            assert internal not in state, state


async def test_escape_in_a_filter_gives_the_keys_back_to_the_table(tmp_path):
    """Issue 22: escape in a filter field left the history; the field kept the keys, so
    ``c`` and ``d`` were typed into it. Escape now returns to the table (the filter
    stays), where ``c`` clears the filters; a second escape leaves."""
    db = tmp_path / "h.sqlite3"
    build(db)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        await pilot.press("p")
        await type_text(pilot, "bo")
        await pilot.pause()
        assert len(table_rows(screen)) == 2
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen, "escape in a filter left the history"
        assert screen.focused is screen.query_one("#history-table")
        assert len(table_rows(screen)) == 2  # the filter stays
        await pilot.press("c")  # a key of the table's, not a letter of the filter
        await pilot.pause()
        assert screen.query_one("#filter-player").value == ""
        assert len(table_rows(screen)) == 3
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HistoryScreen)


async def test_the_tab_keys_work_after_using_a_select(tmp_path):
    """Issue 22: after the Head-to-head selects, ``4`` (Charts) did nothing (the focused
    select took the digit) until the screen was left."""
    from textual.widgets import Select, TabbedContent

    db = tmp_path / "h.sqlite3"
    build(db)
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("s")
        await app.settle()
        stats = app.screen
        assert isinstance(stats, StatsScreen)
        await pilot.press("3")
        await pilot.pause()
        stats.query_one("#h2h-a", Select).focus()
        await pilot.pause()
        await pilot.press("4")
        await pilot.pause()
        assert stats.query_one("#stats-tabs", TabbedContent).active == "stats-charts"
