"""The files the app carries: music, catalogs, firmware, udev rules (package data).

Design decisions:

* Every file the app reads at run time lives inside the ``companion`` package and
  is found through :mod:`importlib.resources`, so a wheel, ``pipx install``, ``uv
  tool install`` or a distribution package finds it exactly as an editable checkout
  does. Nothing is looked up relative to the source tree.
* Callers get a real :class:`~pathlib.Path` (players, decoders and the host's ``cp``
  need one). In the usual unpacked install that is the file itself; from a zipped
  install the resource is extracted once for the life of the process.
* Standard library only, so any layer may import it.
"""

from __future__ import annotations

import atexit
import contextlib
from importlib.resources import as_file, files
from pathlib import Path

__all__ = ["DEVICE_FILES", "device_file", "package_path"]

_extracted = contextlib.ExitStack()
atexit.register(_extracted.close)

#: What ``companion paths`` lists and docs/hardware.md refers to, by short name.
DEVICE_FILES: dict[str, tuple[str, ...]] = {
    "udev-hid": ("devices", "hid", "70-companion-hid.rules"),
    "udev-box": ("devices", "tadaa-box", "99-tadaa.rules"),
    "firmware-rp2040": ("devices", "tadaa-box"),
    "firmware-arduino": ("devices", "tadaa-arduino"),
    "protocol": ("devices", "PROTOCOL.md"),
}


def package_path(*parts: str) -> Path:
    """A file or folder of the ``companion`` package's data as a real path."""
    ref = files("companion").joinpath(*parts)
    if isinstance(ref, Path):
        return ref
    return _extracted.enter_context(as_file(ref))  # pragma: no cover - zipped install


def device_file(name: str) -> Path:
    """One of :data:`DEVICE_FILES` (the udev rules, the firmware folders, the protocol)."""
    return package_path(*DEVICE_FILES[name])
