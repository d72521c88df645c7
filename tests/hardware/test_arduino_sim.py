"""The Arduino firmware on an emulated ATmega328P, talking to the companion's hub.

The test session builds ``devices/tadaa-arduino`` with Debian's avr toolchain and
runs the very ELF for the Uno under simavr (``sim/tadaa_sim.c``): the chip's UART
on a pseudo-terminal, its button pins driven at chosen host-monotonic instants,
its clock paced to real time. The hub finds it, syncs to its ``micros()`` and
receives its presses exactly as from a board on a USB port.

Nothing here asserts how fast the machine is: timeouts only stop hangs. When the
emulator lags behind real time (a loaded machine), host bytes wait for the chip's
clock to catch up, so a lag widens the clock sync's intervals but never breaks it.
"""

from __future__ import annotations

import itertools
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.meeple_circus.rules.timing import tie_groups
from companion.hardware.feed import to_press
from companion.hardware.link import DevicePress, TadaaHub, link_views
from tests.hardware.conftest import wait_for

pytestmark = pytest.mark.realtime
"""The emulated chip is paced to the wall clock: it runs in make test's second, serial pass."""

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE_DIR = ROOT / "companion" / "devices" / "tadaa-arduino"
ARDUINO_CORE = Path("/usr/share/arduino/hardware/arduino/avr/cores/arduino")
FREQ = 16_000_000
# config.h on an ATmega328P: buttons 1-8 on D2-D7 (port D bits 2-7), D8-D9 (port B bits 0-1).
BUTTON_PIN = {1: "D2", 2: "D3", 3: "D4", 4: "D5", 5: "D6", 6: "D7", 7: "B0", 8: "B1"}
LED_PIN = {1: "B2", 2: "B3", 3: "B4", 4: "B5", 5: "C0", 6: "C1", 7: "C2", 8: "C3"}
# micros() counts in 4 µs steps and the interrupt's stamp is late by its latency.
STAMP_SLACK_US = 16
# The Uno talks through a 115200-baud UART: a PONG line alone takes ~2.5 ms.
SYNCED_NS = 4_000_000


def _missing_tools() -> str | None:
    for tool in ("avr-gcc", "avr-g++", "make", "cc", "pkg-config"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (apt-get install gcc-avr avr-libc pkg-config)"
    if not ARDUINO_CORE.is_dir():
        return "the Arduino core is not installed (apt-get install arduino-core-avr)"
    if subprocess.run(["pkg-config", "--exists", "simavr"], check=False).returncode != 0:
        return "libsimavr is not installed (apt-get install simavr libsimavr-dev libelf-dev)"
    if not any(Path(p, "libelf.h").exists() for p in ("/usr/include", "/usr/local/include")):
        return "libelf headers are not installed (apt-get install libelf-dev)"
    return None


@pytest.fixture(scope="session")
def avr_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The firmware for the Uno and the harness, built once per test session."""
    reason = _missing_tools()
    if reason:
        pytest.skip(reason)
    build = tmp_path_factory.mktemp("tadaa-arduino")
    done = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={build}", "-j2", "sim"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return build


# What the boards leave to a sketch: flash below the bootloader, RAM for the stack.
FLASH_LIMIT = {"uno": 32_256, "leonardo": 28_672}  # optiboot 0.5 KB; Caterina 4 KB
RAM_LIMIT = {"uno": 2048 - 384, "leonardo": 2560 - 384}  # static data; 384 B left for the stack


def test_both_chips_build_and_fit(avr_build: Path):
    done = subprocess.run(
        ["make", "-s", "-C", str(FIRMWARE_DIR), f"BUILD={avr_build}", "-j2", "all"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    sizes = {}
    for line in done.stdout.splitlines():  # "uno: flash 11368 bytes, RAM 1530 bytes (static)"
        board, rest = line.split(":", 1)
        words = rest.split()
        sizes[board] = (int(words[1]), int(words[4]))
    assert set(sizes) == {"uno", "leonardo"}
    for board, (flash, ram) in sizes.items():
        assert flash < FLASH_LIMIT[board] and ram < RAM_LIMIT[board], (board, flash, ram)
    assert (avr_build / "leonardo" / "tadaa-arduino.hex").stat().st_size > 0


class AvrSim:
    """One emulated Uno running the firmware: its pty, its pins, its reports."""

    def __init__(self, build: Path, serial: str) -> None:
        self.serial = serial
        self.proc = subprocess.Popen(
            [str(build / "tadaa_sim"), "-s", serial, str(build / "uno" / "tadaa-arduino.elf")],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.lock = threading.Lock()
        self.reports: list[list[str]] = []
        self.pty: str | None = None
        self.t0_ns = 0
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        wait_for(lambda: self.t0_ns and self.pty, 10, "the emulator to start")

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if not line.startswith("@"):
                continue  # simavr's own chatter
            fields = line[1:].split()
            with self.lock:
                self.reports.append(fields)
                if fields[0] == "PTY":
                    self.pty = fields[1]
                elif fields[0] == "UNPLUGGED":
                    self.pty = None
                elif fields[0] == "READY":
                    self.t0_ns = int(fields[2])

    def send(self, *commands: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(c + "\n" for c in commands))
        self.proc.stdin.flush()

    def paths(self) -> list[str]:
        with self.lock:
            return [self.pty] if self.pty else []

    # -- time: cycle c of the chip runs at host time t0 + c / f (paced)

    def host_ns(self, cycle: int) -> int:
        return self.t0_ns + cycle * 1_000_000_000 // FREQ

    @staticmethod
    def soon(ms: float = 150.0) -> int:
        return time.monotonic_ns() + int(ms * 1e6)

    # -- buttons (active low: a press pulls the pin to GND)

    def press(self, button: int, at_ns: int, hold_ms: float = 60.0) -> None:
        pin = BUTTON_PIN[button]
        self.send(f"pin {pin} 0 {at_ns}", f"pin {pin} 1 {at_ns + int(hold_ms * 1e6)}")

    def bounce(self, button: int, at_ns: int, edges_us: list[int], level: int) -> None:
        """Toggle from ``at_ns`` at each offset of ``edges_us``, ending at ``level``."""
        pin = BUTTON_PIN[button]
        n = len(edges_us)
        self.send(
            *(
                f"pin {pin} {level if (n - 1 - i) % 2 == 0 else 1 - level} {at_ns + us * 1000}"
                for i, us in enumerate(edges_us)
            )
        )

    def edges(self, button: int, level: int = 0) -> list[int]:
        """The cycles at which ``button``'s pin was set to ``level``."""
        pin = BUTTON_PIN[button]
        with self.lock:
            return [int(r[3]) for r in self.reports if r[:3] == ["EDGE", pin, str(level)]]

    def lag_us(self) -> int:
        """The largest lag of the emulation behind real time so far (µs)."""
        with self.lock:
            n = len(self.reports)
        self.send("stats")
        wait_for(lambda: any(r[0] == "STATS" for r in self.reports[n:]), 10, "stats")
        with self.lock:
            return int(next(r for r in self.reports[n:] if r[0] == "STATS")[2])

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.send("quit")
                self.proc.wait(5)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait(5)


class ArduinoRig:
    def __init__(self, sim: AvrSim, hub: TadaaHub) -> None:
        self.sim = sim
        self.hub = hub
        self.presses: list[DevicePress] = []
        self._lock = threading.Lock()
        hub.on_press(self._got)

    def _got(self, p: DevicePress) -> None:
        with self._lock:
            self.presses.append(p)

    def status(self):
        return next(s for s in self.hub.status() if s.serial == self.sim.serial)

    def wait_synced(self, max_uncertainty_ns: int = SYNCED_NS) -> None:
        def ready() -> bool:
            st = [s for s in self.hub.status() if s.serial == self.sim.serial]
            return bool(
                st
                and st[0].state == "connected"
                and st[0].uncertainty_ns is not None
                and st[0].uncertainty_ns < max_uncertainty_ns
            )

        wait_for(ready, 20, f"clock sync below {max_uncertainty_ns} ns")

    def wait_presses(self, n: int) -> list[DevicePress]:
        wait_for(lambda: len(self.presses) >= n, 15, f"{n} presses")
        with self._lock:
            return list(self.presses)


@pytest.fixture
def arduino(avr_build: Path) -> Iterator[ArduinoRig]:
    sim = AvrSim(avr_build, "A1B2C3D4E5F60718")
    hub = TadaaHub(ports=sim.paths)
    rig = ArduinoRig(sim, hub)
    hub.start()
    try:
        yield rig
    finally:
        hub.stop()
        sim.close()


def test_the_hub_meets_the_chip_and_syncs_to_its_micros(arduino):
    arduino.wait_synced()
    st = arduino.status()
    assert (st.firmware, st.buttons, st.port) == ("1.0.0-avr", 8, arduino.sim.paths()[0])
    # The port opened in the middle of the boot HELLO: at most that partial line is lost.
    assert st.corrupt <= 1 and st.device_corrupt == 0
    # Heartbeats carry the interrupt's declared stamp latency as the sampling period.
    wait_for(lambda: arduino.status().sample_us == 16, 10, "a heartbeat")
    st = arduino.status()
    assert st.sync_samples >= 3 and st.min_rtt_ns is not None
    # Every ping's interval agrees with one clock line: the emulated crystal is
    # exact, and a lag of the emulator (a loaded machine) only delays bytes.
    assert st.consistent


def test_press_order_and_exact_gaps_from_scripted_pin_edges(arduino):
    arduino.wait_synced()
    sim = arduino.sim
    t0 = sim.soon(100)
    # Buttons 3, 1, 8, 5: 120 µs, 1 ms and 37 µs apart (each on its own pin).
    at = {3: t0, 1: t0 + 120_000, 8: t0 + 1_120_000, 5: t0 + 1_157_000}
    for button, t in at.items():
        sim.press(button, t)
    got = arduino.wait_presses(4)
    assert [p.button for p in sorted(got, key=lambda p: p.device_us)] == [3, 1, 8, 5]
    assert sorted(p.seq for p in got) == [1, 2, 3, 4]
    assert not any(p.tie for p in got)
    # Each stamp is micros() at that pin's edge: the gaps are the edges' cycle gaps.
    cycles = {b: sim.edges(b)[0] for b in at}
    stamp = {p.button: p.device_us for p in got}
    for b in (1, 8, 5):
        edge_gap_us = (cycles[b] - cycles[3]) / (FREQ / 1_000_000)
        assert abs((stamp[b] - stamp[3]) - edge_gap_us) <= STAMP_SLACK_US
    # ... and they land where the host scheduled them: the clock sync against
    # the chip's micros() holds the true instant within its stated uncertainty.
    for p in got:
        true_ns = sim.host_ns(cycles[p.button])
        assert abs(true_ns - at[p.button]) <= 1000  # the edge came when asked (1 µs)
        assert abs(p.host_ns - true_ns) <= p.uncertainty_ns, (p, true_ns)


def test_a_bouncing_contact_is_one_press(arduino):
    arduino.wait_synced()
    sim = arduino.sim
    t = sim.soon(100)
    # Press: 5 edges over 1.1 ms, ending pressed; release bounces too, 80 ms later.
    sim.bounce(2, t, [0, 150, 400, 700, 1100], level=0)
    sim.bounce(2, t + 80_000_000, [0, 300, 900], level=1)
    # Meanwhile button 4 is pressed cleanly, and button 2 once more after 200 ms.
    sim.press(4, t + 30_000_000)
    sim.press(2, t + 200_000_000)
    got = arduino.wait_presses(3)
    time.sleep(0.3)  # a bounce counted as a press would arrive by now
    with arduino._lock:
        got = list(arduino.presses)
    assert sorted((p.button, p.seq) for p in got) == [(2, 1), (2, 3), (4, 2)]
    first = next(p for p in got if p.seq == 1)
    # Stamped at the first edge of the bounce, not a later one.
    cycle = sim.edges(2)[0]
    edge_us = (sim.edges(4)[0] - cycle) / (FREQ / 1_000_000)
    by_seq = {p.seq: p for p in got}
    assert abs((by_seq[2].device_us - first.device_us) - edge_us) <= STAMP_SLACK_US


def test_same_tick_edges_are_a_declared_tie_never_ordered_by_pin(arduino):
    arduino.wait_synced()
    sim = arduino.sim
    t = sim.soon(100)
    # Buttons 7 (port B) and 2 (port D): two different interrupt vectors, one cycle.
    sim.send(f"pin {BUTTON_PIN[7]} 0 {t}", f"pin {BUTTON_PIN[2]} 0 {t}")
    sim.send(f"pin {BUTTON_PIN[7]} 1 {t + 60_000_000}", f"pin {BUTTON_PIN[2]} 1 {t + 60_000_000}")
    sim.press(5, t + 100_000)  # 100 µs later: no tie
    got = arduino.wait_presses(3)
    assert sim.edges(7) == sim.edges(2)  # the harness applied both in the same cycle
    by_button = {p.button: p for p in got}
    assert by_button[7].device_us == by_button[2].device_us
    assert sum(p.tie for p in (by_button[7], by_button[2])) == 1  # the second of the sample
    assert not by_button[5].tie and by_button[5].device_us > by_button[2].device_us
    names = {(sim.serial, 2): "p2", (sim.serial, 5): "p5", (sim.serial, 7): "p7"}
    groups = tie_groups([to_press(p, names[(p.serial, p.button)]) for p in got])
    assert [sorted(x.player for x in g) for g in groups] == [["p2", "p7"], ["p5"]]


def test_unplug_and_replug_resend_every_press_exactly_once(arduino):
    arduino.wait_synced()
    sim = arduino.sim
    sim.press(1, sim.soon(50))
    arduino.wait_presses(1)
    boot = arduino.status().boot
    sim.send("unplug")
    wait_for(lambda: arduino.status().state == "disconnected", 10, "the unplug seen")
    # Pressed while the cable is out (the board keeps running: a powered hub).
    t = sim.soon(50)
    sim.press(2, t)
    sim.press(3, t + 250_000)
    wait_for(lambda: len(sim.edges(3)) == 1, 10, "the presses made")
    time.sleep(0.6)  # the firmware retries into the void (250 ms, then 500 ms)
    sim.send("plug")
    wait_for(lambda: bool(sim.paths()), 10, "a new port")  # the kernel may reuse the number
    arduino.hub.poke()
    got = arduino.wait_presses(3)
    sim.press(4, sim.soon(50))
    got = arduino.wait_presses(4)
    time.sleep(0.5)  # a duplicate would arrive by now
    with arduino._lock:
        got = list(arduino.presses)
    assert sorted((p.seq, p.button) for p in got) == [(1, 1), (2, 2), (3, 3), (4, 4)]
    st = arduino.status()
    assert st.boot == boot and st.state == "connected" and st.presses == 4 and st.lost == 0
    assert st.resends >= 1  # the hub asked for what it missed
    by_button = {p.button: p for p in got}
    assert by_button[2].flags & 0x02 and by_button[3].flags & 0x02  # they came as resends
    # Pressed while unplugged, mapped after the reconnect: the truth is inside.
    for b in (2, 3):
        true_ns = sim.host_ns(sim.edges(b)[0])
        assert abs(by_button[b].host_ns - true_ns) <= by_button[b].uncertainty_ns


def test_a_reset_chip_is_a_new_boot(arduino):
    arduino.wait_synced()
    sim = arduino.sim
    sim.press(1, sim.soon(50))
    arduino.wait_presses(1)
    old = arduino.status().boot
    sim.send("reset")
    wait_for(lambda: arduino.status().boot != old, 15, "the new boot")
    arduino.wait_synced()
    sim.press(1, sim.soon(50))
    got = arduino.wait_presses(2)
    assert (got[1].boot, got[1].seq) == (arduino.status().boot, 1)
    # The chip's clock started over at the reset (micros() counts from init()).
    with sim.lock:
        reset_cycle = next(int(r[1]) for r in sim.reports if r[0] == "RESET")
    since_reset_us = (sim.edges(1)[-1] - reset_cycle) / (FREQ / 1_000_000)
    assert 0 <= since_reset_us - got[1].device_us < 20_000


def test_a_restarted_app_gets_the_presses_the_chip_kept(arduino):
    """The app is killed (its hub gone, the port closed) and a press is made while it
    is down: the restarted app, restored from the session log, gets it exactly once
    from the chip's ring; nothing counted lost, nothing taken for predating."""
    arduino.wait_synced()
    sim, first = arduino.sim, arduino.hub
    log: list[dict] = []
    first.on_link(log.append)
    first.on_press(lambda p: log.append(p.to_json()))
    log.extend(first.link_facts())  # the session started listening
    sim.press(1, sim.soon(50))
    wait_for(lambda: sum(p["kind"] == "tadaa-press" for p in log) == 1, 15, "a press")
    first.stop()  # the kill: no goodbye to the chip
    sim.press(2, sim.soon(50))
    wait_for(lambda: len(sim.edges(2)) == 1, 10, "the press while down")
    time.sleep(0.6)  # the firmware retries into the void
    second = TadaaHub(ports=sim.paths)
    second.restore(link_views(log))
    second.on_press(lambda p: log.append(p.to_json()))
    second.start()
    try:
        wait_for(lambda: sum(p["kind"] == "tadaa-press" for p in log) == 2, 20, "after restart")
        time.sleep(0.5)  # a duplicate would arrive by now
        got = [(p["seq"], p["button"]) for p in log if p["kind"] == "tadaa-press"]
        assert got == [(1, 1), (2, 2)]
        st = next(s for s in second.status() if s.serial == sim.serial)
        assert (st.lost, st.predating, st.presses) == (0, 0, 2)
        late = next(p for p in log if p.get("button") == 2)
        true_ns = sim.host_ns(sim.edges(2)[0])
        assert abs(late["host_ns"] - true_ns) <= late["uncertainty_ns"]
    finally:
        second.stop()


def test_led_commands_drive_the_pins(arduino):
    arduino.wait_synced()
    sim = arduino.sim
    sim.send(*(f"watch {pin}" for pin in LED_PIN.values()))
    time.sleep(0.1)
    assert arduino.hub.led(sim.serial, 4, 1)  # on
    assert arduino.hub.led(sim.serial, 6, 3)  # fast blink (4 Hz)

    def levels(pin: str) -> list[int]:
        with sim.lock:
            return [int(r[2]) for r in sim.reports if r[:2] == ["PIN", pin]]

    wait_for(lambda: levels(LED_PIN[4])[-1:] == [1], 10, "LED 4 lit")
    wait_for(lambda: levels(LED_PIN[6]).count(1) >= 3, 10, "LED 6 blinking")
    with sim.lock:
        blinks = [int(r[3]) for r in sim.reports if r[:3] == ["PIN", LED_PIN[6], "1"]]
    # 4 Hz on the chip's clock: rising edges 250 ms of cycles apart.
    assert all(abs((b - a) / FREQ - 0.25) < 0.002 for a, b in itertools.pairwise(blinks))
    assert levels(LED_PIN[1]).count(1) == 0


async def test_a_press_on_the_emulated_arduino_reaches_the_meeple_circus_order(
    tmp_path, monkeypatch, arduino
):
    # The screen's wiring and helpers are test_ui_tadaa's (the simulator's twin test).
    from companion.hardware.config import TadaaConfig
    from companion.ui.app import make_app
    from tests.hardware.test_ui_tadaa import SIZE, order_rows, start_performance, until

    config_path = tmp_path / "tadaa.json"
    monkeypatch.setenv("COMPANION_TADAA_CONFIG", str(config_path))
    sim = arduino.sim
    config = TadaaConfig(path=config_path)
    for button, name in ((1, "Ann"), (2, "Bo"), (3, "Cy")):
        config.assign(sim.serial, button, name)
    config.save()
    app = make_app(tmp_path / "arduino.sqlite3", lang="en")
    app.tadaa_hub = arduino.hub
    async with app.run_test(size=SIZE) as pilot:
        screen = await start_performance(app, ["Ann", "Bo", "Cy"])
        await until(pilot, lambda: arduino.status().state == "connected", what="the Arduino")
        t0 = time.monotonic_ns() + 100_000_000
        sim.press(3, t0)  # Cy first
        sim.press(1, t0 + 300_000)  # Ann 300 µs later
        sim.press(2, t0 + 5_000_000)  # Bo 5 ms later
        await until(
            pilot,
            lambda: len(screen.circus.performance.presses) == 3,
            what="three presses in the game",
        )
        presses = [rp.press for rp in screen.circus.performance.presses]
        assert all(p.source == "button-box" and p.device == sim.serial for p in presses)
        by = {p.player: p for p in presses}
        gap_us = (sim.edges(1)[0] - sim.edges(3)[0]) / (FREQ / 1_000_000)
        assert abs((by["p1"].device_us - by["p3"].device_us) - gap_us) <= STAMP_SLACK_US

        await until(pilot, lambda: len(order_rows(screen)) == 3, what="all three in the order")
        assert [row.split()[1] for row in order_rows(screen)] == ["Cy", "Ann", "Bo"]


def test_the_firmware_answers_line_for_line_like_the_reference_logic(avr_build):
    """Raw lines to the chip, its answers beside ``tadaa_logic.TadaaDevice``'s."""
    import serial

    from companion.hardware import tadaa_logic as logic

    sim = AvrSim(avr_build, "0123456789ABCDEF")
    port = serial.Serial(sim.paths()[0], 115200, timeout=0.05)
    got: list[str] = []

    def exchange(data: bytes, quiet_s: float = 0.15) -> list[str]:
        """Send ``data``; the answers (heartbeats aside) until the chip is quiet."""
        port.write(data)
        out: list[str] = []
        buf = logic.LineAssembler()
        last = time.monotonic()
        while time.monotonic() - last < quiet_s:
            chunk = port.read(512)
            if chunk:
                last = time.monotonic()
            for line in buf.feed(chunk):
                body = logic.unframe(line)
                if body is not None and not body.startswith("HB "):
                    out.append(body)
        got.extend(out)
        return out

    try:
        exchange(b"", 0.5)  # the boot's HELLO, if the port was open in time
        hello = exchange(logic.frame("INFO"))
        assert len(hello) == 1 and hello[0].startswith("HELLO ")
        boot = hello[0].split()[4]
        ref = logic.TadaaDevice(8, boot, "0123456789ABCDEF", debounce_us=30_000, ring_size=128)

        def expect(data: bytes) -> list[str]:
            lines = ref.on_bytes(data, 0)
            return [logic.unframe(x[:-1]) or "" for x in lines]

        cases = [
            b"garbage\n",
            logic.frame("FOO 1"),
            logic.frame("ACK DEADBEEF 1"),
            logic.frame("LED 9 1"),
            logic.frame("LED 0 2"),
            logic.frame("LED 3 0"),
            logic.frame("ARM 1"),
            logic.frame("ARM 0"),
            b"x" * 200 + b"\n",  # overlong: dropped whole, no answer
            logic.frame(f"RESEND {boot} 1"),  # nothing held: nothing sent
            logic.frame("INFO")[:-1] + b"\r\n",  # a CR before the newline is fine
            b"PING 1*0000\n",  # a wrong checksum is counted
        ]
        for data in cases:
            want = expect(data)
            if want and want[0].startswith("HELLO "):
                want = [want[0].replace(logic.FIRMWARE_VERSION, "1.0.0-avr")]
            assert exchange(data) == want, data
        pong = exchange(logic.frame("PING abc"))
        assert len(pong) == 1 and pong[0].split()[:3] == ["PONG", boot, "abc"]
        # 130 presses, none acknowledged: the 128-event ring drops the oldest two,
        # and the events after each drop say so (OVERFLOW), exactly like the reference.
        t0 = sim.soon(100)
        for k in range(130):
            sim.press(k % 8 + 1, t0 + k * 6_000_000, hold_ms=8)
            mask_t = k * 6_000
            ref.on_sample(mask_t, 1 << (k % 8))
            ref.on_sample(mask_t + 8_000, 0)
        wait_for(lambda: len(sim.edges(130 % 8 or 8, 1)) >= 16, 30, "the presses made")
        time.sleep(0.3)
        port.reset_input_buffer()
        for e in ref.ring.events:
            e[4] = 0  # every event was sent once already
        # (seq, button, flags) of what the reference sends again
        want = [
            tuple((logic.unframe(x[:-1]) or "").split()[i] for i in (2, 3, 5))
            for x in ref.resend(1, 0)
        ]
        resent = [b.split() for b in exchange(logic.frame(f"RESEND {boot} 1"), 0.5)]
        # (its own retry timer may send the oldest eight once more meanwhile)
        by_seq = {r[2]: r for r in resent if r[0] == "P"}
        resent = sorted(by_seq.values(), key=lambda r: int(r[2]))
        assert [(r[2], r[3], r[5]) for r in resent] == want
        assert want[0][0] == "3" and want[-2:] == [("129", "1", "E"), ("130", "2", "E")]
        # The chip's gaps are the scripted ones (6 ms apart, to the interrupt's slack).
        stamps = [int(r[4]) for r in resent]
        assert all(abs(b - a - 6_000) <= STAMP_SLACK_US for a, b in itertools.pairwise(stamps))
    finally:
        port.close()
        sim.close()


class PressReader:
    """Every distinct press line from the chip's pty, acknowledged as it comes."""

    def __init__(self, path: str) -> None:
        import serial

        from companion.hardware import protocol as proto

        self.port = serial.Serial(path, 115200, timeout=0.05)
        self.parser = proto.LineParser()
        self.presses: dict[int, proto.PressEvent] = {}
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        from companion.hardware import protocol as proto

        while not self.stop.is_set():
            for msg in self.parser.feed(self.port.read(512)):
                if isinstance(msg, proto.PressEvent):
                    self.presses.setdefault(msg.seq, msg)
                    self.port.write(proto.cmd_ack(msg.boot, msg.seq))

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2)
        self.port.close()


def test_the_chips_debounce_is_the_reference_debounce_for_any_edges(avr_build):
    """Random edge trains on three pins (two ports): the chip's presses are exactly
    those ``tadaa_logic.Debouncer`` finds in the same edges, at the first edge."""
    from hypothesis import Phase, assume, given, settings
    from hypothesis import strategies as st

    from companion.hardware import tadaa_logic as logic

    sim = AvrSim(avr_build, "00000000000000AB")
    checked: list[int] = []  # presses compared, per example
    reader = PressReader(sim.paths()[0])
    buttons = (1, 2, 7)
    us_per_cycle = 1_000_000 / FREQ
    # The chip decides on its own stamps (late by up to STAMP_SLACK_US): a gap that
    # close to the 30 ms debounce time may fall either way, on a real board too.
    near = lambda gap: abs(gap - 30_000) <= 2 * STAMP_SLACK_US  # noqa: E731

    trains = st.lists(st.integers(50, 45_000), min_size=1, max_size=10)

    # Each example takes real time (the chip runs at 16 MHz of wall clock): a few,
    # no shrinking (a failure prints the example it met).
    @settings(max_examples=10, deadline=None, derandomize=True, phases=[Phase.generate])
    @given(
        st.tuples(trains, trains, trains), st.lists(st.integers(0, 20_000), min_size=3, max_size=3)
    )
    def check(gaps, starts):
        # edges: (µs from t0, button, level); press = level 0 (pin to GND)
        edges = []
        for button, g, start in zip(buttons, gaps, starts, strict=True):
            t, level = start, 0
            for gap in g:
                edges.append((t, button, level))
                t += gap
                level = 1 - level
            if level == 1:  # end released
                edges.append((t, button, 1))
        # any two edges of one pin closer to 30 ms than the slack: undecidable, skip
        for b in buttons:
            ts = sorted(t for t, bb, _ in edges if bb == b)
            for i in range(len(ts)):
                for j in range(i + 1, len(ts)):
                    assume(not near(ts[j] - ts[i]))
        before = set(reader.presses)
        n_edges = {b: len(sim.edges(b, 0)) + len(sim.edges(b, 1)) for b in buttons}
        t0 = sim.soon(60)
        sim.send(*(f"pin {BUTTON_PIN[b]} {lv} {t0 + t * 1000}" for t, b, lv in edges))
        wait_for(
            lambda: all(
                len(sim.edges(b, 0)) + len(sim.edges(b, 1)) - n_edges[b]
                == sum(1 for _, bb, _ in edges if bb == b)
                for b in buttons
            ),
            30,
            "the edges applied",
        )
        time.sleep(0.35)  # presses sent, and every pin released for > 30 ms
        # The reference, fed the very cycles the harness applied the edges at.
        applied = []
        with sim.lock:
            for r in sim.reports:
                if r[0] == "EDGE" and int(r[3]) >= 0:
                    applied.append((int(r[3]), r[1], int(r[2])))
        applied = applied[-len(edges) :]
        pin_button = {pin: b for b, pin in BUTTON_PIN.items()}
        ref = logic.Debouncer(8, 30_000, 0, t_us=-(10**9))
        mask, want = 0, []
        for cycle in sorted({c for c, _, _ in applied}):
            for c, pin, lv in applied:
                if c == cycle:
                    bit = 1 << (pin_button[pin] - 1)
                    mask = mask & ~bit if lv == 1 else mask | bit
            new = ref.sample(int(cycle * us_per_cycle), mask)
            want += [(b, cycle) for b in range(1, 9) if new & (1 << (b - 1))]
        got = sorted((p for s, p in reader.presses.items() if s not in before), key=lambda p: p.seq)
        # The chip's samples: a tie (same t_us) is edges one interrupt saw together,
        # which the reference may have seen a few µs apart; any other order is exact.
        groups: list[list] = []
        for p in got:
            if groups and p.tie and p.t_us == groups[-1][0].t_us:
                groups[-1].append(p)
            else:
                groups.append([p])
        assert sum(map(len, groups)) == len(want), (groups, want)
        k, offsets = 0, []
        for g in groups:
            ref_part = want[k : k + len(g)]
            k += len(g)
            assert {p.button for p in g} == {b for b, _ in ref_part}, (groups, want)
            span_us = (ref_part[-1][1] - ref_part[0][1]) * us_per_cycle
            assert span_us <= STAMP_SLACK_US, (g, ref_part)
            offsets.append(g[0].t_us - ref_part[0][1] * us_per_cycle)
        assert not offsets or max(offsets) - min(offsets) <= STAMP_SLACK_US
        checked.append(len(want))

    try:
        check()
        assert len(checked) >= 4 and sum(checked) >= 10, checked  # it did look at presses
    finally:
        reader.close()
        sim.close()
