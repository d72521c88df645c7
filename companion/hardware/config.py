"""The Tadaa settings file: extra ports to watch, and which button is whose.

Decision: a small JSON file in the user's config folder (``tadaa.json`` under
``companion.session.locations.config_dir()``), not the database. The mapping
belongs to this computer's hardware — the same box serves every session and
every database — and a host can read or fix it by hand::

    {"ports": ["/tmp/tadaa-sim/tadaa-*"],
     "buttons": {"E6614103E7452D2F": {"1": "Ann", "2": "Bo"}}}

Buttons are remembered by device serial number and button number, and map to a
*seat* (``"seat:3"``: whoever sits third at this session's table, whatever their
name or language — what the mapping dialog and ``companion devices simulate``
write) or to a player *name* (the roster's, ``companion devices map NAMES``):
sessions number their players ``p1``… afresh, seats and names stay. Button ``0``
(``ANY_BUTTON``) gives a player every button of a device (a gamepad or a foot pedal
per player; USB HID devices are keyed ``hid:…``, see ``companion.hardware.hid``).
Writes are atomic (temporary file + rename). The app reads the file again when it
changes (the running app picks up a new port or button map without a restart).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.session.locations import config_dir

FILE_NAME = "tadaa.json"
SEAT_PREFIX = "seat:"


def seat_owner(seat: int) -> str:
    """The map's value for "whoever sits at ``seat``" (1-based)."""
    return f"{SEAT_PREFIX}{seat}"


def owner_seat(owner: str) -> int | None:
    """The seat a map value names, or None (a player's name)."""
    if owner.startswith(SEAT_PREFIX) and owner[len(SEAT_PREFIX) :].isdigit():
        return int(owner[len(SEAT_PREFIX) :])
    return None


ANY_BUTTON = 0
"""In the map: every button of the device is this player's."""


# --------------------------------------------------------------------------- USB ids


@dataclass(frozen=True)
class UsbCandidate:
    """A USB id a Tadaa device may have. ``pid`` None: every product of the vendor.

    ``shared``: the id is also worn by devices that are no Tadaa at all (any
    Arduino sketch, every gadget with a CH340, FTDI or CP210x USB-serial chip). Such
    a port is probed with one ``INFO`` per plug-in, and only when no other program
    has it open; a port that does not answer ``HELLO`` is left alone until it is
    unplugged (``companion devices list`` still probes it on request).
    """

    vid: int
    pid: int | None
    what: str
    shared: bool


USB_CANDIDATES: tuple[UsbCandidate, ...] = (
    # MicroPython on a Raspberry Pi RP2040 board (the firmware keeps the USB id).
    UsbCandidate(0x2E8A, 0x0005, "Raspberry Pi RP2040 (MicroPython)", shared=False),
    # Arduino boards: the Uno's and Mega's USB chip, the Leonardo's and Micro's native USB.
    UsbCandidate(0x2341, None, "Arduino", shared=True),
    UsbCandidate(0x2A03, None, "Arduino (arduino.org)", shared=True),
    UsbCandidate(0x1B4F, 0x9205, "SparkFun Pro Micro 3.3 V", shared=True),
    UsbCandidate(0x1B4F, 0x9206, "SparkFun Pro Micro 5 V", shared=True),
    # USB-serial chips of clones (Nano, Uno, Pro Mini adapters).
    UsbCandidate(0x1A86, 0x7523, "CH340 USB-serial", shared=True),
    UsbCandidate(0x0403, 0x6001, "FTDI FT232R USB-serial", shared=True),
    UsbCandidate(0x10C4, 0xEA60, "Silicon Labs CP210x USB-serial", shared=True),
)


def usb_candidate(vid: int | None, pid: int | None) -> UsbCandidate | None:
    """The entry of ``USB_CANDIDATES`` a USB device matches, or None."""
    if vid is None:
        return None
    for c in USB_CANDIDATES:
        if c.vid == vid and (c.pid is None or c.pid == pid):
            return c
    return None


def same_device(a: os.stat_result, b: os.stat_result) -> bool:
    if stat.S_ISCHR(a.st_mode) and stat.S_ISCHR(b.st_mode):
        return a.st_rdev == b.st_rdev  # one device, whichever node names it
    return (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def port_in_use(path: str, proc: Path = Path("/proc")) -> bool:
    """Whether another process has the serial port ``path`` open (Linux: ``/proc/*/fd``).

    A port a printer host, an IDE's serial monitor or a terminal holds is never
    probed: a stray ``INFO`` would land in someone else's conversation. False
    where ``/proc`` cannot tell (other systems, other users' processes).
    """
    try:
        target = os.stat(path)
    except OSError:
        return False
    me = str(os.getpid())
    try:
        pids = [d for d in os.listdir(proc) if d.isdigit() and d != me]
    except OSError:
        return False
    for pid in pids:
        fd_dir = proc / pid / "fd"
        try:
            fds = os.listdir(fd_dir)
        except OSError:
            continue  # gone, or not ours to look at
        for fd in fds:
            try:
                st = os.stat(fd_dir / fd)
            except OSError:
                continue
            if same_device(st, target):
                return True
    return False


def default_path() -> Path:
    env = os.environ.get("COMPANION_TADAA_CONFIG")
    return Path(env) if env else config_dir() / FILE_NAME


@dataclass
class TadaaConfig:
    ports: list[str] = field(default_factory=list)
    buttons: dict[str, dict[int, str]] = field(default_factory=dict)
    path: Path | None = None

    @classmethod
    def load(cls, path: Path | None = None) -> TadaaConfig:
        p = path or default_path()
        try:
            data: Any = json.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls(path=p)
        except (OSError, ValueError) as exc:
            raise ValueError(f"{p}: cannot read the Tadaa settings: {exc}") from exc
        if not isinstance(data, dict):
            raise ValueError(f"{p}: expected a JSON object")
        ports = [str(x) for x in data.get("ports", []) if isinstance(x, str)]
        buttons: dict[str, dict[int, str]] = {}
        raw = data.get("buttons", {})
        if isinstance(raw, dict):
            for serial, entries in raw.items():
                if not isinstance(entries, dict):
                    continue
                for button, name in entries.items():
                    if str(button).isdigit() and isinstance(name, str) and name.strip():
                        buttons.setdefault(str(serial), {})[int(button)] = name.strip()
        return cls(ports, buttons, p)

    def save(self) -> None:
        p = self.path or default_path()
        p.parent.mkdir(parents=True, exist_ok=True)
        data = {
            "ports": self.ports,
            "buttons": {
                s: {str(b): n for b, n in sorted(m.items())}
                for s, m in sorted(self.buttons.items())
            },
        }
        fd, tmp = tempfile.mkstemp(prefix=".tadaa-", dir=p.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh, ensure_ascii=False, indent=2)
            fh.write("\n")
        os.replace(tmp, p)

    def player_for(self, serial: str, button: int) -> str | None:
        mapping = self.buttons.get(serial, {})
        return mapping.get(button) or mapping.get(ANY_BUTTON)

    def assign(self, serial: str, button: int, name: str) -> None:
        """``name`` now owns this button; any other button of ``name`` is released."""
        for mapping in self.buttons.values():
            for b in [b for b, n in mapping.items() if n.casefold() == name.casefold()]:
                del mapping[b]
        self.buttons.setdefault(serial, {})[button] = name
        self.buttons = {s: m for s, m in self.buttons.items() if m}

    def button_of(self, name: str, seat: int | None = None) -> tuple[str, int] | None:
        """The button of the player called ``name``, or of ``seat`` (a seat's
        button wins over a name's)."""
        found = None
        for serial, mapping in self.buttons.items():
            for button, n in mapping.items():
                if seat is not None and owner_seat(n) == seat:
                    return serial, button
                if found is None and n.casefold() == name.casefold():
                    found = serial, button
        return found

    def mtime_ns(self) -> int | None:
        """When the file last changed (None: there is none): to reload on change."""
        try:
            return (self.path or default_path()).stat().st_mtime_ns
        except OSError:
            return None
