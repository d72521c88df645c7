"""The board app: follows a writer process on screen, waits, shows results, both languages."""

from __future__ import annotations

from pathlib import Path

from companion.games.scorepad.board import ScorepadView
from companion.i18n import set_language
from companion.ui.board import BoardApp, make_board
from companion.widgets.board_generic import GenericView
from companion.widgets.board_parts import Standings


def screen_text(app: BoardApp) -> str:
    """What the terminal shows, as text."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_board_follows_a_score_pad_written_by_another_process(
    tmp_path: Path, start_writer
) -> None:
    db = tmp_path / "c.db"
    app = make_board(db, poll_interval=0.01)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause(0.05)
        assert "Waiting for a session" in screen_text(app)
        writer = start_writer(db, "scorepad", ["Ann", "Bo", "Cy"], {"target": 30})
        await app.caught_up(0)
        await pilot.pause()
        assert isinstance(app.query_one(ScorepadView), ScorepadView)
        for pid, points in [("p1", 12), ("p2", 7), ("p3", 9)]:
            report = writer.send({"type": "score", "player": pid, "points": points})
            snap = await app.caught_up(report["seq"])
            assert repr(snap.state) == report["state"]
        await pilot.pause()
        rows = {r.name: r for r in app.query_one(Standings).rows}
        assert {n: r.score for n, r in rows.items()} == {"Ann": "12", "Bo": "7", "Cy": "9"}
        assert rows["Ann"].highlight and rows["Ann"].rank == 1
        text = screen_text(app)
        assert "Round 1" in text and "Following live" in text
        writer.send({"type": "close-round"})
        report = writer.send({"type": "score", "player": "p2", "points": 30})
        report = writer.send({"type": "close-round"})
        await app.caught_up(report["seq"])
        await pilot.pause()
        text = screen_text(app)
        assert "Game over" in text and "Bo wins with 37." in text
        assert "Finished — waiting for the next session" in text
        # The next session takes over the board.
        nxt = start_writer(db, "scorepad", ["Dee", "Eve"])
        for _ in range(200):
            await pilot.pause(0.01)
            if app.snapshot and app.snapshot.session and app.snapshot.session.id == nxt.session:
                break
        await pilot.pause()
        text = screen_text(app)
        assert "Dee" in text and "Game over" not in text


async def test_board_in_chinese(tmp_path: Path, start_writer) -> None:
    db = tmp_path / "c.db"
    writer = start_writer(db, "scorepad", ["小明", "小红"])
    report = writer.send({"type": "score", "player": "p1", "points": 5})
    app = make_board(db, lang="zh", poll_interval=0.01)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await app.caught_up(report["seq"])
            await pilot.pause()
            text = screen_text(app)
            assert "计分板" in text and "第 1 轮" in text and "小明" in text
            assert "总分" in text
    finally:
        set_language("en")


async def test_a_game_this_version_does_not_know_gets_the_generic_view(
    tmp_path: Path, start_writer, monkeypatch
) -> None:
    from companion.session.follow import Snapshot
    from companion.ui.board import app as board_app
    from companion.ui.board.app import view_class

    assert view_class(Snapshot(version=1)) is GenericView
    db = tmp_path / "c.db"
    writer = start_writer(db, "scorepad", ["Ann", "Bo"])
    report = writer.send({"type": "score", "player": "p2", "points": 4})
    monkeypatch.setattr(board_app, "view_class", lambda snapshot: GenericView)
    app = make_board(db, poll_interval=0.01)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.caught_up(report["seq"])
        await pilot.pause()
        assert isinstance(app.query_one(GenericView), GenericView)
        text = screen_text(app)
        assert "#1 score · Bo" in text
        rows = {r.name: r.score for r in app.query_one(Standings).rows}
        assert rows == {"Bo": "4", "Ann": "0"}
