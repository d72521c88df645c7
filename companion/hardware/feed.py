"""From device presses to the game: the button map, the raw log, the ``Press`` action.

``PressFeed`` listens to a ``TadaaHub``. For every press it:

1. turns it into the Meeple Circus ``Press`` (player from the button map) and
   hands it to ``deliver`` (the panel posts it to the UI thread, where the
   screen's ``receive_press`` takes it) unless nobody owns that button;
2. writes the raw event to the session log (``LiveSession.record_hardware``) with
   device time, host time, uncertainty, arrival time and what became of it —
   *every* press, assigned or not, disarmed or not (after the delivery, so the
   log's fsync never delays the screen);
3. calls ``on_unassigned`` for presses of unmapped buttons (the mapping dialog
   listens there: "press Ann's button").
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from companion.games.meeple_circus.rules.actions import Press
from companion.hardware.config import TadaaConfig
from companion.hardware.link import DevicePress, TadaaHub
from companion.rules.base import Player


def to_press(dp: DevicePress, player: str) -> Press:
    return Press(
        player=player,
        host_ns=dp.host_ns,
        uncertainty_ns=dp.uncertainty_ns,
        source="button-box",
        device=dp.serial,
        device_us=dp.device_us,
        button=dp.button,
    )


class PressFeed:
    """Routes a hub's presses into one session (see the module docstring)."""

    def __init__(
        self,
        hub: TadaaHub,
        config: TadaaConfig,
        players: Callable[[], tuple[Player, ...]],
        deliver: Callable[[Press], None],
        record: Callable[[dict[str, Any], int], object] | None = None,
        on_unassigned: Callable[[DevicePress], None] | None = None,
    ) -> None:
        self.hub = hub
        self.config = config
        self.players = players
        self.deliver = deliver
        self.record = record
        self.on_unassigned = on_unassigned
        self.capture: Callable[[DevicePress], bool] | None = None
        """When set (mapping dialog), gets every press first; True = consumed."""
        self._lock = threading.Lock()
        self.delivered = 0
        hub.on_press(self._on_press)

    def player_id(self, dp: DevicePress) -> str | None:
        name = self.config.player_for(dp.serial, dp.button)
        if name is None:
            return None
        for p in self.players():
            if p.name.casefold() == name.casefold():
                return p.id
        return None

    def _on_press(self, dp: DevicePress) -> None:
        with self._lock:  # one decision at a time: the mapping dialog may be capturing
            capture = self.capture
            consumed = capture(dp) if capture is not None else False
            pid = None if consumed else self.player_id(dp)
            if pid is not None:
                self.delivered += 1
        payload = dp.to_json()
        payload["player"] = pid
        payload["routed"] = "mapping" if consumed else "game" if pid is not None else "unassigned"
        # The game first (the press's time is fixed already; only the screen's
        # reaction waits), then the raw log: its fsync must not delay the screen,
        # nor (outside the lock) another device's press.
        if pid is not None:
            self.deliver(to_press(dp, pid))
        if self.record is not None:
            self.record(payload, dp.arrival_ns)
        if pid is None and not consumed and self.on_unassigned is not None:
            self.on_unassigned(dp)

    def close(self) -> None:
        """Stop listening (the hub may live on for another screen)."""
        with self._lock:
            if self._on_press in self.hub.press_listeners:
                self.hub.press_listeners.remove(self._on_press)
