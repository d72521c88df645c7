"""The Tadaa buttons inside a game screen: device status, photo finish, press routing.

Design decisions:

* The hub belongs to the app (``CompanionApp.acquire_tadaa_hub``): started the first
  time a screen needs the buttons, it keeps every device connected and its clock in
  sync across performances, acts and games, and the app stops it when it quits. The
  panel only attaches to it (``acquire_hub``). ``COMPANION_TADAA=off`` switches the
  buttons off.
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
* Phones (``companion.hardware.phones``) are off until the host switches them on
  (``P``, then ``O``): the panel then owns a ``PhoneServer`` for this session — the
  join link is written to the session log (the table board shows its QR code) — and
  stops it when the screen goes. A phone's press becomes a ``Press`` with source
  ``phone`` and the page's clock, posted to the screen like a box's, then logged;
  the phone's acknowledgement waits for the log (acknowledged = saved). Every
  refresh sends the phones the act's Tadaa state (order, gaps, ties; nothing else).
* The screen stays the one place that decides: the panel only renders (device
  status every 0.25 s, the photo finish when the performance changes) and lights
  the first finisher's LED steady and the second's blinking.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Static

from companion.games.meeple_circus.photo_finish import PhotoFinish
from companion.games.meeple_circus.rules.actions import Press
from companion.games.meeple_circus.rules.timing import Performance, judge
from companion.hardware.config import TadaaConfig
from companion.hardware.feed import PressFeed
from companion.hardware.hid import HidSource
from companion.hardware.hid import for_config as hid_for_config
from companion.hardware.link import DevicePress, TadaaHub, link_views
from companion.i18n import _, current_language
from companion.session.live import LiveSession
from companion.session.store import Entry, StoreError
from companion.widgets.device_status import DeviceStatusLine
from companion.widgets.shown import Shown

if TYPE_CHECKING:  # the phones' server (aiohttp, QR codes) loads when phones go on
    from companion.hardware.phones import PhonePress, PhoneServer, Seat

REFRESH_S = 0.25


def performance_tag(state: Any) -> str | None:
    """Which performance is on (``act.index``), or None outside one."""
    act = getattr(state, "act", None)
    if getattr(state, "phase", None) != "performance" or act is None:
        return None
    return f"{state.act_number}.{len(act.performances)}"


def unlanded_presses(entries: Sequence[Any], state: Any) -> list[Press]:
    """Raw presses routed to the game during the current performance that the
    performance does not hold (matched by device, device time and button)."""
    tag = performance_tag(state)
    perf = getattr(state, "performance", None)
    if tag is None or perf is None:
        return []
    have = {(rp.press.device, rp.press.device_us, rp.press.button) for rp in perf.presses}
    out: list[Press] = []
    for entry in entries:
        p = entry.payload
        if entry.kind != "hw" or p.get("kind") != "tadaa-press" or p.get("perf") != tag:
            continue
        if p.get("routed") != "game" or not p.get("player"):
            continue
        key = (p.get("device"), p.get("device_us"), p.get("button"))
        if key in have:
            continue
        have.add(key)
        out.append(
            Press(
                player=p["player"],
                host_ns=int(p["host_ns"]),
                uncertainty_ns=int(p["uncertainty_ns"]),
                source="button-box",
                device=p.get("device"),
                device_us=p.get("device_us"),
                button=p.get("button"),
            )
        )
    return out


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
        self.phones: PhoneServer | None = None
        self._config_stamp: int | None = None

    def compose(self) -> ComposeResult:
        yield DeviceStatusLine(id="tadaa-status")
        yield Shown("", id="tadaa-phones")
        yield PhotoFinish(id="tadaa-photo")

    def on_mount(self) -> None:
        try:
            self.config = self.config or TadaaConfig.load()
        except ValueError as exc:
            self.config = TadaaConfig()
            self.note = str(exc)
        self._config_stamp = self.config.mtime_ns()
        # The link's view of each device as this session's log left it (an app
        # restart: the hub must not take a known boot for a first meeting).
        views = link_views(e.payload for e in self.session.entries if e.kind == "hw")
        config = self.config

        def prepare(hub: TadaaHub) -> None:
            hub.restore(views)
            self._attach_hid(hub)
            self.feed = PressFeed(
                hub,
                config,
                players=lambda: self.session.players,
                deliver=self._deliver,
                record=self._record,
                on_unassigned=self._unassigned,
                known=views,
                context=lambda: performance_tag(self.session.state),
            )

        self.hub = self.acquire_hub(config, prepare)
        self.call_after_refresh(self._redeliver)
        self.set_interval(REFRESH_S, self.refresh_panel)
        self.refresh_panel()

    def acquire_hub(
        self, config: TadaaConfig, prepare: Callable[[TadaaHub], None]
    ) -> TadaaHub | None:
        """The hub this panel reads; the one place that knows where hubs come from.

        The given hub (tests), else the app's, which the app starts on first use and
        stops when it quits. ``prepare`` (restore the log's view, listen) runs
        before a new hub starts, so it meets no device before it knows the log.
        """
        if self.hub is not None:
            prepare(self.hub)
            return self.hub
        if os.environ.get("COMPANION_TADAA", "on").lower() == "off":
            self.note = _("Tadaa buttons are switched off (COMPANION_TADAA=off).")
            return None
        acquire = getattr(self.app, "acquire_tadaa_hub", None)
        if acquire is not None:
            hub: TadaaHub | None = acquire(config.ports, prepare)
            return hub
        self._own_hub = True  # an app without a hub of its own (a bare test app)
        hub = TadaaHub(config.ports)
        prepare(hub)
        return hub.start()

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
        if self.phones is not None:  # the session's screen is gone: so is its server
            threading.Thread(target=self.phones.stop, name="phones-stop", daemon=True).start()
            self.phones = None
            with contextlib.suppress(Exception):  # the board stops showing the join link
                self._record({"kind": "phones-closed"}, self.session.clock.monotonic_ns())

    def _redeliver(self) -> None:
        """Presses whose raw entry reached the log but whose ``press`` action did not
        (the app was killed between the two, a few milliseconds): given to the game
        again, once, if the performance they were made in is still the current one.
        Their numbers are settled in the link's record, so the box will not resend
        them: without this they would be lost."""
        for press in unlanded_presses(self.session.entries, self.session.state):
            self.receive_press(press)

    # ------------------------------------------------------------------ from the hub thread

    def _record(self, payload: dict[str, Any], mono_ns: int) -> object:
        try:
            return self.session.record_hardware(payload, mono_ns)
        except StoreError as exc:  # disk full: the press still counts; its log line is lost
            message = _("A button press could not be saved: {error}").format(error=exc.render(_))
            with contextlib.suppress(RuntimeError):  # the app already quit
                self.app.call_from_thread(self.app.notify, message, severity="error")
            return None

    def _phone_press(self, pp: PhonePress) -> None:
        """A phone's press (the server's worker thread): to the screen, then the log."""
        press = Press(
            pp.seat,
            pp.host_ns,
            pp.uncertainty_ns,
            "phone",
            device=pp.device,
            device_us=pp.device_us,
        )
        self.post_message(self.Pressed(press))
        payload = pp.to_json()
        payload["player"] = pp.seat
        payload["routed"] = "game"
        self._record(payload, pp.arrival_ns)

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
                "Button {button} of {serial} has no seat yet: press B, then each player "
                "presses their button in seat order (or run companion devices simulate, "
                "which gives button N to seat N)."
            ).format(button=dp.button, serial=dp.serial[-8:]),
            timeout=10,
        )

    # ------------------------------------------------------------------ phones

    def _seats(self) -> list[Seat]:
        from companion.hardware.phones import Seat

        return [Seat(p.id, p.name, p.colour) for p in self.session.players]

    def toggle_phones(self) -> None:
        """Switch the phones' server on (on the LAN) or off, and log it."""
        if self.phones is not None:
            server, self.phones = self.phones, None
            threading.Thread(target=server.stop, name="phones-stop", daemon=True).start()
            self._record({"kind": "phones-closed"}, self.session.clock.monotonic_ns())
            self.app.notify(_("Phones are off."))
            self.refresh_panel()
            return
        from companion.hardware.phones import DEFAULT_PORT, PhoneServer

        host = os.environ.get("COMPANION_PHONES_HOST", "0.0.0.0")
        token, placed = phones_memory(self.session.entries)
        try:
            port = int(os.environ.get("COMPANION_PHONES_PORT", DEFAULT_PORT))
            server = PhoneServer(
                self._seats,
                host=host,
                port=port,
                token=token,
                lang=current_language(),
                placed=placed,
            )
            server.on_press(self._phone_press)
            server.start()
        except (OSError, ValueError) as exc:
            self.app.notify(
                _("The phones' server could not start: {error}").format(error=exc),
                severity="error",
            )
            return
        self.phones = server
        self._record(
            {
                "kind": "phones-open",
                "url": server.url,
                "urls": server.urls(),
                "token": server.token,
            },
            self.session.clock.monotonic_ns(),
        )
        self.refresh_panel()

    def open_phones(self) -> None:
        from companion.widgets.phones import PhonesScreen

        self.app.push_screen(
            PhonesScreen(
                lambda: self.phones,
                self.toggle_phones,
                lambda: {p.id: p.name for p in self.session.players},
            )
        )

    def _refresh_phones(self, perf: Performance | None) -> None:
        line = self.query_one("#tadaa-phones", Static)
        if self.phones is None:
            line.update("")
            return
        from companion.widgets.phones import render_phones

        names = {p.id: p.name for p in self.session.players}
        statuses = self.phones.status()
        text = render_phones(statuses, names)
        if not statuses:
            text.append("📱 " + _("Phones on: {url}").format(url=self.phones.url), style="dim")
        line.update(text)
        self.phones.set_act(phone_act(perf))
        self.phones.set_performing(perf is not None and not perf.ended)

    def _reload_config(self) -> None:
        """The settings file changed (a map saved elsewhere, ``companion devices
        simulate`` adding its ports and seats): take it now, no restart needed."""
        if self.config is None:
            return
        stamp = self.config.mtime_ns()
        if stamp == self._config_stamp:
            return
        self._config_stamp = stamp
        try:
            fresh = TadaaConfig.load(self.config.path)
        except ValueError as exc:
            self.note = str(exc)
            return
        self.note = ""
        self.config = fresh
        if self.feed is not None:
            self.feed.config = fresh
        if self.hub is not None:
            self.hub.set_configured(fresh.ports)

    def refresh_panel(self) -> None:
        self._reload_config()
        statuses = self.hub.status() if self.hub is not None else []
        note = self.note
        if self.hid is not None:
            statuses += self.hid.status()
            note = " ".join([note, *self.hid.problems()]).strip()
        self.query_one(DeviceStatusLine).show(statuses, note)
        perf = self.performance()
        self.query_one(PhotoFinish).show(perf, self.session.players, self.speed_tokens())
        self._update_leds(perf)
        self._refresh_phones(perf)
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
            seats = {p.id: (i, p.name) for i, p in enumerate(self.session.players, start=1)}
            for mode, group in zip((1, 2), order, strict=False):
                for pid in group:
                    seat, name = seats.get(pid, (None, ""))
                    where = self.config.button_of(name, seat=seat)
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


def phone_act(perf: Performance | None) -> dict[str, Any]:
    """What the phones show of the act: its Tadaa state and order, nothing else."""
    if perf is None:
        return {"state": "idle"}
    state = "ended" if perf.ended else "armed" if perf.started else "ready"
    verdict = judge(perf, speed_tokens=False)
    order = [
        {
            "seat": j.press.player,
            "place": j.rank,
            "gap_ms": None if j.gap_ns is None else round(j.gap_ns / 1e6, 1),
            "close": bool(j.tied_with),
        }
        for j in verdict.presses
        if j.rank is not None
    ]
    attempt = perf.current_index
    pressed = sorted(
        {r.press.player for r in perf.presses if r.attempt == attempt and not r.voided}
    )
    return {"state": state, "attempt": attempt, "pressed": pressed, "order": order}


def phones_memory(entries: Iterable[Entry]) -> tuple[str | None, list[tuple[str, str]]]:
    """From the session log: the phones' last join token, and the presses placed
    (phone id, press id), so a host app that restarted takes its phones back."""
    token: str | None = None
    placed: list[tuple[str, str]] = []
    for entry in entries:
        if entry.kind != "hw":
            continue
        payload = entry.payload
        if payload.get("kind") == "phones-open" and isinstance(payload.get("token"), str):
            token = payload["token"]
        elif payload.get("kind") == "phone-press":
            phone, press = payload.get("phone"), payload.get("press_id")
            if isinstance(phone, str) and isinstance(press, str):
                placed.append((phone, press))
    return token, placed
