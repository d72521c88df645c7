"""The host side of the Tadaa wire protocol (``devices/PROTOCOL.md``).

Design decisions:

* Framing and the checksum come from ``tadaa_logic`` — the very file the firmware
  runs — so host and device cannot disagree about what a valid line is.
* Parsing is strict: every field is checked (decimal digits only, ranges, hex
  widths). A line that fails any check is a ``ParseError``; ``LineParser`` counts
  it by kind and never raises, so arbitrary bytes on the wire can only ever
  increase a counter.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.hardware import tadaa_logic as logic

MAX_DEVICE_US = (1 << 63) - 1


class ParseError(ValueError):
    """One line could not be used. ``kind`` is ``"crc"`` or ``"malformed"``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


@dataclass(frozen=True)
class Hello:
    proto: int
    firmware: str
    buttons: int
    boot: str
    serial: str
    debounce_us: int
    last_seq: int


@dataclass(frozen=True)
class PressEvent:
    boot: str
    seq: int
    button: int
    t_us: int
    flags: int

    @property
    def tie(self) -> bool:
        return bool(self.flags & logic.FLAG_TIE)

    @property
    def resent(self) -> bool:
        return bool(self.flags & logic.FLAG_RESENT)

    @property
    def disarmed(self) -> bool:
        return bool(self.flags & logic.FLAG_DISARMED)

    @property
    def overflow(self) -> bool:
        return bool(self.flags & logic.FLAG_OVERFLOW)


@dataclass(frozen=True)
class Heartbeat:
    boot: str
    t_us: int
    last_seq: int
    unacked: int
    sample_us: int
    queue_overflows: int = 0
    """Edges core 1 could not queue for core 0 since boot (a 6th field; older
    firmware sends 5 fields: 0)."""


@dataclass(frozen=True)
class Pong:
    boot: str
    ping_id: str
    t_us: int


@dataclass(frozen=True)
class Ok:
    what: str
    args: tuple[str, ...]


@dataclass(frozen=True)
class DeviceError:
    code: str
    detail: str


Message = Hello | PressEvent | Heartbeat | Pong | Ok | DeviceError


def _int(text: str, low: int = 0, high: int = MAX_DEVICE_US) -> int:
    if not text or len(text) > 19 or not text.isascii() or not text.isdigit():
        raise ParseError("malformed", f"not a decimal number: {text[:24]!r}")
    value = int(text)
    if not low <= value <= high:
        raise ParseError("malformed", f"{value} outside {low}..{high}")
    return value


def _hex(text: str, width: int | None = None, high: int = 0xFF) -> int:
    digits = "0123456789ABCDEF"
    if not text or (width is not None and len(text) != width) or len(text) > 16:
        raise ParseError("malformed", f"bad hex field {text[:24]!r}")
    if any(c not in digits for c in text):
        raise ParseError("malformed", f"bad hex field {text[:24]!r}")
    value = int(text, 16)
    if width is None and value > high:
        raise ParseError("malformed", f"hex value {value} too large")
    return value


def _boot(text: str) -> str:
    _hex(text, width=8)
    return text


def _token(text: str, limit: int = 32) -> str:
    if not text or len(text) > limit or not text.isascii() or not text.isprintable():
        raise ParseError("malformed", f"bad token {text[:24]!r}")
    return text


def parse_body(body: str) -> Message:
    """One checked line body -> a message, or ``ParseError("malformed", ...)``."""
    parts = body.split(" ")
    kind, args = parts[0], parts[1:]

    def want(n: int) -> None:
        if len(args) != n:
            raise ParseError("malformed", f"{kind[:8]} needs {n} fields, got {len(args)}")

    if kind == "P":
        want(5)
        return PressEvent(
            _boot(args[0]),
            _int(args[1], 1),
            _int(args[2], 1, logic.MAX_BUTTONS),
            _int(args[3]),
            _hex(args[4]),
        )
    if kind == "PONG":
        want(3)
        return Pong(_boot(args[0]), _token(args[1], 16), _int(args[2]))
    if kind == "HB":
        if len(args) not in (5, 6):
            raise ParseError("malformed", f"HB needs 5 or 6 fields, got {len(args)}")
        return Heartbeat(
            _boot(args[0]),
            _int(args[1]),
            _int(args[2]),
            _int(args[3]),
            _int(args[4]),
            _int(args[5]) if len(args) == 6 else 0,
        )
    if kind == "HELLO":
        want(7)
        return Hello(
            _int(args[0], 1, 999),
            _token(args[1]),
            _int(args[2], 1, logic.MAX_BUTTONS),
            _boot(args[3]),
            _token(args[4], 64),
            _int(args[5], 0, 10_000_000),
            _int(args[6]),
        )
    if kind == "OK":
        if not args:
            raise ParseError("malformed", "OK without a subject")
        return Ok(_token(args[0], 16), tuple(_token(a) for a in args[1:]))
    if kind == "ERR":
        if not args:
            raise ParseError("malformed", "ERR without a code")
        return DeviceError(_token(args[0], 16), " ".join(args[1:])[:64])
    raise ParseError("malformed", f"unknown message type {kind[:16]!r}")


def parse_line(line: bytes) -> Message:
    """A received line (newline removed) -> message; ``ParseError`` if corrupt."""
    body = logic.unframe(line)
    if body is None:
        raise ParseError("crc", "checksum, length or characters wrong")
    return parse_body(body)


@dataclass
class ParseStats:
    lines: int = 0
    corrupt: int = 0
    malformed: int = 0
    overlong: int = 0
    last_error: str = ""

    @property
    def errors(self) -> int:
        return self.corrupt + self.malformed + self.overlong


@dataclass
class LineParser:
    """Bytes from one device -> messages. Never raises; counts what it drops."""

    stats: ParseStats = field(default_factory=ParseStats)
    assembler: logic.LineAssembler = field(default_factory=logic.LineAssembler)

    def feed(self, data: bytes) -> list[Message]:
        before = self.assembler.overlong
        lines = self.assembler.feed(data)
        self.stats.overlong += self.assembler.overlong - before
        out: list[Message] = []
        for line in lines:
            self.stats.lines += 1
            try:
                out.append(parse_line(line))
            except ParseError as exc:
                if exc.kind == "crc":
                    self.stats.corrupt += 1
                else:
                    self.stats.malformed += 1
                self.stats.last_error = str(exc)
        return out

    def reset(self) -> None:
        """Forget a partial line (after a reconnect)."""
        self.assembler = logic.LineAssembler()


# --------------------------------------------------------------------------- host -> device


def cmd_info() -> bytes:
    return bytes(logic.frame("INFO"))


def cmd_ping(ping_id: str) -> bytes:
    return bytes(logic.frame(f"PING {ping_id}"))


def cmd_ack(boot: str, seq: int) -> bytes:
    return bytes(logic.frame(f"ACK {boot} {seq}"))


def cmd_resend(boot: str, seq: int) -> bytes:
    return bytes(logic.frame(f"RESEND {boot} {seq}"))


def cmd_arm(armed: bool) -> bytes:
    return bytes(logic.frame(f"ARM {1 if armed else 0}"))


def cmd_led(button: int, mode: int) -> bytes:
    return bytes(logic.frame(f"LED {button} {mode}"))
