"""Each game's board view, following a writer process: what the table must see."""

from __future__ import annotations

import random
import re
from pathlib import Path

from companion.games.cat_box.board import CatBoxView
from companion.games.cat_box.prepare import deal_for
from companion.games.meowfia.board import MeowfiaView
from companion.games.shadow_cats.board import ShadowCatsView
from companion.games.shadow_cats.prepare import default_roster, random_setup
from companion.rules.base import action_to_json, seat_players
from companion.ui.board import BoardApp, make_board


def screen_text(app: BoardApp) -> str:
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def test_meowfia_ballot_totals_live(tmp_path: Path, start_writer) -> None:
    db = tmp_path / "c.db"
    writer = start_writer(db, "meowfia", ["Ann", "Bo", "Cy", "Di", "Ed"])
    for action in (
        {"type": "start", "sheriff": "p1", "first": "p2"},
        {"type": "smuggling-done"},
        *({"type": "question", "player": pid} for pid in ("p2", "p3", "p4", "p5")),
        {"type": "inspect", "building": "E", "result": "contraband"},
    ):
        assert writer.send(action)["error"] is None
    app = make_board(db, poll_interval=0.01)
    async with app.run_test(size=(160, 50)) as pilot:
        await app.caught_up(writer.last["seq"])
        await pilot.pause()
        assert isinstance(app.query_one(MeowfiaView), MeowfiaView)
        text = screen_text(app)
        assert "Reckoning 1" in text and "0 of 4 have voted" in text and "1/3" in text
        # The ring goes to the last questioned (Ed): his vote weighs 1.5.
        writer.send({"type": "vote", "voter": "p5", "target": "p3"})
        report = writer.send({"type": "vote", "voter": "p2", "target": "p3"})
        await app.caught_up(report["seq"])
        await pilot.pause()
        text = screen_text(app)
        assert "2 of 4 have voted" in text
        assert "The ring (Ed) counts 1.5" in text
        writer.send({"type": "vote", "voter": "p3", "target": "p4"})
        report = writer.send({"type": "vote", "voter": "p4", "target": "p2"})
        await app.caught_up(report["seq"])
        await pilot.pause()
        assert "Accused: Cy — turn the tile!" in screen_text(app)
        report = writer.send({"type": "reveal", "player": "p3", "tile": "meowfia"})
        await app.caught_up(report["seq"])
        await pilot.pause()
        text = screen_text(app)
        assert "Cy Meowfia" in text and "Bo ?" in text and "Ann Sheriff" in text


async def test_shadow_cats_hp_and_positions(tmp_path: Path, start_writer) -> None:
    db = tmp_path / "c.db"
    players = seat_players(["Ann", "Bo", "Cy", "Di"])
    rng = random.Random(7)
    setup = random_setup(default_roster(), players, rng, first_player="p1")
    writer = start_writer(db, "shadow-cats", [p.name for p in players])
    assert writer.send(action_to_json(setup))["error"] is None
    app = make_board(db, poll_interval=0.01)
    async with app.run_test(size=(160, 50)) as pilot:
        await app.caught_up(writer.last["seq"])
        await pilot.pause()
        view = app.query_one(ShadowCatsView)
        assert "Start positions" in screen_text(app)
        for pid, total in (("p1", 6), ("p2", 6), ("p3", 8), ("p4", 8)):
            report = writer.send({"type": "place", "player": pid, "rolls": [total]})
            assert report["error"] is None, report
        await app.caught_up(report["seq"])
        await pilot.pause()
        text = screen_text(app)
        assert "Round 1" in text and "Ann's turn" in text
        lines = text.splitlines()
        library = next(line for line in lines if "Library" in line)
        assert library  # the location boxes are drawn
        for name in ("Ann", "Bo", "Cy", "Di"):
            # name, character, HP bar with numbers, identity hidden
            assert any(re.search(rf"{name}\s+\S+\s+█+ \d+/\d+\s+\?", line) for line in lines), name
        assert view.shadow.seat("p1").location == "library"
        hp = view.shadow.seat("p2").hp
        report = writer.send(
            {"type": "change-hp", "player": "p2", "amount": -(hp // 2), "reason": "event card"}
        )
        await app.caught_up(report["seq"])
        await pilot.pause()
        assert any(
            re.search(rf"Bo\s+\S+\s+█+░+ {hp - hp // 2}/{hp}\s+\?", line)
            for line in screen_text(app).splitlines()
        )


async def test_cat_box_cards_deck_and_scores(tmp_path: Path, start_writer) -> None:
    db = tmp_path / "c.db"
    players = seat_players(["Ann", "Bo", "Cy"])
    deal = deal_for(players, {}, random.Random(3))
    writer = start_writer(db, "cat-box", [p.name for p in players])
    assert writer.send(action_to_json(deal))["error"] is None
    app = make_board(db, poll_interval=0.01)
    async with app.run_test(size=(160, 50)) as pilot:
        await app.caught_up(writer.last["seq"])
        await pilot.pause()
        view = app.query_one(CatBoxView)
        state = view.box
        text = screen_text(app)
        assert f"Deck: {len(state.deck)} cards" in text
        for shown in state.display:
            assert state.card(shown.card).display_name("en") in text
        # The deck's order is face down: no card still in the deck is named.
        for card_id in state.deck:
            assert state.card(card_id).display_name("en") not in text
        assert "Turn:" in text and "Points" in text


async def test_the_board_names_the_score_pad_game(tmp_path: Path, start_writer) -> None:
    """Issue 21, item 6: the board said "Score pad" for the host's "Carcassonne"."""
    db = tmp_path / "c.db"
    writer = start_writer(db, "scorepad", ["Ann", "Bo"], {"game_name": "Carcassonne"})
    report = writer.send({"type": "score", "player": "p1", "points": 12})
    app = make_board(db, poll_interval=0.01)
    async with app.run_test(size=(100, 30)) as pilot:
        await app.caught_up(report["seq"])
        await pilot.pause()
        assert "Carcassonne  —  Ann · Bo" in screen_text(app)
