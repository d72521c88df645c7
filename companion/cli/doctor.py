"""``companion doctor``: what works on this machine and what does not, each with the fix.

Checked, in the host's language: the installed files (music, cues, catalogs), the
sound player and device, every built-in track decoded to its length, serial ports
and their permission, USB HID devices and theirs (the udev rule), the web board's
address, the database (``check``), the owner lock, and the locale.

Exit status: 0 when the app can run a game here (missing sound or buttons are
warnings: the countdown still runs and the host can type the Tadaa order); 1 when
something the app needs is broken (a built-in track that does not decode, a
damaged or unreadable database, missing catalogs). Nothing is written.
"""

from __future__ import annotations

import argparse
import contextlib
import locale
import os
import platform
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion.cli.common import setup_language
from companion.i18n import LOCALE_DIR, _, resolve_language

OK, WARN, FAIL, INFO = "ok", "warn", "fail", "info"
MARKS = {OK: "✓", WARN: "!", FAIL: "✗", INFO: "·"}


@dataclass
class Finding:
    level: str
    text: str
    fix: str = ""


Report = list[Finding]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "doctor",
        help="check this machine: sound, built-in music, buttons, board, database, language",
        description="Say what works here and what does not, each with the fix. Exit 0: "
        "the app can run a game here (warnings included); 1: something it needs is broken.",
    )
    parser.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument(
        "--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    lang = setup_language(args)
    from companion import __version__

    print(
        _("companion {version} on Python {python}, {system}").format(
            version=__version__,
            python=platform.python_version(),
            system=f"{platform.system()} {platform.machine()}",
        )
    )
    sections: list[tuple[str, Callable[[], Report]]] = [
        (_("Language"), lambda: check_locale(lang, getattr(args, "lang", None))),
        (_("Sound"), check_sound),
        (_("Built-in music"), check_tracks),
        (_("Serial Tadaa boxes"), check_serial),
        (_("USB HID buttons"), check_hid),
        (_("Table board"), check_board),
        (_("Database"), lambda: check_database(getattr(args, "db", None))),
    ]
    worst = OK
    for title, check in sections:
        print()
        print(title)
        try:
            findings = check()
        except Exception as exc:  # a check's own bug is a finding, not a traceback
            findings = [Finding(FAIL, _("The check failed: {error}").format(error=_short(exc)))]
        for f in findings:
            print(f"  {MARKS[f.level]} {f.text}")
            if f.fix:
                print("      " + _("fix: {fix}").format(fix=f.fix))
            if f.level == FAIL:
                worst = FAIL
            elif f.level == WARN and worst == OK:
                worst = WARN
    print()
    if worst == FAIL:
        print(_("Something the companion needs is broken here: see the lines marked ✗."))
        return 1
    if worst == WARN:
        print(_("The companion runs here; the lines marked ! say what does not work yet."))
    else:
        print(_("Everything works here."))
    return 0


def _short(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


# --------------------------------------------------------------------------- language


def check_locale(lang: str, requested: str | None) -> Report:
    out: Report = []
    name = {"zh": "中文", "en": "English"}[lang]
    if requested:
        source = "--lang " + requested
    else:
        source = next(
            (
                f"{var}={os.environ[var]}"
                for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
                if os.environ.get(var)
            ),
            _("no locale variable set"),
        )
    out.append(
        Finding(
            OK, _("Screens in {language} (from {source}).").format(language=name, source=source)
        )
    )
    other = "en" if lang == "zh" else "zh"
    out.append(Finding(INFO, _("The other language: companion --lang {other}").format(other=other)))
    if not any((LOCALE_DIR / "zh_CN" / "LC_MESSAGES").glob("*.po")):
        out.append(
            Finding(
                FAIL,
                _("The Chinese catalogs are missing from {folder}.").format(folder=LOCALE_DIR),
                _("reinstall the companion (pipx reinstall tabletop-companion)"),
            )
        )
    encoding = getattr(sys.stdout, "encoding", None) or locale.getpreferredencoding(False)
    if encoding.replace("-", "").lower() != "utf8":
        out.append(
            Finding(
                WARN,
                _(
                    "The terminal's encoding is {encoding}: Chinese names and some symbols "
                    "cannot be shown."
                ).format(encoding=encoding),
                _("use a UTF-8 locale, e.g. export LANG=C.UTF-8 (or zh_CN.UTF-8)"),
            )
        )
    if resolve_language(None) != lang and not requested:
        out.append(Finding(INFO, _("The locale asks for another language.")))
    return out


# --------------------------------------------------------------------------- sound


def check_sound() -> Report:
    from importlib.util import find_spec

    from companion.audio.backend import open_backend

    out: Report = []
    players = [name for name in ("simpleaudio", "miniaudio") if find_spec(name) is not None]
    if players:
        out.append(
            Finding(INFO, _("Players installed: {players}.").format(players=", ".join(players)))
        )
    if "simpleaudio" not in players:
        out.append(
            Finding(
                INFO,
                _("simpleaudio is not installed; miniaudio plays (that is enough)."),
            )
        )
    backend = open_backend()
    if backend.available:
        out.append(Finding(OK, _("Sound device: {player} plays.").format(player=backend.name)))
    else:
        out.append(
            Finding(
                WARN,
                _("No sound here: {reason}").format(reason=backend.reason),
                _(
                    "plug in or unmute a sound device (on Linux: aplay -l lists them; the "
                    "user must be allowed to use it, e.g. be in the 'audio' group); "
                    "COMPANION_AUDIO=miniaudio or simpleaudio chooses the player"
                ),
            )
        )
    with contextlib.suppress(Exception):
        backend.stop()
    return out


# --------------------------------------------------------------------------- tracks


def check_tracks() -> Report:
    from companion.audio.decode import decode_music, read_music_info
    from companion.audio.errors import AudioFileError
    from companion.audio.tracks import CUES, TRACK_TABLE, cue_path, sounds_dir, track_path

    out: Report = []
    root = sounds_dir()
    where = _("from COMPANION_SOUNDS") if os.environ.get("COMPANION_SOUNDS") else ""
    out.append(Finding(INFO, f"{root} {where}".strip()))
    fix = _(
        "reinstall the companion (pipx reinstall tabletop-companion), or unset "
        "COMPANION_SOUNDS if it points at the wrong folder"
    )
    for spec in TRACK_TABLE:
        path = track_path(spec.id)
        try:
            info = read_music_info(path)
            pcm = decode_music(path)
        except AudioFileError as exc:
            out.append(
                Finding(
                    FAIL,
                    _("Act {act}: {title}: {problem}").format(
                        act=spec.act, title=_(spec.title), problem=exc.render(_)
                    ),
                    fix,
                )
            )
            continue
        decoded = pcm.n_frames / pcm.sample_rate
        length = _clock(info.duration_s)
        if abs(decoded - info.duration_s) > 0.05:
            out.append(
                Finding(
                    FAIL,
                    _(
                        "Act {act}: {title}: the header says {length}, decoding gives {decoded}."
                    ).format(
                        act=spec.act, title=_(spec.title), length=length, decoded=_clock(decoded)
                    ),
                    fix,
                )
            )
        else:
            out.append(
                Finding(
                    OK,
                    _("Act {act}: {title}, {length} ({seconds} s, decoded)").format(
                        act=spec.act,
                        title=_(spec.title),
                        length=length,
                        seconds=f"{decoded:.1f}",
                    ),
                )
            )
    bad = []
    for name in CUES:
        try:
            read_music_info(cue_path(name))
        except AudioFileError as exc:
            bad.append(f"{name}: {exc.render(_)}")
    if bad:
        out.append(
            Finding(FAIL, _("Cues that cannot be read: {cues}").format(cues="; ".join(bad)), fix)
        )
    else:
        out.append(
            Finding(OK, _("{n} cues (start, 10 s left, end, Tadaa, tie)").format(n=len(CUES)))
        )
    return out


def _clock(seconds: float) -> str:
    """As the act's countdown shows it when it starts (whole seconds, rounded up)."""
    from companion.widgets.countdown import format_remaining

    return format_remaining(round(seconds * 1_000_000_000))


# --------------------------------------------------------------------------- serial


def check_serial() -> Report:
    from serial.tools import list_ports

    from companion.hardware.config import TadaaConfig
    from companion.hardware.link import candidate_ports

    out: Report = []
    try:
        config = TadaaConfig.load()
        configured = list(getattr(config, "ports", []) or [])
    except Exception:
        configured = []
    try:
        ports = [p.device for p in list_ports.comports()]
    except OSError:
        ports = []
    tadaa = candidate_ports(configured)
    if not ports and not tadaa:
        out.append(
            Finding(
                INFO,
                _(
                    "No serial port here: no Tadaa box is plugged in (optional; the host can "
                    "type the order of the Tadaa calls)."
                ),
            )
        )
        return out
    for port in dict.fromkeys([*tadaa, *ports]):
        kind = _("a possible Tadaa box") if port in tadaa else _("another serial device")
        if os.access(port, os.R_OK | os.W_OK):
            out.append(
                Finding(OK, _("{port}: {kind}, can be opened.").format(port=port, kind=kind))
            )
        else:
            out.append(
                Finding(
                    WARN,
                    _("{port}: {kind}, no permission to open it.").format(port=port, kind=kind),
                    _serial_fix(port),
                )
            )
    out.append(Finding(INFO, _("companion devices list asks each box who it is.")))
    return out


def _serial_fix(port: str) -> str:
    group = "dialout"
    try:
        import grp  # POSIX only

        group = grp.getgrgid(os.stat(port).st_gid).gr_name
    except (ImportError, KeyError, OSError):
        pass
    return _("sudo usermod -aG {group} $USER, then log out and in again").format(group=group)


# --------------------------------------------------------------------------- HID


def check_hid() -> Report:
    from companion.hardware import hid

    out: Report = []
    if not hid.SUPPORTED:
        out.append(Finding(INFO, _(hid.UNSUPPORTED)))
        return out
    devices = [d for d in hid.list_hid_devices() if not d.builtin_keyboard]
    rule = hid.udev_rule()
    installed = Path("/etc/udev/rules.d") / rule.name
    if not devices:
        out.append(Finding(INFO, _("No USB keypad, encoder, pedal or gamepad found (optional).")))
    for info in devices:
        label = f"{info.name or info.stable_id} ({info.event}, {hid.short_id(info.stable_id)})"
        if os.access(info.event, os.R_OK):
            out.append(Finding(OK, _("{device}: can be read.").format(device=label)))
        else:
            out.append(
                Finding(
                    WARN,
                    _("{device}: no permission to read it.").format(device=label),
                    _(
                        "sudo cp {rule} /etc/udev/rules.d/ && sudo udevadm control --reload && "
                        "sudo udevadm trigger --subsystem-match=input (add the device's vendor "
                        "and product to the copy if it is not listed; or sudo usermod -aG "
                        "input $USER)"
                    ).format(rule=rule),
                )
            )
    out.append(
        Finding(
            INFO,
            _("The udev rule is installed ({path}).").format(path=installed)
            if installed.exists()
            else _("The udev rule is not installed; it is at {rule}.").format(rule=rule),
        )
    )
    return out


# --------------------------------------------------------------------------- board


def check_board(port: int = 8765) -> Report:
    from companion.ui.board.web import reachable_addresses

    out: Report = []
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
            free = True
        except OSError:
            free = False
    if free:
        out.append(
            Finding(
                OK,
                _(
                    "companion board --web serves on http://127.0.0.1:{port}/ (this computer)."
                ).format(port=port),
            )
        )
    else:
        out.append(
            Finding(
                WARN,
                _("Port {port} is in use: companion board --web cannot serve there.").format(
                    port=port
                ),
                _("companion board --web --port 8766 (any free port)"),
            )
        )
    lan = [a for a in reachable_addresses("0.0.0.0") if a != "127.0.0.1"]
    if lan:
        out.append(
            Finding(
                INFO,
                _(
                    "For a TV or phone on the network: companion board --web --host 0.0.0.0, "
                    "then http://{address}:{port}/ (the exact address with its key is printed)."
                ).format(address=lan[0], port=port),
            )
        )
    return out


# --------------------------------------------------------------------------- database


def check_database(explicit: str | None) -> Report:
    from companion.session.backup import backup_dir
    from companion.session.check import check_store
    from companion.session.locations import default_db_path
    from companion.session.owner import LOCKING, holder
    from companion.session.store import Store, StoreError, inspect_file

    out: Report = []
    path = default_db_path(explicit)
    if not LOCKING:
        out.append(
            Finding(
                WARN,
                _(
                    "This system has no file locks: a second window on the same database is not "
                    "refused (each action is still checked, so nothing is lost)."
                ),
                _("open one companion window at a time"),
            )
        )
    try:
        found = inspect_file(path)
    except StoreError as exc:
        out.append(
            Finding(
                FAIL, exc.render(_), _("choose another file with --db PATH, or move this one away")
            )
        )
        return out
    if not found.exists:
        out.append(
            Finding(OK, _("{path}: not created yet; the first start creates it.").format(path=path))
        )
        return out
    pid = holder(path)
    if pid is not None:
        out.append(
            Finding(INFO, _("Open in a companion window (process {pid}).").format(pid=pid or "?"))
        )
    try:
        store = Store.open(path, readonly=True)
    except StoreError as exc:
        out.append(Finding(FAIL, exc.render(_), _("companion restore FILE puts a backup back")))
        return out
    try:
        report = check_store(store, full=True)
    finally:
        store.close()
    if report.ok:
        out.append(Finding(OK, _("{path}: sound, {n} sessions.").format(path=path, n=report.sound)))
    else:
        problems = [*report.file_problems, *(d.label for d in report.damaged)]
        out.append(
            Finding(
                FAIL,
                _("{path}: damage found ({problems}).").format(
                    path=path, problems="; ".join(problems[:3])
                ),
                _(
                    "companion check names each damaged session; companion restore FILE puts "
                    "a backup back"
                ),
            )
        )
    backups = sorted(backup_dir(path).glob("*.sqlite3")) if backup_dir(path).is_dir() else []
    out.append(
        Finding(
            INFO, _("Backups: {n} in {folder}.").format(n=len(backups), folder=backup_dir(path))
        )
    )
    return out
