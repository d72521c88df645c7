"""The Tadaa buttons inside a game screen: device status, photo finish, press routing.

Design decisions:

* Where the hub comes from is one method, ``acquire_hub``: the app's hub when one is
  set (``app.tadaa_hub``: tests, or a host who started one), otherwise one the panel
  starts on the settings file's ports plus the usual USB names and stops when it is
  unmounted. ``COMPANION_TADAA=off`` switches the buttons off. (The hub is to move to
  the app; only ``acquire_hub`` changes then.)
* Presses reach the screen's ``receive_press`` on the UI thread through a message
  (``post_message`` is thread-safe and does not wait: the reader thread goes straight
  back to reading, so a busy screen never delays an acknowledgement or a pong's
  time stamp); then the raw event goes to the session log on the reader thread
  (``LiveSession.record_hardware`` is thread-safe), so the log holds every press
  even if the screen refuses it.
* USB HID buttons (``companion.hardware.hid``) join the same hub: the panel opens
  the HID devices the button map names (``app.tadaa_hid`` when set: tests) and
  hands their presses to the hub's listeners, so the feed, the mapping dialog and
  the raw log take them exactly as the box's; their status lines join the box's.
* The screen stays the one place that decides: the panel only renders (device
  status every 0.25 s, the photo finish when the performance changes) and lights
  the first finisher's LED steady and the second's blinking.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message

from companion.games.meeple_circus.photo_finish import PhotoFinish
from companion.games.meeple_circus.rules.actions import Press
from companion.games.meeple_circus.rules.timing import Performance, judge
from companion.hardware.config import TadaaConfig
from companion.hardware.feed import PressFeed
from companion.hardware.hid import HidSource
from companion.hardware.hid import for_config as hid_for_config
from companion.hardware.link import DevicePress, TadaaHub
from companion.i18n import _
from companion.session.live import LiveSession
from companion.session.store import StoreError
from companion.widgets.device_status import DeviceStatusLine

REFRESH_S = 0.25


class TadaaPanel(Vertical):
    DEFAULT_CSS = "TadaaPanel { height: auto; }"

    class Pressed(Message):
        """A button-box press for the screen (posted from the hub's reader thread)."""

        def __init__(self, press: Press) -> None:
            super().__init__()
            self.press = press

    class Unassigned(Message):
        def __init__(self, press: DevicePress) -> None:
            super().__init__()
            self.press = press

    def __init__(
        self,
        session: LiveSession,
        receive_press: Callable[[Press], None],
        *,
        performance: Callable[[], Performance | None] = lambda: None,
        speed_tokens: Callable[[], bool] = lambda: True,
        hub: TadaaHub | None = None,
        config: TadaaConfig | None = None,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.session = session
        self.receive_press = receive_press
        self.performance = performance
        self.speed_tokens = speed_tokens
        self.hub = hub
        self.config = config
        self.feed: PressFeed | None = None
        self.note = ""
        self._own_hub = False
        self.hid: HidSource | None = None
        self._own_hid = False
        self._hid_listener: Callable[[DevicePress], None] | None = None
        self._leds: tuple[Any, ...] = ()

    def compose(self) -> ComposeResult:
        yield DeviceStatusLine(id="tadaa-status")
        yield PhotoFinish(id="tadaa-photo")

    def on_mount(self) -> None:
        try:
            self.config = self.config or TadaaConfig.load()
        except ValueError as exc:
            self.config = TadaaConfig()
            self.note = str(exc)
        self.hub = hub = self.acquire_hub(self.config)
        if hub is not None:
            self._attach_hid(hub)
            self.feed = PressFeed(
                hub,
                self.config,
                players=lambda: self.session.players,
                deliver=self._deliver,
                record=self._record,
                on_unassigned=self._unassigned,
            )
        self.set_interval(REFRESH_S, self.refresh_panel)
        self.refresh_panel()

    def acquire_hub(self, config: TadaaConfig) -> TadaaHub | None:
        """The hub this panel reads; the one place that knows where hubs come from.

        Today: the given or app's hub, else one the panel starts (and stops on
        unmount). When the app owns the hub, only this method changes.
        """
        hub = self.hub or getattr(self.app, "tadaa_hub", None)
        if hub is not None:
            return hub
        if os.environ.get("COMPANION_TADAA", "on").lower() == "off":
            self.note = _("Tadaa buttons are switched off (COMPANION_TADAA=off).")
            return None
        self._own_hub = True
        return TadaaHub(config.ports).start()

    def _attach_hid(self, hub: TadaaHub) -> None:
        assert self.config is not None
        self.hid = getattr(self.app, "tadaa_hid", None)
        if self.hid is None:
            self.hid = hid_for_config(self.config)
            self._own_hid = self.hid is not None
            if self.hid is not None:
                self.hid.start()
        if self.hid is not None:

            def to_hub(press: DevicePress) -> None:
                for listener in list(hub.press_listeners):
                    listener(press)

            self._hid_listener = to_hub
            self.hid.on_press(to_hub)

    def on_unmount(self) -> None:
        if self.feed is not None:
            self.feed.close()
        if self.hid is not None:
            if self._hid_listener is not None:
                with contextlib.suppress(ValueError):
                    self.hid.press_listeners.remove(self._hid_listener)
            if self._own_hid:
                threading.Thread(target=self.hid.stop, name="hid-stop", daemon=True).start()
        if self._own_hub and self.hub is not None:
            threading.Thread(target=self.hub.stop, name="tadaa-hub-stop", daemon=True).start()

    # ------------------------------------------------------------------ from the hub thread

    def _record(self, payload: dict[str, Any], mono_ns: int) -> object:
        try:
            return self.session.record_hardware(payload, mono_ns)
        except StoreError as exc:  # disk full: the press still counts; its log line is lost
            message = _("A button press could not be saved: {error}").format(error=exc.render(_))
            with contextlib.suppress(RuntimeError):  # the app already quit
                self.app.call_from_thread(self.app.notify, message, severity="error")
            return None

    def _deliver(self, press: Press) -> None:
        self.post_message(self.Pressed(press))

    def _unassigned(self, dp: DevicePress) -> None:
        self.post_message(self.Unassigned(dp))

    # ------------------------------------------------------------------ on the UI thread

    def on_tadaa_panel_pressed(self, message: Pressed) -> None:
        message.stop()
        self.receive_press(message.press)

    def on_tadaa_panel_unassigned(self, message: Unassigned) -> None:
        message.stop()
        dp = message.press
        self.app.notify(
            _(
                "Button {button} of {serial} has no player yet: press B to assign the buttons."
            ).format(button=dp.button, serial=dp.serial[-8:])
        )

    def refresh_panel(self) -> None:
        statuses = self.hub.status() if self.hub is not None else []
        note = self.note
        if self.hid is not None:
            statuses += self.hid.status()
            note = " ".join([note, *self.hid.problems()]).strip()
        self.query_one(DeviceStatusLine).show(statuses, note)
        perf = self.performance()
        self.query_one(PhotoFinish).show(perf, self.session.players, self.speed_tokens())
        self._update_leds(perf)
        performing = perf is not None and not perf.ended
        if self.hub is not None and performing != self.hub.performing:
            # A performance is on (or about to start): the hub pings faster, so its
            # presses get the tightest uncertainty the link allows.
            self.hub.set_performing(performing)

    def _update_leds(self, perf: Performance | None) -> None:
        if self.hub is None or self.config is None:
            return
        leds: tuple[Any, ...] = ()
        if perf is not None and perf.presses:
            order = judge(perf, speed_tokens=False).order
            names = {p.id: p.name for p in self.session.players}
            for mode, group in zip((1, 2), order, strict=False):
                for pid in group:
                    where = self.config.button_of(names.get(pid, ""))
                    if where is not None:
                        leds += ((where, mode),)
        if leds == self._leds:
            return
        self._leds = leds
        for status in self.hub.status():
            self.hub.led(status.serial, 0, 0)
        for (serial, button), mode in leds:
            self.hub.led(serial, button, mode)

    def open_mapping(self) -> None:
        from companion.widgets.button_map import ButtonMapScreen

        if self.feed is None or self.config is None:
            self.app.notify(self.note or _("No Tadaa buttons."), severity="warning")
            return
        self.app.push_screen(ButtonMapScreen(self.feed, self.config, self.session.players))
