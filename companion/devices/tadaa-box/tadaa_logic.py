# ruff: noqa: UP031, SIM108 - MicroPython-compatible subset: %-formatting kept on purpose
# The Tadaa button firmware's logic: framing, debounce, ring buffer, commands.
#
# This one file runs unchanged under CPython (the host parser, the simulator and
# the tests import it) and under MicroPython on an RP2040 (copied next to
# ``main.py``, which is only the hardware layer). So it uses the subset both
# share: no dataclasses, no ``typing`` import, no f-strings, no ``__future__``
# imports, no variable annotations (``# type:`` comments instead), ``%``
# formatting, plain classes and lists. Function annotations are fine: MicroPython
# parses and ignores them. ``tests/hardware`` runs it in the
# MicroPython WebAssembly build from npm to keep that promise honest.
#
# The wire protocol is specified in ``devices/PROTOCOL.md``; the constants below
# are the single source of its numbers.

PROTOCOL_VERSION = 1
FIRMWARE_VERSION = "1.0.0"
MAX_LINE = 120  # bytes, without the newline; longer lines are discarded whole
MAX_BUTTONS = 8

# Event flags (hex on the wire)
FLAG_TIE = 0x01  # caught in the same sample as the previous event (a true tie)
FLAG_RESENT = 0x02  # a repeat of an event already sent once
FLAG_DISARMED = 0x04  # pressed while the host had not armed the device
FLAG_OVERFLOW = 0x08  # the ring buffer dropped older unacknowledged events before this

# LED modes
LED_OFF = 0
LED_ON = 1
LED_BLINK_SLOW = 2
LED_BLINK_FAST = 3

# --------------------------------------------------------------------------- CRC


def _make_table() -> list[int]:
    table = []  # type: list[int]
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_CRC_TABLE = _make_table()


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF): ``crc16(b"123456789") == 0x29B1``."""
    crc = 0xFFFF
    table = _CRC_TABLE
    for b in data:
        crc = ((crc << 8) & 0xFF00) ^ table[((crc >> 8) ^ b) & 0xFF]
    return crc


def frame(body: str) -> bytes:
    """``body`` (str, printable ASCII) as one wire line: ``BODY*CRC4\\n`` (bytes)."""
    raw = body.encode()
    return raw + b"*" + ("%04X" % crc16(raw)).encode() + b"\n"


def unframe(line: bytes) -> str | None:
    """The body (str) of one received line (bytes, newline removed), or None.

    None means corrupt: wrong or missing checksum, a byte outside printable
    ASCII, or too long. A corrupt line is never half-parsed.
    """
    if line[-1:] == b"\r":
        line = line[:-1]
    n = len(line)
    if n < 6 or n > MAX_LINE or line[n - 5] != 0x2A:  # "*"
        return None
    body = line[: n - 5]
    for b in body:
        if b < 0x20 or b > 0x7E:
            return None
    value = 0
    for b in line[n - 4 :]:
        if 0x30 <= b <= 0x39:
            value = (value << 4) | (b - 0x30)
        elif 0x41 <= b <= 0x46:
            value = (value << 4) | (b - 0x37)
        else:
            return None
    if value != crc16(body):
        return None
    return body.decode()


class LineAssembler:
    """Bytes in, complete lines (bytes, without newline) out; bounded memory.

    A line longer than ``MAX_LINE`` is dropped whole (up to its newline) and
    counted in ``overlong``.
    """

    def __init__(self, limit: int = MAX_LINE) -> None:
        self.limit = limit
        self.buf = bytearray()
        self.discarding = False
        self.overlong = 0

    def feed(self, data: bytes) -> list[bytes]:
        lines = []  # type: list[bytes]
        for b in data:
            if b == 0x0A:
                if self.discarding:
                    self.discarding = False
                else:
                    lines.append(bytes(self.buf))
                self.buf = bytearray()
            elif not self.discarding:
                if len(self.buf) >= self.limit + 1:  # room for a trailing "\r"
                    self.discarding = True
                    self.overlong += 1
                    self.buf = bytearray()
                else:
                    self.buf.append(b)
        return lines


# --------------------------------------------------------------------------- clock


class ClockExtender:
    """Widens a wrapping hardware counter (``bits`` wide) to an ever-growing int.

    Must be fed at least once per wrap period (the heartbeat does, every second).
    """

    def __init__(self, bits: int, start: int = 0) -> None:
        self.mask = (1 << bits) - 1
        self.last = start & self.mask
        self.total = 0

    def extend(self, raw: int) -> int:
        raw &= self.mask
        self.total += (raw - self.last) & self.mask
        self.last = raw
        return self.total

    def near(self, raw: int) -> int:
        """The extended value of ``raw`` nearest to the last one (either side), no update.

        For timestamps taken on another core just before or after the last ``extend``.
        """
        raw &= self.mask
        half = (self.mask + 1) >> 1
        delta = ((raw - self.last + half) & self.mask) - half
        return self.total + delta


# --------------------------------------------------------------------------- debounce


class Debouncer:
    """Turns samples of all buttons (a bit mask, 1 = pressed) into press edges.

    A press counts at the first edge of a button that has been released for at
    least ``debounce_us`` (so release bounce never reads as a new press) and is
    out of the lock-out of its previous press. After a press the button is
    ignored for ``debounce_us``. Presses caught in the same sample come out of
    the same call: a true tie, never broken by pin order.

    Only *changes* need to be fed (``sample`` with an unchanged mask is a no-op),
    so the sampling loop can run on its own core and pass changes through a queue.
    """

    def __init__(
        self, n_buttons: int, debounce_us: int = 30000, initial_mask: int = 0, t_us: int = 0
    ) -> None:
        self.n = n_buttons
        self.debounce_us = debounce_us
        self.mask = initial_mask
        self.released_at = [t_us - debounce_us] * n_buttons
        self.lockout_until = [t_us] * n_buttons
        self.rejected = 0  # edges ignored as bounce

    def sample(self, t_us: int, mask: int) -> int:
        """New pressed-mask at device time ``t_us``; returns the mask of new presses."""
        changed = mask ^ self.mask
        if not changed:
            return 0
        presses = 0
        for i in range(self.n):
            bit = 1 << i
            if not changed & bit:
                continue
            if mask & bit:
                if t_us - self.released_at[i] >= self.debounce_us and t_us >= self.lockout_until[i]:
                    presses |= bit
                    self.lockout_until[i] = t_us + self.debounce_us
                else:
                    self.rejected += 1
            else:
                self.released_at[i] = t_us
        self.mask = mask
        return presses


# --------------------------------------------------------------------------- ring buffer


class EventRing:
    """Unacknowledged press events, oldest first, numbered from 1 per boot.

    An event is ``[seq, button, t_us, flags, last_sent_us]``. ``ack(seq)`` drops
    everything up to ``seq``. When full, the oldest event is dropped and the next
    one carries ``FLAG_OVERFLOW`` (the host then knows what it cannot recover).
    """

    def __init__(self, capacity: int = 256) -> None:
        self.capacity = capacity
        self.events = []  # type: list[list[int]]
        self.next_seq = 1
        self.acked = 0
        self.dropped = 0
        self._overflowed = False

    def push(self, button: int, t_us: int, flags: int) -> list[int]:
        if len(self.events) >= self.capacity:
            self.events.pop(0)
            self.dropped += 1
            self._overflowed = True
        if self._overflowed:
            flags |= FLAG_OVERFLOW
            self._overflowed = False
        event = [self.next_seq, button, t_us, flags, -1]
        self.next_seq += 1
        self.events.append(event)
        return event

    def ack(self, seq: int) -> None:
        if seq >= self.next_seq:  # acknowledging the future: ignore the nonsense part
            seq = self.next_seq - 1
        if seq > self.acked:
            self.acked = seq
        while self.events and self.events[0][0] <= seq:
            self.events.pop(0)

    def from_seq(self, seq: int) -> list[list[int]]:
        return [e for e in self.events if e[0] >= seq]

    def __len__(self) -> int:
        return len(self.events)


# --------------------------------------------------------------------------- device


def _hex_mask(n: int) -> int:
    return (1 << n) - 1


class TadaaDevice:
    """Everything the firmware decides, given time and input; no I/O of its own.

    The hardware layer (``main.py`` on the board, the simulator on a computer)
    calls ``on_sample`` with each change of the button mask, ``on_bytes`` with
    what arrived from the host, ``poll`` often, writes every returned line, and
    shows ``led_mask(t)`` on the LEDs. Times are device microseconds (64-bit,
    from ``ClockExtender``).
    """

    def __init__(
        self,
        n_buttons: int,
        boot_id: str,
        serial: str,
        debounce_us: int = 30000,
        ring_size: int = 256,
        heartbeat_us: int = 1000000,
        resend_us: int = 250000,
        t_us: int = 0,
        initial_mask: int = 0,
    ) -> None:
        if not 1 <= n_buttons <= MAX_BUTTONS:
            raise ValueError("1 to 8 buttons")
        self.n = n_buttons
        self.boot_id = boot_id
        self.serial = serial
        self.debouncer = Debouncer(n_buttons, debounce_us, initial_mask, t_us)
        self.ring = EventRing(ring_size)
        self.assembler = LineAssembler()
        self.armed = False
        self.heartbeat_us = heartbeat_us
        self.resend_us = resend_us
        self.resend_wait = resend_us
        self.next_heartbeat = t_us
        self.led_modes = [LED_OFF] * n_buttons
        self.corrupt = 0  # host lines dropped for a bad checksum or framing
        self.bad_commands = 0
        self.loop_us = 0  # the slowest sampling period seen since the last heartbeat
        self.queue_overflows = 0  # edges the core-to-core queue dropped since boot
        self.hello_sent = False

    # -- output helpers

    def hello(self) -> bytes:
        return frame(
            "HELLO %d %s %d %s %s %d %d"
            % (
                PROTOCOL_VERSION,
                FIRMWARE_VERSION,
                self.n,
                self.boot_id,
                self.serial,
                self.debouncer.debounce_us,
                self.ring.next_seq - 1,
            )
        )

    def _event_line(self, event: list[int], t_us: int) -> bytes:
        event[4] = t_us
        return frame("P %s %d %d %d %X" % (self.boot_id, event[0], event[1], event[2], event[3]))

    # -- inputs

    def on_sample(self, t_us: int, mask: int) -> list[bytes]:
        """A new pressed-mask at ``t_us``: returns the event lines to send."""
        presses = self.debouncer.sample(t_us, mask & _hex_mask(self.n))
        out = []  # type: list[bytes]
        first = True
        for i in range(self.n):
            if presses & (1 << i):
                flags = 0 if first else FLAG_TIE
                if not self.armed:
                    flags |= FLAG_DISARMED
                first = False
                out.append(self._event_line(self.ring.push(i + 1, t_us, flags), t_us))
        return out

    def on_bytes(self, data: bytes, t_us: int) -> list[bytes]:
        out = []  # type: list[bytes]
        for line in self.assembler.feed(data):
            out.extend(self.on_line(line, t_us))
        return out

    def on_line(self, line: bytes, t_us: int) -> list[bytes]:
        body = unframe(line)
        if body is None:
            self.corrupt += 1
            return [frame("ERR CRC %d" % self.corrupt)]
        parts = body.split(" ")
        cmd = parts[0]
        try:
            return self._command(cmd, parts[1:], t_us)
        except (ValueError, IndexError):
            self.bad_commands += 1
            return [frame("ERR ARG %s" % cmd[:16])]

    def _command(self, cmd: str, args: list[str], t_us: int) -> list[bytes]:
        if cmd == "PING":
            return [frame("PONG %s %s %d" % (self.boot_id, args[0][:16], t_us))]
        if cmd == "INFO":
            self.hello_sent = True
            return [self.hello()]
        if cmd == "ACK":
            if args[0] != self.boot_id:
                return [frame("ERR BOOT %s" % self.boot_id)]
            self.ring.ack(int(args[1]))
            self.resend_wait = self.resend_us
            return []
        if cmd == "RESEND":
            if args[0] != self.boot_id:
                return [frame("ERR BOOT %s" % self.boot_id)]
            return self.resend(int(args[1]), t_us)
        if cmd == "ARM":
            self.armed = args[0] == "1"
            return [frame("OK ARM %d" % (1 if self.armed else 0))]
        if cmd == "LED":
            button = int(args[0])
            mode = int(args[1])
            if not 0 <= button <= self.n or not 0 <= mode <= LED_BLINK_FAST:
                raise ValueError("led")
            if button == 0:
                self.led_modes = [mode] * self.n
            else:
                self.led_modes[button - 1] = mode
            return [frame("OK LED %d %d" % (button, mode))]
        self.bad_commands += 1
        return [frame("ERR CMD %s" % cmd[:16])]

    def resend(self, seq: int, t_us: int) -> list[bytes]:
        out = []  # type: list[bytes]
        for event in self.ring.from_seq(seq):
            if event[4] >= 0:
                event[3] |= FLAG_RESENT
            out.append(self._event_line(event, t_us))
        return out

    def poll(self, t_us: int) -> list[bytes]:
        """Heartbeat and retransmission of unacknowledged events when due."""
        out = []  # type: list[bytes]
        if not self.hello_sent:
            self.hello_sent = True
            out.append(self.hello())
        if t_us >= self.next_heartbeat:
            out.append(
                frame(
                    "HB %s %d %d %d %d %d"
                    % (
                        self.boot_id,
                        t_us,
                        self.ring.next_seq - 1,
                        len(self.ring),
                        self.loop_us,
                        self.queue_overflows,
                    )
                )
            )
            self.loop_us = 0
            self.next_heartbeat = t_us + self.heartbeat_us
        events = self.ring.events
        if events and events[0][4] >= 0 and t_us - events[0][4] >= self.resend_wait:
            # Nothing acknowledged for a while: send the oldest unacknowledged
            # events again, backing off up to 2 s while the host is away.
            out.extend(self.resend(events[0][0], t_us)[:8])
            self.resend_wait = min(self.resend_wait * 2, 2000000)
        return out

    def note_loop(self, period_us: int) -> None:
        """A sampling period seen (µs): the heartbeat reports the worst since the last."""
        if period_us > self.loop_us:
            self.loop_us = period_us

    def led_mask(self, t_us: int) -> int:
        """Which LEDs are lit at ``t_us`` (bit i = button i + 1)."""
        mask = 0
        slow = (t_us // 500000) & 1
        fast = (t_us // 125000) & 1
        for i in range(self.n):
            mode = self.led_modes[i]
            if (
                mode == LED_ON
                or (mode == LED_BLINK_SLOW and slow == 0)
                or (mode == LED_BLINK_FAST and fast == 0)
            ):
                mask |= 1 << i
        return mask
