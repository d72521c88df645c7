"""``companion devices list | monitor | simulate``: the Tadaa buttons from a terminal.

* ``list``: every candidate port (USB ids, ``/dev/serial/by-id``, ``/dev/tadaa-*``,
  the settings file, ``--port``), which of them answer as Tadaa devices, their
  serial numbers and buttons.
* ``monitor``: live presses (device time, mapped host time ± uncertainty, transport
  delay) and every device's clock-sync state, round trip, drift, corrupt lines.
* USB HID buttons (keypads, arcade encoders, pedals, gamepads) appear in ``list``
  (from sysfs: id, name, polling interval, whether this user may read them) and in
  ``monitor``; ``map --hid`` learns them (see ``companion.hardware.hid``).
* ``simulate``: simulated devices on pseudo-terminals (see
  ``companion.hardware.simulator``), stable links in ``--link-dir``, scripted
  presses, faults, and keys: 1–8 press, u unplug/replug, r reboot, q quit.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import queue
import random
import re
import select
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.common import fail, setup_language
from companion.hardware import hid
from companion.hardware.config import ANY_BUTTON, TadaaConfig, default_path
from companion.hardware.link import (
    DevicePress,
    DeviceStatus,
    TadaaHub,
    candidate_ports,
    probe_port,
)
from companion.i18n import _

if TYPE_CHECKING:  # the simulator needs ptys (POSIX): imported when it runs
    from companion.hardware.simulator import SimDevice, SimDeviceConfig, Simulator

DEFAULT_LINK_DIR = "/tmp/tadaa-sim"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "devices",
        help="Tadaa buttons: list, monitor, simulate",
        description="USB Tadaa buttons: find them, watch them, or simulate them.",
    )
    sub = parser.add_subparsers(title="devices commands", metavar="WHAT")

    def usage(args: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    parser.set_defaults(command=usage)

    p = sub.add_parser("list", help="ports, which are Tadaa devices, serial numbers, buttons")
    p.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="PATH",
        help="also try this port (or glob); repeatable",
    )
    p.set_defaults(command=run_list)

    p = sub.add_parser("monitor", help="live presses and clock-sync state")
    p.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="PATH",
        help="also watch this port (or glob); repeatable",
    )
    p.add_argument("--duration", type=float, metavar="S", help="stop after S seconds")
    p.add_argument(
        "--hid",
        action="store_true",
        help="watch every USB HID device with keys, not only the mapped ones (never grabbed)",
    )
    p.add_argument(
        "--every",
        type=float,
        default=2.0,
        metavar="S",
        help="print the device table every S seconds (default 2)",
    )
    p.set_defaults(command=run_monitor)

    p = sub.add_parser("map", help="assign buttons to players: each presses when asked")
    p.add_argument("names", nargs="+", metavar="NAME", help="players, in the order to ask")
    p.add_argument(
        "--port",
        action="append",
        default=[],
        metavar="PATH",
        help="also watch this port (or glob); repeatable",
    )
    p.add_argument(
        "--hid",
        action="store_true",
        help="also learn USB HID buttons (keypads, encoders, pedals, gamepads; "
        "the built-in keyboard is left out)",
    )
    p.add_argument(
        "--whole-device",
        action="store_true",
        help="a HID press gives the player every key of that device (a pad or pedal each)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        metavar="S",
        help="give up on a player after S seconds (default 60)",
    )
    p.set_defaults(command=run_map)

    p = sub.add_parser("simulate", help="simulated devices on pseudo-terminals")
    p.add_argument(
        "--layout",
        choices=("box", "single"),
        default="box",
        help="box: one device with a button per player; single: one device "
        "per player (default box)",
    )
    p.add_argument("--players", type=int, default=4, metavar="N", help="buttons (1-8)")
    p.add_argument(
        "--drift",
        type=float,
        default=100.0,
        metavar="PPM",
        help="each device's clock runs off by up to this much (default 100)",
    )
    p.add_argument(
        "--transport",
        choices=("usb", "framed", "ftdi"),
        default="usb",
        help="usb (default), framed (both directions on 1 ms frames), ftdi (16 ms latency timer)",
    )
    p.add_argument(
        "--corrupt",
        type=float,
        default=0.0,
        metavar="RATE",
        help="probability per line of a damaged byte",
    )
    p.add_argument(
        "--drop",
        type=float,
        default=0.0,
        metavar="RATE",
        help="probability per line of a lost byte",
    )
    p.add_argument(
        "--bounce",
        type=int,
        default=2000,
        metavar="US",
        help="contact bounce after each edge (default 2000 µs)",
    )
    p.add_argument(
        "--script",
        default="",
        metavar="PRESSES",
        help="scripted presses DEV.BUTTON@TIME, comma separated, e.g. "
        "'1.1@0,1.2@50us,2.1@2ms' (TIME from --start-in)",
    )
    p.add_argument(
        "--start-in",
        type=float,
        default=3.0,
        metavar="S",
        help="when the script's time 0 is (default 3 s)",
    )
    p.add_argument(
        "--unplug",
        action="append",
        default=[],
        metavar="DEV@T1-T2",
        help="unplug device DEV at T1 s and plug it back at T2 s",
    )
    p.add_argument(
        "--link-dir",
        default=DEFAULT_LINK_DIR,
        metavar="DIR",
        help=f"stable links tadaa-<serial> here (default {DEFAULT_LINK_DIR})",
    )
    p.add_argument("--duration", type=float, metavar="S", help="stop after S seconds")
    p.add_argument("--seed", type=int, help="random seed (offsets, drifts, delays)")
    p.add_argument("--quiet", action="store_true", help="do not echo every line sent")
    p.add_argument(
        "--no-config",
        action="store_true",
        help="leave the Tadaa settings file alone (by default the simulated ports are "
        "added to it and their buttons given to seats 1, 2, …: a running app takes them "
        "at once)",
    )
    p.set_defaults(command=run_simulate)


# --------------------------------------------------------------------------- list


def _ports(args: argparse.Namespace) -> list[str]:
    try:
        config = TadaaConfig.load()
    except ValueError as exc:
        fail(str(exc))
        raise
    return [*args.port, *config.ports]


def _ms(ns: int) -> str:
    return f"{ns / 1e6:g} ms"


def describe_hid(info: hid.HidDeviceInfo, config: TadaaConfig) -> str:
    """One line per HID device: what it is, its id, how sure its presses are."""
    if info.interval_ns:
        polling = _("polls every {ms}").format(ms=_ms(info.interval_ns))
    else:
        polling = _("polling interval unknown, {ms} assumed").format(
            ms=_ms(hid.DEFAULT_INTERVAL_NS)
        )
    _centre, half = hid.press_interval(0, info.interval_or_default_ns)
    line = _("{event}: {name}, id {id}, {keys} keys, {polling} (presses ±{unc})").format(
        event=info.event,
        name=info.name or "?",
        id=info.stable_id,
        keys=len(info.keys),
        polling=polling,
        unc=_ms(half),
    )
    if info.by_id:
        line += " — " + info.by_id
    owners = config.buttons.get(info.stable_id, {})
    if owners:
        line += " — " + ", ".join(
            _("{name}: any key").format(name=n)
            if b == ANY_BUTTON
            else _("{name}: key {code}").format(name=n, code=b)
            for b, n in sorted(owners.items())
        )
    if info.builtin_keyboard:
        line += " — " + _("built-in keyboard: never used as a Tadaa button")
    elif not os.access(info.event, os.R_OK):
        line += "\n    " + hid.permission_message(info)
    return line


def list_hid(config: TadaaConfig) -> int:
    if not hid.SUPPORTED:
        print(_(hid.UNSUPPORTED))
        return 0
    devices = hid.list_hid_devices()
    print(_("USB HID devices with keys: {n}").format(n=len(devices)))
    for info in devices:
        print(describe_hid(info, config))
    return len([d for d in devices if not d.builtin_keyboard])


def run_list(args: argparse.Namespace) -> int:
    setup_language(args)
    ports = candidate_ports(_ports(args))
    print(_("Settings file: {path}").format(path=default_path()))
    hid_found = list_hid(TadaaConfig.load())
    if not ports:
        print(_("No candidate ports. Plug a Tadaa device in, or pass --port."))
        return 0 if hid_found else 1
    found = 0
    for port in ports:
        hello = probe_port(port)
        if hello is None:
            print(_("{port}: not a Tadaa device (no HELLO)").format(port=port))
            continue
        found += 1
        print(
            _(
                "{port}: Tadaa device {serial}, {buttons} buttons, firmware {fw}, "
                "boot {boot}, {presses} presses so far"
            ).format(
                port=port,
                serial=hello.serial,
                buttons=hello.buttons,
                fw=hello.firmware,
                boot=hello.boot,
                presses=hello.last_seq,
            )
        )
    print(_("{n} Tadaa device(s) found.").format(n=found))
    return 0 if found or hid_found else 1


# --------------------------------------------------------------------------- monitor


def format_status(s: DeviceStatus) -> str:
    state = {
        "connected": _("connected"),
        "resyncing": _("resyncing"),
        "reconnecting": _("reconnecting"),
        "disconnected": _("disconnected"),
        "dead": _("dead link"),
    }.get(s.state, s.state)

    def us(ns: int | None) -> str:
        return "—" if ns is None else f"{ns / 1000:.0f} µs"

    drift = "—" if s.drift_ppm is None else f"{s.drift_ppm:+.1f} ppm"
    line = _(
        "{serial} {state} on {port}: ±{unc}, round trip {rtt} (best {best}), drift "
        "{drift}, {samples} sync samples, {presses} presses, {dups} repeats dropped, "
        "{resends} resends, {lost} lost, {corrupt} parse errors"
    ).format(
        serial=s.serial,
        state=state,
        port=s.port or "—",
        unc=us(s.uncertainty_ns),
        rtt=us(s.rtt_ns),
        best=us(s.min_rtt_ns),
        drift=drift,
        samples=s.sync_samples,
        presses=s.presses,
        dups=s.duplicates,
        resends=s.resends,
        lost=s.lost,
        corrupt=s.corrupt + s.device_corrupt,
    )
    if s.protocol_errors or s.clock_outliers or s.queue_overflows or s.reconnects:
        line += _(
            "; {protocol} protocol errors, {outliers} clock outliers, "
            "{dropped} button changes dropped by the device, {reconnects} reconnects "
            "({deaths} after a reader error)"
        ).format(
            protocol=s.protocol_errors,
            outliers=s.clock_outliers,
            dropped=s.queue_overflows,
            reconnects=s.reconnects,
            deaths=s.reader_deaths,
        )
    return line


def format_press(p: DevicePress, t0: int) -> str:
    flags = []
    if p.tie:
        flags.append(_("tie (same sample)"))
    if p.flags & 0x02:
        flags.append(_("resent"))
    if p.disarmed:
        flags.append(_("disarmed"))
    return (
        _(
            "press {serial}/{button} #{seq}: device {dev} µs, host {host:.6f} s ±{unc} µs, "
            "arrived {delay:.3f} ms later {flags}"
        )
        .format(
            serial=p.serial,
            button=p.button,
            seq=p.seq,
            dev=p.device_us,
            host=(p.host_ns - t0) / 1e9,
            unc=p.uncertainty_ns // 1000,
            delay=(p.arrival_ns - p.host_ns) / 1e6,
            flags=" ".join(flags),
        )
        .rstrip()
    )


def run_monitor(args: argparse.Namespace) -> int:
    setup_language(args)
    configured = _ports(args)
    t0 = time.monotonic_ns()
    lock = threading.Lock()

    def show(p: DevicePress) -> None:
        with lock:
            print(format_press(p, t0), flush=True)

    hub = TadaaHub(configured)
    hub.on_press(show)
    source = _hid_source(args.hid, grab=False)
    source.on_press(show)
    said: set[str] = set()
    print(_("Watching for Tadaa devices (Ctrl-C to stop)…"), flush=True)
    end = time.monotonic() + args.duration if args.duration else None
    with hub, source:
        try:
            while end is None or time.monotonic() < end:
                time.sleep(min(args.every, max(0.05, (end or 1e18) - time.monotonic())))
                with lock:
                    status = hub.status() + source.status()
                    for problem in source.problems():
                        if problem not in said:  # once, not every round
                            said.add(problem)
                            print(problem, flush=True)
                    if not status:
                        print(_("No Tadaa device yet."), flush=True)
                    for s in status:
                        print(format_status(s), flush=True)
        except KeyboardInterrupt:
            pass
    return 0


# --------------------------------------------------------------------------- map


def run_map(args: argparse.Namespace) -> int:
    """Ask each player to press their button; remember it by serial number and button."""
    setup_language(args)
    try:
        config = TadaaConfig.load()
    except ValueError as exc:
        fail(str(exc))
        raise
    presses: queue.Queue[DevicePress] = queue.Queue()
    hub = TadaaHub([*args.port, *config.ports])
    hub.on_press(presses.put)
    source = _hid_source(args.hid, grab=False, config=config)

    def hid_press(dp: DevicePress) -> None:
        if dp.button not in hid.MODIFIER_KEYS:  # Ctrl-C to stop must not map Ctrl
            presses.put(dp)

    source.on_press(hid_press)
    assigned = 0
    with hub, source:
        for problem in _wait_for_hid(source, args.hid):
            print(problem, flush=True)
        for name in args.names:
            print(_("{name}, press your button now.").format(name=name), flush=True)
            try:
                dp = presses.get(timeout=args.timeout)
            except queue.Empty:
                print(_("No press for {name}; skipped.").format(name=name), flush=True)
                continue
            is_hid = isinstance(dp, hid.HidPress)
            button = ANY_BUTTON if is_hid and args.whole_device else dp.button
            config.assign(dp.serial, button, name)
            config.save()
            assigned += 1
            if button == ANY_BUTTON:
                said = _("{name}: every key of {serial}")
            elif is_hid:
                said = _("{name}: key {button} of {serial}")
            else:
                said = _("{name}: button {button} of {serial}")
            print(said.format(name=name, button=dp.button, serial=dp.serial), flush=True)
            info = source.devices[dp.serial].info if dp.serial in source.devices else None
            if info is not None and hid.is_full_keyboard(info):
                print(
                    _(
                        "{device} is a full keyboard: while the Meeple Circus screen is "
                        "open it is grabbed, and its keys reach only the Tadaa buttons."
                    ).format(device=info.name or info.stable_id),
                    flush=True,
                )
    print(_("Saved in {path}.").format(path=config.path), flush=True)
    return 0 if assigned == len(args.names) else 1


def _hid_source(every: bool, grab: bool, config: TadaaConfig | None = None) -> hid.HidSource:
    """Every HID device with keys (but the built-in keyboard), or only the mapped ones."""
    if config is None:
        try:
            config = TadaaConfig.load()
        except ValueError as exc:
            fail(str(exc))
            raise
    mapped = config.buttons

    def wanted(info: hid.HidDeviceInfo) -> bool:
        if every:
            return not info.builtin_keyboard
        return info.stable_id in hid.mapped_ids(mapped)

    return hid.HidSource(wanted, grab_when_armed=grab)


def _wait_for_hid(source: hid.HidSource, every: bool, timeout_s: float = 1.0) -> list[str]:
    """Let the first scan open the HID devices; what could not be opened, said once."""
    if not every:
        return []
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline and not source.status():
        time.sleep(0.05)
    return source.problems()


# --------------------------------------------------------------------------- simulate

_SCRIPT = re.compile(r"^(\d+)\.(\d+)@(\d+(?:\.\d+)?)(us|µs|ms|s)?$")
_UNITS = {"us": 1_000, "µs": 1_000, "ms": 1_000_000, "s": 1_000_000_000, None: 1_000_000}


def parse_script(text: str) -> list[tuple[int, int, int]]:
    """``"1.1@0,1.2@50us"`` -> [(device, button, offset_ns)] (default unit: ms)."""
    out = []
    for item in filter(None, (x.strip() for x in text.split(","))):
        m = _SCRIPT.match(item)
        if not m:
            raise ValueError(item)
        dev, button, value, unit = m.groups()
        out.append((int(dev), int(button), round(float(value) * _UNITS[unit])))
    return out


def parse_unplug(text: str) -> tuple[int, float, float]:
    m = re.match(r"^(\d+)@(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$", text.strip())
    if not m:
        raise ValueError(text)
    return int(m.group(1)), float(m.group(2)), float(m.group(3))


def sim_configs(args: argparse.Namespace, rng: random.Random) -> list[SimDeviceConfig]:
    from companion.hardware.simulator import (
        DEVICE_TO_HOST,
        FRAMED_BOTH,
        FTDI,
        HOST_TO_DEVICE,
        SimDeviceConfig,
        Transport,
    )

    to_host: Transport = {"usb": DEVICE_TO_HOST, "framed": FRAMED_BOTH, "ftdi": FTDI}[
        args.transport
    ]
    to_host = Transport(
        **{**to_host.__dict__, "corrupt_rate": args.corrupt, "drop_rate": args.drop}
    )
    to_device = HOST_TO_DEVICE if args.transport != "framed" else FRAMED_BOTH
    count, buttons = (1, args.players) if args.layout == "box" else (args.players, 1)
    return [
        SimDeviceConfig(
            serial=f"SIM{rng.getrandbits(32):08X}",
            buttons=buttons,
            offset_us=rng.randrange(10**10),
            drift_ppm=rng.uniform(-args.drift, args.drift),
            bounce_us=args.bounce,
            to_host=to_host,
            to_device=to_device,
        )
        for _i in range(count)
    ]


@contextlib.contextmanager
def _raw_keys() -> Iterator[bool]:
    if not sys.stdin.isatty():
        yield False
        return
    import termios
    import tty

    fd = sys.stdin.fileno()
    old = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        yield True
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, old)


def run_simulate(args: argparse.Namespace) -> int:
    setup_language(args)
    if not 1 <= args.players <= 8:
        fail(_("--players must be 1 to 8"))
    try:
        script = parse_script(args.script)
        unplugs = [parse_unplug(u) for u in args.unplug]
    except ValueError as exc:
        fail(_("cannot read {what!r}").format(what=str(exc)))
        raise
    from companion.hardware.simulator import Simulator

    rng = random.Random(args.seed)
    try:
        configs = sim_configs(args, rng)
    except ValueError as exc:  # settings no real device can have (the simulator refuses them)
        fail(_("cannot simulate that: {why}").format(why=exc))
        raise
    lock = threading.Lock()

    def echo(dev: SimDevice, line: bytes) -> None:
        if args.quiet or line.startswith((b"HB ", b"PONG ")):
            return
        with lock:
            print(f"{dev.config.serial} > {line.decode(errors='replace').rstrip()}", flush=True)

    sim = Simulator(configs, seed=args.seed, link_dir=args.link_dir)
    with sim:
        link_dir = Path(args.link_dir)
        for i, dev in enumerate(sim.devices, start=1):
            print(
                _(
                    "device {i}: {serial}, {buttons} button(s), drift {ppm:+.1f} ppm — {path} "
                    "(stable: {link})"
                ).format(
                    i=i,
                    serial=dev.config.serial,
                    buttons=dev.config.buttons,
                    ppm=dev.config.drift_ppm,
                    path=dev.path,
                    link=link_dir / f"tadaa-{dev.config.serial}",
                ),
                flush=True,
            )
        print(
            _("Point the companion at them: companion devices monitor --port '{glob}'").format(
                glob=link_dir / "tadaa-*"
            ),
            flush=True,
        )
        if not args.no_config:
            try:
                where = register_simulated(sim.devices, link_dir)
            except (OSError, ValueError) as exc:
                print(_("Could not tell the companion: {error}").format(error=exc), flush=True)
            else:
                print(
                    _(
                        "Told the companion ({path}): it watches these ports and gives "
                        "button N to seat N; a running app takes them in a moment."
                    ).format(path=where),
                    flush=True,
                )
        sim.on_line = echo  # from here on, show what the devices send
        start = time.monotonic_ns() + int(args.start_in * 1e9)
        for dev_no, button, offset in script:
            if not 1 <= dev_no <= len(sim.devices):
                fail(_("no simulated device {n}").format(n=dev_no))
            sim.press(sim.devices[dev_no - 1], button, start + offset)
        for dev_no, t1, t2 in unplugs:
            d = sim.devices[dev_no - 1]
            sim.call(functools.partial(sim.unplug, d), start + int(t1 * 1e9))
            sim.call(functools.partial(_replug, sim, d), start + int(t2 * 1e9))
        return _key_loop(sim, args, lock)


def register_simulated(devices: list[SimDevice], link_dir: Path) -> Path:
    """Add the simulator's stable links to the settings file's ports and give its
    buttons to seats in order (a box: button N is seat N; one device per player:
    device N is seat N). Mappings of earlier simulators (serials ``SIM…``) go."""
    from companion.hardware.config import seat_owner

    config = TadaaConfig.load()
    glob = str(link_dir / "tadaa-*")
    if glob not in config.ports:
        config.ports.append(glob)
    config.buttons = {s: m for s, m in config.buttons.items() if not s.startswith("SIM")}
    seat = 1
    for dev in devices:
        for button in range(1, dev.config.buttons + 1):
            config.buttons.setdefault(dev.config.serial, {})[button] = seat_owner(seat)
            seat += 1
    config.save()
    return config.path or default_path()


def _replug(sim: Simulator, dev: SimDevice) -> None:
    print(
        _("{serial} plugged in at {path}").format(serial=dev.config.serial, path=sim.replug(dev)),
        flush=True,
    )


def _key_loop(sim: Simulator, args: argparse.Namespace, lock: threading.Lock) -> int:
    end = time.monotonic() + args.duration if args.duration else None
    with _raw_keys() as interactive:
        if interactive:
            print(
                _(
                    "Keys: 1-8 press a button (box) or a device's button (one per player), "
                    "u unplug/replug, r reboot, q quit."
                ),
                flush=True,
            )
        try:
            while end is None or time.monotonic() < end:
                if not interactive:
                    time.sleep(0.1)
                    continue
                ready, _w, _x = select.select([sys.stdin], [], [], 0.1)
                if not ready:
                    continue
                key = os.read(sys.stdin.fileno(), 1).decode(errors="ignore")
                if key == "q":
                    break
                now = time.monotonic_ns()
                if key.isdigit() and key != "0":
                    n = int(key)
                    if args.layout == "box" and n <= sim.devices[0].config.buttons:
                        sim.press(sim.devices[0], n, now)
                    elif args.layout == "single" and n <= len(sim.devices):
                        sim.press(sim.devices[n - 1], 1, now)
                elif key in ("u", "r"):
                    for dev in sim.devices:
                        if dev.plugged and key == "u":
                            sim.unplug(dev)
                            msg = _("{serial} unplugged").format(serial=dev.config.serial)
                        else:
                            path = sim.replug(dev, reboot=key == "r")
                            msg = _("{serial} plugged in at {path}").format(
                                serial=dev.config.serial, path=path
                            )
                        with lock:
                            print(msg, flush=True)
        except KeyboardInterrupt:
            pass
    return 0
