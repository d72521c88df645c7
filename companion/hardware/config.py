"""The Tadaa settings file: extra ports to watch, and which button is whose.

Decision: a small JSON file in the user's config folder (``tadaa.json`` under
``companion.session.locations.config_dir()``), not the database. The mapping
belongs to this computer's hardware — the same box serves every session and
every database — and a host can read or fix it by hand::

    {"ports": ["/tmp/tadaa-sim/tadaa-*"],
     "buttons": {"E6614103E7452D2F": {"1": "Ann", "2": "Bo"}}}

Buttons are remembered by device serial number and button number, and map to a
player *name* (the roster's): sessions number their players ``p1``… afresh, names
stay. Button ``0`` (``ANY_BUTTON``) gives a player every button of a device (a
gamepad or a foot pedal per player; USB HID devices are keyed ``hid:…``, see
``companion.hardware.hid``). Writes are atomic (temporary file + rename).
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.session.locations import config_dir

FILE_NAME = "tadaa.json"
ANY_BUTTON = 0
"""In the map: every button of the device is this player's."""


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

    def button_of(self, name: str) -> tuple[str, int] | None:
        for serial, mapping in self.buttons.items():
            for button, n in mapping.items():
                if n.casefold() == name.casefold():
                    return serial, button
        return None
