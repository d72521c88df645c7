"""USB HID buttons: the real ``struct input_event`` byte stream through a real fd.

There is no ``uinput`` here, so the kernel's side is played by the test: it writes
the exact bytes an evdev node gives (``struct input_event``, 24 bytes on 64-bit)
into a pipe, and the very reader the app runs (``HidSource``: select, read,
decode, stamp, route) reads the other end. What only a kernel can do (the clock
id, the grab, the held-key bitmap) is checked against ``<linux/input.h>`` with
the C compiler, and for real where ``/dev/uinput`` exists (test_hid_uinput.py).
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hardware import hid
from companion.hardware.config import TadaaConfig
from companion.hardware.feed import PressFeed
from companion.hardware.hid import (
    EV_KEY,
    EV_SYN,
    SYN_DROPPED,
    SYN_REPORT,
    EventDecoder,
    HidDeviceInfo,
    HidSource,
    InputEvent,
    Opened,
    encode,
)
from companion.hardware.link import DevicePress, TadaaHub
from companion.rules.base import Player

from .conftest import wait_for

MS = 1_000_000
KEY_1, KEY_2, KEY_3, BTN_TRIGGER = 2, 3, 4, 288


def key(t_ns: int, code: int, value: int) -> InputEvent:
    return InputEvent(t_ns // 10**9, t_ns % 10**9 // 1000, EV_KEY, code, value)


def syn(t_ns: int, code: int = SYN_REPORT) -> InputEvent:
    return InputEvent(t_ns // 10**9, t_ns % 10**9 // 1000, EV_SYN, code, 0)


def report(t_ns: int, *keys: tuple[int, int]) -> list[InputEvent]:
    """One USB report as evdev gives it: key events, then SYN_REPORT, one stamp."""
    return [*(key(t_ns, c, v) for c, v in keys), syn(t_ns)]


# --------------------------------------------------------------------------- the ABI


C_CHECK = r"""
#include <stdio.h>
#include <linux/input.h>
#include <linux/uinput.h>
int main(void) {
    printf("%zu %lu %lu %lu %d %d\n", sizeof(struct input_event),
           (unsigned long)EVIOCGRAB, (unsigned long)EVIOCSCLOCKID,
           (unsigned long)EVIOCGKEY((KEY_MAX + 7) / 8 + 1), SYN_DROPPED, KEY_MAX);
    printf("%lu %lu %lu %lu %lu %zu\n", (unsigned long)UI_SET_EVBIT,
           (unsigned long)UI_SET_KEYBIT, (unsigned long)UI_DEV_SETUP,
           (unsigned long)UI_DEV_CREATE, (unsigned long)UI_DEV_DESTROY,
           sizeof(struct uinput_setup));
    return 0;
}
"""


def test_struct_and_ioctl_numbers_match_the_kernel_headers(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None or not Path("/usr/include/linux/input.h").exists():
        pytest.skip("needs a C compiler and the kernel headers (linux-libc-dev)")
    src = tmp_path / "abi.c"
    src.write_text(C_CHECK)
    exe = tmp_path / "abi"
    subprocess.run([cc, str(src), "-o", str(exe)], check=True)
    first, second = subprocess.run(
        [str(exe)], capture_output=True, text=True, check=True
    ).stdout.split("\n")[:2]
    size, grab, clock, getkey, dropped, key_max = map(int, first.split())
    assert size == hid.EVENT.size
    assert (grab, clock, getkey) == (hid.EVIOCGRAB, hid.EVIOCSCLOCKID, hid.eviocgkey())
    assert (dropped, key_max) == (SYN_DROPPED, hid.KEY_MAX)
    from . import test_hid_uinput as ui

    assert tuple(map(int, second.split())) == (
        ui.UI_SET_EVBIT,
        ui.UI_SET_KEYBIT,
        ui.UI_DEV_SETUP,
        ui.UI_DEV_CREATE,
        ui.UI_DEV_DESTROY,
        ui.SETUP.size,
    )


# --------------------------------------------------------------------------- decoding


def test_a_key_held_down_is_one_press_and_auto_repeat_is_ignored():
    d = EventDecoder()
    stream = [
        *report(1_000 * MS, (KEY_1, 1)),
        *report(1_250 * MS, (KEY_1, 2)),  # the kernel's auto-repeat while held
        *report(1_283 * MS, (KEY_1, 2)),
        *report(1_316 * MS, (KEY_1, 2)),
        *report(1_400 * MS, (KEY_1, 0)),
        *report(2_000 * MS, (KEY_1, 1)),
    ]
    downs = d.feed(encode(stream))
    assert [(k.code, k.stamp_ns) for k in downs] == [(KEY_1, 1_000 * MS), (KEY_1, 2_000 * MS)]
    assert (d.stats.presses, d.stats.repeats, d.stats.releases) == (2, 3, 1)


def test_keys_in_one_report_are_a_declared_tie():
    d = EventDecoder()
    downs = d.feed(encode(report(5 * MS, (KEY_1, 1), (KEY_2, 1))))
    assert [k.code for k in downs] == [KEY_1, KEY_2]
    assert all(k.same_report for k in downs)
    assert downs[0].stamp_ns == downs[1].stamp_ns


def test_syn_dropped_discards_the_broken_report_and_counts_held_keys_as_lost():
    held_now: set[int] = set()
    d = EventDecoder(held_keys=lambda: set(held_now))
    assert [k.code for k in d.feed(encode(report(1 * MS, (KEY_1, 1))))] == [KEY_1]
    # The reader fell behind: the kernel threw events away and says so. What
    # follows up to the next SYN_REPORT is a partial report: ignored.
    held_now |= {KEY_1, KEY_2}  # KEY_2 went down while events were being dropped
    stream = [syn(2 * MS, SYN_DROPPED), key(3 * MS, KEY_3, 1), syn(3 * MS)]
    assert d.feed(encode(stream)) == []
    assert (d.stats.drops, d.stats.lost) == (1, 1)  # KEY_2: a press without a time
    assert d.held == {KEY_1, KEY_2}
    # Reading goes on normally afterwards.
    assert [k.code for k in d.feed(encode(report(9 * MS, (KEY_3, 1))))] == [KEY_3]


def test_syn_dropped_on_an_fd_that_cannot_say_its_keys_is_counted():
    d = EventDecoder()
    assert d.feed(encode([syn(1, SYN_DROPPED), key(2, KEY_1, 1), syn(2)])) == []
    assert (d.stats.drops, d.stats.unknown_after_drop, d.stats.presses) == (1, 1, 0)


@given(
    cuts=st.lists(st.integers(min_value=0, max_value=24 * 12), max_size=12),
    gaps=st.lists(st.integers(min_value=0, max_value=20 * MS), min_size=1, max_size=6),
)
def test_any_split_of_the_byte_stream_gives_the_same_presses(cuts, gaps):
    t = 10**9
    stream: list[InputEvent] = []
    expected = []
    for i, gap in enumerate(gaps):
        t += gap
        code = KEY_1 + i % 3
        stream += report(t, (code, 1))
        stream += report(t + 1000, (code, 0))
        expected.append((code, t // 1000 * 1000))
    data = encode(stream)
    d = EventDecoder()
    got = []
    last = 0
    for cut in [*sorted({min(c, len(data)) for c in cuts}), len(data)]:
        got += d.feed(data[last:cut])
        last = cut
    assert [(k.code, k.stamp_ns) for k in got] == expected


def test_the_module_examples_hold():
    import doctest

    assert doctest.testmod(hid).failed == 0


def test_press_interval_covers_the_whole_polling_interval():
    stamp = 50 * MS
    for interval in (125_000, 1 * MS, 8 * MS, hid.DEFAULT_INTERVAL_NS):
        centre, half = hid.press_interval(stamp, interval)
        assert centre + half == stamp  # the press was not after its report
        assert centre - half == stamp - interval - hid.STAMP_SLACK_NS


# --------------------------------------------------------------------------- sysfs


def fake_sysfs(
    root: Path,
    n: int,
    *,
    uniq: str = "",
    interval: str | None = "1ms",
    b_interval: str = "0a",
    speed: str = "12",
    phys_port: str = "2",
) -> Path:
    """The layout Linux gives a USB HID keyboard (event node -> input -> hid -> interface)."""
    usb = root / "devices" / "pci0000:00" / "0000:00:14.0" / "usb1" / f"1-{phys_port}"
    iface = usb / f"1-{phys_port}:1.0"
    hid_dev = iface / f"0003:16C0:05E1.000{n}"
    inp = hid_dev / "input" / f"input{n + 10}"
    ev = inp / f"event{n}"
    ev.mkdir(parents=True)
    (usb / "speed").write_text(speed + "\n")
    (usb / "idVendor").write_text("16c0\n")
    ep = iface / "ep_81"
    ep.mkdir()
    (ep / "type").write_text("Interrupt\n")
    (ep / "bInterval").write_text(b_interval + "\n")
    if interval is not None:
        (ep / "interval").write_text(interval + "\n")
    (inp / "name").write_text("Xin-Mo Xin-Mo Dual Arcade\n")
    (inp / "phys").write_text(f"usb-0000:00:14.0-{phys_port}/input0\n")
    (inp / "uniq").write_text(uniq + "\n")
    (inp / "id").mkdir()
    for name, value in (("bustype", "0003"), ("vendor", "16c0"), ("product", "05e1")):
        (inp / "id" / name).write_text(value + "\n")
    (inp / "capabilities").mkdir()
    # Two 64-bit words, most significant first: BTN_TRIGGER (288) .. and KEY_1, KEY_2.
    (inp / "capabilities" / "key").write_text(f"{1 << (288 - 256):x} 0 0 0 {0b1100:x}\n")
    (ev / "device").symlink_to(inp)
    cls = root / "class" / "input"
    cls.mkdir(parents=True, exist_ok=True)
    (cls / f"event{n}").symlink_to(ev)
    return cls


def test_sysfs_gives_names_ids_keys_and_the_polling_interval(tmp_path):
    cls = fake_sysfs(tmp_path / "sys", 4, uniq="A1B2")
    dev = tmp_path / "dev"
    (dev / "by-id").mkdir(parents=True)
    (dev / "event4").touch()
    (dev / "by-id" / "usb-Xin-Mo_Dual_Arcade-event-joystick").symlink_to(dev / "event4")
    fake_sysfs(tmp_path / "sys", 5, interval=None, b_interval="0a", phys_port="3")
    fake_sysfs(tmp_path / "sys", 6, interval=None, b_interval="04", speed="480", phys_port="4")
    infos = hid.list_hid_devices(str(cls), str(dev))
    assert [i.event for i in infos] == [str(dev / f"event{n}") for n in (4, 5, 6)]
    a, b, c = infos
    assert a.keys == frozenset({KEY_1, KEY_2, BTN_TRIGGER})
    assert (a.vendor, a.product, a.bustype, a.uniq) == (0x16C0, 0x05E1, 3, "A1B2")
    assert a.name == "Xin-Mo Xin-Mo Dual Arcade"
    assert a.by_id == str(dev / "by-id" / "usb-Xin-Mo_Dual_Arcade-event-joystick")
    assert a.interval_ns == 1 * MS  # from the kernel's decoded "interval"
    assert b.interval_ns == 10 * MS  # full speed: bInterval in frames of 1 ms
    assert c.interval_ns == 1 * MS  # high speed: 2^(4-1) microframes of 125 µs
    # Serial number: the same id in any port. None: the id names the port.
    assert a.stable_id == "hid:16c0:05e1:A1B2:input0"
    assert b.stable_id == "hid:16c0:05e1@usb-0000:00:14.0-3/input0"


def test_the_real_sysfs_is_read_without_error():
    # On this machine there may be no input device at all; elsewhere there are some.
    for info in hid.list_hid_devices():
        assert info.event.startswith("/dev/input/event") and info.keys


def test_unknown_interval_uses_the_declared_default():
    info = HidDeviceInfo("/dev/input/event9", "BT pad", "", "", 5, 1, 2)
    assert info.interval_or_default_ns == hid.DEFAULT_INTERVAL_NS


# --------------------------------------------------------------------------- the source on pipes


class PipeKernel:
    """Plays the kernel for ``HidSource``: devices on pipes, plugged and unplugged."""

    def __init__(self) -> None:
        self.plugged: dict[str, tuple[HidDeviceInfo, int]] = {}  # event path -> (info, write fd)
        self.lock = threading.Lock()
        self.opens = 0

    def plug(self, info: HidDeviceInfo) -> None:
        with self.lock:
            self.plugged[info.event] = (info, -1)

    def unplug(self, info: HidDeviceInfo) -> None:
        with self.lock:
            _info, w = self.plugged.pop(info.event)
        if w >= 0:
            os.close(w)  # the reader sees end of file, as on a vanished device

    def devices(self) -> list[HidDeviceInfo]:
        with self.lock:
            return [info for info, _w in self.plugged.values()]

    def open(self, info: HidDeviceInfo) -> Opened:
        r, w = os.pipe()
        os.set_blocking(r, False)
        with self.lock:
            self.plugged[info.event] = (info, w)
            self.opens += 1
        # What the kernel gives after EVIOCSCLOCKID(CLOCK_MONOTONIC); a pipe is
        # no evdev node, so no grab and no key state.
        return Opened(r, monotonic=True, evdev=False)

    def write(self, info: HidDeviceInfo, events: list[InputEvent]) -> None:
        with self.lock:
            _info, w = self.plugged[info.event]
        os.write(w, encode(events))

    def close(self) -> None:
        for info in list(self.devices()):
            self.unplug(info)


def pad(n: int, uniq: str = "", interval_ns: int | None = 1 * MS) -> HidDeviceInfo:
    return HidDeviceInfo(
        event=f"/dev/input/event{n}",
        name=f"Pad {n}",
        phys=f"usb-0000:00:14.0-{n}/input0",
        uniq=uniq,
        bustype=3,
        vendor=0x16C0,
        product=0x05E1,
        keys=frozenset({KEY_1, KEY_2, KEY_3}),
        interval_ns=interval_ns,
    )


@pytest.fixture
def kernel():
    k = PipeKernel()
    yield k
    k.close()


@pytest.fixture
def source(kernel):
    src = HidSource(lambda info: True, devices=kernel.devices, opener=kernel.open)
    got: list[DevicePress] = []
    lock = threading.Lock()

    def collect(p: DevicePress) -> None:
        with lock:
            got.append(p)

    src.on_press(collect)
    src.start()
    src.got = got  # type: ignore[attr-defined]
    yield src
    src.stop()


def connected(src: HidSource, info: HidDeviceInfo) -> bool:
    return any(s.serial == info.stable_id and s.state == "connected" for s in src.status())


def test_two_sources_each_press_with_the_kernel_stamp_and_its_interval(kernel, source):
    a, b = pad(1, interval_ns=1 * MS), pad(2, uniq="S2", interval_ns=8 * MS)
    kernel.plug(a)
    kernel.plug(b)
    source.poke()
    wait_for(lambda: connected(source, a) and connected(source, b), what="both pads open")
    t = time.monotonic_ns()
    kernel.write(b, report(t + 3 * MS, (KEY_2, 1)))
    kernel.write(a, report(t + 5 * MS, (KEY_1, 1), (KEY_3, 1)))
    wait_for(lambda: len(source.got) == 3, what="three presses")
    by = {(p.serial, p.button): p for p in source.got}
    pb = by[(b.stable_id, KEY_2)]
    stamp_b = (t + 3 * MS) // 1000 * 1000
    assert pb.device_us == stamp_b // 1000
    assert pb.host_ns + pb.uncertainty_ns == stamp_b
    assert pb.uncertainty_ns == (8 * MS + hid.STAMP_SLACK_NS) // 2
    pa1, pa3 = by[(a.stable_id, KEY_1)], by[(a.stable_id, KEY_3)]
    assert pa1.uncertainty_ns == (1 * MS + hid.STAMP_SLACK_NS) // 2
    assert pa1.device_us == pa3.device_us and pa1.tie and pa3.tie  # one report
    assert [p.seq for p in (pa1, pa3)] == [1, 2]
    assert pb.to_json()["kind"] == "hid-press"
    assert pb.to_json()["interval_ns"] == 8 * MS
    assert pb.arrival_ns >= pb.host_ns  # read after the kernel stamped it


def test_unplug_and_replug_on_another_node_keeps_the_device(kernel, source):
    a = pad(1, uniq="KEEP")
    kernel.plug(a)
    source.poke()
    wait_for(lambda: connected(source, a), what="pad open")
    t = time.monotonic_ns()
    kernel.write(a, report(t, (KEY_1, 1)))
    wait_for(lambda: len(source.got) == 1, what="first press")
    kernel.unplug(a)  # end of file on the reader's fd
    wait_for(lambda: [s.state for s in source.status()] == ["disconnected"], what="unplug noticed")
    # Plugged back in: the kernel gives it another event node; the id stays.
    again = dataclasses.replace(a, event="/dev/input/event17")
    kernel.plug(again)
    source.poke()
    wait_for(lambda: connected(source, again), what="replug noticed")
    kernel.write(again, report(t + 50 * MS, (KEY_2, 1), (KEY_2, 0)))
    kernel.write(again, report(t + 60 * MS, (KEY_2, 2)))  # a repeat: nothing
    wait_for(lambda: len(source.got) == 2, what="press after replug")
    status = source.status()
    assert len(status) == 1 and status[0].port == "/dev/input/event17"
    assert status[0].presses == 2
    assert [p.seq for p in source.got] == [1, 2]
    assert source.got[1].port == "/dev/input/event17" and source.got[1].button == KEY_2
    assert kernel.opens == 2


def test_syn_dropped_through_the_source_is_told_to_the_host(kernel, source):
    a = pad(1)
    kernel.plug(a)
    source.poke()
    wait_for(lambda: connected(source, a), what="pad open")
    t = time.monotonic_ns()
    stream = [
        *report(t, (KEY_1, 1)),
        syn(t + 1 * MS, SYN_DROPPED),
        key(t + 2 * MS, KEY_2, 1),  # part of a report the kernel cut: not a press
        syn(t + 2 * MS),
        *report(t + 3 * MS, (KEY_3, 1)),
    ]
    kernel.write(a, stream)
    wait_for(lambda: len(source.got) == 2, what="the two whole reports")
    assert [p.button for p in source.got] == [KEY_1, KEY_3]
    (problem,) = source.problems()
    assert "dropped its events 1 times" in problem


def test_only_wanted_devices_are_opened(kernel):
    a, b = pad(1), pad(2)
    kernel.plug(a)
    kernel.plug(b)
    src = HidSource(
        lambda info: info.stable_id == b.stable_id, devices=kernel.devices, opener=kernel.open
    ).start()
    try:
        wait_for(lambda: connected(src, b), what="the wanted pad")
        assert [s.serial for s in src.status()] == [b.stable_id]
    finally:
        src.stop()


def test_a_device_that_cannot_be_opened_says_why(kernel):
    a = pad(1)
    kernel.plug(a)

    def refuse(info: HidDeviceInfo) -> Opened:
        raise hid.OpenFailed(hid.permission_message(info))

    src = HidSource(lambda info: True, devices=kernel.devices, opener=refuse).start()
    try:
        wait_for(lambda: bool(src.problems()), what="the problem")
        assert src.status()[0].state == "disconnected"
        (text,) = src.problems()
        assert "/dev/input/event1" in text and "'input' group" in text
        assert "70-companion-hid.rules" in text
    finally:
        src.stop()


def test_the_real_opener_on_a_non_evdev_node_falls_back_to_wall_clock_stamps(tmp_path):
    fifo = tmp_path / "event0"
    os.mkfifo(fifo)
    info = HidDeviceInfo(str(fifo), "fifo", "", "", 3, 1, 2, frozenset({KEY_1}), None, 1 * MS)
    src = HidSource(lambda i: True, devices=lambda: [info]).start()
    got: list[DevicePress] = []
    src.on_press(got.append)
    try:
        w = os.open(fifo, os.O_WRONLY)  # blocks until the source has opened it
        try:
            wait_for(lambda: connected(src, info), what="fifo open")
            dev = src.devices[info.stable_id]
            assert dev.opened is not None
            assert (dev.opened.monotonic, dev.opened.evdev) == (False, False)
            wall = time.time_ns()
            mono = time.monotonic_ns()
            os.write(w, encode(report(wall, (KEY_1, 1))))
            wait_for(lambda: len(got) == 1, what="the press")
        finally:
            os.close(w)
        stamp = got[0].host_ns + got[0].uncertainty_ns
        # Moved onto the monotonic clock (the offset is read a moment later: µs).
        assert abs(stamp - mono) < 50 * MS
    finally:
        src.stop()


def test_permission_denied_shows_the_exact_message(tmp_path):
    node = tmp_path / "event3"
    node.touch()
    node.chmod(0)
    info = HidDeviceInfo(str(node), "Arcade encoder", "", "", 3, 0x79, 6)
    expected = hid.permission_message(info)
    if os.geteuid() != 0:
        with pytest.raises(hid.OpenFailed) as exc:
            hid.open_evdev(info)
        assert str(exc.value) == expected
        return
    # As root nothing is refused: open it as an ordinary user, in a forked child.
    import pwd

    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user 'nobody' to open the device as")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: drop root, try, report, leave at once
        try:
            os.setgid(nobody.pw_gid)
            os.setuid(nobody.pw_uid)
            try:
                hid.open_evdev(info)
                os.write(w, b"opened")
            except hid.OpenFailed as exc:
                os.write(w, str(exc).encode())
        finally:
            os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as fh:
        said = fh.read().decode()
    os.waitpid(pid, 0)
    assert said == expected


# --------------------------------------------------------------------------- into the feed


def test_hid_presses_take_the_feed_path_of_the_box(kernel, source, tmp_path):
    """One key per player on a shared pad, and one whole device for another."""
    shared, own = pad(1), pad(2, uniq="BO")
    config = TadaaConfig(path=tmp_path / "tadaa.json")
    config.assign(shared.stable_id, KEY_1, "Ann")
    config.assign(shared.stable_id, KEY_3, "Cy")
    config.assign(own.stable_id, 0, "Bo")  # any key of Bo's pedal
    config.save()
    config = TadaaConfig.load(tmp_path / "tadaa.json")
    hub = TadaaHub(ports=lambda: [])
    delivered = []
    records = []
    players = (Player("p1", "Ann"), Player("p2", "Bo"), Player("p3", "Cy"))
    feed = PressFeed(
        hub,
        config,
        lambda: players,
        delivered.append,
        record=lambda payload, ns: records.append(payload),
    )
    source.on_press(lambda p: [listener(p) for listener in list(hub.press_listeners)])
    kernel.plug(shared)
    kernel.plug(own)
    source.poke()
    wait_for(lambda: connected(source, shared) and connected(source, own), what="pads")
    t = time.monotonic_ns()
    kernel.write(own, report(t, (KEY_3, 1)))
    kernel.write(shared, report(t + 2 * MS, (KEY_3, 1), (KEY_1, 1)))
    kernel.write(shared, report(t + 4 * MS, (KEY_2, 1)))  # nobody's key
    wait_for(lambda: len(records) == 4, what="four raw events")
    assert sorted((p.player, p.button) for p in delivered) == [
        ("p1", KEY_1),
        ("p2", KEY_3),
        ("p3", KEY_3),
    ]
    assert all(p.source == "button-box" and p.device.startswith("hid:") for p in delivered)
    assert sorted(r["routed"] for r in records) == ["game", "game", "game", "unassigned"]
    assert {r["kind"] for r in records} == {"hid-press"}
    feed.close()
