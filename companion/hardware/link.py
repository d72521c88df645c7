"""The host link: finds Tadaa devices, reads them, acknowledges, resyncs, maps time.

Layers (one reader thread per open port):

1. ``LinkReader``: the companion's own reader loop (not pyserial's
   ``ReaderThread``, whose ``in_waiting`` ioctl sits outside its exception
   handler: a hang-up there killed the thread without ``connection_lost``, see
   pyserial issue #401). *Every* way out of the loop ends in
   ``connection_lost``; bytes -> checked messages, each stamped with the
   host-monotonic time its bytes were read.
2. ``DeviceLink``: one open port. Says ``INFO`` on connect, forwards messages to
   the hub, writes commands, and carries the ping in flight.
3. ``TadaaHub``: every device ever seen, by serial number (``DeviceState``:
   boot id, which sequence numbers arrived, the clock sync). It survives
   reconnects, so a device that comes back on another port continues where it
   was: no press lost (``RESEND``), none counted twice (sequence record).
   A hub thread discovers ports (hot-plug), schedules pings and retries, and
   supervises the links: a reader that ended (or a link silent for
   ``SILENT_NS``) is reported, closed and its port reopened; the device is then
   asked for everything it still holds.

Design decisions:

* A press is reported once, when its sequence number first arrives, mapped to
  host time with the clock estimate of that moment. Presses arriving before the
  device's clock has three samples wait (a burst of pings follows every connect).
* Events a device had already numbered before this host first met that boot
  (the companion started after the device) are acknowledged without being
  replayed: they are not presses of anything this host runs. Their count is kept
  (``DeviceStatus.predating``).
* Callbacks run outside the hub's lock (a UI callback may block on its thread).
* Bounded work per line: a sequence number is accepted only within
  ``SEQ_WINDOW`` of the device's known range (a protocol error otherwise,
  counted and logged); which numbers arrived is kept as ranges
  (``RangeSet``), so no line costs more than a few range operations; resend
  requests back off (``RESEND_RETRY_NS`` doubling to ``RESEND_MAX_NS``); clock
  samples that contradict the model are outliers (``ClockSync``). The work of
  each line under the lock is counted (``TadaaHub.worst_work``) and timed
  (``worst_hold_ns``).
* A press is delivered exactly once, or counted lost (``DeviceStatus.lost``) —
  never silently gone.
* A press is acknowledged only after every press listener returned (the session's
  raw log has it on disk): a kill before that leaves it in the device, which
  sends it again to the next process.
* The link's view survives a restart of the app (``LinkView``): the session log
  holds every press and every meeting (``tadaa-link``) and loss (``tadaa-lost``)
  the hub reported (``on_link``); ``link_views`` reads them back and ``restore``
  hands them to a new hub before it meets the device. A known boot is then a
  device that kept running (RESEND from the first missing number, not a first
  meeting), its clock model starts from the logged presses' intervals, and a known
  serial with another boot is a device that restarted while the app was down
  (every press of the new boot counts).
* A heartbeat says which events the device still holds (``last_seq - unacked``
  and below are forgotten): a number the host lacks there can never come and is
  counted lost at once, however it was lost.
"""

from __future__ import annotations

import bisect
import contextlib
import fnmatch
import glob
import os
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

import serial
from serial.tools import list_ports

from companion.hardware import protocol as proto
from companion.hardware.clocksync import ClockSync, SyncSample
from companion.hardware.config import port_in_use, usb_candidate

# The USB ids that make a port a candidate are ``config.USB_CANDIDATES``.
BY_ID_GLOBS = ("/dev/serial/by-id/*MicroPython*", "/dev/serial/by-id/*[Tt]adaa*", "/dev/tadaa-*")

PING_BURST = 10  # pings right after a (re)connect, back to back (``BURST_GAP`` apart)
BURST_GAP_NS = 2_000_000
FAST_PING_NS = 50_000_000  # then every 50 ms: for ``FAST_AFTER_CONNECT_NS`` and while performing
FAST_AFTER_CONNECT_NS = 30_000_000_000
PING_EVERY_NS = 250_000_000  # otherwise
PING_TIMEOUT_NS = 400_000_000
HELLO_TIMEOUT_NS = 2_000_000_000
INFO_RETRY_NS = 300_000_000
RESEND_RETRY_NS = 150_000_000  # first retry of a RESEND without progress, then doubling
RESEND_MAX_NS = 5_000_000_000
SEQ_WINDOW = 4096
"""A sequence number (press or heartbeat) more than this above the highest the
device has announced is a protocol error: a real device cannot get there between
two heartbeats (8 buttons, 30 ms lock-out: < 300 presses a second)."""
SILENT_NS = 4_000_000_000  # a link with no valid line for this long (HB: 1 s) is dead
DEAD_AFTER_FAILURES = 5  # reopen attempts in a row that failed: the device is "dead"
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
    state: str
    """``connected`` (lines arrive, clock synced) | ``resyncing`` (link up, clock
    being refitted) | ``reconnecting`` (the link ended, the port is being reopened)
    | ``disconnected`` (unplugged: its presses wait in the device) | ``dead`` (the
    port is there but cannot be opened, or the link stays silent)."""
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
    protocol_errors: int = 0
    """Well-formed lines that contradict what the device can do (a sequence number
    far outside its known range...): ignored, counted, logged."""
    clock_outliers: int = 0
    """Ping/pong samples that contradicted the clock model by more than their bound."""
    reconnects: int = 0
    """Links of this device that ended and were reopened (unplugs, dead readers)."""
    reader_deaths: int = 0
    """Links that ended with an error while the port stayed (the hub reopened them)."""
    queue_overflows: int = 0
    """Edges the firmware's core-to-core queue dropped (reported in ``HB``)."""

    @property
    def parse_errors(self) -> int:
        return self.corrupt


class RangeSet:
    """A set of positive integers kept as sorted, disjoint, non-adjacent ranges.

    Every operation costs O(log n + 1) list work in the number of ranges (a gap
    of 10^12 numbers is one range, not 10^12 entries); ``steps`` counts it.
    """

    __slots__ = ("hi", "lo", "steps")

    def __init__(self) -> None:
        self.lo: list[int] = []
        self.hi: list[int] = []
        self.steps = 0

    def __len__(self) -> int:
        return len(self.lo)

    def _find(self, x: int) -> int:
        """Index of the range that may hold ``x`` (the last with ``lo <= x``), or -1."""
        self.steps += 1
        return bisect.bisect_right(self.lo, x) - 1

    def __contains__(self, x: int) -> bool:
        i = self._find(x)
        return i >= 0 and x <= self.hi[i]

    def add_range(self, a: int, b: int) -> None:
        if a > b:
            return
        i = self._find(a)
        if i >= 0 and self.hi[i] >= a - 1:
            a = self.lo[i]
        else:
            i += 1
        j = i
        while j < len(self.lo) and self.lo[j] <= b + 1:
            self.steps += 1
            b = max(b, self.hi[j])
            j += 1
        self.lo[i:j] = [a]
        self.hi[i:j] = [b]

    def add(self, x: int) -> None:
        self.add_range(x, x)

    def remove(self, x: int) -> None:
        i = self._find(x)
        if i < 0 or x > self.hi[i]:
            return
        a, b = self.lo[i], self.hi[i]
        parts = [(p, q) for p, q in ((a, x - 1), (x + 1, b)) if p <= q]
        self.lo[i : i + 1] = [p for p, _ in parts]
        self.hi[i : i + 1] = [q for _, q in parts]

    def first_gap_after(self, start: int) -> int:
        """The smallest number >= ``start`` not in the set."""
        i = self._find(start)
        return self.hi[i] + 1 if i >= 0 and start <= self.hi[i] else start

    def gaps(self, a: int, b: int, limit: int = 1 << 30) -> list[tuple[int, int]]:
        """The ranges of ``[a, b]`` not in the set (at most ``limit`` of them)."""
        out: list[tuple[int, int]] = []
        x = a
        i = max(self._find(a), 0)
        while x <= b and len(out) < limit:
            self.steps += 1
            while i < len(self.lo) and self.hi[i] < x:
                i += 1
            if i < len(self.lo) and self.lo[i] <= x:
                x = self.hi[i] + 1
                continue
            end = min(b, self.lo[i] - 1) if i < len(self.lo) else b
            out.append((x, end))
            x = end + 1
        return out


@dataclass
class SeqRecord:
    """Which sequence numbers of one boot are settled: arrived, or given up as lost.

    ``contiguous``: every number up to it is settled (what the host acknowledges).
    Given-up numbers (the device's ring overflowed) are counted in ``lost``; if one
    arrives after all, it is delivered and no longer counted lost.
    """

    done: RangeSet = field(default_factory=RangeSet)
    gone: RangeSet = field(default_factory=RangeSet)
    highest: int = 0
    lost: int = 0

    @classmethod
    def starting_at(cls, last_seq: int) -> SeqRecord:
        record = cls(highest=last_seq)
        record.done.add_range(1, last_seq)
        return record

    @property
    def steps(self) -> int:
        return self.done.steps + self.gone.steps

    @property
    def contiguous(self) -> int:
        return self.done.first_gap_after(1) - 1

    def has(self, seq: int) -> bool:
        return seq in self.done and seq not in self.gone

    def add(self, seq: int) -> bool:
        """Record an arrival; False if it had arrived already (a duplicate)."""
        self.highest = max(self.highest, seq)
        if seq in self.gone:
            self.gone.remove(seq)
            self.lost -= 1
            return True
        if seq in self.done:
            return False
        self.done.add(seq)
        return True

    def give_up_below(self, seq: int) -> int:
        """The device dropped everything before ``seq`` that it did not send (ring
        overflow): count the loss. Costs O(gaps), whatever their length."""
        return sum(b - a + 1 for a, b in self.give_up_ranges(seq))

    def give_up_ranges(self, seq: int) -> list[tuple[int, int]]:
        """Like ``give_up_below``, returning the ranges given up."""
        ranges = self.done.gaps(1, seq - 1)
        for a, b in ranges:
            self.done.add_range(a, b)
            self.gone.add_range(a, b)
            self.lost += b - a + 1
        return ranges

    @classmethod
    def from_view(cls, view: LinkView, last_seq: int) -> SeqRecord:
        record = cls()
        for a, b in view.done:
            record.done.add_range(a, b)
        for a, b in view.gone:
            record.gone.add_range(a, b)
        record.lost = view.lost
        record.highest = max([last_seq, *(b for _, b in view.done)])
        return record

    @property
    def missing(self) -> bool:
        return self.highest > self.contiguous


@dataclass(frozen=True)
class LinkView:
    """What the session log knows of one device's boot (see ``link_views``)."""

    serial: str
    boot: str
    done: tuple[tuple[int, int], ...]
    """Settled numbers as ranges: arrived, predating the first meeting, or lost."""
    gone: tuple[tuple[int, int], ...] = ()
    """The numbers given up as lost (a part of ``done``)."""
    baseline: int = 0
    presses: int = 0
    samples: tuple[SyncSample, ...] = ()
    """Clock samples (a logged press's interval is one), in device-time order."""

    @property
    def lost(self) -> int:
        return sum(b - a + 1 for a, b in self.gone)


RESTORED_SAMPLES = 16
"""The newest logged clock samples of a boot a restored clock model starts from."""


def link_views(payloads: Iterable[Mapping[str, Any]]) -> list[LinkView]:
    """The link's view of every device, from a session's raw hardware log.

    ``payloads``: the ``hw`` entries in log order. Per device the boot of its last
    entry counts: the numbers its presses carry, everything up to the ``settled``
    of its ``tadaa-link`` entries (numbered before the app met it, or settled
    before this session listened), and its ``tadaa-lost`` ranges (an arrival
    after all takes its number off them). A log written before ``tadaa-link``
    existed: everything before a boot's first logged press predates it.
    """
    boots: dict[tuple[str, str], dict[str, Any]] = {}
    last_boot: dict[str, str] = {}
    for p in payloads:
        kind = p.get("kind")
        device, boot = p.get("device"), p.get("boot")
        if kind not in ("tadaa-press", "tadaa-link", "tadaa-lost"):
            continue
        if not isinstance(device, str) or not isinstance(boot, str):
            continue
        last_boot[device] = boot
        b = boots.setdefault(
            (device, boot),
            {
                "done": RangeSet(),
                "gone": RangeSet(),
                "settled": None,
                "first": None,
                "baseline": 0,
                "presses": 0,
                "samples": [],
            },
        )
        try:
            if kind == "tadaa-press":
                seq = int(p["seq"])
                if seq < 1:
                    continue
                b["done"].add(seq)
                b["gone"].remove(seq)
                b["presses"] += 1
                b["first"] = seq if b["first"] is None else min(b["first"], seq)
                unc = int(p.get("uncertainty_ns") or 0)
                if unc > 0:
                    host = int(p["host_ns"])
                    b["samples"].append(SyncSample(host - unc, host + unc, int(p["device_us"])))
            elif kind == "tadaa-link":
                settled = max(0, int(p.get("settled", 0)))
                b["settled"] = max(b["settled"] or 0, settled)
                b["baseline"] = max(b["baseline"], int(p.get("baseline", 0)))
                sample = p.get("sample")
                if isinstance(sample, list) and len(sample) == 3:
                    b["samples"].append(SyncSample(*(int(x) for x in sample)))
            else:
                for a, z in p.get("seqs", ()):
                    a, z = int(a), int(z)
                    if 1 <= a <= z:
                        b["gone"].add_range(a, z)
                        b["done"].add_range(a, z)
        except (KeyError, TypeError, ValueError):
            continue  # a damaged payload: the rest still counts
    views = []
    for device, boot in sorted(last_boot.items()):
        b = boots[(device, boot)]
        done: RangeSet = b["done"]
        if b["settled"] is not None:
            settled, baseline = b["settled"], b["baseline"]
        else:  # an older log: what came before the first logged press predates it
            settled = baseline = max(0, (b["first"] or 1) - 1)
        done.add_range(1, settled)
        samples: list[SyncSample] = []
        for s in sorted(b["samples"], key=lambda s: s.device_us):
            if s.rtt_ns > 0 and (not samples or s.device_us > samples[-1].device_us):
                samples.append(s)
        views.append(
            LinkView(
                device,
                boot,
                tuple(zip(done.lo, done.hi, strict=True)),
                tuple(zip(b["gone"].lo, b["gone"].hi, strict=True)),
                baseline=baseline,
                presses=b["presses"],
                samples=tuple(samples[-RESTORED_SAMPLES:]),
            )
        )
    return views


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
    resend_wait_ns: int = RESEND_RETRY_NS
    resend_from: int = 0  # the first missing number asked for last time
    acked: int = 0
    protocol_errors: int = 0
    reconnects: int = 0
    reader_deaths: int = 0
    lost_ns: int | None = None  # when the last link ended (None: a link is up)
    lost_with_error: bool = False
    queue_overflows: int = 0
    unsettled: set[int] = field(default_factory=set)
    """Numbers that arrived but whose listeners have not returned (waiting for the
    clock, or being recorded): never acknowledged before they are settled."""
    restored: bool = False
    """The record of this boot came from the session log (an app restart)."""

    fresh_needed: int = 0
    """Pongs still wanted after a reconnect before presses are mapped again (so a
    press made while unplugged is interpolated, not extrapolated across the gap)."""

    @property
    def ack_target(self) -> int:
        """The highest number the device may forget: every number up to it is
        settled (arrived and through the listeners, or given up as lost)."""
        contiguous = self.seqs.contiguous
        if self.unsettled:
            return min(contiguous, min(self.unsettled) - 1)
        return contiguous

    @property
    def synced(self) -> bool:
        est = self.clock.estimate
        return (
            est is not None
            and len(self.clock.samples) >= MIN_SYNC_SAMPLES
            and self.fresh_needed == 0
        )


class LinkReader(threading.Thread):
    """Layer 1: the reader loop of one port. Never dies silently.

    ``run`` catches *everything* (``BaseException``: a bare ``OSError`` from the
    ``in_waiting`` ioctl, a ``SerialException`` from ``read``, a bug) and always
    ends in ``DeviceLink.connection_lost``. A message the hub fails on is counted
    and the loop goes on.
    """

    def __init__(self, link: DeviceLink) -> None:
        super().__init__(name=f"tadaa-reader {link.port}", daemon=True)
        self.link = link
        self.parser = proto.LineParser()
        self.alive = True

    def run(self) -> None:
        link = self.link
        ser = link.serial
        error: BaseException | None = None
        try:
            link.connection_made()
            while self.alive:
                waiting = ser.in_waiting  # an ioctl: may raise OSError on a hang-up
                data = ser.read(waiting or 1)
                if data and self.alive:
                    self.data_received(data)
        except BaseException as exc:  # every way out is a lost connection
            error = exc if self.alive else None
        finally:
            self.alive = False
            link.connection_lost(error)

    def data_received(self, data: bytes) -> None:
        arrival = self.link.hub.clock()
        for message in self.parser.feed(data):
            try:
                self.link.message(message, arrival)
            except Exception as exc:  # a bug must not kill the reader: count and go on
                self.link.hub.bugs += 1
                self.link.hub.note_error(f"{type(exc).__name__}: {exc}")

    def stop(self) -> None:
        """Ask the loop to end (from another thread) and wait a little for it."""
        self.alive = False
        with contextlib.suppress(Exception):
            self.link.serial.cancel_read()
        if threading.current_thread() is not self and self.is_alive():
            self.join(2)


class DeviceLink:
    """Layer 2: one open port (a device, once it said HELLO)."""

    def __init__(self, hub: TadaaHub, port: str, ser: serial.Serial) -> None:
        self.hub = hub
        self.port = port
        self.serial = ser
        self.opened_ns = hub.clock()
        self.state: DeviceState | None = None
        self.thread = LinkReader(self)
        self.alive = True
        self.lost_reported = False
        # ping bookkeeping (hub thread writes, reader thread reads)
        self.ping_seq = 0
        self.ping_out: tuple[str, int] | None = None
        self.pings_sent = 0
        self.next_ping_ns = 0
        self.write_lock = threading.Lock()
        self.seen_valid = False  # a checked Tadaa line arrived (HELLO or not)
        self.info_sent_ns = 0
        self.last_line_ns = self.opened_ns
        self.hello_ns = 0

    def start(self) -> None:
        self.thread.start()

    @property
    def parse_errors(self) -> int:
        return self.thread.parser.stats.errors

    def connection_made(self) -> None:
        self.info_sent_ns = self.hub.clock()
        self.write(proto.cmd_info())

    def connection_lost(self, exc: BaseException | None) -> None:
        self.alive = False
        self.hub.link_lost(self, exc)

    def message(self, message: proto.Message, arrival_ns: int) -> None:
        self.last_line_ns = arrival_ns
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

    def send_ping(self, now_ns: int, fast: bool) -> None:
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
        self.next_ping_ns = now_ns + ping_gap_ns(self.pings_sent, fast, _PING_RNG)

    def close(self) -> None:
        """End the link from outside: the reader stops, then reports the loss."""
        self.alive = False
        self.thread.stop()
        with contextlib.suppress(serial.SerialException, OSError, ValueError):
            self.serial.close()
        if not self.thread.is_alive() and not self.lost_reported:
            self.hub.link_lost(self, None)


_PING_RNG = random.Random()


def ping_gap_ns(pings_sent: int, fast: bool, rng: random.Random) -> int:
    """When to ping next, after ``pings_sent`` pings of this connection.

    The gaps are dithered (±40 %) so the pings meet every phase of the timers on
    the way (USB frames, an FTDI adapter's 16 ms latency timer, the host's
    scheduler): a fixed period can lock onto one bad phase for good.
    """
    if pings_sent < PING_BURST:
        return BURST_GAP_NS
    base = FAST_PING_NS if fast else PING_EVERY_NS
    return int(base * rng.uniform(0.6, 1.4))


PressListener = Callable[[DevicePress], None]
StatusListener = Callable[[list[DeviceStatus]], None]
LinkListener = Callable[[dict[str, Any]], None]
"""Gets the link's own facts for the session log: ``tadaa-link`` (a boot met, what
is settled) and ``tadaa-lost`` (numbers given up), see ``link_views``."""


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
    ``open_port``: opens one port (default: ``serial.Serial``, exclusive).

    Other press sources (a keyboard, a HID device) do not go through the hub:
    they produce ``DevicePress``-like values of their own and feed the same
    ``Press`` path (``companion.hardware.feed``). The hub's interface for
    listeners is ``on_press`` (every new press once, mapped to host time) and
    ``on_status`` (a ``DeviceStatus`` list whenever something changed).
    """

    def __init__(
        self,
        configured: Iterable[str] = (),
        ports: Callable[[], list[str]] | None = None,
        clock: Clock = time.monotonic_ns,
        arm: bool = True,
        open_port: Callable[[str], serial.Serial] | None = None,
    ) -> None:
        configured = tuple(configured)
        self.configured = configured
        self.ports = ports or (lambda: candidate_ports(self.configured))
        self.clock = clock
        self.open_port = open_port or _open_serial
        self.devices: dict[str, DeviceState] = {}
        self.links: dict[str, DeviceLink] = {}  # by port
        self.not_tadaa: dict[str, int] = {}
        self.failed_opens: dict[str, int] = {}  # port -> failed attempts in a row
        self.present: set[str] = set()  # ports of the last scan
        self.left_alone: set[str] = set()  # shared-id ports that did not answer, until unplugged
        self._shared: dict[str, bool] = {}
        self.press_listeners: list[PressListener] = []
        self.status_listeners: list[StatusListener] = []
        self.link_listeners: list[LinkListener] = []
        self.known: dict[str, LinkView] = {}
        """Boots the session log knows, by serial, not met yet by this hub (``restore``)."""
        self._link_out: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.armed = arm
        self.performing = False
        self.worst_work = 0
        """Most work units (range operations, clock-fit samples) one line cost under the lock."""
        self.worst_hold_ns = 0
        """Longest the lock was held for one line (wall time, for benchmarks only)."""
        self.lines_handled = 0
        self.bugs = 0  # exceptions while handling a line (counted, the reader goes on)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._wake = threading.Event()
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
        self._wake.set()
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

    def set_configured(self, configured: Iterable[str]) -> None:
        """Watch these configured ports (or globs) from now on (the settings file
        changed: ``companion devices simulate`` added its ports, say)."""
        configured = tuple(configured)
        if configured != self.configured:
            self.configured = configured
            self._shared.clear()
            self.poke()

    def on_press(self, listener: PressListener) -> None:
        self.press_listeners.append(listener)

    def on_status(self, listener: StatusListener) -> None:
        self.status_listeners.append(listener)

    def on_link(self, listener: LinkListener) -> None:
        self.link_listeners.append(listener)

    def restore(self, views: Iterable[LinkView]) -> None:
        """Take the session log's view of its devices (an app restart: before the
        hub meets them). A device met already keeps its record, widened by what the
        log has settled for the same boot."""
        with self._lock:
            for view in views:
                state = self.devices.get(view.serial)
                if state is None:
                    self.known[view.serial] = view
                elif state.boot == view.boot:
                    for a, b in view.done:
                        state.seqs.done.add_range(a, b)
                    state.unsettled -= {
                        n for n in state.unsettled if any(a <= n <= b for a, b in view.done)
                    }

    def link_facts(self) -> list[dict[str, Any]]:
        """A ``tadaa-link`` payload per device met: for a session that starts listening."""
        with self._lock:
            return [self._link_fact(s) for s in self.devices.values()]

    @staticmethod
    def _link_fact(state: DeviceState) -> dict[str, Any]:
        last = state.clock.samples[-1] if state.clock.samples else None
        return {
            "kind": "tadaa-link",
            "device": state.serial,
            "boot": state.boot,
            "baseline": state.baseline,
            "settled": state.ack_target,
            "sample": [last.sent_ns, last.recv_ns, last.device_us] if last else None,
        }

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

    def set_performing(self, performing: bool) -> None:
        """A performance is running: ping every ``FAST_PING_NS`` so its presses
        are mapped with the tightest uncertainty the link allows."""
        with self._lock:
            self.performing = performing
            for link in self.links.values():
                link.next_ping_ns = min(link.next_ping_ns, self.clock())
        self._wake.set()

    def led(self, serial_no: str, button: int, mode: int) -> bool:
        with self._lock:
            state = self.devices.get(serial_no)
            link = state.link if state else None
        return link.write(proto.cmd_led(button, mode)) if link else False

    # ------------------------------------------------------------------ status

    def status(self) -> list[DeviceStatus]:
        with self._lock:
            return [self._status(s) for s in sorted(self.devices.values(), key=lambda s: s.serial)]

    def _state_word(self, s: DeviceState, now: int) -> str:
        link = s.link
        if link is not None:
            if now - link.last_line_ns > SILENT_NS:
                return "dead"
            return "connected" if s.synced else "resyncing"
        if s.port in self.present:
            # The port is still there: the hub reopens it (after a dead reader).
            if self.failed_opens.get(s.port, 0) >= DEAD_AFTER_FAILURES:
                return "dead"
            return "reconnecting"
        return "disconnected"

    def _status(self, s: DeviceState) -> DeviceStatus:
        est = s.clock.estimate
        now = self.clock()
        unc = None
        if est is not None:
            unc = est.to_host(round(est.to_device(now)), extra_ns=s.sample_us * 500.0)[1]
        corrupt = s.corrupt_before + (s.link.parse_errors if s.link else 0)
        return DeviceStatus(
            serial=s.serial,
            port=s.port,
            state=self._state_word(s, now),
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
            protocol_errors=s.protocol_errors,
            clock_outliers=s.clock.outliers,
            reconnects=s.reconnects,
            reader_deaths=s.reader_deaths,
            queue_overflows=s.queue_overflows,
        )

    def unconnected_ports(self) -> list[str]:
        with self._lock:
            return sorted(set(self.not_tadaa) | self.left_alone)

    # ------------------------------------------------------------------ the hub thread

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock()
            if self._status_dirty:
                # Said before the scan: a link lost since the last pass is shown as
                # "reconnecting" before the scan reopens it (reported after the scan,
                # a quick reopen hid the drop from the host's status line).
                self._status_dirty = False
                self._emit_status()
            try:
                if now >= self._next_scan:
                    self._next_scan = now + SCAN_EVERY_NS
                    self._scan(now)
                self._supervise(now)
                self._tick(now)
            except Exception as exc:  # keep the hub alive whatever happens
                self.note_error(f"hub: {type(exc).__name__}: {exc}")
            if self._status_dirty:
                self._status_dirty = False
                self._emit_status()
            self._wake.wait(0.005)
            self._wake.clear()

    def poke(self) -> None:
        """Scan for ports at the next tick (e.g. after a simulator replug)."""
        self._next_scan = 0
        self._wake.set()

    def _scan(self, now: int) -> None:
        try:
            ports = self.ports()
        except OSError:
            return
        with self._lock:
            if set(ports) != self.present:
                self._status_dirty = True
            self.present = set(ports)
            for gone in [p for p in self.not_tadaa if p not in ports]:
                del self.not_tadaa[gone]  # unplugged: try it afresh when it returns
            for gone in [p for p in self.failed_opens if p not in ports]:
                del self.failed_opens[gone]
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
            ser = self.open_port(port)
        except (serial.SerialException, OSError, ValueError) as exc:
            with self._lock:
                self.failed_opens[port] = self.failed_opens.get(port, 0) + 1
                self._status_dirty = True
            if self.failed_opens[port] == DEAD_AFTER_FAILURES:
                self.note_error(f"{port}: cannot be opened: {exc}")
            return
        link = DeviceLink(self, port, ser)
        with self._lock:
            self.failed_opens.pop(port, None)
            self.links[port] = link
        link.start()

    def _supervise(self, now: int) -> None:
        """Every link's reader must be running and hearing its device."""
        with self._lock:
            links = list(self.links.values())
        for link in links:
            state = link.state
            if link.thread.ident is not None and not link.thread.is_alive():
                if not link.lost_reported:  # cannot happen (the loop reports), but if
                    self.note_error(f"{link.port}: reader ended unreported")
                    self.link_lost(link, RuntimeError("reader ended"))
            elif state is not None and now - link.last_line_ns > SILENT_NS:
                # Open but mute (a wedged adapter, a hung reader): reopen it.
                self.note_error(f"{link.port}: silent for {SILENT_NS // 10**9} s, reopening")
                with self._lock:
                    state.reader_deaths += 1
                link.close()

    def _tick(self, now: int) -> None:
        with self._lock:
            links = list(self.links.values())
        for link in links:
            if not link.alive:
                continue
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
                fast = self.performing or now - link.hello_ns < FAST_AFTER_CONNECT_NS
                link.send_ping(now, fast)
            state = link.state
            if state is None:
                continue
            with self._lock:
                if state.seqs.missing and now - state.last_resend_ns > state.resend_wait_ns:
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
            if link.lost_reported:
                return
            link.lost_reported = True
            link.alive = False
            if self.links.get(link.port) is link:
                del self.links[link.port]
            state = link.state
            if state is not None and state.link is link:
                state.link = None
                state.corrupt_before += link.parse_errors
                state.lost_ns = self.clock()
                state.lost_with_error = exc is not None
                if exc is not None and os.path.exists(link.port):
                    # The port is still there: not an unplug, the reader died.
                    state.reader_deaths += 1
                    self.note_error(f"{link.port}: reader ended: {type(exc).__name__}: {exc}")
            if not os.path.exists(link.port):
                self.present.discard(link.port)  # unplugged: say so before the next scan
            self._status_dirty = True
            self._next_scan = 0  # reopen at once if the port is still there
        self._wake.set()
        # The reader thread has ended; release the port from here (not join itself).
        with contextlib.suppress(serial.SerialException, OSError, ValueError):
            link.serial.close()

    def message(self, link: DeviceLink, msg: proto.Message, arrival: int) -> None:
        emit: list[DevicePress] = []
        with self._lock:
            started = time.perf_counter_ns()
            state = link.state
            work0 = self._work(state)
            if isinstance(msg, proto.Hello):
                emit = self._hello(link, msg, arrival)
            elif state is None:
                # A Tadaa device (its lines check out) whose HELLO we missed: ask
                # again. Nothing counts before HELLO: we do not know whose it is.
                link.seen_valid = True
                if arrival - link.info_sent_ns > INFO_RETRY_NS:
                    link.info_sent_ns = arrival
                    link.write(proto.cmd_info())
                return
            elif isinstance(msg, proto.PressEvent):
                emit = self._press(state, msg, arrival)
            elif isinstance(msg, proto.Pong):
                emit = self._pong(link, msg, arrival)
            elif isinstance(msg, proto.Heartbeat):
                self._heartbeat(state, msg, arrival)
            elif isinstance(msg, proto.DeviceError):
                if msg.code == "CRC":
                    state.device_corrupt += 1
                if msg.code == "BOOT":  # we spoke to an older boot: ask who it is
                    link.write(proto.cmd_info())
            state = link.state
            self.lines_handled += 1
            self.worst_work = max(self.worst_work, self._work(state) - work0)
            self.worst_hold_ns = max(self.worst_hold_ns, time.perf_counter_ns() - started)
        self._deliver(emit)

    def _deliver(self, emit: list[DevicePress]) -> None:
        """Outside the lock: the link's facts, then the presses; then acknowledge
        what the listeners took (a kill before leaves the press in the device)."""
        facts: list[dict[str, Any]] = []
        if self._link_out:
            with self._lock:
                facts, self._link_out = self._link_out, []
        try:
            for fact in facts:
                for link_listener in list(self.link_listeners):
                    link_listener(fact)
            for press in emit:
                for listener in list(self.press_listeners):
                    listener(press)
        finally:
            if emit:
                self._settle(emit)

    def _settle(self, emitted: list[DevicePress]) -> None:
        with self._lock:
            touched: dict[str, DeviceState] = {}
            for press in emitted:
                state = self.devices.get(press.serial)
                if state is not None and state.boot == press.boot:
                    state.unsettled.discard(press.seq)
                    touched[state.serial] = state
            for state in touched.values():
                self._ack(state)

    def _ack(self, state: DeviceState) -> None:
        target = state.ack_target
        if target > state.acked and state.link is not None:
            state.link.write(proto.cmd_ack(state.boot, target))
            state.acked = target

    @staticmethod
    def _work(state: DeviceState | None) -> int:
        return 0 if state is None else state.seqs.steps + state.clock.steps

    def _protocol_error(self, state: DeviceState, text: str) -> None:
        state.protocol_errors += 1
        self.note_error(f"{state.serial}: protocol error: {text}")
        self._status_dirty = True

    def _hello(self, link: DeviceLink, hello: proto.Hello, arrival: int) -> list[DevicePress]:
        state = self.devices.get(hello.serial)
        known = self.known.pop(hello.serial, None) if state is None else None
        met = state is None or state.boot != hello.boot
        if known is not None and known.boot == hello.boot:
            # The session log knows this boot (the app restarted, the device kept
            # running): not a first meeting. What the log lacks is asked for again.
            state = DeviceState(hello.serial, hello, hello.boot, baseline=known.baseline)
            state.seqs = SeqRecord.from_view(known, hello.last_seq)
            state.presses = known.presses
            state.restored = True
            for sample in known.samples:
                state.clock.add(sample)
            state.fresh_needed = MIN_SYNC_SAMPLES
            self.devices[hello.serial] = state
            met = False
        elif known is not None:
            # The log knows this device by another boot: it restarted while the app
            # was down. Every press of the new boot counts (asked for from 1); what
            # the old boot still held then went with its memory, and nobody can say
            # how much: say so.
            self.note_error(
                f"{hello.serial}: restarted while the app was down; presses it held "
                "then are lost (how many cannot be known)"
            )
            state = DeviceState(hello.serial, hello, hello.boot, baseline=0)
            state.seqs.highest = hello.last_seq
            self.devices[hello.serial] = state
        elif state is None:
            # First meeting with this boot: what it numbered so far predates us.
            state = DeviceState(hello.serial, hello, hello.boot, baseline=hello.last_seq)
            state.seqs = SeqRecord.starting_at(hello.last_seq)
            state.acked = 0
            self.devices[hello.serial] = state
        elif state.boot != hello.boot:
            # It restarted: new numbering, new clock. Everything of the new boot counts.
            state.boot = hello.boot
            state.baseline = 0
            state.seqs = SeqRecord()
            state.clock.reset()
            state.pending.clear()
            state.unsettled.clear()
            state.acked = 0
            state.resend_wait_ns = RESEND_RETRY_NS
            if hello.last_seq:
                state.seqs.highest = hello.last_seq
        else:  # the same boot came back (cable, hub, a dead reader): keep its clock
            # HELLO is the device's own word on its numbering: it may be far ahead
            # after a long unplug (the ring keeps what it can; OVERFLOW says the rest).
            state.seqs.highest = max(state.seqs.highest, hello.last_seq)
            if state.link is not link:
                state.fresh_needed = MIN_SYNC_SAMPLES
            state.resend_wait_ns = RESEND_RETRY_NS
        if state.link is not None and state.link is not link:
            old = state.link
            state.corrupt_before += old.parse_errors
            old.state = None
        if state.link is not link:
            if state.lost_ns is not None:
                state.reconnects += 1
            link.hello_ns = arrival
        state.lost_ns = None
        state.hello = hello
        state.link = link
        state.port = link.port
        link.state = state
        link.pings_sent = 0
        link.next_ping_ns = 0
        link.write(proto.cmd_arm(self.armed))
        self._ack(state)
        if met:  # for the session log: which boot, what is settled (see ``link_views``)
            self._link_out.append(self._link_fact(state))
        # Ask for everything the device still holds beyond what we have (a dead
        # reader may have swallowed lines the device thinks were sent).
        self._request_resend(state, arrival, force=True)
        self._status_dirty = True
        self._wake.set()
        return []

    def _request_resend(self, state: DeviceState, now: int, force: bool = False) -> None:
        """RESEND from the first missing number; backed off while it brings nothing."""
        if state.link is None:
            return
        first = state.seqs.contiguous + 1
        if not force:
            if first == state.resend_from:  # no progress since the last request
                state.resend_wait_ns = min(state.resend_wait_ns * 2, RESEND_MAX_NS)
            else:
                state.resend_wait_ns = RESEND_RETRY_NS
        state.resend_from = first
        state.last_resend_ns = now
        state.resends += 1
        state.link.write(proto.cmd_resend(state.boot, first))

    def _press(self, state: DeviceState, ev: proto.PressEvent, arrival: int) -> list[DevicePress]:
        link = state.link
        if ev.boot != state.boot or link is None:
            return []
        if ev.seq > state.seqs.highest + SEQ_WINDOW:
            self._protocol_error(
                state, f"press #{ev.seq} beyond the known range (last {state.seqs.highest})"
            )
            return []
        emit: list[DevicePress] = []
        if ev.overflow:
            self._give_up(state, ev.seq)
        if state.seqs.has(ev.seq):
            state.duplicates += 1
            # It came again: our acknowledgement was lost. Say it again.
            state.acked = min(state.acked, ev.seq - 1)
        elif state.seqs.add(ev.seq):
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
            state.unsettled.add(ev.seq)
            if state.synced:
                emit.append(self._map(state, press))
            else:
                state.pending.append(press)
        self._ack(state)
        if state.seqs.missing and arrival - state.last_resend_ns > state.resend_wait_ns:
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
        if link.pings_sent < PING_BURST:
            self._wake.set()  # the burst: the next ping at once
        before = state.clock.outliers
        state.clock.add(SyncSample(out[1], arrival, pong.t_us))
        if state.clock.outliers == before:
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
        if hb.last_seq > state.seqs.highest + SEQ_WINDOW:
            self._protocol_error(
                state, f"heartbeat #{hb.last_seq} beyond the known range ({state.seqs.highest})"
            )
            return
        if hb.unacked > hb.last_seq:
            self._protocol_error(state, f"heartbeat holds {hb.unacked} of {hb.last_seq} presses")
            return
        state.sample_us = hb.sample_us
        state.queue_overflows = max(state.queue_overflows, hb.queue_overflows)
        if hb.last_seq > state.seqs.highest:
            state.seqs.highest = hb.last_seq  # a last event was lost: ask for it
        forgotten = hb.last_seq - hb.unacked
        if state.seqs.contiguous < forgotten:
            # The device holds nothing up to ``forgotten`` (acknowledged by an earlier
            # process, or dropped): what we lack there can never come. Count it lost.
            self._give_up(state, forgotten + 1)
        target = state.ack_target
        if hb.unacked and target > forgotten:
            # The device still holds events we have: an acknowledgement was lost.
            state.acked = min(state.acked, forgotten)
            self._ack(state)
        self._status_dirty = True

    def _give_up(self, state: DeviceState, below: int) -> None:
        ranges = state.seqs.give_up_ranges(below)
        if ranges:
            count = sum(b - a + 1 for a, b in ranges)
            self.note_error(f"{state.serial}: {count} press(es) lost for good before #{below}")
            self._link_out.append(
                {
                    "kind": "tadaa-lost",
                    "device": state.serial,
                    "boot": state.boot,
                    "seqs": [list(r) for r in ranges],
                }
            )


def _open_serial(port: str) -> serial.Serial:
    # exclusive: a second companion (e.g. `devices monitor`) must not split the bytes
    ser = serial.Serial(port, 115200, timeout=1, write_timeout=0.5, exclusive=True)
    keep_dtr_on_close(ser)
    return ser


def keep_dtr_on_close(ser: serial.Serial) -> None:
    """Clear the port's HUPCL, so closing it (a quit, a kill) leaves DTR up.

    An Arduino Uno (or any board behind a USB-serial chip with the auto-reset
    capacitor) restarts when DTR drops and rises again. With HUPCL set (the
    default) every restart of the app reset the box and wiped its ring of
    unacknowledged presses; cleared, the next open finds DTR already up and the
    board keeps running, so presses made while the app was down are resent. The
    setting stays with the tty until it is unplugged. Not a tty (a test's
    loopback): nothing to do."""
    try:
        import termios

        fd = ser.fileno()
        attrs = termios.tcgetattr(fd)
        if attrs[2] & termios.HUPCL:
            attrs[2] &= ~termios.HUPCL
            termios.tcsetattr(fd, termios.TCSANOW, attrs)
    except (ImportError, OSError, ValueError, AttributeError, serial.SerialException):
        pass


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
