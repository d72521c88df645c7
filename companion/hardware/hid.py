"""USB HID Tadaa buttons: keypads, arcade encoders, foot pedals, gamepads (Linux evdev).

A press from a HID device becomes the same ``DevicePress`` as one from the serial
box, so the button map, the feed, the raw log and the rules treat both alike.

Design decisions:

* **No binding.** Reading evdev takes one struct (``struct input_event``), three
  ioctls (``EVIOCSCLOCKID``, ``EVIOCGRAB``, ``EVIOCGKEY``) and sysfs for names,
  ids, keys and the USB polling interval; the standard library does all of it.
  python-evdev is published on PyPI as a source package only (it needs a C
  compiler and the kernel headers on the host's machine), and its
  ``InputDevice`` cannot read a pipe: with it, the tests could not feed the real
  byte stream through the very reader the app runs. ``tests/hardware/test_hid.py``
  checks every number here against ``<linux/input.h>`` with the C compiler.
* **Time.** The kernel stamps every event when the USB report is handled;
  ``EVIOCSCLOCKID(CLOCK_MONOTONIC)`` puts that stamp on the host's monotonic clock
  (``time.monotonic_ns``, the session's clock), so no clock sync is needed. The
  button went down at some moment of the polling interval before that report
  (plus the host's interrupt latency, ``STAMP_SLACK_NS``): the press is placed in
  the middle, with half of that span as its uncertainty. The interval comes from
  the endpoint's descriptor in sysfs; unknown (Bluetooth, virtual devices) means
  ``DEFAULT_INTERVAL_NS``, declared wide on purpose. A kernel that refuses the
  clock id (older than 4.4) stamps on the wall clock; those stamps are moved to
  the monotonic clock with the offset of the moment they are read.
* **One device's presses are ordered by their stamps**: ``device_us`` is the
  kernel's stamp in microseconds, and the rules order two presses of one device
  by it, exactly as for the box. Keys in the same report share a stamp: a tie,
  declared, never guessed.
* **Which devices.** The app opens only devices that own a player in the button
  map (``tadaa.json``, by stable id): opening every input device would grab the
  host's own keyboard. ``companion devices map --hid`` reads every device with
  keys (without grabbing; the laptop's built-in keyboard excluded) to learn them.
* **Grab while armed**: ``EVIOCGRAB`` keeps a keypad's "1" from also typing into
  the terminal (where it would be a keyboard press too).
* **A press** is a key going down (value 1). Auto-repeat (2) and releases (0) are
  counted, not pressed. After ``SYN_DROPPED`` (the reader fell behind and the
  kernel threw events away) everything up to the next ``SYN_REPORT`` is ignored,
  as the kernel documents; keys found held then (``EVIOCGKEY``) that were up
  before are presses whose time is gone: counted as lost and shown, never given
  an invented time.
* **Unplug and replug**: ``ENODEV`` or end of file closes the device; the scan
  (every ``SCAN_EVERY_NS``) finds it again by its stable id, whatever event node
  it gets.
"""

from __future__ import annotations

import contextlib
import errno
import glob
import os
import select
import struct
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from companion.hardware.config import TadaaConfig
from companion.hardware.link import DevicePress, DeviceStatus
from companion.i18n import N_, _
from companion.resources import device_file

try:
    import fcntl
except ImportError:  # not POSIX: there is no evdev to read
    fcntl = None  # type: ignore[assignment]

#: Whether this machine can read HID buttons at all: evdev is Linux's.
SUPPORTED = sys.platform.startswith("linux") and fcntl is not None
UNSUPPORTED = N_(
    "HID buttons need Linux here; use a serial box (an Arduino or RP2040 Tadaa box: "
    "companion paths firmware-arduino)."
)

# --------------------------------------------------------------------------- the kernel ABI

EV_SYN = 0x00
EV_KEY = 0x01
SYN_REPORT = 0
SYN_DROPPED = 3
KEY_MAX = 0x2FF
BUS_USB = 0x03
BUS_I8042 = 0x11  # a laptop's built-in keyboard: never a Tadaa button
CLOCK_MONOTONIC = 1

EVENT = struct.Struct("@llHHi")
"""``struct input_event``: ``struct timeval`` (two C longs), type, code, value."""

_IOC_WRITE = 1
_IOC_READ = 2


def _ioc(direction: int, kind: str, nr: int, size: int) -> int:
    return (direction << 30) | (size << 16) | (ord(kind) << 8) | nr


EVIOCGRAB = _ioc(_IOC_WRITE, "E", 0x90, struct.calcsize("i"))
EVIOCSCLOCKID = _ioc(_IOC_WRITE, "E", 0xA0, struct.calcsize("i"))
KEY_BYTES = (KEY_MAX + 7) // 8 + 1


def eviocgkey(size: int = KEY_BYTES) -> int:
    """``EVIOCGKEY(len)``: the bitmap of keys held down now."""
    return _ioc(_IOC_READ, "E", 0x18, size)


MODIFIER_KEYS = frozenset({29, 42, 54, 56, 97, 100, 125, 126})
"""Ctrl, Shift, Alt, Meta (left and right)."""
KEY_A, KEY_Z = 30, 44


def is_full_keyboard(info: HidDeviceInfo) -> bool:
    """A device with letter keys: a real keyboard, not a keypad or an encoder."""
    return KEY_A in info.keys and KEY_Z in info.keys


# --------------------------------------------------------------------------- timing

MS = 1_000_000
DEFAULT_INTERVAL_NS = 16 * MS
"""Polling interval assumed when the device does not say (Bluetooth: 7.5–15 ms)."""
STAMP_SLACK_NS = 250_000
"""From the end of a USB transfer to the kernel's stamp (interrupt, driver)."""
SCAN_EVERY_NS = 500_000_000
READ_BYTES = EVENT.size * 64


def press_interval(stamp_ns: int, interval_ns: int) -> tuple[int, int]:
    """(centre, half-width) of where a press reported at ``stamp_ns`` happened.

    >>> press_interval(10_000_000, 8_000_000)
    (5875000, 4125000)
    """
    span = interval_ns + STAMP_SLACK_NS
    return stamp_ns - span // 2, span - span // 2


# --------------------------------------------------------------------------- decoding


class InputEvent(NamedTuple):
    sec: int
    usec: int
    type: int
    code: int
    value: int

    @property
    def ns(self) -> int:
        return self.sec * 1_000_000_000 + self.usec * 1000

    def pack(self) -> bytes:
        return EVENT.pack(self.sec, self.usec, self.type, self.code, self.value)


def encode(events: Iterable[InputEvent]) -> bytes:
    return b"".join(e.pack() for e in events)


class KeyDown(NamedTuple):
    code: int
    stamp_ns: int
    """The kernel's stamp (the clock the fd was set to)."""
    same_report: bool
    """Another key went down in the same report (one poll: a tie)."""


@dataclass
class DecoderStats:
    presses: int = 0
    releases: int = 0
    repeats: int = 0
    drops: int = 0
    """``SYN_DROPPED`` episodes."""
    lost: int = 0
    """Presses found (held keys) after a drop, whose time is unknown."""
    unknown_after_drop: int = 0
    """Drops after which the held keys could not be asked (not an evdev node)."""


class EventDecoder:
    """Bytes of ``struct input_event`` -> key presses, one report at a time.

    ``held_keys`` answers "which keys are down now" after a drop (``EVIOCGKEY`` on
    a real device; None where it cannot be asked).
    """

    def __init__(self, held_keys: Callable[[], set[int] | None] = lambda: None) -> None:
        self.held_keys = held_keys
        self.stats = DecoderStats()
        self.held: set[int] = set()
        self._buffer = b""
        self._report: list[InputEvent] = []
        self._dropping = False

    def reset(self, held_keys: Callable[[], set[int] | None]) -> None:
        """A fresh fd (replug): forget the partial report and the held keys, keep counts."""
        self.held_keys = held_keys
        self.held = set()
        self._buffer = b""
        self._report = []
        self._dropping = False

    def feed(self, data: bytes) -> list[KeyDown]:
        self._buffer += data
        whole = len(self._buffer) - len(self._buffer) % EVENT.size
        chunk, self._buffer = self._buffer[:whole], self._buffer[whole:]
        out: list[KeyDown] = []
        for fields in EVENT.iter_unpack(chunk):
            out.extend(self._event(InputEvent(*fields)))
        return out

    def _event(self, ev: InputEvent) -> list[KeyDown]:
        if ev.type == EV_SYN and ev.code == SYN_DROPPED:
            self.stats.drops += 1
            self._dropping = True
            self._report.clear()
            return []
        if ev.type == EV_SYN and ev.code == SYN_REPORT:
            if self._dropping:
                self._dropping = False
                self._resync()
                return []
            report, self._report = self._report, []
            return self._keys(report)
        if not self._dropping:
            self._report.append(ev)
        return []

    def _keys(self, report: list[InputEvent]) -> list[KeyDown]:
        downs = [e for e in report if e.type == EV_KEY and e.value == 1]
        for e in report:
            if e.type != EV_KEY:
                continue
            if e.value == 0:
                self.stats.releases += 1
                self.held.discard(e.code)
            elif e.value == 2:
                self.stats.repeats += 1
        self.stats.presses += len(downs)
        self.held.update(e.code for e in downs)
        return [KeyDown(e.code, e.ns, len(downs) > 1) for e in downs]

    def _resync(self) -> None:
        now = self.held_keys()
        if now is None:
            self.stats.unknown_after_drop += 1
            return
        self.stats.lost += len(now - self.held)
        self.held = set(now)


def parse_key_bitmap(data: bytes) -> set[int]:
    return {i * 8 + b for i, byte in enumerate(data) for b in range(8) if byte >> b & 1}


# --------------------------------------------------------------------------- discovery


@dataclass(frozen=True)
class HidDeviceInfo:
    """One input event node, as sysfs describes it (no need to open it)."""

    event: str
    """``/dev/input/eventN`` (changes on replug)."""
    name: str
    phys: str
    uniq: str
    """USB serial number, when the device has one."""
    bustype: int
    vendor: int
    product: int
    keys: frozenset[int] = frozenset()
    by_id: str | None = None
    interval_ns: int | None = None
    """The USB interrupt endpoint's polling interval (None: unknown)."""

    @property
    def stable_id(self) -> str:
        """The id the button map keeps: the same device gets it again after a replug.

        With a serial number: vendor, product, serial, interface (any port). Without:
        vendor, product and the port path (the same port).
        """
        vp = f"hid:{self.vendor:04x}:{self.product:04x}"
        if self.uniq:
            return f"{vp}:{self.uniq}:{self.phys.rpartition('/')[2] or 'input0'}"
        return f"{vp}@{self.phys or self.event}"

    @property
    def interval_or_default_ns(self) -> int:
        return self.interval_ns if self.interval_ns else DEFAULT_INTERVAL_NS

    @property
    def builtin_keyboard(self) -> bool:
        return self.bustype == BUS_I8042


def short_id(stable_id: str) -> str:
    """A few characters that tell a table's HID devices apart (serial, else port).

    >>> short_id("hid:16c0:05e1:A1B2C3D4:input0")
    'HID C3D4'
    >>> short_id("hid:0079:0006@usb-0000:00:14.0-2/input0")
    'HID 14.0-2'
    """
    rest = stable_id.removeprefix("hid:")
    if "@" in rest:  # no serial number: the port path, without the interface
        port = rest.partition("@")[2].rpartition("/")[0] or rest
        return f"HID {port[-6:]}"
    parts = rest.split(":")  # vendor, product, serial..., interface
    serial = ":".join(parts[2:-1]) or rest
    return f"HID {serial[-4:]}"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""


def parse_interval(text: str) -> int | None:
    """sysfs ``ep_XX/interval`` ("8ms", "125us") -> nanoseconds.

    >>> parse_interval("8ms"), parse_interval("125us"), parse_interval("")
    (8000000, 125000, None)
    """
    text = text.strip()
    for unit, scale in (("ms", MS), ("us", 1000)):
        if text.endswith(unit) and text[: -len(unit)].isdigit():
            value = int(text[: -len(unit)]) * scale
            return value or None
    return None


def _interval_from_descriptor(ep: Path, usb_device: Path) -> int | None:
    try:
        b_interval = int(_read(ep / "bInterval"), 16)
    except ValueError:
        return None
    speed = _read(usb_device / "speed")
    if not b_interval:
        return None
    if speed in ("1.5", "12"):
        return b_interval * MS
    return (1 << min(b_interval - 1, 15)) * 125_000  # high speed and up: microframes


def usb_interval_ns(input_sysfs: Path) -> int | None:
    """The polling interval of the interrupt-IN endpoint behind an input device."""
    try:
        here = (input_sysfs / "device").resolve(strict=True)
    except OSError:
        return None
    for directory in (here, *here.parents):
        eps = sorted(directory.glob("ep_[89a-f]?"))  # IN endpoints: address bit 7
        interrupt = [ep for ep in eps if _read(ep / "type") == "Interrupt"]
        if interrupt:
            ep = interrupt[0]
            return parse_interval(_read(ep / "interval")) or _interval_from_descriptor(
                ep, directory.parent
            )
        if (directory / "idVendor").exists():
            return None  # reached the USB device itself without an interface endpoint
    return None


def _key_caps(text: str) -> frozenset[int]:
    """sysfs ``capabilities/key``: hex words, most significant first (C longs)."""
    bits = 8 * struct.calcsize("l")
    keys: set[int] = set()
    words = text.split()
    for i, word in enumerate(reversed(words)):
        try:
            value = int(word, 16)
        except ValueError:
            continue
        keys.update(i * bits + b for b in range(bits) if value >> b & 1)
    return frozenset(keys)


def _by_id_links(dev_root: Path) -> dict[str, str]:
    links: dict[str, str] = {}
    for link in sorted(glob.glob(str(dev_root / "by-id" / "*"))):
        with contextlib.suppress(OSError):
            links.setdefault(os.path.realpath(link), link)
    return links


def _roots() -> tuple[str, str]:
    # COMPANION_HID_ROOT puts another tree in place of / (tests: a sysfs of their own).
    root = os.environ.get("COMPANION_HID_ROOT", "")
    return f"{root}/sys/class/input", f"{root}/dev/input"


def list_hid_devices(sys_root: str = "", dev_root: str = "") -> list[HidDeviceInfo]:
    """Every input event node with keys or buttons, from sysfs (opens nothing).

    None where HID buttons cannot be read (:data:`SUPPORTED` is False).
    """
    if not SUPPORTED:
        return []
    default_sys, default_dev = _roots()
    sys_root, dev_root = sys_root or default_sys, dev_root or default_dev
    by_id = _by_id_links(Path(dev_root))
    out = []
    for node in sorted(Path(sys_root).glob("event*"), key=lambda p: int(p.name[5:] or 0)):
        dev = node / "device"
        keys = _key_caps(_read(dev / "capabilities" / "key"))
        if not keys:
            continue

        def hex_id(name: str, dev: Path = dev) -> int:
            try:
                return int(_read(dev / "id" / name), 16)
            except ValueError:
                return 0

        event = str(Path(dev_root) / node.name)
        out.append(
            HidDeviceInfo(
                event=event,
                name=_read(dev / "name"),
                phys=_read(dev / "phys"),
                uniq=_read(dev / "uniq"),
                bustype=hex_id("bustype"),
                vendor=hex_id("vendor"),
                product=hex_id("product"),
                keys=keys,
                by_id=by_id.get(os.path.realpath(event)),
                interval_ns=usb_interval_ns(node),
            )
        )
    return out


# --------------------------------------------------------------------------- opening


class OpenFailed(Exception):
    """A device that cannot be opened; ``str()`` is what the host is shown."""


def udev_rule() -> Path:
    """The udev rule the package carries (``companion paths udev-hid`` prints it)."""
    return device_file("udev-hid")


def permission_message(info: HidDeviceInfo) -> str:
    return _(
        "Cannot open {path} ({name}): permission denied. Either add yourself to the "
        "'input' group (sudo usermod -aG input $USER, then log out and in again), or "
        "install the companion's udev rule: sudo cp {rule} /etc/udev/rules.d/ (a device "
        "it does not list yet: add its vendor and product to the copy, see "
        "docs/hardware.md, 'USB HID buttons')."
    ).format(path=info.event, name=info.name or info.stable_id, rule=udev_rule())


@dataclass
class Opened:
    """An open event node: its fd and which clock its stamps are on."""

    fd: int
    monotonic: bool
    """False: the kernel refused CLOCK_MONOTONIC, stamps are wall-clock time."""
    evdev: bool = True
    """False: not an evdev node (no grab, no key state)."""


def open_evdev(info: HidDeviceInfo) -> Opened:
    """Open ``info.event`` for reading, on the monotonic clock."""
    try:
        fd = os.open(info.event, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except PermissionError as exc:
        raise OpenFailed(permission_message(info)) from exc
    except OSError as exc:
        raise OpenFailed(
            _("Cannot open {path} ({name}): {error}").format(
                path=info.event, name=info.name or info.stable_id, error=exc.strerror
            )
        ) from exc
    try:
        fcntl.ioctl(fd, EVIOCSCLOCKID, struct.pack("i", CLOCK_MONOTONIC))
        return Opened(fd, monotonic=True)
    except OSError as exc:
        return Opened(fd, monotonic=False, evdev=exc.errno not in (errno.ENOTTY, errno.EINVAL))


def grab(fd: int, on: bool) -> bool:
    try:
        fcntl.ioctl(fd, EVIOCGRAB, on)
        return True
    except OSError:
        return False


def held_keys(fd: int) -> set[int] | None:
    buf = bytearray(KEY_BYTES)
    try:
        fcntl.ioctl(fd, eviocgkey(), buf, True)
    except OSError:
        return None
    return parse_key_bitmap(bytes(buf))


# --------------------------------------------------------------------------- the source


@dataclass(frozen=True)
class HidPress(DevicePress):
    """A HID press: the kernel's stamp is ``device_us``; ``port`` is the event node."""

    interval_ns: int = 0

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["kind"] = "hid-press"
        data["interval_ns"] = self.interval_ns
        return data


@dataclass
class HidDevice:
    """One HID source known to this host (by stable id), open or not."""

    info: HidDeviceInfo
    opened: Opened | None = None
    decoder: EventDecoder = field(default_factory=EventDecoder)
    seq: int = 0
    grabbed: bool = False
    problem: str = ""


Opener = Callable[[HidDeviceInfo], Opened]
Lister = Callable[[], list[HidDeviceInfo]]


def _boot_id() -> str:
    return _read(Path("/proc/sys/kernel/random/boot_id")).replace("-", "")[:8].upper()


class HidSource:
    """Reads HID devices on one thread and hands their presses to listeners.

    ``wanted(info)`` says which devices to open (the app: those in the button map).
    ``devices`` lists candidates (default: sysfs); ``opener`` opens one (default:
    ``open_evdev``). ``grab_when_armed`` False never grabs (``devices map``).
    """

    def __init__(
        self,
        wanted: Callable[[HidDeviceInfo], bool],
        *,
        devices: Lister = list_hid_devices,
        opener: Opener = open_evdev,
        clock: Callable[[], int] = time.monotonic_ns,
        grab_when_armed: bool = True,
        arm: bool = True,
    ) -> None:
        self.wanted = wanted
        self.devices_fn = devices
        self.opener = opener
        self.clock = clock
        self.grab_when_armed = grab_when_armed
        self.armed = arm
        self.devices: dict[str, HidDevice] = {}
        self.press_listeners: list[Callable[[DevicePress], None]] = []
        self.errors: list[str] = []
        self.boot = _boot_id()
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)  # a poke never waits (a full pipe wakes anyway)
        self._thread: threading.Thread | None = None
        self._next_scan = 0

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> HidSource:
        if not SUPPORTED:
            return self  # problems() says why; nothing to read here
        self._thread = threading.Thread(target=self._run, name="hid-source", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._stop.is_set():
            return  # closed already: its fd numbers may belong to someone else now
        self._stop.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(3)
        with self._lock:
            for dev in self.devices.values():
                self._close(dev)
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> HidSource:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def on_press(self, listener: Callable[[DevicePress], None]) -> None:
        self.press_listeners.append(listener)

    def poke(self) -> None:
        """Scan for devices now (after a replug)."""
        self._next_scan = 0
        self._wake()

    def _wake(self) -> None:
        if self._thread is None or not self._thread.is_alive():
            return  # nobody to wake (and after stop() the fd is closed)
        with contextlib.suppress(OSError):
            os.write(self._wake_w, b"x")

    # ------------------------------------------------------------------ arming

    def arm(self, armed: bool) -> None:
        """Armed: the devices are grabbed (their keys do not reach the terminal)."""
        with self._lock:
            self.armed = armed
            for dev in self.devices.values():
                self._apply_grab(dev)

    def _apply_grab(self, dev: HidDevice) -> None:
        want = self.armed and self.grab_when_armed
        if dev.opened is None or not dev.opened.evdev or dev.grabbed == want:
            return
        if grab(dev.opened.fd, want):
            dev.grabbed = want
        elif want:
            dev.problem = _("{name}: another program holds this device (grab refused).").format(
                name=dev.info.name or dev.info.stable_id
            )

    # ------------------------------------------------------------------ status

    def status(self) -> list[DeviceStatus]:
        with self._lock:
            return [self._status(d) for _id, d in sorted(self.devices.items())]

    def problems(self) -> list[str]:
        """What the host should know: devices that cannot be read, events dropped."""
        if not SUPPORTED:
            return [_(UNSUPPORTED)]
        with self._lock:
            out = [d.problem for d in self.devices.values() if d.problem]
            for d in self.devices.values():
                if d.decoder.stats.drops:
                    out.append(
                        _(
                            "{name}: the companion fell behind and the kernel dropped its "
                            "events {n} times; presses in them may be lost ({lost} known)."
                        ).format(
                            name=d.info.name or d.info.stable_id,
                            n=d.decoder.stats.drops,
                            lost=d.decoder.stats.lost,
                        )
                    )
            return out

    def _status(self, dev: HidDevice) -> DeviceStatus:
        interval = dev.info.interval_or_default_ns
        _centre, half = press_interval(0, interval)
        stats = dev.decoder.stats
        return DeviceStatus(
            serial=dev.info.stable_id,
            port=dev.info.event,
            state="connected" if dev.opened is not None else "disconnected",
            boot=self.boot,
            buttons=len(dev.info.keys),
            firmware=dev.info.name,
            rtt_ns=None,
            min_rtt_ns=None,
            drift_ppm=None,
            uncertainty_ns=half,
            sync_samples=0,
            presses=stats.presses,
            duplicates=0,
            resends=0,
            lost=stats.lost,
            corrupt=0,
            device_corrupt=0,
            predating=0,
            sample_us=interval // 1000,
            consistent=True,
        )

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        while not self._stop.is_set():
            now = self.clock()
            if now >= self._next_scan:
                try:
                    self._scan()
                except Exception as exc:  # keep reading whatever a scan meets
                    self._note(f"hid scan: {type(exc).__name__}: {exc}")
                self._next_scan = now + SCAN_EVERY_NS
            with self._lock:
                fds = {d.opened.fd: d for d in self.devices.values() if d.opened is not None}
            try:
                ready, _w, _x = select.select([self._wake_r, *fds], [], [], 0.1)
            except (OSError, ValueError):
                continue  # an fd closed under us: the next round has the fresh set
            for fd in ready:
                if fd == self._wake_r:
                    with contextlib.suppress(OSError):
                        os.read(self._wake_r, 512)
                elif fd in fds:
                    self._read(fds[fd])

    def _note(self, text: str) -> None:
        self.errors.append(text)
        del self.errors[:-50]

    def _scan(self) -> None:
        found = [info for info in self.devices_fn() if self.wanted(info)]
        with self._lock:
            present = {info.stable_id for info in found}
            for stable_id, known in self.devices.items():
                if stable_id not in present and known.opened is None:
                    known.problem = ""  # unplugged: why it could not be opened no longer holds
        for info in found:
            with self._lock:
                dev = self.devices.get(info.stable_id)
                if dev is None:
                    dev = self.devices[info.stable_id] = HidDevice(info)
                if dev.opened is not None:
                    continue
                dev.info = info  # the event node may have changed (replug)
            self._open(dev)

    def _open(self, dev: HidDevice) -> None:
        try:
            opened = self.opener(dev.info)
        except OpenFailed as exc:
            with self._lock:
                dev.problem = str(exc)
            return
        with self._lock:
            dev.opened = opened
            dev.problem = ""
            dev.grabbed = False
            fd = opened.fd
            dev.decoder.reset((lambda: held_keys(fd)) if opened.evdev else (lambda: None))
            self._apply_grab(dev)

    def _close(self, dev: HidDevice) -> None:
        if dev.opened is None:
            return
        with contextlib.suppress(OSError):
            if dev.grabbed:
                grab(dev.opened.fd, False)
            os.close(dev.opened.fd)
        dev.opened = None
        dev.grabbed = False

    def _read(self, dev: HidDevice) -> None:
        opened = dev.opened
        if opened is None:
            return
        try:
            data = os.read(opened.fd, READ_BYTES)
        except BlockingIOError:
            return
        except OSError as exc:  # ENODEV: unplugged
            data = b""
            if exc.errno != errno.ENODEV:
                self._note(f"{dev.info.event}: {exc}")
        arrival = self.clock()
        if not data:
            with self._lock:
                self._close(dev)
            self.poke()
            return
        downs = dev.decoder.feed(data)
        if not downs:
            return
        # Wall-clock stamps (old kernel) move to the monotonic clock by today's offset.
        shift = 0 if opened.monotonic else time.monotonic_ns() - time.time_ns()
        interval = dev.info.interval_or_default_ns
        presses = []
        with self._lock:
            for down in downs:
                dev.seq += 1
                stamp = down.stamp_ns + shift
                centre, half = press_interval(stamp, interval)
                presses.append(
                    HidPress(
                        serial=dev.info.stable_id,
                        boot=self.boot,
                        seq=dev.seq,
                        button=down.code,
                        device_us=stamp // 1000,
                        flags=(0x01 if down.same_report else 0) | (0 if self.armed else 0x04),
                        arrival_ns=arrival,
                        host_ns=centre,
                        uncertainty_ns=half,
                        port=dev.info.event,
                        interval_ns=interval,
                    )
                )
        for press in presses:
            for listener in list(self.press_listeners):
                try:
                    listener(press)
                except Exception as exc:  # a listener's bug must not stop the reading
                    self._note(f"listener: {type(exc).__name__}: {exc}")


def mapped_ids(buttons: dict[str, dict[int, str]]) -> set[str]:
    """The HID devices a button map names (their ids start with ``hid:``)."""
    return {serial for serial in buttons if serial.startswith("hid:")}


def for_config(config: TadaaConfig, **kwargs: Any) -> HidSource | None:
    """A source for the HID devices of the button map (None when it names none).

    The map is read at every scan: a device mapped later is opened then.
    """
    if not mapped_ids(config.buttons):
        return None
    return HidSource(lambda info: info.stable_id in mapped_ids(config.buttons), **kwargs)
