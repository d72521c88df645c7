"""The host's line parser: strict, never half-parsing, never raising on bad input."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware import protocol as proto
from companion.hardware import tadaa_logic as logic

ROOT = Path(__file__).resolve().parents[2]


def line(body: str) -> bytes:
    return bytes(logic.frame(body))


def test_every_device_message_parses():
    p = proto.LineParser()
    got = p.feed(
        line("HELLO 1 1.0.0 8 3F2A91C4 E6614103E7452D2F 30000 12")
        + line("P 3F2A91C4 13 3 18446744073709 5")
        + line("HB 3F2A91C4 99 13 1 4")
        + line("PONG 3F2A91C4 1A 1000")
        + line("OK ARM 1")
        + line("ERR CRC 3")
    )
    assert got == [
        proto.Hello(1, "1.0.0", 8, "3F2A91C4", "E6614103E7452D2F", 30000, 12),
        proto.PressEvent("3F2A91C4", 13, 3, 18446744073709, 5),
        proto.Heartbeat("3F2A91C4", 99, 13, 1, 4),
        proto.Pong("3F2A91C4", "1A", 1000),
        proto.Ok("ARM", ("1",)),
        proto.DeviceError("CRC", "3"),
    ]
    assert got[1].tie and got[1].disarmed and not got[1].resent and not got[1].overflow
    assert p.stats.errors == 0 and p.stats.lines == 6


@pytest.mark.parametrize(
    "body",
    [
        "P 3F2A91C4 0 3 100 0",  # seq starts at 1
        "P 3F2A91C4 1 9 100 0",  # at most 8 buttons
        "P 3F2A91C4 1 0 100 0",
        "P 3f2a91c4 1 1 100 0",  # boot ids are upper-case hex
        "P 3F2A91C 1 1 100 0",
        "P 3F2A91C4 1 1 -100 0",
        "P 3F2A91C4 1 1 1_000 0",  # Python's int() would take this
        "P 3F2A91C4 1 1 +100 0",
        "P 3F2A91C4 1 1 100 1FF",  # flags fit a byte
        "P 3F2A91C4 1 1 100",
        "P 3F2A91C4 1 1 100 0 7",
        "P  3F2A91C4 1 1 100 0",
        "HB 3F2A91C4 1 2 3",
        "PONG 3F2A91C4 12345678901234567 5",
        "HELLO 1 1.0.0 9 3F2A91C4 S 30000 0",
        "WHAT 1",
        "OK",
        "ERR",
    ],
)
def test_malformed_lines_are_counted_not_parsed(body):
    p = proto.LineParser()
    assert p.feed(line(body)) == []
    assert p.stats.malformed == 1 and p.stats.errors == 1


def test_corrupt_line_dropped_whole_and_next_line_fine():
    good = line("P 3F2A91C4 1 1 100 0")
    bad = bytearray(good)
    bad[7] ^= 0x01
    p = proto.LineParser()
    assert p.feed(bytes(bad) + good) == [proto.PressEvent("3F2A91C4", 1, 1, 100, 0)]
    assert p.stats.corrupt == 1


def test_lines_split_anywhere_reassemble():
    data = line("P 3F2A91C4 1 1 100 0") + line("PONG 3F2A91C4 7 5")
    p = proto.LineParser()
    out = []
    for i in range(len(data)):
        out += p.feed(data[i : i + 1])
    assert len(out) == 2 and p.stats.errors == 0


def test_protocol_document_examples_have_right_checksums():
    text = (ROOT / "companion" / "devices" / "PROTOCOL.md").read_text(encoding="utf-8")
    examples = re.findall(r"^[<>] (.+)$", text, flags=re.M)
    assert len(examples) >= 8
    for ex in examples:
        body, _, _ = ex.rpartition("*")
        assert line(body).decode().strip() == ex


def test_host_commands_are_framed():
    for data in (
        proto.cmd_info(),
        proto.cmd_ping("1F"),
        proto.cmd_ack("0000000A", 5),
        proto.cmd_resend("0000000A", 6),
        proto.cmd_arm(True),
        proto.cmd_led(3, 2),
    ):
        assert data.endswith(b"\n") and logic.unframe(data[:-1]) is not None


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_arbitrary_bytes_only_count_errors(data):
    p = proto.LineParser()
    messages = p.feed(data)  # must not raise
    lines = data.count(b"\n")
    assert p.stats.lines + p.stats.overlong <= lines + 1
    assert len(messages) + p.stats.corrupt + p.stats.malformed == p.stats.lines


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_parse_line_raises_only_parse_errors(data):
    try:
        proto.parse_line(data)
    except proto.ParseError as exc:
        assert exc.kind in ("crc", "malformed")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=100))
def test_fuzz_well_framed_garbage_is_malformed_never_an_exception(body):
    # Valid checksums around arbitrary printable bodies reach the field checks.
    p = proto.LineParser()
    p.feed(line(body))
    assert p.stats.corrupt == 0 or not body or len(body) > logic.MAX_LINE - 5


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 2**40), st.integers(1, 8), st.integers(0, 2**63 - 1), st.integers(0, 15)
        ),
        max_size=20,
    ),
    st.binary(max_size=40),
)
def test_fuzz_events_survive_noise_between_them(events, noise):
    # Garbage lines between events never damage the events around them.
    junk = noise.replace(b"\n", b"") + b"\n"
    data = b"".join(junk + line(f"P 0BADCAFE {s} {b} {t} {f:X}") for s, b, t, f in events)
    p = proto.LineParser()
    got = [m for m in p.feed(data) if isinstance(m, proto.PressEvent)]
    assert [(m.seq, m.button, m.t_us, m.flags) for m in got] == events
    assert p.stats.lines == 2 * len(events)
