"""The table board shows the phones' QR code while the host has them on."""

from __future__ import annotations

from pathlib import Path

from companion.games.meeple_circus.board import MeepleCircusView
from companion.hardware.qr import qr_lines
from companion.rules.base import seat_players
from companion.session.follow import Follower
from companion.session.live import LiveSession
from companion.session.store import Store
from companion.ui.board import make_board

URL = "http://192.168.1.20:8766/j/AbCdEfGhIjK"


def test_the_follower_knows_the_join_link_until_the_phones_are_off(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    live = LiveSession.start(Store.open(db), "meeple-circus", seat_players(["Ann", "Bo"]), {})
    follower = Follower(db)
    snap = follower.poll()
    assert snap is not None and snap.phones_url is None
    live.record_hardware({"kind": "phones-open", "url": URL, "urls": [URL]})
    snap = follower.poll()
    assert snap is not None and snap.phones_url == URL
    for k in range(40):  # presses push the opening entry out of the recent ones: still known
        live.record_hardware({"kind": "phone-press", "press_id": f"x{k}"})
    snap = follower.poll()
    assert snap is not None and snap.phones_url == URL
    live.record_hardware({"kind": "phones-closed"})
    snap = follower.poll()
    assert snap is not None and snap.phones_url is None


async def test_the_board_draws_the_code(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    live = LiveSession.start(Store.open(db), "meeple-circus", seat_players(["Ann", "Bo"]), {})
    live.record_hardware({"kind": "phones-open", "url": URL, "urls": [URL]})
    app = make_board(db, poll_interval=0.01)
    async with app.run_test(size=(160, 50)) as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if app.query(MeepleCircusView) and URL in _text(app):
                break
        text = _text(app)
        assert URL in text
        assert qr_lines(URL)[3].strip() in text


def _text(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())
