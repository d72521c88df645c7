# ruff: noqa: UP031 - MicroPython-compatible subset: %-formatting kept on purpose
# Tadaa button firmware: the hardware layer for an RP2040 board (MicroPython).
#
# Everything that decides something lives in ``tadaa_logic.py`` (debounce,
# framing, ring buffer, commands); this file only moves bits between the pins,
# the timer, the USB serial port and that logic:
#
# * Core 1 samples ALL buttons together by reading the SIO GPIO input register
#   in a tight (viper-compiled) loop — no per-pin IRQs, whose latency in
#   MicroPython is tens of microseconds with millisecond dropouts — and pushes
#   every change of the mask, with the 1 MHz hardware timer read right after it,
#   into a lock-free single-producer/single-consumer queue. It also keeps the
#   longest gap between two of its samples (the worst sampling period).
# * Core 0 drains that queue into the logic, talks to the host over USB CDC,
#   sends heartbeats, and drives the LEDs.
# * The queue never overflows silently: when it is full (core 0 stalled, e.g. a
#   blocked USB write), core 1 drops the change and counts it; the count goes
#   to the host in every heartbeat (``HB``'s last field), with the worst
#   sampling period since the previous heartbeat.
#
# Pins and options come from ``config.py`` on the board (see README.md); a config
# with ``AUTOSTART = False`` only defines everything (the tests drive ``setup()``
# and ``Firmware.step()`` with a faked board).
# Hold button 1 while plugging in to skip the firmware (safe mode: the REPL
# stays free for ``mpremote``).

import select
import sys
import time
from array import array

import machine
import micropython
import tadaa_logic as L

try:
    import config
except ImportError:
    config = None

BUTTON_PINS = getattr(config, "BUTTON_PINS", [2, 3, 4, 5, 6, 7, 8, 9])
LED_PINS = getattr(config, "LED_PINS", [])  # one per button, or empty
DEBOUNCE_US = getattr(config, "DEBOUNCE_US", 30000)
ACTIVE_LOW = getattr(config, "ACTIVE_LOW", True)  # button to GND, internal pull-up

_sleep_ms = getattr(time, "sleep_ms", lambda ms: time.sleep(ms / 1000))

SIO_GPIO_IN = 0xD0000004  # RP2040: all GPIO inputs, one read
TIMER_RAWL = 0x40054028  # RP2040: 1 MHz timer, low 32 bits, no latching side effects
QUEUE = 64  # power of two

PIN_MASK = 0
for _p in BUTTON_PINS:
    PIN_MASK |= 1 << _p

_q_t = array("I", [0] * QUEUE)  # raw timer at each change
_q_v = array("I", [0] * QUEUE)  # raw GPIO bits at each change
_q_w = array("I", [0, 0, 0, 0])  # [write index, loop counter, changes dropped, worst gap µs]
_q_r = array("I", [0])  # core 0's read index (core 1 must not pass it)
_stop = array("I", [0])


def _timer_raw():
    return machine.mem32[TIMER_RAWL] & 0xFFFFFFFF


try:
    # The viper-compiled loop (well under 1 us per sample) needs the native
    # emitter, which every RP2040 build has; elsewhere fall back to bytecode.
    from fast_sampler import make_sampler

    _sampler = make_sampler(SIO_GPIO_IN, TIMER_RAWL, _q_t, _q_v, _q_w, _q_r, _stop, QUEUE)
except (ImportError, SyntaxError, AttributeError):

    def _sampler(pin_mask):
        mem = machine.mem32
        last = mem[SIO_GPIO_IN] & pin_mask
        prev = mem[TIMER_RAWL]
        w = 0
        while _stop[0] == 0:
            v = mem[SIO_GPIO_IN] & pin_mask
            t = mem[TIMER_RAWL] & 0xFFFFFFFF
            gap = (t - prev) & 0xFFFFFFFF
            if gap > _q_w[3]:
                _q_w[3] = gap
            prev = t
            if v != last:
                nxt = (w + 1) & (QUEUE - 1)
                if nxt == _q_r[0]:
                    _q_w[2] += 1  # full: this change is lost, and counted
                else:
                    _q_t[w] = t
                    _q_v[w] = v
                    w = nxt
                    _q_w[0] = w
                last = v
            _q_w[1] += 1


def _to_buttons(raw):
    """Raw GPIO bits -> pressed mask (bit i = button i + 1)."""
    mask = 0
    for i, pin in enumerate(BUTTON_PINS):
        level = (raw >> pin) & 1
        if level != (1 if ACTIVE_LOW else 0):
            mask |= 1 << i
    return mask


def _serial_number():
    return "".join("%02X" % b for b in machine.unique_id())


def _boot_id():
    try:
        import os

        raw = os.urandom(4)  # RP2040: from the ring oscillator's random bits
    except (ImportError, AttributeError):
        import random

        raw = bytes(random.getrandbits(8) ^ (_timer_raw() >> (8 * i) & 0xFF) for i in range(4))
    return "".join("%02X" % b for b in raw)


class UsbHost:
    """The USB serial port: non-blocking reads from stdin, writes to stdout."""

    def __init__(self):
        # Binary-safe stdin: a stray 0x03 (Ctrl-C) on the line must not stop us.
        micropython.kbd_intr(-1)
        self.poller = select.poll()
        self.poller.register(sys.stdin, select.POLLIN)
        self.inp = sys.stdin.buffer
        self.out = sys.stdout.buffer

    def read(self):
        data = b""
        while self.poller.poll(0):
            data += self.inp.read(1)
            if len(data) >= 64:
                break
        return data

    def write(self, data):
        self.out.write(data)


class Firmware:
    """Core 0's loop, one ``step`` at a time (tests drive it with a faked board)."""

    def __init__(self, host, pin_mask, initial, leds):
        self.host = host
        self.leds = leds
        self.ext = L.ClockExtender(32, _timer_raw())
        now = self.ext.extend(_timer_raw())
        self.dev = L.TadaaDevice(
            len(BUTTON_PINS),
            _boot_id(),
            _serial_number(),
            debounce_us=DEBOUNCE_US,
            t_us=now,
            initial_mask=initial,
        )
        self.r = _q_w[0]  # the queue is empty at boot; start where core 1 is
        _q_r[0] = self.r
        self.shown_leds = -1

    def step(self):
        dev = self.dev
        ext = self.ext
        lines = []
        # 1. presses, in the order core 1 saw them
        w = _q_w[0]
        while self.r != w:
            t = ext.near(_q_t[self.r])
            lines.extend(dev.on_sample(t, _to_buttons(_q_v[self.r])))
            self.r = (self.r + 1) & (QUEUE - 1)
        _q_r[0] = self.r  # the slots are free again for core 1
        dev.queue_overflows = _q_w[2]
        now = ext.extend(_timer_raw())
        # 2. host commands (stamped when their bytes were read)
        data = self.host.read()
        if data:
            lines.extend(dev.on_bytes(data, ext.extend(_timer_raw())))
        # 3. the worst sampling period since the last step (core 1 keeps the
        # longest gap between two samples; taken and cleared here, so the
        # heartbeat reports the worst since the previous heartbeat)
        worst = _q_w[3]
        if worst:
            _q_w[3] = 0
            dev.note_loop(worst)
        lines.extend(dev.poll(now))
        for line in lines:
            self.host.write(line)
        # 4. LEDs
        if self.leds:
            mask = dev.led_mask(now)
            if mask != self.shown_leds:
                for i, led in enumerate(self.leds):
                    led.value((mask >> i) & 1)
                self.shown_leds = mask


def setup(host=None):
    """Pins, safe mode, the logic; returns the ``Firmware`` (None in safe mode)."""
    for p in BUTTON_PINS:
        machine.Pin(p, machine.Pin.IN, machine.Pin.PULL_UP if ACTIVE_LOW else None)
    leds = [machine.Pin(p, machine.Pin.OUT, value=0) for p in LED_PINS]
    _sleep_ms(5)  # pull-ups settle
    initial = _to_buttons(machine.mem32[SIO_GPIO_IN] & PIN_MASK)
    if initial & 1:
        # Safe mode: leave the REPL to mpremote.
        print("tadaa: button 1 held at boot, firmware not started (safe mode)")
        return None
    return Firmware(host or UsbHost(), PIN_MASK, initial, leds)


def main():
    fw = setup()
    if fw is None:
        return
    import _thread

    _thread.start_new_thread(_sampler, (PIN_MASK,))
    while True:
        fw.step()


if getattr(config, "AUTOSTART", True):
    main()
