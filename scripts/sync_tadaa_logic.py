"""Copy the firmware's logic module from the host package into the firmware folder.

    python scripts/sync_tadaa_logic.py

``companion/hardware/tadaa_logic.py`` is the one to edit: the host, the simulator
and the tests import it. ``devices/tadaa-box/tadaa_logic.py`` is a plain copy (not
a symbolic link: a ZIP download or a Windows checkout turns a link into a text file
holding a path, and the board would get that). A test fails while they differ.
"""

from __future__ import annotations

import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HOST = ROOT / "companion" / "hardware" / "tadaa_logic.py"
FIRMWARE = ROOT / "companion" / "devices" / "tadaa-box" / "tadaa_logic.py"


def main() -> int:
    if FIRMWARE.is_symlink():
        FIRMWARE.unlink()
    shutil.copyfile(HOST, FIRMWARE)
    print(f"{FIRMWARE.relative_to(ROOT)} <- {HOST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
