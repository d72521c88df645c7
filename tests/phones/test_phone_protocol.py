"""The phones' server without a browser: tokens, origins, seats, frames, limits, acks."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest

from companion.hardware.phones import (
    FRAME_BURST,
    PhonePress,
    PhoneServer,
    Seat,
    page_html,
)

SEATS = [Seat("p1", "Ann", "red"), Seat("p2", "Bo", "blue"), Seat("p3", "Cy", None)]


@pytest.fixture
def server() -> Iterator[PhoneServer]:
    srv = PhoneServer(lambda: SEATS, host="127.0.0.1", port=0).start()
    yield srv
    srv.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


class Page:
    """A scripted page: answers pings with a clock ``offset`` ms from the host's."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, offset_ms: float = 5000.0) -> None:
        self.ws = ws
        self.offset_ms = offset_ms
        self.frames: list[dict[str, Any]] = []

    def now(self) -> float:
        return time.monotonic_ns() / 1e6 + self.offset_ms

    async def send(self, **frame: Any) -> None:
        await self.ws.send_str(json.dumps(frame))

    async def until(self, kind: str, timeout: float = 5.0, **match: Any) -> dict[str, Any]:
        """Answer pings until a frame of ``kind`` (matching ``match``) arrives."""
        deadline = time.monotonic() + timeout
        for kept in list(self.frames):
            if kept["t"] == kind and all(kept.get(k) == v for k, v in match.items()):
                self.frames.remove(kept)
                return kept
        while time.monotonic() < deadline:
            try:
                msg = await self.ws.receive(timeout=max(0.001, deadline - time.monotonic()))
            except TimeoutError:
                break
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"connection ended: {msg.type} {msg.data!r}")
            frame: dict[str, Any] = json.loads(msg.data)
            if frame["t"] == "ping":
                await self.send(t="pong", n=frame["n"], d=self.now())
                continue
            if frame["t"] == kind and all(frame.get(k) == v for k, v in match.items()):
                return frame
            self.frames.append(frame)
        raise AssertionError(f"no {kind} frame")

    async def synced(self, server: PhoneServer, phone: str) -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if any(s.phone == phone and s.state == "connected" for s in server.status()):
                return
            with pytest.raises(AssertionError):
                await self.until("never", timeout=0.05)
        raise AssertionError("never synced")


def ws_url(server: PhoneServer, token: str | None = None) -> str:
    return f"http://127.0.0.1:{server.port}/j/{token or server.token}/ws"


async def join(
    http: aiohttp.ClientSession,
    server: PhoneServer,
    phone: str = "phone-aaaaaaaa",
    boot: str = "boot-00000001",
    seat: str | None = "p1",
    offset_ms: float = 5000.0,
) -> Page:
    ws = await http.ws_connect(ws_url(server), origin=f"http://127.0.0.1:{server.port}")
    page = Page(ws, offset_ms)
    await page.send(t="hello", phone=phone, boot=boot, res_us=100)
    welcome = await page.until("welcome")
    assert [s["name"] for s in welcome["seats"]] == ["Ann", "Bo", "Cy"]
    if seat is not None:
        await page.send(t="claim", seat=seat)
        assert (await page.until("seat"))["state"] == "yours"
    return page


def collect(server: PhoneServer) -> list[PhonePress]:
    got: list[PhonePress] = []
    server.on_press(got.append)
    return got


async def test_the_page_needs_the_token_and_carries_both_languages(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    base = f"http://127.0.0.1:{server.port}/j/"
    async with http.get(base + "wrong-token") as r:
        assert r.status == 403
    async with http.get(base + server.token) as r:
        assert r.status == 200
        html = await r.text()
        assert "connect-src 'self'" in r.headers["Content-Security-Policy"]
    assert "http" not in html.split("<script>")[0].replace("http-equiv", "")  # no external asset
    assert "src=" not in html and "<link" not in html
    assert "TADAA!" in html and "你是哪个座位" in page_html("zh")


async def test_wrong_token_and_foreign_origin_are_refused(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    with pytest.raises(aiohttp.WSServerHandshakeError) as wrong:
        await http.ws_connect(ws_url(server, "not-the-token"))
    assert wrong.value.status == 403
    with pytest.raises(aiohttp.WSServerHandshakeError) as foreign:
        await http.ws_connect(ws_url(server), origin="http://evil.example")
    assert foreign.value.status == 403


async def test_an_address_guessing_tokens_is_refused_for_a_while(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    statuses = []
    for k in range(25):
        async with http.get(f"http://127.0.0.1:{server.port}/j/guess{k:04d}") as r:
            statuses.append(r.status)
    assert statuses[:20] == [403] * 20 and set(statuses[20:]) == {429}
    async with http.get(f"http://127.0.0.1:{server.port}/j/{server.token}") as r:
        assert r.status == 429  # even the right token, until the minute has passed


@pytest.mark.parametrize(
    "frame",
    [
        "not json",
        "[1, 2]",
        json.dumps({"t": "press"}),  # before hello
        json.dumps({"t": "hello", "phone": "x", "boot": "boot-00000001"}),  # id too short
        json.dumps({"t": "hello", "phone": "phone-aaaaaaaa", "boot": "b/../../etc"}),
        json.dumps({"t": "hello", "phone": "p" * 5000, "boot": "boot-00000001"}),  # too long
    ],
)
async def test_bad_first_frames_close_the_connection(
    server: PhoneServer, http: aiohttp.ClientSession, frame: str
) -> None:
    ws = await http.ws_connect(ws_url(server))
    await ws.send_str(frame)
    closed = False
    while not closed:
        msg = await ws.receive(timeout=5)
        closed = msg.type in (
            aiohttp.WSMsgType.CLOSE,
            aiohttp.WSMsgType.CLOSED,
            aiohttp.WSMsgType.CLOSING,
            aiohttp.WSMsgType.ERROR,
        )
    assert server.protocol_errors >= 1 or ws.close_code == 1009
    assert server.phones == {} or all(p.seat is None for p in server.phones.values())


async def test_bad_frames_after_hello_close_and_change_nothing(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    got = collect(server)
    page = await join(http, server)
    await page.send(t="press", id="press-00000001", boot="boot-00000001", d="soon", seat="p1")
    with pytest.raises(AssertionError, match="connection ended"):
        await page.until("ack", timeout=3)
    assert got == [] and server.protocol_errors == 1


async def test_a_press_is_placed_with_an_interval_that_holds_and_acknowledged_once(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    got = collect(server)
    page = await join(http, server, offset_ms=123_456.0)
    await page.synced(server, "phone-aaaaaaaa")
    truth_ns = time.monotonic_ns()
    stamp = truth_ns / 1e6 + page.offset_ms
    for _ in range(3):  # the page resends until acknowledged: one press
        await page.send(t="press", id="press-00000001", boot="boot-00000001", d=stamp, seat="p1")
    ack = await page.until("ack", id="press-00000001")
    assert ack["status"] == "placed"
    again = await page.until("ack", id="press-00000001")
    assert again == ack
    assert len(got) == 1
    press = got[0]
    assert press.seat == "p1" and press.device.startswith("phone:")
    assert abs(press.host_ns - truth_ns) <= press.uncertainty_ns
    assert press.uncertainty_ns < 5_000_000  # loopback: well under the 20 ms of a keyboard
    status = server.status()[0]
    assert status.presses == 1 and status.duplicates >= 1 and status.lost == 0


async def test_phones_with_alike_ids_are_never_one_device(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    """The rules order one device's presses by its clock alone: names must not collide."""
    got = collect(server)
    a = await join(http, server, phone="same-prefix-aaa", boot="same-boot-aaa", seat="p1")
    b = await join(http, server, phone="same-prefix-bbb", boot="same-boot-bbb", seat="p2")
    for page, name in ((a, "same-prefix-aaa"), (b, "same-prefix-bbb")):
        await page.synced(server, name)
    await a.send(t="press", id="press-alike-a1", boot="same-boot-aaa", d=a.now(), seat="p1")
    await a.until("ack", id="press-alike-a1")
    await b.send(t="press", id="press-alike-b1", boot="same-boot-bbb", d=b.now(), seat="p2")
    await b.until("ack", id="press-alike-b1")
    assert len({p.device for p in got}) == 2


async def test_a_press_placed_before_a_host_restart_is_not_counted_twice(
    http: aiohttp.ClientSession,
) -> None:
    server = PhoneServer(
        lambda: SEATS, host="127.0.0.1", port=0, placed=[("phone-aaaaaaaa", "press-before01")]
    ).start()
    try:
        got = collect(server)
        page = await join(http, server)
        await page.synced(server, "phone-aaaaaaaa")
        await page.send(
            t="press", id="press-before01", boot="boot-00000001", d=page.now(), seat="p1"
        )
        assert (await page.until("ack", id="press-before01"))["status"] == "placed"
        await page.send(
            t="press", id="press-after001", boot="boot-00000001", d=page.now(), seat="p1"
        )
        assert (await page.until("ack", id="press-after001"))["status"] == "placed"
        assert [p.press_id for p in got] == ["press-after001"]
    finally:
        server.stop()


async def test_a_phone_presses_only_for_its_own_seat(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    got = collect(server)
    page = await join(http, server, seat="p1")
    await page.synced(server, "phone-aaaaaaaa")
    await page.send(t="press", id="press-00000002", boot="boot-00000001", d=page.now(), seat="p2")
    ack = await page.until("ack", id="press-00000002")
    assert ack["status"] == "lost" and ack["why"] == "seat"
    assert got == [] and server.status()[0].lost == 1


async def test_a_second_phone_for_a_seat_waits_for_the_hosts_yes(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    first = await join(http, server, phone="phone-first001", seat="p1")
    second = await join(http, server, phone="phone-second01", boot="boot-00000002", seat=None)
    await second.send(t="claim", seat="p1")
    assert (await second.until("seat"))["state"] == "pending"
    requests = server.pending_requests()
    assert [(r.phone, r.seat, r.holder) for r in requests] == [
        ("phone-second01", "p1", "phone-first001")
    ]
    server.decide("phone-second01", allow=False)
    assert (await second.until("seat"))["state"] == "refused"
    await second.send(t="claim", seat="p1")
    assert (await second.until("seat"))["state"] == "pending"
    server.decide("phone-second01", allow=True)
    assert (await second.until("seat")) == {
        "t": "seat",
        "seat": "p1",
        "state": "yours",
        "asked": None,
    }
    moved = await first.until("seat")
    assert moved["state"] == "moved" and moved["seat"] is None
    seats = {s.phone: s.seat for s in server.status()}
    assert seats == {"phone-first001": None, "phone-second01": "p1"}


async def test_a_reconnecting_phone_keeps_its_seat_and_its_old_clock(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    got = collect(server)
    page = await join(http, server, offset_ms=1000.0)
    await page.synced(server, "phone-aaaaaaaa")
    truth_ns = time.monotonic_ns()
    stamp = truth_ns / 1e6 + page.offset_ms
    await page.ws.close()
    # A reload: a new clock (boot) with another origin; the press of the old one is resent.
    ws = await http.ws_connect(ws_url(server))
    reloaded = Page(ws, offset_ms=-777.0)
    await reloaded.send(t="hello", phone="phone-aaaaaaaa", boot="boot-00000002", res_us=100)
    welcome = await reloaded.until("welcome")
    assert welcome["seat"] == "p1"
    await reloaded.send(t="press", id="press-0000000a", boot="boot-00000001", d=stamp, seat="p1")
    ack = await reloaded.until("ack", id="press-0000000a")
    assert ack["status"] == "placed"
    assert abs(got[0].host_ns - truth_ns) <= got[0].uncertainty_ns
    # A press from a page load this host never saw cannot be placed: lost, and said so.
    await reloaded.send(t="press", id="press-0000000b", boot="boot-unknown01", d=5.0, seat="p1")
    lost = await reloaded.until("ack", id="press-0000000b")
    assert lost["status"] == "lost" and lost["why"] == "clock"
    assert server.status()[0].lost == 1 and len(got) == 1


async def test_a_press_before_the_first_pongs_waits_for_its_clock(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    got = collect(server)
    ws = await http.ws_connect(ws_url(server))
    page = Page(ws)
    await page.send(t="hello", phone="phone-early001", boot="boot-early001", res_us=100)
    await page.until("welcome")
    await page.send(t="claim", seat="p2")
    await page.until("seat")
    truth_ns = time.monotonic_ns()
    await page.send(t="press", id="press-early001", boot="boot-early001", d=page.now(), seat="p2")
    ack = await page.until("ack", id="press-early001")
    assert ack["status"] == "placed"
    assert abs(got[0].host_ns - truth_ns) <= got[0].uncertainty_ns


async def test_a_flood_of_frames_is_cut_off(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    page = await join(http, server)
    for _ in range(int(FRAME_BURST) + 20):
        await page.send(t="claim", seat="p1")
    with pytest.raises(AssertionError, match="connection ended"):
        await page.until("never", timeout=5)
    assert server.rate_limited == 1


async def test_a_backlog_of_presses_is_slowed_down_not_cut_off(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    """Presses beyond the rate get no answer (the page resends them later); the link stays."""
    got = collect(server)
    page = await join(http, server)
    await page.synced(server, "phone-aaaaaaaa")
    ids = [f"press-backlog{k:03d}" for k in range(30)]
    for press_id in ids:  # a page back from a long Wi-Fi drop, its queue full
        await page.send(t="press", id=press_id, boot="boot-00000001", d=page.now(), seat="p1")
    answered = set()
    deadline = time.monotonic() + 30
    while len(answered) < len(ids) and time.monotonic() < deadline:
        for press_id in ids:
            if press_id not in answered:
                await page.send(
                    t="press", id=press_id, boot="boot-00000001", d=page.now(), seat="p1"
                )
        try:
            while True:
                answered.add((await page.until("ack", timeout=0.3))["id"])
        except AssertionError:
            pass
    assert answered == set(ids) and len(got) == 30
    assert server.rate_limited > 0 and server.protocol_errors == 0


async def test_a_silent_phone_is_shown_as_such(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    page = await join(http, server)
    await page.synced(server, "phone-aaaaaaaa")
    now = [time.monotonic_ns()]
    server.clock = lambda: now[0] + 10_000_000_000  # ten seconds without a frame
    assert server.status()[0].state == "silent"
    server.clock = time.monotonic_ns
    await page.ws.close()
    deadline = time.monotonic() + 5
    while server.status()[0].state != "gone" and time.monotonic() < deadline:
        await asyncio.sleep(0.01)
    assert server.status()[0].state == "gone"


async def test_the_act_reaches_every_phone_and_nothing_else(
    server: PhoneServer, http: aiohttp.ClientSession
) -> None:
    page = await join(http, server)
    await page.until("act", state="waiting")
    act = {"state": "armed", "act": 2, "attempt": 0, "pressed": [], "order": []}
    server.set_act(act)
    assert await page.until("act", state="armed") == {"t": "act", **act}
