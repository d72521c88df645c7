"""Shared fixtures: simulated devices on real ptys, a hub reading them."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator

import pytest

from companion.hardware.link import DevicePress, TadaaHub
from companion.hardware.simulator import SimDeviceConfig, Simulator


@pytest.fixture(autouse=True)
def _own_tadaa_settings(tmp_path_factory, monkeypatch) -> None:
    """Every hardware test (and every process it starts: ``devices simulate`` writes
    its ports and seats there) gets its own settings file, never the user's."""
    path = tmp_path_factory.mktemp("tadaa-settings") / "tadaa.json"
    monkeypatch.setenv("COMPANION_TADAA_CONFIG", str(path))


def wait_for(predicate: Callable[[], bool], timeout: float = 15.0, what: str = "") -> None:
    """Poll until ``predicate()``; fail with ``what`` after ``timeout`` seconds.

    A timeout only guards against hanging: no test asserts how fast anything is.
    """
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what or predicate}")
        time.sleep(0.01)


class Rig:
    """A simulator and a hub connected through ptys, with every press collected."""

    def __init__(self, sim: Simulator, hub: TadaaHub) -> None:
        self.sim = sim
        self.hub = hub
        self.presses: list[DevicePress] = []
        self._lock = threading.Lock()
        hub.on_press(self._got)

    def _got(self, p: DevicePress) -> None:
        with self._lock:
            self.presses.append(p)

    def of(self, serial: str) -> list[DevicePress]:
        with self._lock:
            return [p for p in self.presses if p.serial == serial]

    def status(self, serial: str):
        return next(s for s in self.hub.status() if s.serial == serial)

    def wait_synced(self, max_uncertainty_ns: int = 900_000, timeout: float = 20.0) -> None:
        serials = [d.config.serial for d in self.sim.devices]

        def ready() -> bool:
            st = {s.serial: s for s in self.hub.status()}
            return all(
                s in st
                and st[s].state == "connected"
                and st[s].uncertainty_ns is not None
                and st[s].uncertainty_ns < max_uncertainty_ns
                for s in serials
            )

        wait_for(ready, timeout, f"clock sync below {max_uncertainty_ns} ns")

    def wait_presses(self, n: int, timeout: float = 15.0) -> list[DevicePress]:
        wait_for(lambda: len(self.presses) >= n, timeout, f"{n} presses")
        with self._lock:
            return list(self.presses)

    def soon(self, ms: float = 150.0) -> int:
        return time.monotonic_ns() + int(ms * 1e6)


@pytest.fixture
def rig() -> Iterator[Callable[..., Rig]]:
    opened: list[tuple[Simulator, TadaaHub]] = []

    def make(configs: list[SimDeviceConfig], seed: int = 7) -> Rig:
        sim = Simulator(configs, seed=seed).start()
        hub = TadaaHub(ports=sim.paths)
        r = Rig(sim, hub)
        hub.start()
        opened.append((sim, hub))
        return r

    yield make
    for sim, hub in opened:
        hub.stop()
        sim.stop()
