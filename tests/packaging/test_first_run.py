"""The first run explains itself: Home says what the app is and where its files are, and
offers a tour of demo sessions that can be thrown away again."""

from __future__ import annotations

from pathlib import Path

from companion.games import GAMES
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.demo import demo_ids, is_demo, start_demos, throw_away_demos
from companion.session.live import LiveSession
from companion.session.store import Store, history_missing
from companion.ui.app import make_app
from companion.ui.home import HomeScreen, SessionList
from companion.widgets.dialogs import ConfirmDialog


def test_a_demo_of_every_game_and_throwing_them_away_keeps_real_sessions(tmp_path: Path) -> None:
    with Store.open(tmp_path / "db.sqlite3") as store:
        mine = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        mine.act({"type": "score", "player": "p1", "points": 2})
        ids = start_demos(store)
        assert [store.session(i).game for i in ids] == [g.id for g in GAMES]
        assert all(is_demo(i) for i in ids) and not is_demo(mine.id)
        for sid in ids:  # real sessions: they resume like any other
            LiveSession.resume(store, sid)
        assert throw_away_demos(store) == len(GAMES)
        assert demo_ids(store) == [] and store.entries(ids[0]) == []
        assert [r.id for r in store.sessions()] == [mine.id]
        assert len(store.entries(mine.id)) == 1
        assert throw_away_demos(store) == 0


async def test_home_welcomes_offers_the_tour_and_throws_the_demos_away(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    for lang, words in (
        ("en", ("Welcome.", "t starts", str(db))),
        ("zh", ("欢迎", "导览", str(db))),
    ):
        app = make_app(db, lang=lang, clock=ManualClock())
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            home = app.screen
            assert isinstance(home, HomeScreen)
            welcome = home.query_one("#welcome")
            assert welcome.display and not home.query_one("#unfinished").display
            text = str(home.query_one("#welcome-text").render())
            for word in words:
                assert word in text, (lang, word)
            assert str(tmp_path / "backups") in text
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        await pilot.press("t")
        for _ in range(100):
            if len(demo_ids(app.store)) == len(GAMES) and not home.query_one("#welcome").display:
                break
            await pilot.pause(0.05)
        assert len(demo_ids(app.store)) == len(GAMES)
        rows = home.query_one("#unfinished", SessionList)
        assert rows.display and rows.option_count == len(GAMES)
        shown = " ".join(str(rows.get_option_at_index(i).prompt) for i in range(len(GAMES)))
        for info in GAMES:  # one demo of every game (their order is the listing's;
            # at 80 columns a long title is cut with …)
            assert info.name_en[:8] in shown, info.id
        assert {row.game for row in app.store.sessions(status="active")} == {
            info.id for info in GAMES
        }
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        for _ in range(100):
            if not demo_ids(app.store) and home.query_one("#welcome").display:
                break
            await pilot.pause(0.05)
        assert demo_ids(app.store) == [] and home.query_one("#welcome").display


async def test_home_shows_the_tables_once_there_is_a_history(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        LiveSession.start(store, "scorepad", seat_players(["Ann"]), {})
        store.set_status(store.sessions()[0].id, "abandoned")
    app = make_app(db, lang="en", clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        home = app.screen
        assert not home.query_one("#welcome").display
        assert home.query_one("#past", SessionList).option_count == 1


def test_the_history_opens_again_after_the_demos_are_thrown_away(tmp_path: Path) -> None:
    """The store's record of the history learns of the delete: with it behind, the next
    start refused the file as 'empty or missing, but the history kept there had N
    sessions' (the demos just thrown away)."""
    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        mine = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        start_demos(store)
        assert throw_away_demos(store) == len(GAMES)
    assert history_missing(db) is None
    with Store.open(db) as store:
        assert [r.id for r in store.sessions()] == [mine.id]
    with Store.open(db, readonly=True) as store:
        assert store.missing is None


def test_the_store_lists_and_deletes_only_the_sessions_whose_id_has_the_prefix(
    tmp_path: Path,
) -> None:
    with Store.open(tmp_path / "db.sqlite3") as store:
        mine = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        mine.act({"type": "score", "player": "p1", "points": 2})
        ids = start_demos(store)
        assert sorted(store.session_ids_with_prefix("demo-")) == sorted(ids)
        assert store.session_ids_with_prefix("%") == []  # a prefix, not a LIKE pattern
        assert store.delete_sessions(ids[:2]) == 2
        assert sorted(store.session_ids_with_prefix("demo-")) == sorted(ids[2:])
        assert store.entries(ids[0]) == [] and len(store.entries(mine.id)) == 1
        assert store.delete_sessions([]) == 0
