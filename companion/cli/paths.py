"""``companion paths``: where the companion keeps its files on this machine.

Without an argument: every place, one a line, with what it is (in the host's
language). With a name: that one path alone, for a script::

    sudo cp "$(companion paths udev-hid)" /etc/udev/rules.d/
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from companion.cli.common import setup_language
from companion.i18n import N_, _


def _places(db: str | None) -> dict[str, tuple[str, Callable[[], Path]]]:
    from companion.audio.tracks import sounds_dir
    from companion.hardware.config import default_path as tadaa_config
    from companion.resources import device_file
    from companion.session.backup import backup_dir
    from companion.session.locations import config_dir, default_db_path

    return {
        "database": (N_("the history (a SQLite file)"), lambda: default_db_path(db)),
        "backups": (
            N_("backups, made when a game ends (the newest 10 kept)"),
            lambda: backup_dir(default_db_path(db)),
        ),
        "config": (N_("settings (the Tadaa button map and ports)"), config_dir),
        "tadaa-config": (N_("the Tadaa button map"), tadaa_config),
        "sounds": (N_("the built-in music and cues"), sounds_dir),
        "udev-hid": (
            N_("udev rule for USB HID buttons (copy to /etc/udev/rules.d/)"),
            lambda: device_file("udev-hid"),
        ),
        "udev-box": (
            N_("udev rule for the serial Tadaa box (copy to /etc/udev/rules.d/)"),
            lambda: device_file("udev-box"),
        ),
        "firmware-rp2040": (
            N_("firmware of the RP2040 box (MicroPython: copy its .py files to the Pico)"),
            lambda: device_file("firmware-rp2040"),
        ),
        "firmware-arduino": (
            N_("firmware of the Arduino box (open the .ino in the Arduino IDE)"),
            lambda: device_file("firmware-arduino"),
        ),
        "protocol": (N_("the Tadaa wire protocol"), lambda: device_file("protocol")),
    }


NAMES = (
    "database",
    "backups",
    "config",
    "tadaa-config",
    "sounds",
    "udev-hid",
    "udev-box",
    "firmware-rp2040",
    "firmware-arduino",
    "protocol",
)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "paths",
        help="where the database, backups, settings, music and firmware are",
        description="Print where the companion keeps its files. With NAME, print only "
        "that path (for scripts).",
    )
    parser.add_argument("name", nargs="?", choices=NAMES, metavar="NAME", help=", ".join(NAMES))
    parser.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument(
        "--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    setup_language(args)
    places = _places(getattr(args, "db", None))
    if args.name:
        print(places[args.name][1]())
        return 0
    width = max(len(name) for name in NAMES)
    for name in NAMES:
        what, where = places[name]
        print(f"{name:<{width}}  {where()}")
        print(f"{'':<{width}}  {_(what)}")
    return 0
