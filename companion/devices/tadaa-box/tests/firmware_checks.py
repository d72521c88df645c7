# ruff: noqa: UP031 - MicroPython-compatible subset: %-formatting kept on purpose
# The firmware's hardware layer (main.py) on a faked board, under CPython and MicroPython.
#
# ``machine`` (GPIO register, timer, pins), ``config`` and (on CPython)
# ``micropython`` are replaced in ``sys.modules`` before ``main`` is imported; the
# test plays core 1 by writing the change queue, and the host by a fake serial
# port. Same subset of Python as ``tadaa_logic``. ``run_all()`` as in logic_checks.

import sys

import tadaa_logic as L

GPIO = 0xD0000004
TIMER = 0x40054028
BUTTON_PINS = [2, 3, 4, 5]
LED_PINS = [10, 11, 12, 13]


class FakeMem:
    def __init__(self):
        self.gpio = 0xFFFFFFFF  # pull-ups: every button released
        self.timer = 1000

    def __getitem__(self, addr):
        if addr == GPIO:
            return self.gpio
        if addr == TIMER:
            return self.timer & 0xFFFFFFFF
        raise KeyError(addr)


class FakePin:
    IN = 0
    OUT = 1
    PULL_UP = 2
    log = []  # noqa: RUF012 - shared by every fake pin on purpose

    def __init__(self, pin, mode=0, pull=None, value=None):
        self.pin = pin

    def value(self, v=None):
        if v is not None:
            FakePin.log.append((self.pin, v))


class FakeMachine:
    Pin = FakePin

    def __init__(self):
        self.mem32 = FakeMem()

    def unique_id(self):
        return b"\xe6\x61\x41\x03"


class FakeConfig:
    BUTTON_PINS = BUTTON_PINS
    LED_PINS = LED_PINS
    DEBOUNCE_US = 30000
    ACTIVE_LOW = True
    AUTOSTART = False


class FakeMicropython:
    def kbd_intr(self, c):
        pass


class FakeHost:
    def __init__(self):
        self.inbox = b""
        self.out = []

    def read(self):
        data = self.inbox
        self.inbox = b""
        return data

    def write(self, data):
        self.out.append(data)

    def bodies(self):
        got = [L.unframe(x[:-1]) for x in self.out]
        self.out = []
        return got


MACHINE = FakeMachine()
sys.modules["machine"] = MACHINE
sys.modules["config"] = FakeConfig()
try:
    import micropython  # noqa: F401 - the real one, on MicroPython
except ImportError:
    sys.modules["micropython"] = FakeMicropython()

import main as fw_main  # noqa: E402 - after the fakes


class CheckFailed(Exception):
    pass


def eq(got, want, what=""):
    if got != want:
        raise CheckFailed("%s: got %r, want %r" % (what, got, want))


def pressed(*buttons):
    gpio = 0xFFFFFFFF
    for b in buttons:
        gpio &= ~(1 << BUTTON_PINS[b - 1])
    return gpio


def core1_sees(gpio, t):
    """What core 1 does on a change: record the raw bits and the timer, or, if
    the queue is full (core 0 has not read that far), drop the change and count it."""
    MACHINE.mem32.gpio = gpio
    w = fw_main._q_w[0]
    nxt = (w + 1) & (fw_main.QUEUE - 1)
    if nxt == fw_main._q_r[0]:
        fw_main._q_w[2] += 1
        return
    fw_main._q_t[w] = t & 0xFFFFFFFF
    fw_main._q_v[w] = gpio & fw_main.PIN_MASK
    fw_main._q_w[0] = nxt


def boot(timer=1000):
    MACHINE.mem32.gpio = 0xFFFFFFFF
    MACHINE.mem32.timer = timer
    host = FakeHost()
    fw = fw_main.setup(host)
    return fw, host


def check_safe_mode():
    MACHINE.mem32.gpio = pressed(1)
    eq(fw_main.setup(FakeHost()), None, "button 1 held at boot: safe mode")


def check_hello_arm_ping():
    fw, host = boot(1000)
    MACHINE.mem32.timer = 5000
    host.inbox = L.frame("INFO") + L.frame("ARM 1") + L.frame("PING 7")
    fw.step()
    got = host.bodies()
    boot_id = fw.dev.boot_id
    eq(
        got[0],
        "HELLO %d %s 4 %s E6614103 30000 0" % (L.PROTOCOL_VERSION, L.FIRMWARE_VERSION, boot_id),
        "hello with the board's id",
    )
    eq(got[1], "OK ARM 1", "armed")
    eq(got[2], "PONG %s 7 4000" % boot_id, "pong: device time since boot")


def check_press_tie_and_leds():
    fw, host = boot(1000)
    fw.step()
    host.bodies()
    host.inbox = L.frame("ARM 1")
    fw.step()
    host.bodies()
    core1_sees(pressed(2), 7000)  # button 2 (GP3) goes low at 7000
    MACHINE.mem32.timer = 7100
    fw.step()
    b = fw.dev.boot_id
    eq(host.bodies(), ["P %s 1 2 6000 0" % b], "the press, stamped by core 1")
    core1_sees(pressed(2, 3, 4), 200000)  # 3 and 4 in one sample: a tie
    MACHINE.mem32.timer = 200050
    fw.step()
    eq(host.bodies(), ["P %s 2 3 199000 0" % b, "P %s 3 4 199000 1" % b], "tie")
    host.inbox = L.frame("LED 3 1")
    FakePin.log = []
    fw.step()
    eq(host.bodies(), ["OK LED 3 1"], "led acknowledged")
    eq(FakePin.log, [(10, 0), (11, 0), (12, 1), (13, 0)], "GP12 lit")


def check_timer_wrap_and_heartbeat():
    fw, host = boot(0xFFFFF000)
    fw.step()
    host.bodies()
    loops = fw_main._q_w[1]
    core1_sees(pressed(1), 0x00000010)  # after the 32-bit timer wrapped
    MACHINE.mem32.timer = 0x20
    fw.step()
    eq(
        [x.split(" ")[4] for x in host.bodies() if x.startswith("P ")],
        ["4112"],
        "time keeps counting across the wrap",
    )
    fw_main._q_w[1] = loops + 2000  # core 1 ran 2000 samples in the next second
    fw_main._q_w[3] = 37  # the longest gap between two of them
    MACHINE.mem32.timer = 0x20 + 500000
    fw.step()
    fw_main._q_w[3] = 2  # later gaps were short
    MACHINE.mem32.timer = 0x20 + 1000000
    fw.step()
    hb = [x for x in host.bodies() if x.startswith("HB ")]
    eq(hb[0].split(" ")[5], "37", "the worst sampling period since the last heartbeat")
    eq(hb[0].split(" ")[6], "0", "no change dropped")


def check_queue_overflow_counted_and_reported():
    fw, host = boot(1000)
    fw.step()
    host.bodies()
    # Core 0 stalls (a blocked USB write) while core 1 sees a storm of changes.
    t = 5000
    for k in range(fw_main.QUEUE + 10):
        core1_sees(pressed(1) if k % 2 == 0 else pressed(), t)
        t += 100
    dropped = fw_main._q_w[2]
    eq(dropped, 11, "a full queue drops changes and counts them (it holds QUEUE - 1)")
    MACHINE.mem32.timer = 1000 + 1000000
    fw.step()
    hb = [x for x in host.bodies() if x.startswith("HB ")]
    eq(hb[0].split(" ")[6], "11", "the heartbeat reports the dropped changes")
    eq(fw_main._q_r[0], fw_main._q_w[0], "core 0 read everything and said so")


CHECKS = [
    check_safe_mode,
    check_hello_arm_ping,
    check_press_tie_and_leds,
    check_timer_wrap_and_heartbeat,
    check_queue_overflow_counted_and_reported,
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
