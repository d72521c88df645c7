"""Arduino and USB-serial ports as Tadaa candidates: found by USB id, confirmed by INFO.

A CH340, FTDI or CP210x chip (or an Arduino running any sketch) may be someone
else's device: a 3D printer, a GPS, a serial console. Such a port gets one
``INFO`` per plug-in and nothing else; if it answers anything but ``HELLO`` it is
left alone until it is unplugged; if another program has it open it is not
touched at all. Real ptys stand in for the USB ports; the USB ids come from a
faked ``list_ports.comports``.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Iterator

import pytest
from serial.tools.list_ports_common import ListPortInfo

from companion.hardware import link
from companion.hardware import tadaa_logic as logic
from companion.hardware.config import USB_CANDIDATES, port_in_use, usb_candidate
from companion.hardware.link import TadaaHub, candidate_ports
from companion.hardware.simulator import SimDeviceConfig, Simulator
from tests.hardware.conftest import wait_for


def fake_port(device: str, vid: int | None, pid: int | None) -> ListPortInfo:
    info = ListPortInfo(device, skip_link_detection=True)
    info.vid, info.pid = vid, pid
    return info


@pytest.mark.parametrize(
    ("vid", "pid", "what", "shared"),
    [
        (0x2E8A, 0x0005, "Raspberry Pi RP2040 (MicroPython)", False),
        (0x2341, 0x0043, "Arduino", True),  # Uno R3
        (0x2341, 0x8036, "Arduino", True),  # Leonardo
        (0x2A03, 0x0043, "Arduino (arduino.org)", True),
        (0x1B4F, 0x9206, "SparkFun Pro Micro 5 V", True),
        (0x1A86, 0x7523, "CH340 USB-serial", True),
        (0x0403, 0x6001, "FTDI FT232R USB-serial", True),
        (0x10C4, 0xEA60, "Silicon Labs CP210x USB-serial", True),
    ],
)
def test_known_ids_are_candidates(vid, pid, what, shared):
    c = usb_candidate(vid, pid)
    assert c is not None and (c.what, c.shared) == (what, shared)


@pytest.mark.parametrize(
    ("vid", "pid"),
    [(None, None), (0x067B, 0x2303), (0x2E8A, 0x000A), (0x1A86, 0x55D4), (0x0403, 0x6015)],
)
def test_other_ids_are_not(vid, pid):
    assert usb_candidate(vid, pid) is None


def test_every_listed_id_is_found_once_and_others_are_not(monkeypatch):
    ports = [
        fake_port(f"/dev/ttyFAKE{i}", c.vid, c.pid or 0x1234) for i, c in enumerate(USB_CANDIDATES)
    ]
    ports.append(fake_port("/dev/ttyPROLIFIC", 0x067B, 0x2303))
    ports.append(fake_port("/dev/ttyS0", None, None))  # a motherboard serial port
    monkeypatch.setattr(link.list_ports, "comports", lambda *a, **k: ports)
    monkeypatch.setattr(link, "BY_ID_GLOBS", ())
    found = candidate_ports()
    assert found == [f"/dev/ttyFAKE{i}" for i in range(len(USB_CANDIDATES))]


class StrangerDevice:
    """The far end of a pty: a device that is no Tadaa (a printer saying ``ok``)."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        self.path = os.ttyname(self.slave)
        self.received = bytearray()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        import select

        while not self.stop.is_set():
            ready, _, _ = select.select([self.master], [], [], 0.02)
            if not ready:
                continue
            try:
                data = os.read(self.master, 1024)
            except OSError:
                continue
            self.received += data
            for _ in range(data.count(b"\n")):
                os.write(self.master, b"echo:Unknown command\r\nok\r\n")

    def infos(self) -> int:
        return bytes(self.received).count(bytes(logic.frame("INFO")))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture
def quick(monkeypatch) -> None:
    """The hub's patience, shortened: the logic is the same, the test is quicker."""
    monkeypatch.setattr(link, "HELLO_TIMEOUT_NS", 300_000_000)
    monkeypatch.setattr(link, "SCAN_EVERY_NS", 50_000_000)
    monkeypatch.setattr(link, "BUSY_RECHECK_NS", 200_000_000)
    monkeypatch.setattr(link, "NOT_TADAA_RETRY_NS", 400_000_000)


@pytest.fixture
def stranger(monkeypatch, quick) -> Iterator[tuple[StrangerDevice, list[str]]]:
    dev = StrangerDevice()
    monkeypatch.setattr(
        link.list_ports, "comports", lambda *a, **k: [fake_port(dev.path, 0x1A86, 0x7523)]
    )
    plugged = [dev.path]
    yield dev, plugged
    dev.close()


def test_a_usb_serial_stranger_gets_one_info_and_is_then_left_alone(stranger):
    dev, plugged = stranger
    hub = TadaaHub(ports=lambda: list(plugged)).start()
    try:
        wait_for(lambda: dev.path in hub.unconnected_ports(), 10, "the port given up")
        # Several scans and a whole retry period later: still the one INFO.
        time.sleep(1.0)
        assert dev.infos() == 1
        assert bytes(dev.received) == bytes(logic.frame("INFO"))  # nothing else, ever
        assert hub.status() == [] and hub.errors == []  # silently
        # Unplugged and plugged again: a new device may be there, ask once more.
        plugged.clear()
        wait_for(lambda: dev.path not in hub.unconnected_ports(), 10, "the unplug seen")
        plugged.append(dev.path)
        wait_for(lambda: dev.infos() == 2, 10, "a second INFO after the replug")
        time.sleep(0.8)
        assert dev.infos() == 2
    finally:
        hub.stop()


def test_a_port_another_program_holds_is_not_touched(stranger):
    dev, plugged = stranger
    holder = subprocess.Popen(["sleep", "30"], stdin=os.open(dev.path, os.O_RDWR | os.O_NOCTTY))
    try:
        wait_for(lambda: port_in_use(dev.path), 5, "the holder seen in /proc")
        hub = TadaaHub(ports=lambda: list(plugged)).start()
        try:
            time.sleep(1.0)  # many scans and busy re-checks
            assert dev.received == bytearray()
            holder.terminate()
            holder.wait(5)
            wait_for(lambda: dev.infos() == 1, 10, "the INFO once the port is free")
        finally:
            hub.stop()
    finally:
        if holder.poll() is None:
            holder.kill()
            holder.wait(5)


def test_a_configured_port_is_the_hosts_and_is_retried(stranger):
    dev, plugged = stranger
    hub = TadaaHub(configured=[dev.path], ports=lambda: list(plugged)).start()
    try:
        # The host listed it: after the retry period it is asked again (not left alone).
        wait_for(lambda: dev.infos() >= 2, 10, "the retry of a configured port")
    finally:
        hub.stop()


def test_a_tadaa_device_behind_a_ch340_is_confirmed_by_its_hello(monkeypatch, quick):
    sim = Simulator([SimDeviceConfig("NANO1", buttons=3)], seed=5).start()
    try:
        path = sim.paths()[0]
        monkeypatch.setattr(
            link.list_ports, "comports", lambda *a, **k: [fake_port(path, 0x1A86, 0x7523)]
        )
        monkeypatch.setattr(link, "BY_ID_GLOBS", ())
        assert candidate_ports() == [path]
        hub = TadaaHub(ports=candidate_ports).start()
        try:
            wait_for(
                lambda: [s.serial for s in hub.status() if s.state == "connected"] == ["NANO1"],
                15,
                "the device connected",
            )
            assert hub.unconnected_ports() == []
        finally:
            hub.stop()
    finally:
        sim.stop()
