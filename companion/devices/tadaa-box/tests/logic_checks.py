# ruff: noqa: UP031 - MicroPython-compatible subset: %-formatting kept on purpose
# Checks of the firmware logic that run unchanged under CPython and MicroPython.
#
# ``run_all()`` prints one "PASS <name>" or "FAIL <name>: <why>" line per check
# and returns the number of failures. ``tests/hardware/test_firmware_logic.py``
# runs it under CPython directly and under MicroPython (WebAssembly, via
# ``run_micropython.mjs``). Same subset of Python as ``tadaa_logic`` itself.

import tadaa_logic as L


class CheckFailed(Exception):
    pass


def eq(got, want, what=""):
    if got != want:
        raise CheckFailed("%s: got %r, want %r" % (what, got, want))


def body_of(line):
    assert line[-1:] == b"\n"
    body = L.unframe(line[:-1])
    if body is None:
        raise CheckFailed("unframe refused our own line %r" % line)
    return body


def check_crc_reference():
    eq(L.crc16(b"123456789"), 0x29B1, "CRC-16/CCITT-FALSE check value")
    eq(L.crc16(b""), 0xFFFF, "empty input")


def check_frame_roundtrip():
    for body in ("PING 1", "P 0A1B2C3D 7 3 123456789012 0", "HELLO 1 1.0.0 8 AB CD 30000"):
        line = L.frame(body)
        eq(line[-1:], b"\n", "newline")
        eq(L.unframe(line[:-1]), body, "roundtrip")
        eq(L.unframe(line[:-1] + b"\r"), body, "CRLF accepted")


def check_corrupt_refused():
    line = L.frame("P 0A1B2C3D 7 3 1234 0")[:-1]
    for i in range(len(line)):
        for flip in (0x01, 0x20, 0x80):
            bad = line[:i] + bytes((line[i] ^ flip,)) + line[i + 1 :]
            if L.unframe(bad) is not None:
                raise CheckFailed("flip %x at %d accepted: %r" % (flip, i, bad))
    eq(L.unframe(line[:-1]), None, "truncated")
    eq(L.unframe(b""), None, "empty")
    eq(L.unframe(b"*0000"), None, "no body")
    eq(L.unframe(line.lower()), None, "lower-case checksum")


def check_assembler():
    a = L.LineAssembler(limit=10)
    eq(a.feed(b"AB"), [], "partial")
    eq(a.feed(b"C\nDE\n"), [b"ABC", b"DE"], "two lines")
    eq(a.feed(b"X" * 30 + b"\nOK\n"), [b"OK"], "overlong dropped whole")
    eq(a.overlong, 1, "overlong counted")


def check_clock_extender():
    x = L.ClockExtender(30, start=(1 << 30) - 5)
    eq(x.extend((1 << 30) - 1), 4, "before wrap")
    eq(x.extend(3), 8, "across wrap")
    eq(x.extend(1000), 1005, "after wrap")
    eq(x.near(990), 995, "a stamp taken just before the last extend")
    eq(x.near(1010), 1015, "just after")
    y = L.ClockExtender(32, start=5)
    eq(y.near(0xFFFFFFFE), -7, "before the wrap, seen after it")


def _source(name):
    here = __file__.rsplit("/", 1)[0] + "/" if "/" in __file__ else ""
    for prefix in ("", "/", "../", here, here + "../"):
        try:
            with open(prefix + name) as fh:
                return fh.read()
        except OSError:
            pass
    raise CheckFailed("cannot find " + name)


def check_firmware_compiles():
    # main.py (the hardware layer) compiles under this interpreter; the viper
    # sampler compiles wherever the native emitter exists and otherwise fails
    # only on its decorator, which main.py catches and replaces.
    compile(_source("main.py"), "main.py", "exec")
    try:
        compile(_source("fast_sampler.py"), "fast_sampler.py", "exec")
    except SyntaxError as exc:
        if "decorator" not in str(exc):
            raise


def check_debounce_bounce_filtered():
    d = L.Debouncer(2, debounce_us=30000)
    eq(d.sample(100000, 0b01), 0b01, "first edge counts")
    # contact bounce for 3 ms after the press: ignored
    t = 100000
    for k in range(1, 13):
        t += 250
        eq(d.sample(t, 0b01 if k % 2 == 0 else 0b00), 0, "press bounce")
    # held, then released at 300 ms with bounce: no new press
    eq(d.sample(300000, 0b00), 0, "release")
    eq(d.sample(300400, 0b01), 0, "release bounce")
    eq(d.sample(300800, 0b00), 0, "release bounce end")
    # a real second press later counts, with its own first edge time
    eq(d.sample(400000, 0b01), 0b01, "second press")
    eq(d.rejected, 7, "bounce edges counted")


def check_debounce_lockout():
    d = L.Debouncer(1, debounce_us=30000)
    eq(d.sample(100000, 1), 1, "press")
    eq(d.sample(100010, 0), 0, "very short press released")
    # released for 40 ms but the lock-out already ended at 130 ms: counts
    eq(d.sample(150000, 1), 1, "press after lock-out and stable release")


def check_debounce_held_at_boot():
    d = L.Debouncer(2, debounce_us=30000, initial_mask=0b10, t_us=0)
    eq(d.sample(5000, 0b11), 0b01, "held button gives no edge, the other does")
    eq(d.sample(6000, 0b01), 0, "release of the held one")
    eq(d.sample(50000, 0b11), 0b10, "held one counts once released long enough")


def check_tie_same_sample():
    dev = L.TadaaDevice(4, "B00710AD", "SER1", t_us=0)
    dev.on_bytes(L.frame("ARM 1"), 10)
    lines = dev.on_sample(1000000, 0b1010)
    eq(len(lines), 2, "two presses in one sample")
    a = body_of(lines[0]).split(" ")
    b = body_of(lines[1]).split(" ")
    eq((a[0], a[2], a[3], a[4], a[5]), ("P", "1", "2", "1000000", "0"), "first event")
    eq((b[0], b[2], b[3], b[4], b[5]), ("P", "2", "4", "1000000", "1"), "tie flagged")


def check_disarmed_flag():
    dev = L.TadaaDevice(1, "B00710AD", "SER1")
    line = dev.on_sample(100000, 1)[0]
    eq(body_of(line).split(" ")[5], "4", "disarmed press is flagged, not dropped")


def check_ping_pong_and_info():
    dev = L.TadaaDevice(8, "B00710AD", "SER1", debounce_us=20000)
    out = dev.on_bytes(L.frame("PING 42") + L.frame("INFO"), 123456789)
    eq(body_of(out[0]), "PONG B00710AD 42 123456789", "pong")
    eq(
        body_of(out[1]),
        "HELLO %d %s 8 B00710AD SER1 20000 0" % (L.PROTOCOL_VERSION, L.FIRMWARE_VERSION),
        "hello",
    )


def check_corrupt_command_counted():
    dev = L.TadaaDevice(1, "B00710AD", "SER1")
    line = bytearray(L.frame("ARM 1"))
    line[1] ^= 0x04
    out = dev.on_bytes(bytes(line), 5)
    eq(body_of(out[0]), "ERR CRC 1", "error reported")
    eq(dev.armed, False, "corrupt command not executed")
    out = dev.on_bytes(L.frame("FLY 1") + L.frame("LED 9 1") + L.frame("ACK X"), 6)
    eq([body_of(x).split(" ")[1] for x in out], ["CMD", "ARG", "BOOT"], "errors")


def check_ring_ack_resend():
    dev = L.TadaaDevice(2, "B00710AD", "SER1")
    dev.on_bytes(L.frame("ARM 1"), 0)
    t = 100000
    for _ in range(5):
        dev.on_sample(t, 1)
        t += 40000
        dev.on_sample(t, 0)
        t += 40000
    eq(len(dev.ring), 5, "five unacknowledged")
    dev.on_bytes(L.frame("ACK B00710AD 3"), t)
    eq([e[0] for e in dev.ring.events], [4, 5], "ack drops up to 3")
    out = dev.on_bytes(L.frame("RESEND B00710AD 4"), t)
    eq([body_of(x).split(" ")[2] for x in out], ["4", "5"], "resend from 4")
    eq(body_of(out[0]).split(" ")[5], "2", "resent flag")
    dev.on_bytes(L.frame("ACK B00710AD 99"), t)
    eq(len(dev.ring), 0, "ack of the future clamps")
    eq(dev.ring.acked, 5, "acked")


def check_ring_overflow():
    ring = L.EventRing(capacity=3)
    for i in range(5):
        ring.push(1, i, 0)
    eq([e[0] for e in ring.events], [3, 4, 5], "oldest dropped")
    eq(ring.dropped, 2, "dropped counted")
    eq(ring.events[0][3] & L.FLAG_OVERFLOW, 0, "no flag on an event pushed with room")
    eq(ring.events[1][3] & L.FLAG_OVERFLOW, L.FLAG_OVERFLOW, "flag where a push dropped one")
    e = ring.push(1, 9, 0)
    eq(e[3] & L.FLAG_OVERFLOW, L.FLAG_OVERFLOW, "overflow flagged")


def check_retransmit_without_ack():
    dev = L.TadaaDevice(1, "B00710AD", "SER1", resend_us=250000)
    dev.poll(0)
    dev.on_sample(1000000, 1)
    eq([x for x in dev.poll(1100000) if body_of(x).startswith("P ")], [], "not yet due")
    out = [body_of(x) for x in dev.poll(1250000)]
    eq([x for x in out if x.startswith("P ")], ["P B00710AD 1 1 1000000 6"], "resent")
    out = [body_of(x) for x in dev.poll(1300000)]
    eq([x for x in out if x.startswith("P ")], [], "backed off")
    dev.on_bytes(L.frame("ACK B00710AD 1"), 1400000)
    eq([body_of(x) for x in dev.poll(3000000) if body_of(x).startswith("P ")], [], "acked")


def check_heartbeat():
    dev = L.TadaaDevice(3, "B00710AD", "SER1", heartbeat_us=1000000)
    out = [body_of(x) for x in dev.poll(5)]
    eq(out[0].split(" ")[0], "HELLO", "hello first")
    eq(out[1], "HB B00710AD 5 0 0 0 0", "heartbeat")
    eq(dev.poll(500000), [], "not due")
    dev.note_loop(17)
    dev.note_loop(3)  # the worst period since the last heartbeat, not the last one
    dev.queue_overflows = 2
    eq([body_of(x) for x in dev.poll(1000005)], ["HB B00710AD 1000005 0 0 17 2"], "due")
    dev.note_loop(4)
    eq([body_of(x) for x in dev.poll(2000005)], ["HB B00710AD 2000005 0 0 4 2"], "reset")


def check_leds():
    dev = L.TadaaDevice(4, "B00710AD", "SER1")
    out = dev.on_bytes(L.frame("LED 2 1") + L.frame("LED 3 2"), 0)
    eq([body_of(x) for x in out], ["OK LED 2 1", "OK LED 3 2"], "acknowledged")
    eq(dev.led_mask(100000), 0b0110, "steady and blink on")
    eq(dev.led_mask(600000), 0b0010, "blink off phase")
    dev.on_bytes(L.frame("LED 0 0"), 0)
    eq(dev.led_mask(100000), 0, "all off")


def check_large_times():
    # 64-bit device times after weeks of uptime survive framing and parsing
    dev = L.TadaaDevice(1, "B00710AD", "SER1", t_us=(1 << 40))
    line = dev.on_sample((1 << 40) + 50000, 1)[0]
    eq(int(body_of(line).split(" ")[4]), (1 << 40) + 50000, "big time")


CHECKS = [
    check_crc_reference,
    check_frame_roundtrip,
    check_corrupt_refused,
    check_assembler,
    check_clock_extender,
    check_firmware_compiles,
    check_debounce_bounce_filtered,
    check_debounce_lockout,
    check_debounce_held_at_boot,
    check_tie_same_sample,
    check_disarmed_flag,
    check_ping_pong_and_info,
    check_corrupt_command_counted,
    check_ring_ack_resend,
    check_ring_overflow,
    check_retransmit_without_ack,
    check_heartbeat,
    check_leds,
    check_large_times,
]


def run_all():
    failures = 0
    for check in CHECKS:
        try:
            check()
            print("PASS %s" % check.__name__)
        except Exception as exc:  # report every failure, keep going
            failures += 1
            print("FAIL %s: %s %s" % (check.__name__, type(exc).__name__, exc))
    print("DONE %d checks, %d failed" % (len(CHECKS), failures))
    return failures
