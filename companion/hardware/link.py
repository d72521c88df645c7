"""The host link: finds Tadaa devices, reads them, acknowledges, resyncs, maps time.

Layers, in pyserial's ``serial.threaded`` style (one ``ReaderThread`` per open port):

1. ``TadaaLineProtocol`` (a ``serial.threaded.Protocol``): bytes -> checked
   messages, each stamped with the host-monotonic time its bytes were read.
2. ``DeviceLink``: one open port. Says ``INFO`` on connect, forwards messages to
   the hub, writes commands, and carries the ping in flight.
3. ``TadaaHub``: every device ever seen, by serial number (``DeviceState``:
   boot id, which sequence numbers arrived, the clock sync). It survives
   reconnects, so a device that comes back on another port continues where it
   was: no press lost (``RESEND``), none counted twice (sequence record).
   A hub thread discovers ports (hot-plug), schedules pings and retries.

Design decisions:

* A press is reported once, when its sequence number first arrives, mapped to
  host time with the clock estimate of that moment. Presses arriving before the
  device's clock has three samples wait (a burst of pings follows every connect).
* Events a device had already numbered before this host first met that boot
  (the companion started after the device) are acknowledged without being
  replayed: they are not presses of anything this host runs. Their count is kept
  (``DeviceStatus.predating``).
* Callbacks run outside the hub's lock (a UI callback may block on its thread).
"""

from __future__ import annotations

import contextlib
import fnmatch
import glob
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

import serial
import serial.threaded
from serial.tools import list_ports

from companion.hardware import protocol as proto
from companion.hardware.clocksync import ClockSync, SyncSample
from companion.hardware.config import port_in_use, usb_candidate

# The USB ids that make a port a candidate are ``config.USB_CANDIDATES``.
BY_ID_GLOBS = ("/dev/serial/by-id/*MicroPython*", "/dev/serial/by-id/*[Tt]adaa*", "/dev/tadaa-*")

PING_BURST = 10  # pings right after a (re)connect, ``BURST_GAP`` apart
BURST_GAP_NS = 20_000_000
PING_WARMUP = 50  # then this many, ``WARMUP_GAP`` apart: the fit settles in seconds
WARMUP_GAP_NS = 100_000_000
PING_EVERY_NS = 500_000_000
PING_TIMEOUT_NS = 400_000_000
HELLO_TIMEOUT_NS = 2_000_000_000
INFO_RETRY_NS = 300_000_000
RESEND_RETRY_NS = 150_000_000
MIN_SYNC_SAMPLES = 3
SCAN_EVERY_NS = 500_000_000
# A port that did not answer INFO is left alone (another MicroPython board's REPL
# should not be poked every few seconds) until it disappears and comes back, or
# for a minute (a device that was still booting).
NOT_TADAA_RETRY_NS = 60_000_000_000
# A shared-id port (an Arduino, a USB-serial chip) another program holds is looked
# at again this often; one that did not answer is left alone until unplugged.
BUSY_RECHECK_NS = 10_000_000_000


Clock = Callable[[], int]


@dataclass(frozen=True)
class DevicePress:
    """One press event as the host understood it (everything the log keeps)."""

    serial: str
    boot: str
    seq: int
    button: int
    device_us: int
    flags: int
    arrival_ns: int
    """Host-monotonic time at which the event's line was read (first copy)."""
    host_ns: int
    """Device time mapped to host-monotonic time."""
    uncertainty_ns: int
    port: str = ""

    @property
    def tie(self) -> bool:
        return bool(self.flags & 0x01)

    @property
    def disarmed(self) -> bool:
        return bool(self.flags & 0x04)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "tadaa-press",
            "device": self.serial,
            "boot": self.boot,
            "seq": self.seq,
            "button": self.button,
            "device_us": self.device_us,
            "flags": self.flags,
            "arrival_ns": self.arrival_ns,
            "host_ns": self.host_ns,
            "uncertainty_ns": self.uncertainty_ns,
            "port": self.port,
        }


@dataclass(frozen=True)
class DeviceStatus:
    """A snapshot for screens: what a host needs to trust (or not) a device."""

    serial: str
    port: str
    state: str  # "connected" | "resyncing" | "disconnected"
    boot: str
    buttons: int
    firmware: str
    rtt_ns: int | None
    min_rtt_ns: int | None
    drift_ppm: float | None
    uncertainty_ns: int | None
    sync_samples: int
    presses: int
    duplicates: int
    resends: int
    lost: int
    corrupt: int
    """Lines from this device dropped (checksum, framing, fields)."""
    device_corrupt: int
    """Host lines the device reported as corrupt."""
    predating: int
    """Events numbered before this host met the device's boot (acknowledged, not replayed)."""
    sample_us: int
    consistent: bool


@dataclass
class SeqRecord:
    """Which sequence numbers of one boot arrived; ``contiguous`` = all up to it."""

    contiguous: int = 0
    above: set[int] = field(default_factory=set)
    highest: int = 0
    lost: int = 0

    def has(self, seq: int) -> bool:
        return seq <= self.contiguous or seq in self.above

    def add(self, seq: int) -> None:
        self.highest = max(self.highest, seq)
        if seq == self.contiguous + 1:
            self.contiguous = seq
            while self.contiguous + 1 in self.above:
                self.above.remove(self.contiguous + 1)
                self.contiguous += 1
        elif seq > self.contiguous:
            self.above.add(seq)

    def give_up_below(self, seq: int) -> int:
        """The device dropped everything before ``seq`` (ring overflow): count the loss."""
        gone = 0
        for s in range(self.contiguous + 1, seq):
            if not self.has(s):
                gone += 1
                self.add(s)
        self.lost += gone
        return gone

    @property
    def missing(self) -> bool:
        return self.highest > self.contiguous


@dataclass
class DeviceState:
    serial: str
    hello: proto.Hello
    boot: str
    baseline: int
    seqs: SeqRecord = field(default_factory=SeqRecord)
    clock: ClockSync = field(default_factory=ClockSync)
    link: DeviceLink | None = None
    port: str = ""
    pending: list[DevicePress] = field(default_factory=list)
    presses: int = 0
    duplicates: int = 0
    resends: int = 0
    corrupt_before: int = 0  # parse errors of earlier links of this device
    device_corrupt: int = 0
    sample_us: int = 0
    last_resend_ns: int = 0
    acked: int = 0

    fresh_needed: int = 0
    """Pongs still wanted after a reconnect before presses are mapped again (so a
    press made while unplugged is interpolated, not extrapolated across the gap)."""

    @property
    def synced(self) -> bool:
        est = self.clock.estimate
        return (
            est is not None
            and len(self.clock.samples) >= MIN_SYNC_SAMPLES
            and self.fresh_needed == 0
        )


class TadaaLineProtocol(serial.threaded.Protocol):  # type: ignore[misc]
    """Layer 1: bytes -> messages with their arrival time. Never raises."""

    def __init__(self, link: DeviceLink) -> None:
        self.link = link
        self.parser = proto.LineParser()

    def connection_made(self, transport: Any) -> None:
        self.link.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        arrival = self.link.hub.clock()
        for message in self.parser.feed(data):
            try:
                self.link.message(message, arrival)
            except Exception as exc:  # a bug must not kill the reader: count and go on
                self.link.hub.note_error(f"{type(exc).__name__}: {exc}")

    def connection_lost(self, exc: BaseException | None) -> None:
        self.link.connection_lost(exc)


class DeviceLink:
    """Layer 2: one open port (a device, once it said HELLO)."""

    def __init__(self, hub: TadaaHub, port: str, ser: serial.Serial) -> None:
        self.hub = hub
        self.port = port
        self.serial = ser
        self.opened_ns = hub.clock()
        self.state: DeviceState | None = None
        self.thread = serial.threaded.ReaderThread(ser, lambda: TadaaLineProtocol(self))
        self.protocol: TadaaLineProtocol | None = None
        self.alive = True
        # ping bookkeeping (hub thread writes, reader thread reads)
        self.ping_seq = 0
        self.ping_out: tuple[str, int] | None = None
        self.pings_sent = 0
        self.next_ping_ns = 0
        self.write_lock = threading.Lock()
        self.seen_valid = False  # a checked Tadaa line arrived (HELLO or not)
        self.info_sent_ns = 0

    def start(self) -> None:
        self.thread.start()

    @property
    def parse_errors(self) -> int:
        p = self.thread.protocol
        if isinstance(p, TadaaLineProtocol):
            self.protocol = p
        return self.protocol.parser.stats.errors if self.protocol else 0

    def connection_made(self, transport: Any) -> None:
        self.info_sent_ns = self.hub.clock()
        self.write(proto.cmd_info())

    def connection_lost(self, exc: BaseException | None) -> None:
        self.alive = False
        self.hub.link_lost(self, exc)

    def message(self, message: proto.Message, arrival_ns: int) -> None:
        self.hub.message(self, message, arrival_ns)

    def write(self, data: bytes) -> bool:
        if not self.alive:
            return False
        try:
            with self.write_lock:
                self.serial.write(data)
            return True
        except (serial.SerialException, OSError, ValueError):
            return False

    def send_ping(self, now_ns: int) -> None:
        self.ping_seq += 1
        ping_id = f"{self.ping_seq:X}"
        with self.write_lock:  # stamp and write together: the stamp precedes the bytes
            stamp = self.hub.clock()
            self.ping_out = (ping_id, stamp)
            try:
                self.serial.write(proto.cmd_ping(ping_id))
            except (serial.SerialException, OSError, ValueError):
                self.ping_out = None
                return
        self.pings_sent += 1
        if self.pings_sent < PING_BURST:
            gap = BURST_GAP_NS
        elif self.pings_sent < PING_BURST + PING_WARMUP:
            gap = WARMUP_GAP_NS
        else:
            gap = PING_EVERY_NS
        self.next_ping_ns = now_ns + gap

    def close(self) -> None:
        self.alive = False
        with contextlib.suppress(RuntimeError, serial.SerialException, OSError):
            self.thread.close()


PressListener = Callable[[DevicePress], None]
StatusListener = Callable[[list[DeviceStatus]], None]


def candidate_ports(configured: Iterable[str] = ()) -> list[str]:
    """Ports that may be Tadaa devices: USB ids, stable names, configured paths/globs."""
    found: dict[str, str] = {}

    def add(path: str) -> None:
        real = os.path.realpath(path)
        found.setdefault(real, path)

    for pattern in configured:
        for path in sorted(glob.glob(pattern)) if any(c in pattern for c in "*?[") else [pattern]:
            add(path)
    for pattern in BY_ID_GLOBS:
        for path in sorted(glob.glob(pattern)):
            add(path)
    try:
        for info in list_ports.comports():
            if usb_candidate(info.vid, info.pid) is not None:
                add(info.device)
    except OSError:
        pass
    return list(found.values())


def shared_usb_port(port: str) -> bool:
    """Whether ``port`` is a USB device whose id unrelated gadgets share too."""
    real = os.path.realpath(port)
    try:
        for info in list_ports.comports():
            if os.path.realpath(info.device) == real:
                c = usb_candidate(info.vid, info.pid)
                return c is not None and c.shared
    except OSError:
        pass
    return False


class TadaaHub:
    """Every Tadaa device: discovery, links, sequence records, clock sync.

    ``ports``: a function returning the candidate ports (default: USB ids,
    ``/dev/serial/by-id``, ``/dev/tadaa-*`` and ``configured`` paths or globs).
    ``clock``: host-monotonic nanoseconds (tests may pass another).
    """

    def __init__(
        self,
        configured: Iterable[str] = (),
        ports: Callable[[], list[str]] | None = None,
        clock: Clock = time.monotonic_ns,
        arm: bool = True,
    ) -> None:
        configured = tuple(configured)
        self.configured = configured
        self.ports = ports or (lambda: candidate_ports(configured))
        self.clock = clock
        self.devices: dict[str, DeviceState] = {}
        self.links: dict[str, DeviceLink] = {}  # by port
        self.not_tadaa: dict[str, int] = {}
        self.left_alone: set[str] = set()  # shared-id ports that did not answer, until unplugged
        self._shared: dict[str, bool] = {}
        self.press_listeners: list[PressListener] = []
        self.status_listeners: list[StatusListener] = []
        self.errors: list[str] = []
        self.armed = arm
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._next_scan = 0
        self._status_dirty = True

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> TadaaHub:
        self._thread = threading.Thread(target=self._run, name="tadaa-hub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(3)
        with self._lock:
            links = list(self.links.values())
            self.links.clear()
        for link in links:
            link.close()

    def __enter__(self) -> TadaaHub:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def on_press(self, listener: PressListener) -> None:
        self.press_listeners.append(listener)

    def on_status(self, listener: StatusListener) -> None:
        self.status_listeners.append(listener)

    def note_error(self, text: str) -> None:
        self.errors.append(text)
        del self.errors[:-50]

    # ------------------------------------------------------------------ commands

    def arm(self, armed: bool) -> None:
        with self._lock:
            self.armed = armed
            links = [s.link for s in self.devices.values() if s.link]
        for link in links:
            link.write(proto.cmd_arm(armed))

    def led(self, serial_no: str, button: int, mode: int) -> bool:
        with self._lock:
            state = self.devices.get(serial_no)
            link = state.link if state else None
        return link.write(proto.cmd_led(button, mode)) if link else False

    # ------------------------------------------------------------------ status

    def status(self) -> list[DeviceStatus]:
        with self._lock:
            return [self._status(s) for s in sorted(self.devices.values(), key=lambda s: s.serial)]

    def _status(self, s: DeviceState) -> DeviceStatus:
        est = s.clock.estimate
        now = self.clock()
        unc = None
        if est is not None:
            unc = est.to_host(round(est.to_device(now)))[1]
        if s.link is None:
            state = "disconnected"
        elif not s.synced:
            state = "resyncing"
        else:
            state = "connected"
        corrupt = s.corrupt_before + (s.link.parse_errors if s.link else 0)
        return DeviceStatus(
            serial=s.serial,
            port=s.port,
            state=state,
            boot=s.boot,
            buttons=s.hello.buttons,
            firmware=s.hello.firmware,
            rtt_ns=s.clock.last_rtt_ns,
            min_rtt_ns=est.min_rtt_ns if est else None,
            drift_ppm=est.drift_ppm if est and est.rate_error < 1e-3 * 50 else None,
            uncertainty_ns=unc,
            sync_samples=len(s.clock.samples),
            presses=s.presses,
            duplicates=s.duplicates,
            resends=s.resends,
            lost=s.seqs.lost,
            corrupt=corrupt,
            device_corrupt=s.device_corrupt,
            predating=s.baseline,
            sample_us=s.sample_us,
            consistent=est.consistent if est else True,
        )

    def unconnected_ports(self) -> list[str]:
        with self._lock:
            return sorted(set(self.not_tadaa) | self.left_alone)

    # ------------------------------------------------------------------ the hub thread

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock()
            try:
                if now >= self._next_scan:
                    self._scan(now)
                    self._next_scan = now + SCAN_EVERY_NS
                self._tick(now)
            except Exception as exc:  # keep the hub alive whatever happens
                self.note_error(f"hub: {type(exc).__name__}: {exc}")
            if self._status_dirty:
                self._status_dirty = False
                self._emit_status()
            self._stop.wait(0.005)

    def poke(self) -> None:
        """Scan for ports at the next tick (e.g. after a simulator replug)."""
        self._next_scan = 0

    def _scan(self, now: int) -> None:
        try:
            ports = self.ports()
        except OSError:
            return
        with self._lock:
            for gone in [p for p in self.not_tadaa if p not in ports]:
                del self.not_tadaa[gone]  # unplugged: try it afresh when it returns
            self.left_alone &= set(ports)
            self._shared = {p: v for p, v in self._shared.items() if p in ports}
        for port in ports:
            with self._lock:
                if port in self.links or port in self.left_alone:
                    continue
                if now - self.not_tadaa.get(port, -NOT_TADAA_RETRY_NS) < NOT_TADAA_RETRY_NS:
                    continue
            if self._is_shared(port) and port_in_use(port):
                # Someone else's conversation (a printer host, a serial monitor): not a word.
                with self._lock:
                    self.not_tadaa[port] = now - NOT_TADAA_RETRY_NS + BUSY_RECHECK_NS
                continue
            self._open(port)

    def _is_shared(self, port: str) -> bool:
        """A port found by its shared USB id (a port the host configured is theirs)."""
        if port not in self._shared:
            mine = any(fnmatch.fnmatch(port, pattern) for pattern in self.configured)
            self._shared[port] = not mine and shared_usb_port(port)
        return self._shared[port]

    def _open(self, port: str) -> None:
        try:
            # exclusive: a second companion (e.g. `devices monitor`) must not split the bytes
            ser = serial.Serial(port, 115200, timeout=1, write_timeout=0.5, exclusive=True)
        except (serial.SerialException, OSError, ValueError):
            return
        link = DeviceLink(self, port, ser)
        with self._lock:
            self.links[port] = link
        link.start()

    def _tick(self, now: int) -> None:
        with self._lock:
            links = list(self.links.values())
        for link in links:
            if link.state is None:
                if link.seen_valid and now - link.info_sent_ns > INFO_RETRY_NS:
                    link.info_sent_ns = now  # a Tadaa device on a noisy line: ask again
                    link.write(proto.cmd_info())
                elif not link.seen_valid and now - link.opened_ns > HELLO_TIMEOUT_NS:
                    # not a Tadaa device (or mute): leave the port alone for a while,
                    # or until it is unplugged if its USB id is a shared one
                    with self._lock:
                        if self._shared.get(link.port):
                            self.left_alone.add(link.port)
                        else:
                            self.not_tadaa[link.port] = now
                        self.links.pop(link.port, None)
                    link.close()
                continue
            if link.ping_out is not None and now - link.ping_out[1] > PING_TIMEOUT_NS:
                link.ping_out = None  # lost (or corrupt) pong: try again
            if link.ping_out is None and now >= link.next_ping_ns:
                link.send_ping(now)
            state = link.state
            if state.seqs.missing and now - state.last_resend_ns > RESEND_RETRY_NS:
                self._request_resend(state, now)

    def _emit_status(self) -> None:
        if not self.status_listeners:
            return
        snapshot = self.status()
        for listener in self.status_listeners:
            listener(snapshot)

    # ------------------------------------------------------------------ from the readers

    def link_lost(self, link: DeviceLink, exc: BaseException | None) -> None:
        with self._lock:
            if self.links.get(link.port) is link:
                del self.links[link.port]
            state = link.state
            if state is not None and state.link is link:
                state.link = None
                state.corrupt_before += link.parse_errors
            self._status_dirty = True
        # The reader thread has ended; release the port from here (not join itself).
        with contextlib.suppress(serial.SerialException, OSError):
            link.serial.close()

    def message(self, link: DeviceLink, msg: proto.Message, arrival: int) -> None:
        emit: list[DevicePress] = []
        with self._lock:
            if isinstance(msg, proto.Hello):
                emit = self._hello(link, msg, arrival)
            elif link.state is None:
                # A Tadaa device (its lines check out) whose HELLO we missed: ask
                # again. Nothing counts before HELLO: we do not know whose it is.
                link.seen_valid = True
                if arrival - link.info_sent_ns > INFO_RETRY_NS:
                    link.info_sent_ns = arrival
                    link.write(proto.cmd_info())
                return
            elif isinstance(msg, proto.PressEvent):
                emit = self._press(link.state, msg, arrival)
            elif isinstance(msg, proto.Pong):
                emit = self._pong(link, msg, arrival)
            elif isinstance(msg, proto.Heartbeat):
                self._heartbeat(link.state, msg, arrival)
            elif isinstance(msg, proto.DeviceError):
                if msg.code == "CRC":
                    link.state.device_corrupt += 1
                if msg.code == "BOOT":  # we spoke to an older boot: ask who it is
                    link.write(proto.cmd_info())
        for press in emit:
            for listener in list(self.press_listeners):
                listener(press)

    def _hello(self, link: DeviceLink, hello: proto.Hello, arrival: int) -> list[DevicePress]:
        state = self.devices.get(hello.serial)
        if state is None:
            # First meeting with this boot: what it numbered so far predates us.
            state = DeviceState(hello.serial, hello, hello.boot, baseline=hello.last_seq)
            state.seqs.contiguous = hello.last_seq
            state.seqs.highest = hello.last_seq
            state.acked = 0
            self.devices[hello.serial] = state
        elif state.boot != hello.boot:
            # It restarted: new numbering, new clock. Everything of the new boot counts.
            state.boot = hello.boot
            state.baseline = 0
            state.seqs = SeqRecord()
            state.clock.reset()
            state.pending.clear()
            state.acked = 0
            if hello.last_seq:
                state.seqs.highest = hello.last_seq
        else:  # the same boot came back (cable, hub): keep its clock, refresh the fit
            if hello.last_seq > state.seqs.contiguous:
                state.seqs.highest = max(state.seqs.highest, hello.last_seq)
            if state.link is not link:
                state.fresh_needed = MIN_SYNC_SAMPLES
        if state.link is not None and state.link is not link:
            old = state.link
            state.corrupt_before += old.parse_errors
            old.state = None
        state.hello = hello
        state.link = link
        state.port = link.port
        link.state = state
        link.pings_sent = 0
        link.next_ping_ns = 0
        link.write(proto.cmd_arm(self.armed))
        if state.seqs.contiguous > state.acked:
            link.write(proto.cmd_ack(state.boot, state.seqs.contiguous))
            state.acked = state.seqs.contiguous
        if state.seqs.missing:
            self._request_resend(state, arrival)
        self._status_dirty = True
        return []

    def _request_resend(self, state: DeviceState, now: int) -> None:
        if state.link is None:
            return
        state.last_resend_ns = now
        state.resends += 1
        state.link.write(proto.cmd_resend(state.boot, state.seqs.contiguous + 1))

    def _press(self, state: DeviceState, ev: proto.PressEvent, arrival: int) -> list[DevicePress]:
        link = state.link
        if ev.boot != state.boot or link is None:
            return []
        emit: list[DevicePress] = []
        if ev.overflow:
            state.seqs.give_up_below(ev.seq)
        if state.seqs.has(ev.seq):
            state.duplicates += 1
            # It came again: our acknowledgement was lost. Say it again.
            state.acked = min(state.acked, ev.seq - 1)
        else:
            state.seqs.add(ev.seq)
            press = DevicePress(
                state.serial,
                ev.boot,
                ev.seq,
                ev.button,
                ev.t_us,
                ev.flags,
                arrival,
                0,
                0,
                port=state.port,
            )
            state.presses += 1
            if state.synced:
                emit.append(self._map(state, press))
            else:
                state.pending.append(press)
        if state.seqs.contiguous > state.acked:
            link.write(proto.cmd_ack(state.boot, state.seqs.contiguous))
            state.acked = state.seqs.contiguous
        if state.seqs.missing and arrival - state.last_resend_ns > RESEND_RETRY_NS:
            self._request_resend(state, arrival)
        self._status_dirty = True
        return emit

    def _map(self, state: DeviceState, press: DevicePress) -> DevicePress:
        est = state.clock.estimate
        assert est is not None
        # The stamp is late by up to one sampling period: centre it, widen by half.
        half_period_ns = state.sample_us * 500.0
        host, unc = est.to_host(press.device_us, extra_ns=half_period_ns)
        return replace(press, host_ns=round(host - half_period_ns), uncertainty_ns=unc)

    def _pong(self, link: DeviceLink, pong: proto.Pong, arrival: int) -> list[DevicePress]:
        state = link.state
        assert state is not None
        out = link.ping_out
        if out is None or out[0] != pong.ping_id or pong.boot != state.boot:
            return []
        link.ping_out = None
        state.clock.add(SyncSample(out[1], arrival, pong.t_us))
        state.fresh_needed = max(0, state.fresh_needed - 1)
        self._status_dirty = True
        if state.synced and state.pending:
            ready = [self._map(state, p) for p in state.pending]
            state.pending.clear()
            return ready
        return []

    def _heartbeat(self, state: DeviceState, hb: proto.Heartbeat, arrival: int) -> None:
        if hb.boot != state.boot:
            if state.link is not None:
                state.link.write(proto.cmd_info())
            return
        state.sample_us = hb.sample_us
        if hb.last_seq > state.seqs.highest:
            state.seqs.highest = hb.last_seq  # a last event was lost: ask for it
        holds_ours = hb.unacked and state.seqs.contiguous > hb.last_seq - hb.unacked
        if holds_ours and state.link is not None:
            # The device still holds events we have: an acknowledgement was lost.
            state.link.write(proto.cmd_ack(state.boot, state.seqs.contiguous))
            state.acked = state.seqs.contiguous
        self._status_dirty = True


def probe_port(port: str, timeout_s: float = 1.5) -> proto.Hello | None:
    """Open ``port``, ask ``INFO``, return the device's ``HELLO`` (None: not a Tadaa)."""
    try:
        ser = serial.Serial(port, 115200, timeout=0.05, write_timeout=0.5, exclusive=True)
    except (serial.SerialException, OSError, ValueError):
        return None
    parser = proto.LineParser()
    try:
        ser.write(proto.cmd_info())
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            for msg in parser.feed(ser.read(256)):
                if isinstance(msg, proto.Hello):
                    return msg
    except (serial.SerialException, OSError):
        return None
    finally:
        with contextlib.suppress(serial.SerialException, OSError):
            ser.close()
    return None
