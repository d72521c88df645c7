"""Simulated Tadaa devices on real pseudo-terminals, speaking the firmware's logic.

Each ``SimDevice`` runs the very ``tadaa_logic.TadaaDevice`` the firmware runs,
behind a pty whose other end any serial program (the companion, ``picocom``) can
open. What a real setup adds, the simulator adds on purpose:

* its own clock: ``offset_us`` and ``drift_ppm`` against the host's monotonic clock;
* a transport per direction (``Transport``): a fixed delay, random jitter with rare
  scheduling spikes, USB frame quantisation (1 ms), an optional FTDI-like 16 ms
  latency timer; bytes stay in order, as on a real serial line; asymmetric by
  default (device -> host is slower than host -> device);
* faults: dropped or corrupted bytes at a rate, or on the next N press lines;
* contact bounce on every press and release; a sampling period;
* unplug / replug (the pty disappears, a new one appears; the device keeps
  running, or reboots with a new boot id);
* scripted presses at chosen host-monotonic instants, so gaps of microseconds
  across devices are exact in device time.

One thread runs every device: a timer heap plus ``select`` on the pty masters.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import itertools
import math
import os
import random
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.hardware import tadaa_logic as logic

Clock = Callable[[], int]


@dataclass(frozen=True)
class Transport:
    """Delay model of one direction of a USB serial line (µs)."""

    base_us: float = 120.0
    jitter_us: float = 150.0  # mean of an exponential
    spike_prob: float = 0.01  # a scheduling hiccup on the host
    spike_us: float = 3000.0
    frame_us: float = 1000.0  # USB full-speed frames; 0 = no quantisation
    latency_timer_us: float = 0.0  # FTDI holds bytes until this timer fires (16 ms)
    drop_rate: float = 0.0  # probability per line that one byte is lost
    corrupt_rate: float = 0.0  # probability per line that one byte is damaged
    uniform_us: float = 0.0  # plus a delay uniform in [0, uniform_us] (a busy, jittery link)

    def delay_ns(self, rng: random.Random, now_ns: int, phase_ns: int) -> int:
        d = self.base_us + rng.expovariate(1.0 / self.jitter_us) if self.jitter_us else self.base_us
        if self.uniform_us:
            d += rng.uniform(0.0, self.uniform_us)
        if self.spike_prob and rng.random() < self.spike_prob:
            d += rng.uniform(0, self.spike_us)
        t = now_ns + d * 1000.0
        for grid in (self.latency_timer_us, self.frame_us):
            if grid:
                g = grid * 1000.0
                t = math.ceil((t - phase_ns) / g) * g + phase_ns
        return int(t)


# Defaults, from how a full-speed USB CDC device behaves on a Linux host: an OUT
# transfer waits for the next 1 ms frame; the host polls the IN endpoint
# continuously, so replies come back within a 125 µs micro-frame (behind a
# high-speed hub) plus driver and Python scheduling; device -> host is slower.
DEVICE_TO_HOST = Transport(base_us=150.0, jitter_us=200.0, frame_us=125.0)
HOST_TO_DEVICE = Transport(base_us=80.0, jitter_us=60.0, frame_us=1000.0)
# Worst case: both directions aligned to 1 ms frames.
FRAMED_BOTH = Transport(base_us=150.0, jitter_us=200.0, frame_us=1000.0)
# A jittery link (a loaded host, a hub chain): round trips spread evenly over
# 0.2–6 ms, so only ~2 % of samples come within 0.1 ms of the best.
JITTERY = Transport(base_us=100.0, jitter_us=0.0, spike_prob=0.0, frame_us=0.0, uniform_us=2900.0)
# An FTDI-style adapter holds received bytes until its 16 ms latency timer fires.
FTDI = Transport(base_us=150.0, jitter_us=200.0, frame_us=1000.0, latency_timer_us=16000.0)


@dataclass
class SimDeviceConfig:
    serial: str
    buttons: int = 1
    offset_us: int = 0
    drift_ppm: float = 0.0
    debounce_us: int = 30000
    sample_us: int = 1  # the firmware's sampling period (viper loop: < 1 µs)
    bounce_us: int = 0  # contact bounce after each edge
    hold_ms: float = 80.0
    ring_size: int = 256  # the firmware's buffer of unacknowledged presses
    to_host: Transport = field(default_factory=lambda: DEVICE_TO_HOST)
    to_device: Transport = field(default_factory=lambda: HOST_TO_DEVICE)

    def __post_init__(self) -> None:
        """Refuse what a real device cannot have (its lines would then be ones the
        host rightly drops, and a test would measure the simulator, not the host)."""
        problems = []
        serial_ok = 0 < len(self.serial) <= 64 and all(0x21 <= ord(c) <= 0x7E for c in self.serial)
        if not serial_ok:
            problems.append(f"serial {self.serial!r}: 1-64 printable characters, no spaces")
        if not 1 <= self.buttons <= logic.MAX_BUTTONS:
            problems.append(f"buttons {self.buttons}: 1 to {logic.MAX_BUTTONS}")
        if self.offset_us < 0:
            problems.append(f"offset_us {self.offset_us}: device time counts up from boot (>= 0)")
        if not -1000.0 <= self.drift_ppm <= 1000.0:
            problems.append(f"drift_ppm {self.drift_ppm}: a clock is within ±1000 ppm")
        if not 0 <= self.debounce_us <= 10_000_000:
            problems.append(f"debounce_us {self.debounce_us}: 0 to 10 s")
        if not 1 <= self.sample_us <= 100_000:
            problems.append(f"sample_us {self.sample_us}: the timer ticks in 1 µs (1 to 100,000)")
        if self.bounce_us < 0 or self.hold_ms <= 0:
            problems.append("bounce_us >= 0 and hold_ms > 0")
        if self.ring_size < 1:
            problems.append(f"ring_size {self.ring_size}: at least 1")
        for name, tr in (("to_host", self.to_host), ("to_device", self.to_device)):
            delays = (tr.base_us, tr.jitter_us, tr.spike_us, tr.frame_us, tr.latency_timer_us)
            if min(*delays, tr.uniform_us) < 0:
                problems.append(f"{name}: delays cannot be negative")
            if not (
                0 <= tr.spike_prob <= 1 and 0 <= tr.drop_rate <= 1 and 0 <= tr.corrupt_rate <= 1
            ):
                problems.append(f"{name}: probabilities are 0 to 1")
        if problems:
            raise ValueError("not a device a board could be: " + "; ".join(problems))


def _boot_id(rng: random.Random) -> str:
    return f"{rng.getrandbits(32):08X}"


class SimDevice:
    """One simulated device (state only; the ``Simulator`` thread drives it)."""

    def __init__(self, sim: Simulator, config: SimDeviceConfig, t0_ns: int) -> None:
        self.sim = sim
        self.config = config
        self.t0_ns = t0_ns
        self.rng = random.Random(sim.rng.getrandbits(64))
        self.master: int | None = None
        self.slave: int | None = None
        self.path = ""
        self.out_due = 0  # last delivery time scheduled to the host (bytes keep order)
        self.in_due = 0
        self.out_phase = self.rng.randrange(1_000_000)
        self.in_phase = self.rng.randrange(1_000_000)
        self.mask = 0
        self.lines_sent = 0
        self.lines_damaged = 0
        self.damage_next_presses = 0
        self.drop_next_presses = 0
        self.generation = 0
        self.plugs = 0
        self.events: list[tuple[int, int, int, int]] = []  # (seq, button, t_us, flags) made
        self.rewrites: list[tuple[str, Callable[[list[str]], list[str]]]] = []
        self.outbuf = b""  # bytes the host's side had no room for yet
        self.flush_due = False
        self.pending_edges: dict[int, list[tuple[int, bool]]] = {}
        self.device = self._new_logic()

    def _new_logic(self) -> logic.TadaaDevice:
        c = self.config
        return logic.TadaaDevice(
            c.buttons,
            _boot_id(self.rng),
            c.serial,
            debounce_us=c.debounce_us,
            ring_size=c.ring_size,
            t_us=self.device_us(self.sim.clock()),
            initial_mask=self.mask,
        )

    # ------------------------------------------------------------------ time

    def device_us_float(self, host_ns: int) -> float:
        c = self.config
        return c.offset_us + (host_ns - self.t0_ns) / 1000.0 * (1.0 + c.drift_ppm * 1e-6)

    def device_us(self, host_ns: int) -> int:
        return math.floor(self.device_us_float(host_ns))

    def stamp_us(self, host_ns: int) -> int:
        """The device time a press at ``host_ns`` gets: the next sampling instant."""
        p = self.config.sample_us
        return math.ceil(self.device_us_float(host_ns) / p) * p

    @property
    def boot_id(self) -> str:
        return str(self.device.boot_id)

    @property
    def plugged(self) -> bool:
        return self.master is not None

    # ------------------------------------------------------------------ pty

    def plug(self) -> str:
        import tty  # POSIX only, like the ptys themselves

        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self.master, self.slave = master, slave
        self.path = os.ttyname(slave)
        self.generation += 1
        self.plugs += 1
        self.out_due = self.in_due = 0
        self.outbuf = b""  # what was in flight when unplugged is gone
        self.flush_due = False
        self.device.assembler = logic.LineAssembler()
        return self.path

    def unplug(self) -> None:
        self.outbuf = b""
        for fd in (self.master, self.slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self.master = self.slave = None
        self.path = ""


class Simulator:
    """Runs simulated devices; use as a context manager or ``start``/``stop``.

    ``link_dir``: if given, each device gets a symlink ``tadaa-<serial>`` there,
    re-pointed at its new pty after a replug (like udev's stable names).
    ``on_line``: called with (device, line bytes) for every line a device sends.
    """

    def __init__(
        self,
        configs: list[SimDeviceConfig],
        *,
        seed: int | None = None,
        clock: Clock = time.monotonic_ns,
        link_dir: str | Path | None = None,
        on_line: Callable[[SimDevice, bytes], None] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        self.clock = clock
        self.link_dir = Path(link_dir) if link_dir else None
        self.on_line = on_line
        t0 = clock()
        self.devices = [SimDevice(self, c, t0) for c in configs]
        self._heap: list[tuple[int, int, Callable[[], None]]] = []
        self._counter = itertools.count()
        self._lock = threading.RLock()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Simulator:
        for dev in self.devices:
            dev.plug()
            self._link(dev)
        self._thread = threading.Thread(target=self._run, name="tadaa-sim", daemon=True)
        self._thread.start()
        for dev in self.devices:
            self._schedule(self.clock(), functools.partial(self._poll, dev))
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(3)
        for dev in self.devices:
            dev.unplug()
            self._unlink(dev)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> Simulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def paths(self) -> list[str]:
        with self._lock:
            return [d.path for d in self.devices if d.plugged]

    def device(self, serial: str) -> SimDevice:
        for d in self.devices:
            if d.config.serial == serial:
                return d
        raise KeyError(serial)

    # ------------------------------------------------------------------ control (any thread)

    def press(
        self,
        dev: SimDevice,
        button: int,
        at_ns: int,
        hold_ms: float | None = None,
        bounce_us: int | None = None,
    ) -> int:
        """Press ``button`` at host-monotonic ``at_ns``; returns its device stamp (µs)."""
        hold = dev.config.hold_ms if hold_ms is None else hold_ms
        bounce = dev.config.bounce_us if bounce_us is None else bounce_us
        bit = 1 << (button - 1)
        release_ns = at_ns + int(hold * 1e6)
        self._edge(dev, at_ns, bit, True)
        for t_ns, level in self._bounce(dev, at_ns, bounce, True):
            self._edge(dev, t_ns, bit, level)
        self._edge(dev, release_ns, bit, False)
        for t_ns, level in self._bounce(dev, release_ns, bounce, False):
            self._edge(dev, t_ns, bit, level)
        return dev.stamp_us(at_ns)

    def _bounce(
        self, dev: SimDevice, start_ns: int, bounce_us: int, final: bool
    ) -> list[tuple[int, bool]]:
        if bounce_us <= 0:
            return []
        out: list[tuple[int, bool]] = []
        t = start_ns
        level = final
        while True:
            t += int(dev.rng.uniform(30, 400) * 1000)
            if t - start_ns >= bounce_us * 1000:
                break
            level = not level
            out.append((t, level))
        if level != final:
            out.append((t, final))
        return out

    def _edge(self, dev: SimDevice, at_ns: int, bit: int, pressed: bool) -> None:
        # Edges that fall into the same sampling instant are seen together: a tie.
        key = dev.stamp_us(at_ns)
        with self._lock:
            pending = dev.pending_edges.get(key)
            if pending is not None:
                pending.append((bit, pressed))
                return
            dev.pending_edges[key] = [(bit, pressed)]

        def apply() -> None:
            with self._lock:
                edges = dev.pending_edges.pop(key, [])
            for b, level in edges:
                if level:
                    dev.mask |= b
                else:
                    dev.mask &= ~b
            self._sample(dev, key)

        self._schedule(at_ns, apply)

    def unplug(self, dev: SimDevice) -> None:
        with self._lock:
            dev.unplug()
            self._unlink(dev)
        self._wake()

    def replug(self, dev: SimDevice, reboot: bool = False) -> str:
        """Plug back in (a new pty path). ``reboot``: the device restarts (new boot
        id, empty ring, its clock starts again from zero)."""
        with self._lock:
            if dev.plugged:
                dev.unplug()
            if reboot:
                now = self.clock()
                dev.t0_ns = now
                dev.config.offset_us = 0
                dev.mask = 0
                dev.device = dev._new_logic()
            path = dev.plug()
            self._link(dev)
        self._wake()
        return path

    def damage_next_presses(self, dev: SimDevice, n: int = 1, drop: bool = False) -> None:
        with self._lock:
            if drop:
                dev.drop_next_presses += n
            else:
                dev.damage_next_presses += n

    def inject(self, dev: SimDevice, body: str) -> None:
        """Send a line the device's logic did not make (a hostile or broken device),
        framed and checksummed, through the device's transport."""
        self.call(lambda: self._send(dev, [logic.frame(body)]))

    def rewrite_next(self, dev: SimDevice, kind: str, fn: Callable[[list[str]], list[str]]) -> None:
        """Rewrite the fields of the next line of ``kind`` (e.g. ``"PONG"``) the
        device sends; the checksum is made afresh (a well-formed lie)."""
        with self._lock:
            dev.rewrites.append((kind, fn))

    def call(self, fn: Callable[[], None], at_ns: int | None = None) -> None:
        """Run ``fn`` on the simulator thread (at ``at_ns``, default now)."""
        self._schedule(self.clock() if at_ns is None else at_ns, fn)

    # ------------------------------------------------------------------ the thread

    def _schedule(self, due_ns: int, fn: Callable[[], None]) -> None:
        with self._lock:
            heapq.heappush(self._heap, (due_ns, next(self._counter), fn))
        self._wake()

    def _wake(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock()
            with self._lock:
                due: list[Callable[[], None]] = []
                while self._heap and self._heap[0][0] <= now:
                    due.append(heapq.heappop(self._heap)[2])
                timeout = (self._heap[0][0] - now) / 1e9 if self._heap else 0.05
                fds = {d.master: d for d in self.devices if d.master is not None}
            for fn in due:
                try:
                    fn()
                except Exception:  # a broken script must not stop the other devices
                    import traceback

                    traceback.print_exc()
            if due:
                continue
            try:
                ready, _, _ = select.select([self._wake_r, *fds], [], [], min(timeout, 0.05))
            except (OSError, ValueError):
                continue
            for fd in ready:
                if fd == self._wake_r:
                    with contextlib.suppress(OSError):
                        os.read(self._wake_r, 4096)
                    continue
                dev = fds[fd]
                with self._lock:
                    # A replug from another thread since the select closed this
                    # master, and its number may be anyone's now: a new master not
                    # made non-blocking yet (a read would block this thread, and
                    # every device with it). Read only the device's own master; the
                    # lock keeps it so (replug holds it from close to non-blocking).
                    if dev.master != fd:
                        continue
                    try:
                        data = os.read(fd, 4096)
                    except (BlockingIOError, InterruptedError):
                        continue
                    except OSError:
                        continue  # the host side is closed; nothing to read
                if data:
                    self._from_host(dev, data)

    # ------------------------------------------------------------------ device behaviour

    def _from_host(self, dev: SimDevice, data: bytes) -> None:
        now = self.clock()
        tr = dev.config.to_device
        gen = dev.generation
        due = max(tr.delay_ns(dev.rng, now, dev.in_phase), dev.in_due)
        dev.in_due = due
        data = self._damage(dev, tr, data, line_fault=False)

        def deliver() -> None:
            if dev.generation != gen or not dev.plugged:
                return
            # The device answers at its own time (``due``), even if this thread got
            # here a little late: only the real transport delays it.
            self._send(dev, dev.device.on_bytes(data, dev.device_us(due)), at_ns=due)

        self._schedule(due, deliver)

    def _sample(self, dev: SimDevice, stamp: int) -> None:
        lines = dev.device.on_sample(stamp, dev.mask)
        for line in lines:  # the truth, for tests and benchmarks
            f = str(logic.unframe(line[:-1])).split(" ")
            dev.events.append((int(f[2]), int(f[3]), int(f[4]), int(f[5], 16)))
        self._send(dev, lines)

    def _poll(self, dev: SimDevice) -> None:
        if self._stop.is_set():
            return
        now = self.clock()
        dev.device.note_loop(dev.config.sample_us)
        self._send(dev, dev.device.poll(dev.device_us(now)))
        self._schedule(now + 5_000_000, lambda: self._poll(dev))

    def _damage(self, dev: SimDevice, tr: Transport, line: bytes, line_fault: bool) -> bytes:
        rng = dev.rng
        damaged = line
        if line_fault and dev.drop_next_presses:
            dev.drop_next_presses -= 1
            return b""
        if (line_fault and dev.damage_next_presses) or (
            tr.corrupt_rate and rng.random() < tr.corrupt_rate
        ):
            if line_fault and dev.damage_next_presses:
                dev.damage_next_presses -= 1
            i = rng.randrange(max(len(damaged) - 1, 1))
            damaged = damaged[:i] + bytes([damaged[i] ^ (1 << rng.randrange(7))]) + damaged[i + 1 :]
        if tr.drop_rate and rng.random() < tr.drop_rate and len(damaged) > 1:
            i = rng.randrange(len(damaged))
            damaged = damaged[:i] + damaged[i + 1 :]
        if damaged != line:
            dev.lines_damaged += 1
        return damaged

    def _send(self, dev: SimDevice, lines: list[bytes], at_ns: int | None = None) -> None:
        if not lines:
            return
        now = self.clock() if at_ns is None else at_ns
        tr = dev.config.to_host
        for line in lines:
            line = self._rewrite(dev, line)
            if self.on_line is not None:
                self.on_line(dev, line)
            if not dev.plugged:
                continue  # into the void: the firmware keeps it and retries
            dev.lines_sent += 1
            is_press = line.startswith(b"P ")
            data = self._damage(dev, tr, line, line_fault=is_press)
            due = max(tr.delay_ns(dev.rng, now, dev.out_phase), dev.out_due)
            dev.out_due = due
            gen = dev.generation

            def write(data: bytes = data, gen: int = gen) -> None:
                with self._lock:  # a replug waits: the line goes to its own connection
                    if dev.generation != gen or dev.master is None:
                        return
                    dev.outbuf += data
                    self._flush(dev)

            self._schedule(due, write)

    def _flush(self, dev: SimDevice) -> None:
        """Write what the host has room for; the rest waits (USB flow control: a
        device whose host does not read blocks, it does not lose bytes). Called with
        the lock held, so the master is the connection the bytes were meant for."""
        if dev.master is None or not dev.outbuf:
            return
        try:
            n = os.write(dev.master, dev.outbuf)
        except BlockingIOError:
            n = 0
        except OSError:
            dev.outbuf = b""
            return
        dev.outbuf = dev.outbuf[n:]
        if dev.outbuf and not dev.flush_due:
            dev.flush_due = True
            gen = dev.generation

            def again() -> None:
                with self._lock:
                    dev.flush_due = False
                    if dev.generation == gen:
                        self._flush(dev)

            self._schedule(self.clock() + 1_000_000, again)

    def _rewrite(self, dev: SimDevice, line: bytes) -> bytes:
        if not dev.rewrites:
            return line
        body = logic.unframe(line[:-1])
        if body is None:
            return line
        fields = body.split(" ")
        with self._lock:
            for i, (kind, fn) in enumerate(dev.rewrites):
                if fields[0] == kind:
                    del dev.rewrites[i]
                    return logic.frame(" ".join(fn(fields)))
        return line

    # ------------------------------------------------------------------ stable names

    def _link(self, dev: SimDevice) -> None:
        if self.link_dir is None:
            return
        self.link_dir.mkdir(parents=True, exist_ok=True)
        link = self.link_dir / f"tadaa-{dev.config.serial}"
        tmp = link.with_suffix(".tmp")
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        tmp.symlink_to(dev.path)
        tmp.replace(link)

    def _unlink(self, dev: SimDevice) -> None:
        if self.link_dir is None:
            return
        with contextlib.suppress(FileNotFoundError):
            (self.link_dir / f"tadaa-{dev.config.serial}").unlink()


# --------------------------------------------------------------------------- fuzzing


def fuzz_line(rng: random.Random, boot: str, valid: list[bytes]) -> bytes:
    """One hostile line (with its newline) of a random kind: raw bytes, a valid
    line with damaged bytes, or a *well-formed* line (good checksum) whose fields
    are random: tokens, huge or negative numbers, wrong counts, other boot ids."""
    kind = rng.randrange(4)
    if kind == 0:
        n = rng.randrange(0, 200)
        return bytes(rng.randrange(256) for _ in range(n)).replace(b"\n", b"") + b"\n"
    if kind == 1:
        line = bytearray(rng.choice(valid))
        for _ in range(rng.randrange(1, 4)):
            line[rng.randrange(len(line) - 1)] = rng.randrange(256)
        return bytes(line).replace(b"\n", b"")[:200] + b"\n"
    numbers = [
        "0",
        "1",
        "-1",
        str(rng.randrange(1 << 20)),
        str(rng.randrange(1 << 64)),
        str(1 << 62),
        "9" * rng.randrange(1, 30),
        "1e9",
        "0x10",
        "",
    ]
    other = f"{rng.getrandbits(32):08X}"
    head = rng.choice(["P", "HB", "PONG", "HELLO", "OK", "ERR", "P", "HB", "X", ""])
    fields = [head, rng.choice([boot, boot, other, "ZZZZZZZZ", ""])]
    for _ in range(rng.randrange(0, 9)):
        fields.append(rng.choice([*numbers, "8", "F", "ARM", "CRC", "é", "a b"]))
    body = " ".join(fields)
    body = "".join(c for c in body if 0x20 <= ord(c) <= 0x7E)[: logic.MAX_LINE - 6]
    return logic.frame(body)


# --------------------------------------------------------------------------- simulated time


@dataclass
class SyncedPress:
    true_ns: int
    host_ns: int
    uncertainty_ns: int
    device_us: int


def simulate_sync(
    seed: int,
    out: Transport,
    back: Transport,
    press_at_ns: list[int],
    *,
    ppm: float | None = None,
    offset_us: int | None = None,
    sample_us: int = 1,
    fast: Callable[[int], bool] | None = None,
    clock_sync: Callable[[], Any] | None = None,
    schedule: Callable[[int, int, random.Random], int] | None = None,
) -> tuple[list[SyncedPress], Any]:
    """One device from plug-in (t = 0), in simulated time, with the hub's ping
    schedule (``link``: a burst, then ``FAST_PING_NS`` for ``FAST_AFTER_CONNECT_NS``
    and while ``fast(t)``, else ``PING_EVERY_NS``) and the real ``ClockSync``.

    Each press (true host instants ``press_at_ns``, sorted) is stamped at the
    device's next sampling instant, travels ``back`` like any line, and is mapped
    with the estimate of its arrival, as the hub does. Returns the mapped presses
    and the ``ClockSync``.
    """
    from companion.hardware import link
    from companion.hardware.clocksync import ClockSync, SyncSample

    rng = random.Random(seed)
    drift = rng.uniform(-100, 100) if ppm is None else ppm
    offset = rng.randrange(10**10) if offset_us is None else offset_us

    def dev_us(t_ns: float) -> float:
        return offset + t_ns / 1000.0 * (1 + drift * 1e-6)

    cs = clock_sync() if clock_sync is not None else ClockSync()
    presses = sorted(press_at_ns)
    arrivals = [back.delay_ns(rng, p + 20_000, 0) for p in presses]  # framing, USB write
    order = sorted(range(len(presses)), key=lambda i: arrivals[i])
    mapped: list[SyncedPress] = []
    t = 0.0
    sent_pings = 0
    k = 0
    while k < len(order):
        sent = int(t)
        at_dev = out.delay_ns(rng, sent, 0)
        recv = back.delay_ns(rng, at_dev, 0)
        # Presses whose line arrives before this pong are mapped with what was known.
        while k < len(order) and arrivals[order[k]] <= recv:
            p_ns = presses[order[k]]
            k += 1
            est = cs.estimate
            if est is None:
                continue  # (the hub holds such presses for the first samples)
            stamp = math.ceil(dev_us(p_ns) / sample_us) * sample_us
            half = sample_us * 500.0
            host, unc = est.to_host(stamp, extra_ns=half)
            mapped.append(SyncedPress(p_ns, round(host - half), unc, stamp))
        cs.add(SyncSample(sent, recv, math.floor(dev_us(at_dev))))
        sent_pings += 1
        hurry = recv < link.FAST_AFTER_CONNECT_NS or (fast is not None and fast(recv))
        if schedule is not None:  # another schedule (a benchmark's baseline)
            gap = schedule(sent_pings, recv, rng)
        else:
            gap = link.ping_gap_ns(sent_pings, hurry, rng)
        t = recv + gap + rng.uniform(0, 5e6)  # the hub's 5 ms tick
    return mapped, cs


def fuzz_hub(n: int, seed: int) -> dict[str, int]:
    """Feed ``n`` fuzzed lines into one link of a hub, the reader's own path from
    bytes on (no reader thread: the test is the reader; a pty takes the hub's
    answers). Returns the counts: every line handled or counted, and how."""
    import pty

    import serial

    from companion.hardware.link import DeviceLink, TadaaHub

    master, slave = pty.openpty()
    stop = threading.Event()

    def drain() -> None:  # the device side: swallow the hub's commands
        while not stop.is_set():
            try:
                os.read(master, 65536)
            except OSError:
                return

    t = threading.Thread(target=drain, daemon=True)
    t.start()
    hub = TadaaHub(ports=lambda: [])
    ser = serial.Serial(os.ttyname(slave), 115200, timeout=0.1, write_timeout=0.5)
    link = DeviceLink(hub, os.ttyname(slave), ser)
    boot = "0BADC0DE"
    reader = link.thread
    reader.data_received(logic.frame(f"HELLO 1 1.0.0 8 {boot} FUZZ 30000 0"))
    rng = random.Random(seed)
    valid = [logic.frame(f"P {boot} 1 1 5 0"), logic.frame(f"HB {boot} 5 1 0 1")]
    handled_before = hub.lines_handled
    batch = 1000
    for start in range(0, n, batch):
        data = b"".join(fuzz_line(rng, boot, valid) for _ in range(min(batch, n - start)))
        reader.data_received(data)
    stats = reader.parser.stats
    counts = {
        "lines": stats.lines - 1 + stats.overlong,
        "parse_errors": stats.errors,
        "handled": hub.lines_handled - handled_before,
        "exceptions": hub.bugs,
        "protocol_errors": hub.devices["FUZZ"].protocol_errors,
        "worst_work": hub.worst_work,
    }
    stop.set()
    ser.close()
    os.close(slave)
    os.close(master)
    return counts
