"""Phones in the Meeple Circus screen: switched on by the host, a press in the game and the log."""

from __future__ import annotations

import time

import aiohttp
import pytest
from rich.console import Console

from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer, Prepare, StartPerformance
from companion.games.meeple_circus.tadaa_panel import TadaaPanel
from companion.ui.app import make_app
from companion.widgets.phones import PhonesScreen
from tests.phones.test_phone_protocol import Page


def plain(renderable: object) -> str:
    console = Console(width=150, record=True, file=open("/dev/null", "w"))  # noqa: SIM115
    console.print(renderable)
    return console.export_text()


async def until(pilot, predicate, timeout: float = 20.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        await pilot.pause(0.05)


async def test_the_host_switches_phones_on_and_a_phone_press_counts(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_TADAA", "off")
    monkeypatch.setenv("COMPANION_PHONES_HOST", "127.0.0.1")
    monkeypatch.setenv("COMPANION_PHONES_PORT", "0")
    app = make_app(tmp_path / "ui.sqlite3", lang="en")
    async with app.run_test(size=(160, 50)) as pilot, aiohttp.ClientSession() as http:
        app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
        await app.settle()
        screen = app.screen
        screen.submit(ChooseFirstPlayer("p1"))
        await app.settle()
        for pid in screen.circus.preparation_order():
            screen.submit(Prepare(pid))
            await app.settle()
        panel = screen.query_one(TadaaPanel)
        assert panel.phones is None  # off until the host says so
        await pilot.press("P")
        await until(pilot, lambda: isinstance(app.screen, PhonesScreen), what="the dialog")
        assert "Phones are off" in plain(app.screen.query_one("#phones-head").content)
        await pilot.press("o")
        await until(pilot, lambda: panel.phones is not None, what="the server")
        server = panel.phones
        assert server is not None
        await until(pilot, lambda: "█" in plain(app.screen.query_one("#phones-qr").content))
        assert server.url in plain(app.screen.query_one("#phones-head").content)
        opened = [e.payload for e in screen.session.entries if e.kind == "hw"]
        assert opened[-1] == {
            "kind": "phones-open",
            "url": server.url,
            "urls": server.urls(),
            "token": server.token,
        }
        await pilot.press("escape")

        ws = await http.ws_connect(f"http://127.0.0.1:{server.port}/j/{server.token}/ws")
        page = Page(ws)
        await page.send(t="hello", phone="phone-ui-00001", boot="boot-ui-000001", res_us=100)
        welcome = await page.until("welcome")
        assert [s["name"] for s in welcome["seats"]] == ["Ann", "Bo", "Cy"]
        assert set(welcome) == {"t", "seats", "seat"}  # names and colours, nothing else
        await page.send(t="claim", seat="p2")
        assert (await page.until("seat"))["state"] == "yours"
        await page.synced(server, "phone-ui-00001")

        screen.submit(StartPerformance(time.monotonic_ns(), 60_000_000_000, None))
        await app.settle()
        await page.until("act", state="armed", timeout=10)
        truth = time.monotonic_ns()
        await page.send(
            t="press", id="press-ui-00001", boot="boot-ui-000001", d=page.now(), seat="p2"
        )
        ack = await page.until("ack", id="press-ui-00001")
        assert ack["status"] == "placed"
        await until(pilot, lambda: len(screen.circus.performance.presses) == 1, what="the press")
        press = screen.circus.performance.presses[0].press
        assert press.player == "p2" and press.source == "phone"
        assert abs(press.host_ns - truth) <= press.uncertainty_ns
        raw = [e.payload for e in screen.session.entries if e.kind == "hw"]
        assert raw[-1]["kind"] == "phone-press" and raw[-1]["routed"] == "game"
        act = await page.until("act", timeout=10, state="armed")
        while not act.get("order"):
            act = await page.until("act", timeout=10)
        assert act["order"][0]["seat"] == "p2" and act["pressed"] == ["p2"]
        line = plain(screen.query_one("#tadaa-phones").content)
        assert "Bo" in line and "connected" in line and "0 presses lost" in line
        await ws.close()
    assert not server.running or server._loop is None


def test_a_restarted_host_takes_its_phones_back_from_the_log(tmp_path) -> None:
    from companion.games.meeple_circus.tadaa_panel import phones_memory
    from companion.rules.base import seat_players
    from companion.session.live import LiveSession
    from companion.session.store import Store

    db = tmp_path / "c.db"
    live = LiveSession.start(Store.open(db), "meeple-circus", seat_players(["Ann", "Bo"]), {})
    live.record_hardware({"kind": "phones-open", "url": "u1", "urls": ["u1"], "token": "old"})
    live.record_hardware({"kind": "phones-closed"})
    live.record_hardware({"kind": "phones-open", "url": "u2", "urls": ["u2"], "token": "tok2"})
    live.record_hardware({"kind": "phone-press", "phone": "phone-1", "press_id": "press-1"})
    resumed = LiveSession.resume(Store.open(db), live.id)
    assert phones_memory(resumed.entries) == ("tok2", [("phone-1", "press-1")])
