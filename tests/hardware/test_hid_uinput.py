"""A real kernel input device (``/dev/uinput``) read by the companion's HID source.

Where the kernel offers ``uinput`` (and the test may use it: root or the ``input``
group), a virtual keypad is created, found in sysfs like any USB keypad, opened
by the real opener (clock id set, grabbed), and its key events come back as
presses stamped by the kernel on the monotonic clock. Skipped with the reason
elsewhere (no ``uinput`` module in this kernel, e.g. CI containers).

The uinput numbers are checked against ``<linux/uinput.h>`` in test_hid.py.
"""

from __future__ import annotations

import fcntl
import os
import struct
import time

import pytest

from companion.hardware import hid
from companion.hardware.hid import EV_KEY, EV_SYN, SYN_REPORT, HidSource

from .conftest import wait_for

UINPUT = "/dev/uinput"


def _io(nr: int) -> int:
    return hid._ioc(0, "U", nr, 0)


SETUP = struct.Struct("HHHH80sI")
"""``struct uinput_setup``: input_id (bustype, vendor, product, version), name, ff."""
UI_SET_EVBIT = hid._ioc(hid._IOC_WRITE, "U", 100, struct.calcsize("i"))
UI_SET_KEYBIT = hid._ioc(hid._IOC_WRITE, "U", 101, struct.calcsize("i"))
UI_DEV_SETUP = hid._ioc(hid._IOC_WRITE, "U", 3, SETUP.size)
UI_DEV_CREATE = _io(1)
UI_DEV_DESTROY = _io(2)
KEY_1, KEY_2 = 2, 3
NAME = "companion test keypad"


def _uinput_fd() -> int:
    if not os.path.exists(UINPUT):
        pytest.skip("no /dev/uinput here (the kernel has no uinput module, or it is not loaded)")
    try:
        return os.open(UINPUT, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        pytest.skip(f"cannot open /dev/uinput: {exc.strerror}")


def _emit(fd: int, code: int, value: int) -> None:
    os.write(
        fd, hid.EVENT.pack(0, 0, EV_KEY, code, value) + hid.EVENT.pack(0, 0, EV_SYN, SYN_REPORT, 0)
    )


def test_a_virtual_keypad_through_the_real_kernel():
    fd = _uinput_fd()
    try:
        fcntl.ioctl(fd, UI_SET_EVBIT, EV_KEY)
        for code in (KEY_1, KEY_2):
            fcntl.ioctl(fd, UI_SET_KEYBIT, code)
        fcntl.ioctl(fd, UI_DEV_SETUP, SETUP.pack(hid.BUS_USB, 0x1209, 0x7ADA, 1, NAME.encode(), 0))
        fcntl.ioctl(fd, UI_DEV_CREATE)
        source = HidSource(lambda info: info.name == NAME).start()
        got = []
        source.on_press(got.append)
        try:
            wait_for(
                lambda: any(s.state == "connected" for s in source.status()),
                what="the virtual keypad opened",
            )
            dev = next(iter(source.devices.values()))
            assert dev.opened is not None and dev.opened.monotonic and dev.opened.evdev
            assert dev.grabbed  # armed: its keys do not reach anything else
            before = time.monotonic_ns()
            _emit(fd, KEY_1, 1)
            _emit(fd, KEY_1, 2)  # auto-repeat: not a press
            _emit(fd, KEY_1, 0)
            _emit(fd, KEY_2, 1)
            wait_for(lambda: len(got) == 2, what="two presses")
            after = time.monotonic_ns()
            assert [p.button for p in got] == [KEY_1, KEY_2]
            for p in got:
                stamp = p.host_ns + p.uncertainty_ns
                assert before <= stamp <= after  # the kernel's stamp, on our clock
                assert p.uncertainty_ns == (hid.DEFAULT_INTERVAL_NS + hid.STAMP_SLACK_NS) // 2
            fcntl.ioctl(fd, UI_DEV_DESTROY)
            wait_for(
                lambda: all(s.state == "disconnected" for s in source.status()),
                what="the keypad's removal noticed",
            )
        finally:
            source.stop()
    finally:
        os.close(fd)
