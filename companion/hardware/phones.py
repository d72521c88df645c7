"""Every phone at the table as a Tadaa button: a LAN web page, its clock synced to the host's.

Design decisions:

* **A press source like the others.** Each phone page is a device with its own
  clock (``performance.now()``, microseconds): the host pings it over the
  WebSocket, the page answers with its clock, and the host fits the same
  ``ClockSync`` as a button box's (rigorous bounds, outliers, drift, restarts).
  A press is stamped by the page at ``pointerdown`` (the event's own
  ``timeStamp``, on the same clock) and mapped to host-monotonic time with the
  interval the fit guarantees, plus the page clock's resolution. The press then
  goes to the listeners exactly like a box's: ordered, tied and "too close to
  call" by the same rules (``companion.games.meeple_circus.rules.timing``).
* **One clock per page load.** A reload starts a new ``performance.now()``
  timeline, so each load has a ``boot`` id and its own fit; the host keeps every
  boot of the session, so a press queued before a reload is still placed by the
  clock it was stamped with. When a fit restarts (the phone slept and its clock
  paused), the previous model is kept for presses stamped before the jump.
* **Never lost.** The page keeps each press in ``localStorage`` under a random id
  and resends it on every (re)connection until the host acknowledges it; the host
  answers a resent id with the first answer (idempotent). A press that cannot be
  placed (its clock is unknown to this host, e.g. after the host app restarted) is
  acknowledged as *lost*, counted on the host screen and shown on the phone.
* **Security.** The server runs only while the host has switched phones on in a
  session, and listens where the host said (the LAN, or 127.0.0.1 in tests). Every
  URL carries the session's random join token (compared in constant time); bad
  tokens are counted per address and an address that keeps guessing is refused for
  a minute. WebSockets must come from the page's own origin. A seat is held by one
  phone; another phone asking for it waits for the host's yes. A phone presses
  only for its own seat (the host decides the seat, not the frame). Frames are
  small JSON objects, rate-limited per connection; anything else closes it. The
  page gets the seats' names and colours and the Tadaa state of the act: nothing
  else exists on this server, so no hidden information can reach a phone.
* **The host app restarts.** The join token and the presses already placed are
  read back from the session log (``placed``, the panel's ``phones_memory``), so
  the pages reconnect by themselves to the resumed session (same token, same port
  when it is free), a resent press already placed is acknowledged again and not
  counted twice, and a press stamped before the restart by a page that did not
  reload is placed by the new fit of that same clock (extrapolated back: its
  interval says so). Only a press from a page load the new host never saw is lost.
* **Threads.** The server runs its own asyncio loop in a thread (the UI thread
  never waits for a phone). Press listeners run in a worker thread (they write the
  session log, whose fsync must not delay a pong's time stamp), and the
  acknowledgement is sent only after they returned: acknowledged = saved.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from companion.hardware.clocksync import ClockEstimate, ClockSync, SyncSample
from companion.hardware.lan import lan_addresses
from companion.hardware.phone_strings import page_strings

PAGE = Path(__file__).parent / "phone_page" / "index.html"
DEFAULT_PORT = 8766
PING_IDLE_S = 1.0
PING_PERFORMING_S = 0.03
PHONE_PRIOR_PPM = 200.0
"""The largest rate difference assumed between a phone's clock and the host's before
the samples measure it: both are quartz clocks (typically ±20–50 ppm each, and
usually NTP-disciplined); a phone beyond it contradicts the fit, which counts
outliers and restarts, as a box's does."""
PING_BURST = 10
"""Pings in quick succession when a page connects, so its first press is placed."""
PING_BURST_S = 0.03
SILENT_NS = 3_000_000_000
"""A connected phone that said nothing for this long is shown as silent."""
MAX_FRAME = 2048
FRAMES_PER_S = 80.0
FRAME_BURST = 160.0
PRESSES_PER_S = 4.0
PRESS_BURST = 12.0
MAX_DEFERRED = 32
DEFER_LIMIT_NS = 10_000_000_000
"""A press waiting for its clock's first samples longer than this is lost."""
MAX_CONNECTIONS = 48
MAX_PER_ADDRESS = 12
BAD_TOKENS_ALLOWED = 20
BAD_TOKEN_BAN_S = 60.0
DEFAULT_RESOLUTION_US = 100
"""Chromium's ``performance.now()`` step for pages without cross-origin isolation."""
ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,48}$")
PHONE = "phone"


def new_token() -> str:
    """The session's join token: 64 random bits, short enough to type."""
    return secrets.token_urlsafe(8)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Seat:
    id: str
    name: str
    colour: str | None = None


@dataclass(frozen=True)
class PhonePress:
    """One press from a phone as the host placed it (everything the log keeps)."""

    phone: str
    seat: str
    press_id: str
    boot: str
    device_us: int
    host_ns: int
    """The page's stamp mapped to host-monotonic time."""
    uncertainty_ns: int
    arrival_ns: int
    """Host-monotonic time at which the first copy arrived."""
    resolution_us: int

    @property
    def device(self) -> str:
        """The device name presses carry: ``phone:<id>:<boot>`` (one clock per page load).

        Whole ids: the rules order two presses of one device by its clock alone, so
        two phones must never share a name (a prefix could be chosen to match).
        """
        return f"phone:{self.phone}:{self.boot}"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "phone-press",
            "phone": self.phone,
            "seat": self.seat,
            "press_id": self.press_id,
            "boot": self.boot,
            "device_us": self.device_us,
            "host_ns": self.host_ns,
            "uncertainty_ns": self.uncertainty_ns,
            "arrival_ns": self.arrival_ns,
            "resolution_us": self.resolution_us,
        }


@dataclass(frozen=True)
class PhoneStatus:
    """A snapshot for the host screen."""

    phone: str
    seat: str | None
    state: str
    """``connected`` | ``syncing`` (no clock model yet) | ``silent`` (connected, no
    frame for 3 s) | ``gone`` (no connection)."""
    uncertainty_ns: int | None
    rtt_ns: int | None
    drift_ppm: float | None
    samples: int
    presses: int
    duplicates: int
    lost: int
    boots: int
    outliers: int
    quiet_s: float


@dataclass(frozen=True)
class SeatRequest:
    phone: str
    seat: str
    holder: str


@dataclass
class Boot:
    """One page load: its clock, and the models it had before its clock jumped."""

    id: str
    resolution_us: int
    clock: ClockSync = field(default_factory=lambda: ClockSync(prior_ppm=PHONE_PRIOR_PPM))
    epochs: list[tuple[int, ClockEstimate]] = field(default_factory=list)
    """``(first device µs it covered, model)`` of earlier fits, oldest first."""
    start_us: int = -(2**62)
    """The first device µs the current fit covers."""

    def add(self, sample: SyncSample) -> None:
        before = self.clock.restarts
        old = self.clock.estimate
        self.clock.add(sample)
        if self.clock.restarts != before and old is not None:
            # The page's clock jumped (the phone slept): presses stamped before
            # the jump keep the model of their time.
            self.epochs = [*self.epochs[-15:], (self.start_us, old)]
            self.start_us = self.clock.samples[0].device_us

    def estimate_for(self, device_us: int) -> ClockEstimate | None:
        """The model for a stamp: the fit that covered its device time."""
        if device_us >= self.start_us or not self.epochs:
            return self.clock.estimate
        for start, est in reversed(self.epochs):
            if device_us >= start:
                return est
        return self.epochs[0][1]


class Bucket:
    """A token bucket: ``rate`` per second, at most ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], int]) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.level = burst
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.at) / 1e9 * self.rate)
        self.at = now
        if self.level < 1.0:
            return False
        self.level -= 1.0
        return True


@dataclass
class Phone:
    id: str
    seat: str | None = None
    boots: dict[str, Boot] = field(default_factory=dict)
    boot: str | None = None
    ws: web.WebSocketResponse | None = None
    last_seen_ns: int = 0
    presses: int = 0
    duplicates: int = 0
    lost: int = 0
    answers: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Press id -> the acknowledgement sent (resends get the same)."""
    deferred: dict[str, tuple[dict[str, Any], int]] = field(default_factory=dict)
    pings: dict[int, int] = field(default_factory=dict)
    next_ping: int = 0


class ProtocolError(ValueError):
    """A frame that breaks the protocol: the connection is closed."""


# --------------------------------------------------------------------------- server


class PhoneServer:
    """The phones' web server for one session (see the module docstring)."""

    def __init__(
        self,
        seats: Callable[[], Sequence[Seat]],
        *,
        host: str = "0.0.0.0",
        port: int = DEFAULT_PORT,
        token: str | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        lang: str = "en",
        placed: Iterable[tuple[str, str]] = (),
    ) -> None:
        self.seats = seats
        self.host = host
        self.port = port
        self.token = token or new_token()
        self.clock = clock
        self.lang = lang
        """The page's language unless the phone's own is Chinese or it chose."""
        self.phones: dict[str, Phone] = {}
        for phone_id, press_id in placed:  # from the log: a resend after a restart is no news
            phone = self.phones.setdefault(phone_id, Phone(phone_id))
            phone.answers[press_id] = {"t": "ack", "id": press_id, "status": "placed"}
        self.requests: dict[str, SeatRequest] = {}
        self.press_listeners: list[Callable[[PhonePress], object]] = []
        self.request_listeners: list[Callable[[SeatRequest], object]] = []
        self.performing = False
        self.act: dict[str, Any] = {"state": "waiting"}
        self.refused = 0  # connections refused (token, origin, limits)
        self.protocol_errors = 0
        self.rate_limited = 0
        self._bad_tokens: dict[str, tuple[int, float]] = {}
        self._lock = threading.RLock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._runner: web.AppRunner | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._workers = ThreadPoolExecutor(max_workers=1, thread_name_prefix="phone-press")
        self._tasks: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------------ life

    def on_press(self, listener: Callable[[PhonePress], object]) -> None:
        self.press_listeners.append(listener)

    def start(self) -> PhoneServer:
        """Listen (in a thread of its own); returns once the port is bound."""
        self._thread = threading.Thread(target=self._run, name="phone-server", daemon=True)
        self._thread.start()
        self._ready.wait(10)
        if self._error is not None:
            raise self._error
        return self

    def stop(self) -> None:
        loop = self._loop
        if loop is None:
            return
        with contextlib.suppress(RuntimeError):
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(5)
        if self._thread is not None:
            self._thread.join(5)
        self._workers.shutdown(wait=True)
        self._loop = None

    @property
    def running(self) -> bool:
        return self._loop is not None and self._ready.is_set() and self._error is None

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._serve())
        except BaseException as exc:  # the port is taken, or the address is not ours
            self._error = exc
            self._ready.set()
            self._loop = None
            return
        self._ready.set()
        loop.run_forever()
        loop.close()

    async def _serve(self) -> None:
        app = web.Application(client_max_size=MAX_FRAME)
        app.router.add_get("/j/{token}", self._page)
        app.router.add_get("/j/{token}/ws", self._socket)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        try:
            site = web.TCPSite(self._runner, self.host, self.port)
            await site.start()
        except OSError:
            if self.port == 0:
                raise
            site = web.TCPSite(self._runner, self.host, 0)  # the usual port is taken
            await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1])
        self._tasks.add(asyncio.ensure_future(self._watch()))

    async def _shutdown(self) -> None:
        for phone in list(self.phones.values()):
            if phone.ws is not None:
                with contextlib.suppress(Exception):
                    await phone.ws.close(code=1001, message=b"the session ended")
        for task in list(self._tasks):
            task.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
        loop = asyncio.get_running_loop()
        loop.call_soon(loop.stop)

    def _call(self, fn: Callable[[], object]) -> None:
        loop = self._loop
        if loop is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(fn)

    # ------------------------------------------------------------------ for the host

    def urls(self) -> list[str]:
        """Where a phone opens its button (LAN addresses first)."""
        if self.host in ("0.0.0.0", "::", ""):
            hosts = lan_addresses() or ["127.0.0.1"]
        else:
            hosts = [f"[{self.host}]" if ":" in self.host else self.host]
        return [f"http://{h}:{self.port}/j/{self.token}" for h in hosts]

    @property
    def url(self) -> str:
        return self.urls()[0]

    def set_act(self, act: dict[str, Any]) -> None:
        """The Tadaa state of the act for every phone (any thread)."""

        def push() -> None:
            if act == self.act:
                return
            self.act = act
            for phone in self.phones.values():
                self._spawn(self._send_act(phone))

        self._call(push)

    def set_performing(self, on: bool) -> None:
        self.performing = on

    def pending_requests(self) -> list[SeatRequest]:
        with self._lock:
            return list(self.requests.values())

    def decide(self, phone_id: str, allow: bool) -> None:
        """The host's answer to a phone asking for a seat another phone holds."""

        def apply() -> None:
            with self._lock:
                request = self.requests.pop(phone_id, None)
                phone = self.phones.get(phone_id)
                if request is None or phone is None:
                    return
                if allow:
                    for other in self.phones.values():
                        if other.seat == request.seat and other is not phone:
                            other.seat = None
                            self._spawn(self._send_seat(other, "moved"))
                    phone.seat = request.seat
            self._spawn(self._send_seat(phone, "yours" if allow else "refused"))

        self._call(apply)

    def release(self, seat: str) -> None:
        """The host frees a seat (its phone becomes seatless)."""

        def apply() -> None:
            with self._lock:
                for phone in self.phones.values():
                    if phone.seat == seat:
                        phone.seat = None
                        self._spawn(self._send_seat(phone, "moved"))

        self._call(apply)

    def status(self) -> list[PhoneStatus]:
        now = self.clock()
        out = []
        with self._lock:
            for phone in self.phones.values():
                boot = phone.boots.get(phone.boot or "")
                est = boot.clock.estimate if boot is not None else None
                unc = None
                if est is not None and boot is not None:
                    unc = est.to_host(round(est.to_device(now)), boot.resolution_us * 1000.0)[1]
                quiet = now - phone.last_seen_ns
                if phone.ws is None:
                    state = "gone"
                elif quiet > SILENT_NS:
                    state = "silent"
                elif est is None:
                    state = "syncing"
                else:
                    state = "connected"
                out.append(
                    PhoneStatus(
                        phone=phone.id,
                        seat=phone.seat,
                        state=state,
                        uncertainty_ns=unc,
                        rtt_ns=boot.clock.last_rtt_ns if boot is not None else None,
                        drift_ppm=est.drift_ppm if est is not None and est.span_s > 5 else None,
                        samples=len(boot.clock.samples) if boot is not None else 0,
                        presses=phone.presses,
                        duplicates=phone.duplicates,
                        lost=phone.lost,
                        boots=len(phone.boots),
                        outliers=sum(b.clock.outliers for b in phone.boots.values()),
                        quiet_s=quiet / 1e9,
                    )
                )
        order = {s.id: i for i, s in enumerate(self.seats())}
        return sorted(out, key=lambda s: (order.get(s.seat or "", 99), s.phone))

    # ------------------------------------------------------------------ HTTP

    def _peer(self, request: web.Request) -> str:
        return request.remote or "?"

    def _check_token(self, request: web.Request) -> None:
        peer = self._peer(request)
        count, since = self._bad_tokens.get(peer, (0, 0.0))
        now = time.monotonic()
        if count >= BAD_TOKENS_ALLOWED and now - since < BAD_TOKEN_BAN_S:
            self.refused += 1
            raise web.HTTPTooManyRequests(text="Too many wrong join links; wait a minute.\n")
        if not secrets.compare_digest(request.match_info.get("token", ""), self.token):
            if now - since >= BAD_TOKEN_BAN_S:
                count, since = 0, now
            self._bad_tokens[peer] = (count + 1, since)
            self.refused += 1
            raise web.HTTPForbidden(
                text="This join link is not the current session's: scan the host's QR code.\n"
            )

    async def _page(self, request: web.Request) -> web.StreamResponse:
        self._check_token(request)
        html = page_html(self.lang)
        return web.Response(
            text=html,
            content_type="text/html",
            charset="utf-8",
            headers={
                "Cache-Control": "no-store",
                "Referrer-Policy": "no-referrer",
                "X-Frame-Options": "DENY",
                "X-Content-Type-Options": "nosniff",
                "Content-Security-Policy": (
                    "default-src 'none'; connect-src 'self'; img-src 'self' data:; "
                    "style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
                    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
                ),
            },
        )

    def _origin_ok(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser: no page of another site can be behind it
        return re.sub(r"^https?://", "", origin) == request.host

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        self._check_token(request)
        if not self._origin_ok(request):
            self.refused += 1
            raise web.HTTPForbidden(text="Cross-origin connections are refused.\n")
        peer = self._peer(request)
        connected = [p for p in self.phones.values() if p.ws is not None]
        if (
            len(connected) >= MAX_CONNECTIONS
            or sum(1 for p in connected if getattr(p.ws, "_companion_peer", None) == peer)
            >= MAX_PER_ADDRESS
        ):
            self.refused += 1
            raise web.HTTPServiceUnavailable(text="Too many phones.\n")
        ws = web.WebSocketResponse(max_msg_size=MAX_FRAME, heartbeat=None, autoping=True)
        await ws.prepare(request)
        ws._companion_peer = peer  # type: ignore[attr-defined]
        frames = Bucket(FRAMES_PER_S, FRAME_BURST, self.clock)
        presses = Bucket(PRESSES_PER_S, PRESS_BURST, self.clock)
        phone: Phone | None = None
        pinger: asyncio.Task[Any] | None = None
        try:
            async for msg in ws:
                recv_ns = self.clock()
                if msg.type != WSMsgType.TEXT:
                    raise ProtocolError("binary frame")
                if not frames.take():
                    self.rate_limited += 1
                    raise ProtocolError("too many frames")
                data = parse_frame(msg.data)
                if phone is None:
                    phone = await self._hello(ws, data)
                    pinger = asyncio.ensure_future(self._pinger(phone, ws))
                    continue
                phone.last_seen_ns = recv_ns
                kind = data["t"]
                if kind == "pong":
                    self._pong(phone, data, recv_ns)
                elif kind == "press":
                    if not presses.take():
                        # No answer: the page resends it later. Cutting the link would
                        # make a page with a backlog (after a long drop) retry forever.
                        self.rate_limited += 1
                        continue
                    await self._press(phone, data, recv_ns)
                elif kind == "claim":
                    await self._claim(phone, data)
                elif kind == "release":
                    with self._lock:
                        phone.seat = None
                        self.requests.pop(phone.id, None)
                    await self._send_seat(phone, "none")
                elif kind == "hello":
                    raise ProtocolError("second hello")
                else:
                    raise ProtocolError(f"unknown frame {kind!r}")
        except ProtocolError as exc:
            self.protocol_errors += 1
            with contextlib.suppress(Exception):
                await ws.send_json({"t": "error", "code": "protocol", "detail": str(exc)[:80]})
                await ws.close(code=1008, message=b"protocol error")
        finally:
            if pinger is not None:
                pinger.cancel()
            if phone is not None and phone.ws is ws:
                with self._lock:
                    phone.ws = None
        return ws

    # ------------------------------------------------------------------ frames

    async def _hello(self, ws: web.WebSocketResponse, data: dict[str, Any]) -> Phone:
        if data["t"] != "hello":
            raise ProtocolError("hello first")
        phone_id = _id(data, "phone")
        boot_id = _id(data, "boot")
        res = data.get("res_us", DEFAULT_RESOLUTION_US)
        if not isinstance(res, int | float) or not 0 <= res <= 100_000:
            raise ProtocolError("bad resolution")
        with self._lock:
            phone = self.phones.get(phone_id)
            if phone is None:
                phone = self.phones[phone_id] = Phone(phone_id)
            old = phone.ws
            phone.ws = ws
            phone.last_seen_ns = self.clock()
            if boot_id not in phone.boots:
                if len(phone.boots) >= 64:  # a page reloading forever: forget the oldest
                    phone.boots.pop(next(iter(phone.boots)))
                phone.boots[boot_id] = Boot(boot_id, max(1, round(res)))
            phone.boot = boot_id
        if old is not None and old is not ws:
            with contextlib.suppress(Exception):
                await old.close(code=4000, message=b"replaced by a newer connection")
        seats = [{"id": s.id, "name": s.name, "colour": s.colour} for s in self.seats()]
        await ws.send_json(
            {
                "t": "welcome",
                "seats": seats,
                "seat": phone.seat,
            }
        )
        if phone.id in self.requests:
            await self._send_seat(phone, "pending")
        await self._send_act(phone)
        return phone

    def _pong(self, phone: Phone, data: dict[str, Any], recv_ns: int) -> None:
        n = data.get("n")
        d = data.get("d")
        if not isinstance(n, int) or not isinstance(d, int | float) or not 0 <= d < 1e12:
            raise ProtocolError("bad pong")
        sent = phone.pings.pop(n, None)
        if sent is None:
            return  # a pong of an earlier connection or a stale one
        with self._lock:
            boot = phone.boots.get(phone.boot or "")
            if boot is None:
                return
            boot.add(SyncSample(sent, recv_ns, round(d * 1000)))
        for press_id, (frame, first) in list(phone.deferred.items()):
            if self._placeable(phone, frame) or recv_ns - first > DEFER_LIMIT_NS:
                phone.deferred.pop(press_id, None)
                self._spawn(self._place(phone, frame, first))

    def _placeable(self, phone: Phone, frame: dict[str, Any]) -> bool:
        boot = phone.boots.get(frame["boot"])
        return boot is not None and boot.clock.estimate is not None

    async def _press(self, phone: Phone, data: dict[str, Any], recv_ns: int) -> None:
        press_id = _id(data, "id")
        _id(data, "boot")
        seat = data.get("seat")
        d = data.get("d")
        if not isinstance(d, int | float) or not 0 <= d < 1e12 or not isinstance(seat, str):
            raise ProtocolError("bad press")
        answer = phone.answers.get(press_id)
        if answer is not None:
            phone.duplicates += 1
            await _send(phone.ws, answer)
            return
        if press_id in phone.deferred:
            phone.duplicates += 1
            return
        if (
            data["boot"] == phone.boot
            and not self._placeable(phone, data)
            and len(phone.deferred) < MAX_DEFERRED
        ):
            phone.deferred[press_id] = (data, recv_ns)  # the first pongs are on their way
            return
        await self._place(phone, data, recv_ns)

    async def _place(self, phone: Phone, data: dict[str, Any], arrival_ns: int) -> None:
        press_id = data["id"]
        if press_id in phone.answers:
            return
        seat = data["seat"]
        boot = phone.boots.get(data["boot"])
        est = boot.estimate_for(round(data["d"] * 1000)) if boot is not None else None
        reason = ""
        if seat != phone.seat:
            reason = "seat"  # pressed for a seat this phone does not hold (now)
        elif boot is None or est is None:
            reason = "clock"  # the page load that stamped it is unknown to this host
        if reason:
            with self._lock:
                phone.lost += 1
            answer: dict[str, Any] = {"t": "ack", "id": press_id, "status": "lost", "why": reason}
        else:
            assert boot is not None and est is not None
            device_us = round(data["d"] * 1000)
            host_ns, unc = est.to_host(device_us, extra_ns=boot.resolution_us * 1000.0)
            press = PhonePress(
                phone=phone.id,
                seat=seat,
                press_id=press_id,
                boot=boot.id,
                device_us=device_us,
                host_ns=host_ns,
                uncertainty_ns=unc,
                arrival_ns=arrival_ns,
                resolution_us=boot.resolution_us,
            )
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._workers, self._deliver, press)
            with self._lock:
                phone.presses += 1
            answer = {"t": "ack", "id": press_id, "status": "placed", "unc_ms": unc / 1e6}
        phone.answers[press_id] = answer
        if len(phone.answers) > 512:
            phone.answers.pop(next(iter(phone.answers)))
        await _send(phone.ws, answer)

    def _deliver(self, press: PhonePress) -> None:
        for listener in list(self.press_listeners):
            listener(press)

    async def _claim(self, phone: Phone, data: dict[str, Any]) -> None:
        seat = data.get("seat")
        if not isinstance(seat, str) or seat not in {s.id for s in self.seats()}:
            raise ProtocolError("no such seat")
        notify: SeatRequest | None = None
        with self._lock:
            holder = next(
                (p for p in self.phones.values() if p.seat == seat and p is not phone), None
            )
            if holder is None:
                phone.seat = seat
                self.requests.pop(phone.id, None)
                word = "yours"
            else:
                notify = self.requests[phone.id] = SeatRequest(phone.id, seat, holder.id)
                word = "pending"
        await self._send_seat(phone, word)
        if notify is not None:
            for listener in list(self.request_listeners):
                listener(notify)

    async def _send_seat(self, phone: Phone, word: str) -> None:
        request = self.requests.get(phone.id)
        await _send(
            phone.ws,
            {"t": "seat", "seat": phone.seat, "state": word, "asked": request and request.seat},
        )

    async def _send_act(self, phone: Phone) -> None:
        await _send(phone.ws, {"t": "act", **self.act})

    # ------------------------------------------------------------------ pings

    async def _pinger(self, phone: Phone, ws: web.WebSocketResponse) -> None:
        burst = PING_BURST
        while not ws.closed:
            if len(phone.pings) > 8:  # unanswered: forget the oldest
                phone.pings.pop(next(iter(phone.pings)))
            phone.next_ping += 1
            n = phone.next_ping
            text = json.dumps({"t": "ping", "n": n})
            phone.pings[n] = self.clock()
            try:
                await ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return
            if burst > 0:
                burst -= 1
                await asyncio.sleep(PING_BURST_S)
            else:
                await asyncio.sleep(PING_PERFORMING_S if self.performing else PING_IDLE_S)

    async def _watch(self) -> None:
        """Forget deferred presses whose clock never came (counted lost)."""
        while True:
            await asyncio.sleep(1.0)
            now = self.clock()
            for phone in list(self.phones.values()):
                for press_id, (frame, first) in list(phone.deferred.items()):
                    if now - first > DEFER_LIMIT_NS:
                        phone.deferred.pop(press_id, None)
                        self._spawn(self._place(phone, frame, first))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


# --------------------------------------------------------------------------- helpers


def page_html(lang: str) -> str:
    """The page with its words in both languages inside (no request for anything else)."""
    words = json.dumps({code: page_strings(code) for code in ("en", "zh")}, ensure_ascii=False)
    html = PAGE.read_text(encoding="utf-8")
    html = html.replace("/*STRINGS*/null", words.replace("</", "<\\/"), 1)
    return html.replace('/*LANG*/"en"', json.dumps(lang if lang in ("en", "zh") else "en"), 1)


def parse_frame(text: str) -> dict[str, Any]:
    """A frame from a page: a small JSON object with a string ``t``."""
    if len(text) > MAX_FRAME:
        raise ProtocolError("frame too long")
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ProtocolError("not JSON") from exc
    if not isinstance(data, dict) or not isinstance(data.get("t"), str):
        raise ProtocolError("not a frame")
    return data


def _id(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not ID_RE.match(value):
        raise ProtocolError(f"bad {key}")
    return value


async def _send(ws: web.WebSocketResponse | None, payload: dict[str, Any]) -> None:
    if ws is None or ws.closed:
        return  # the page resends what it still needs when it reconnects
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.send_json(payload)
