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

It also writes the link's own facts to the same log (``tadaa-link``: a boot met and
what is settled, when the feed starts listening and whenever the hub meets a
boot; ``tadaa-lost``: numbers given up), so a restarted app restores the link's
view from the log (``link.link_views``, ``TadaaHub.restore``). The hub acknowledges
a press only after ``_on_press`` returned: its raw log line is on disk first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from companion.games.meeple_circus.rules.actions import Press
from companion.hardware.config import TadaaConfig, owner_seat
from companion.hardware.link import DevicePress, LinkView, TadaaHub
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
        known: Sequence[LinkView] = (),
        context: Callable[[], str | None] | None = None,
    ) -> None:
        self.hub = hub
        self.config = config
        self.players = players
        self.deliver = deliver
        self.record = record
        self.on_unassigned = on_unassigned
        self.context = context
        """Tags each raw press with where the game stood (``perf``): a resume gives
        the game a press whose raw entry was written but whose action was not."""
        self.capture: Callable[[DevicePress], bool] | None = None
        """When set (mapping dialog), gets every press first; True = consumed."""
        self._lock = threading.Lock()
        self.delivered = 0
        hub.on_press(self._on_press)
        hub.on_link(self._on_link)
        logged = {v.serial: v for v in known}
        for fact in hub.link_facts():
            view = logged.get(fact["device"])
            if view is None or view.boot != fact["boot"] or fact["settled"] > _settled(view):
                self._on_link(fact)

    def _on_link(self, fact: dict[str, Any]) -> None:
        if self.record is not None:
            self.record(fact, self.hub.clock())

    def player_id(self, dp: DevicePress) -> str | None:
        """Whose press: the seat the button is mapped to, or the player of that name."""
        owner = self.config.player_for(dp.serial, dp.button)
        if owner is None:
            return None
        players = self.players()
        seat = owner_seat(owner)
        if seat is not None:
            return players[seat - 1].id if 1 <= seat <= len(players) else None
        for p in players:
            if p.name.casefold() == owner.casefold():
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
        if self.context is not None:
            payload["perf"] = self.context()
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
            if self._on_link in self.hub.link_listeners:
                self.hub.link_listeners.remove(self._on_link)


def _settled(view: LinkView) -> int:
    """Every number up to this is settled in the log's view."""
    return view.done[0][1] if view.done and view.done[0][0] == 1 else 0
