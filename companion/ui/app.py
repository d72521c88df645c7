"""The companion app: one store, one writer thread, the home screen and game screens.

Design decisions:

* ``make_app`` builds the app (the tests reuse it), Posting-style: every outside
  dependency (database path, language, clock, randomness, audio) is passed in.
* Every write goes through ``writer``: a single thread, so actions commit in the
  order the host made them and the UI thread never waits for an fsync. A screen
  shows an action's effect only when the writer reports the commit.
* **A burst of keys lands as if typed slowly** (``tmux send-keys`` in one call). A key
  is delivered only once the key before it has landed: its route through the widgets
  is done, the dialogs it opened or closed are mounted or gone, and the writes it
  caused are committed and shown. Keys typed meanwhile wait at the app, in order,
  and are then delivered to whatever screen is on top, judged against the state after
  those commits. Routed at once, as Textual does, "s 5 enter s 7 enter" on the score
  pad sent "s 7 enter" into the closing dialog (issue 13, item 3).
* **A burst paints once.** What only shows (panels, the log, the footer) puts its draw
  off while keys wait (``after_typed_keys``) and is drawn when the burst's last key has
  landed; what a key reads (the state, focus, a table's cursor, a dialog) is there for
  every key as before (issue 26: ~130 → ~14 ms a key at Meeple Circus).
* ``settle()`` lets tests wait until everything submitted has been committed and
  rendered.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import _time as textual_time
from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.dom import DOMNode
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import ModalScreen, Screen
from textual.widget import Widget

from companion.games import find_game
from companion.i18n import N_, _, set_game_domain, set_language
from companion.session.clock import Clock, SystemClock
from companion.session.owner import DatabaseInUse
from companion.session.store import DiskFull, Store, StoreError
from companion.widgets.translate import translate_bindings
from companion.widgets.wrap import install as install_cjk_wrap

if TYPE_CHECKING:
    from companion.rules.base import Player
    from companion.session.live import LiveSession

T = TypeVar("T")

KEY_LANDING_S = 2.0
"""The longest a typed key waits for the screen's work before it (never for a write)."""
READ_AHEAD_S = 0.5
"""After start-up, when History's style sheet is read (``_read_style_sheets_ahead``):
once Home is painted and the host reads it, not in the frames of the start."""
QUIET_CHECKS = 3
"""Event-loop turns in a row with nothing queued anywhere before a key counts as landed."""


class TypedKeyRouted(Message):
    """Posted behind a typed key to the widget the key went to; it bubbles the same way,
    so when it reaches the app the key's own route (every handler and binding) is done."""

    def __init__(self, serial: int) -> None:
        super().__init__()
        self.serial = serial


class CompanionApp(App[str | None]):
    """The host's app. Build it with ``make_app``."""

    CSS_PATH = "app.tcss"
    TITLE = "Companion"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
        # Focus moves as soon as Tab arrives, in key order. Textual's own Tab binding
        # lives on the screen and runs only after the focused widget's queue hands the
        # key back, so in a burst ("1 Tab 3") the "3" was forwarded to the old field
        # before focus moved: typed keys landed in the wrong field (issue 13, item 3).
        Binding("tab", "focus_next", N_("Next field"), show=False, priority=True),
        Binding("shift+tab", "focus_previous", N_("Previous field"), show=False, priority=True),
        # Enter in a text field submits it in key order, for the same reason: in a burst
        # ("Ann" Enter "Bo" Enter) the field's own Enter binding ran after the next
        # name's letters were in, and the names ran together.
        Binding("enter", "submit_field", N_("Submit"), show=False, priority=True),
        # Declared here so that the footer's "palette" is translated (Textual adds an
        # English one otherwise).
        Binding(
            "ctrl+p",
            "command_palette",
            N_("Commands"),
            show=False,
            priority=True,
            tooltip=N_("Open the command palette"),
        ),
    ]

    def __init__(
        self,
        store: Store,
        lang: str,
        clock: Clock,
        rng: random.Random | None,
        audio: Any = None,
        in_use: DatabaseInUse | None = None,
        disk_full: DiskFull | None = None,
    ) -> None:
        install_cjk_wrap()  # Chinese prose breaks between characters (widgets/wrap.py)
        super().__init__()
        self.in_use = in_use
        """Set when another window owns the database: this one is read-only."""
        self.disk_full = disk_full
        """Set when the disk had no room at start: the history is read-only."""
        self.tadaa_hub: Any = None
        """The Tadaa button hub, once a screen needed it (tests may set their own)."""
        self._own_tadaa_hub = False
        self.store = store
        self.lang = lang
        self.clock = clock
        self.rng = rng
        self._audio = audio
        self.writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="session-writer")
        self._inflight = 0
        self._held: deque[events.Key] = deque()
        """Typed keys waiting for the key before them to land (see ``on_event``)."""
        self._landing: int | None = None
        """The serial of the key delivered last, until it has landed."""
        self._routed = 0
        """The serial of the last key whose route through the widgets is done."""
        self._serial = 0
        self._release: events.Key | None = None
        self._route: list[DOMNode] = []
        """Where the last key went, up to the app (its marker bubbles along it)."""
        self._gate: asyncio.Task[None] | None = None
        self._typed_arrival: int | None = None
        """When the key delivered last arrived (``_arrival_ns``), kept through the hold."""
        self._after_keys: dict[Callable[[], object], MessagePump] = {}
        """Draws put off until the keys typed ahead have landed (``after_typed_keys``)."""
        translate_bindings(self)

    # ------------------------------------------------------------------ services

    async def action_submit_field(self) -> None:
        """Submit the focused text field in key order; any other widget gets Enter as usual.

        The submit is queued to the field itself, behind the letters already forwarded
        to it and ahead of the ones typed after Enter."""
        from textual.actions import SkipAction
        from textual.widgets import Input

        focused = self.focused
        if not isinstance(focused, Input):
            raise SkipAction()
        field = focused

        async def submit() -> None:
            await field.action_submit()
            if getattr(field, "clear_on_submit", False):
                field.value = ""  # before the next letters, which are queued behind us

        field.call_later(submit)

    # ------------------------------------------------------------------ Textual, translated

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: Any = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None:
        """On a game screen every notice goes to its message line, not a toast: a toast
        over the log panel's border drops double-width characters (Textual #6357) and
        vanishes before a busy host reads it. Other screens keep Textual's toasts."""
        from companion.widgets.game_screen import GameScreen

        screen = self.screen if self._driver is not None else None
        if isinstance(screen, GameScreen) and screen.is_mounted:
            text = f"{title}: {message}" if title else message
            screen.say(text, error=severity == "error")
            return
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)

    KEY_NAMES: ClassVar[dict[str, str]] = {
        "space": N_("space"),
        "enter": N_("enter"),
        "escape": N_("esc"),
        "delete": N_("del"),
        "tab": N_("tab"),
    }

    def get_key_display(self, binding: Binding) -> str:
        """Key names in the footer and help in the chosen language (Textual says "space")."""
        shown = super().get_key_display(binding)
        return _(self.KEY_NAMES[shown]) if shown in self.KEY_NAMES else shown

    def get_system_commands(self, screen: Screen[Any]) -> Any:
        """The command palette in the chosen language; a screenshot goes to a folder
        that exists (Textual's default ~/Downloads may not) and says where."""
        yield SystemCommand(_("Theme"), _("Change the colours"), self.action_change_theme)
        yield SystemCommand(_("Quit"), _("Quit (every action is already saved)"), self.action_quit)
        yield SystemCommand(
            _("Keys"), _("Show the keys of this screen"), self.action_show_help_panel
        )
        yield SystemCommand(
            _("Screenshot"),
            _("Save an SVG picture of the screen"),
            lambda: self.set_timer(0.1, self.save_screenshot_somewhere),
        )

    def save_screenshot_somewhere(self) -> Path | None:
        from companion.session.locations import screenshot_dir

        try:
            folder = screenshot_dir()
            path = Path(self.save_screenshot(path=str(folder)))
        except OSError as exc:
            self.notify(
                _("Could not save the screenshot: {error}").format(error=exc), severity="error"
            )
            return None
        self.notify(_("Screenshot saved: {path}").format(path=path), timeout=8)
        return path

    @property
    def _background_screens(self) -> list[Screen[Any]]:
        """The screens drawn beneath the top one: none when the top one is opaque.

        Textual counts the screen right under the top one as visible whatever the top
        one's background (it checks only the screens below), so each refresh there was
        passed up to the top screen: Home's header clock, ticking under a game, had the
        whole game screen drawn again once a second (tests/ui/test_covered_screens.py).
        A covered screen catches up when it is shown again (Textual lays it out and
        repaints it on resume); a dialog, which lets its screen show through, still has
        it drawn beneath."""
        stack = self._screen_stack
        if stack and stack[-1].styles.background.a == 1:
            return []
        return list(super()._background_screens)

    @property
    def audio(self) -> Any:
        """The audio backend, opened on first use on a thread (a probe takes up to 1 s).

        Until the probe ends it reads as silent ("checking…"); the screen then redraws.
        """
        if self._audio is None:
            from companion.audio.backend import BackgroundBackend  # deferred: ALSA probe

            try:
                loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
            except RuntimeError:
                loop = None

            def ready() -> None:  # on the probe thread
                if loop is not None:
                    with contextlib.suppress(RuntimeError):  # the app has closed
                        loop.call_soon_threadsafe(self._audio_ready)

            self._audio = BackgroundBackend(on_ready=ready)
        return self._audio

    def _audio_ready(self) -> None:
        if not self.is_running or not self.screen_stack:
            return
        refresh = getattr(self.screen, "refresh_view", None)
        if callable(refresh):
            refresh()

    def write(self, fn: Callable[[], T], done: Callable[[Future[T]], None]) -> None:
        """Run ``fn`` on the writer thread; ``done(future)`` runs later on the UI thread."""
        self._inflight += 1
        loop = asyncio.get_running_loop()

        def job() -> None:
            future: Future[T] = Future()
            try:
                future.set_result(fn())
            except BaseException as exc:  # handed to ``done``, which reports it
                future.set_exception(exc)

            def on_ui() -> None:
                self._inflight -= 1
                done(future)

            loop.call_soon_threadsafe(on_ui)

        self.writer.submit(job)

    @property
    def writes_pending(self) -> bool:
        """True while a submitted write has not been committed and rendered yet."""
        return self._inflight > 0

    async def run_action(
        self, action: Any, default_namespace: Any = None, namespaces: Any = None
    ) -> bool:
        """A key the game's guide does not allow now says why instead of doing nothing.

        A game screen judges a key (``check_action``) against its current state; typed
        keys reach it only once the commits before them have landed (``on_event``).
        Any screen with a ``refuse(action) -> bool`` (the game screens, Home) is asked
        first: a key it leaves out of the footer still says why it does nothing.
        """
        refuse = getattr(default_namespace, "refuse", None)
        if (
            default_namespace is self.screen
            and isinstance(action, str)
            and callable(refuse)
            and refuse(action)
        ):
            return True
        return await super().run_action(action, default_namespace, namespaces)

    # ------------------------------------------------------------------ typed keys

    @property
    def keys_waiting(self) -> int:
        """Typed keys not delivered yet (they wait for the key before them to land)."""
        return len(self._held)

    async def on_event(self, event: events.Event) -> None:
        """Typed keys are delivered one at a time, each once the one before has landed.

        Textual routes a key the moment it arrives: it is handed to the widget focused
        *then*. In a burst the keys after one that opens or closes a dialog, or submits
        a write, were handed to the old screen's widget, typed into the closing dialog
        or judged against the state before the commit, and so were lost or misapplied.
        Here a key that arrives while an earlier one has not landed (or a write is in
        flight) is held; ``_run_gate`` delivers the held keys in order. The same keys
        typed slowly do the same thing: a burst is slow typing. No key is dropped: one
        that has waited ``KEY_LANDING_S`` for a busy screen is delivered anyway.
        """
        if isinstance(event, events.Key) and not event.is_forwarded:
            if not hasattr(event, "_arrival_ns"):
                event._arrival_ns = self._arrival_ns(event)  # type: ignore[attr-defined]
            released = event is self._release
            if not released and (self._landing is not None or self._held or self._inflight):
                self._held.append(event)
                self._start_gate()
                return
            self._release = None
            self._serial += 1
            self._landing = self._serial
            self._typed_arrival = event._arrival_ns  # type: ignore[attr-defined]
            event._typed_at = self.screen  # type: ignore[attr-defined]
            await super().on_event(event)
            # Behind the key, on its route: handlers first, then the bindings at the app.
            target: MessagePump = self.focused or self.screen
            self._route = list(target.ancestors_with_self) if isinstance(target, DOMNode) else []
            if not target.post_message(TypedKeyRouted(self._serial)):
                self._routed = self._serial
            self._start_gate()
            return
        await super().on_event(event)

    def _arrival_ns(self, event: events.Key) -> int:
        """When ``event`` arrived, on the session's clock. On the system clock that
        is the key's own time (the driver's thread stamps it as its bytes are parsed:
        time.monotonic, the session clock's base); on another clock (a test's), the
        moment the app first saw it."""
        now = self.clock.monotonic_ns()
        if isinstance(self.clock, SystemClock) and textual_time.time is time.monotonic:
            now -= max(0, round((textual_time.get_time() - event.time) * 1e9))
        return now

    def typed_key_arrival_ns(self) -> int | None:
        """When the key being delivered now arrived (session clock), or None when no
        typed key is on its way. A key held behind a slow one keeps its arrival."""
        if self._landing is None:
            return None
        return self._typed_arrival

    def after_typed_keys(self, node: MessagePump, draw: Callable[[], object]) -> bool:
        """Put ``draw`` off until the keys typed ahead have landed, if any wait: True then.

        For what only shows (a panel, the log, the footer), never for what a key reads:
        each key of a burst still lands as if typed slowly, but the frames between its
        keys are not painted, and a panel changed by ten keys is drawn once, with the
        last state, before the burst counts as landed (issue 26: a Meeple Circus burst
        drew 2–3 frames a key). The same ``draw`` asked twice runs once, as a callback
        of ``node`` (in its own context, as Textual runs a widget's code)."""
        if not self._held:
            return False
        self._after_keys[draw] = node
        return True

    def on_typed_key_routed(self, message: TypedKeyRouted) -> None:
        message.stop()
        self._routed = max(self._routed, message.serial)

    async def _on_key(self, event: events.Key) -> None:
        """A key nothing took, typed at a game screen that a dialog now covers (opened
        by a timer or a button while the key was on its way), is meant for that dialog:
        it is delivered again once the dialog is up, first, ahead of the keys typed
        after it. Nothing had taken it, so it does not run twice.

        Any other key goes on to Textual's own handler (Textual runs the ``_on_key`` of
        every class in the MRO; calling it here as well ran a key's binding twice)."""
        from companion.widgets.game_screen import GameScreen

        typed_at = getattr(event, "_typed_at", None)
        if isinstance(typed_at, GameScreen) and typed_at is not self.screen:
            event.prevent_default()
            again = events.Key(event.key, event.character)
            again._arrival_ns = getattr(event, "_arrival_ns", None)  # type: ignore[attr-defined]
            self._held.appendleft(again)
            self._start_gate()

    def _start_gate(self) -> None:
        if self._gate is None or self._gate.done():
            self._gate = asyncio.create_task(self._run_gate(), name="typed-keys")

    async def _run_gate(self) -> None:
        """Deliver the held keys, each once the key before it has landed."""
        while True:
            await self._until_landed()
            if not self._held and self._after_keys and self.is_running:
                # The burst's last key has landed: draw what its keys put off, and
                # count the burst as landed once that is drawn too.
                draws = list(self._after_keys.items())
                self._after_keys.clear()
                for draw, node in draws:
                    node.call_later(draw)  # dropped if ``node`` has closed meanwhile
                continue
            self._landing = None
            if not self._held or not self.is_running:
                self._after_keys.clear()
                return
            held = self._held.popleft()
            self._release = events.Key(held.key, held.character)
            # A held key keeps the time it arrived, whenever it is delivered.
            self._release._arrival_ns = held._arrival_ns  # type: ignore[attr-defined]
            self._landing = -1  # until ``on_event`` delivers it
            if not self.post_message(self._release):
                self._landing = None  # the app is closing
                return

    async def _until_landed(self) -> None:
        """Until the key delivered last has landed: its route is done, every write is
        committed and shown, and no widget of any open screen has anything queued
        (a dialog it opened is mounted, one it closed is gone) for a few turns."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + KEY_LANDING_S
        quiet = 0
        while quiet < QUIET_CHECKS:
            await asyncio.sleep(0)
            if not self.is_running:
                return
            if self._inflight:  # no limit: a write always ends, committed or refused
                quiet = 0
                await asyncio.sleep(0.001)
                deadline = loop.time() + KEY_LANDING_S  # then its effect gets the full wait
                continue
            landing = self._landing
            routed = landing is None or (
                landing > 0 and (self._routed >= landing or self._route_closed())
            )
            if loop.time() < deadline and (not routed or self._busy()):
                quiet = 0
                await asyncio.sleep(0.001)
                continue
            quiet += 1

    def _route_closed(self) -> bool:
        """True if the marker behind the last key can no longer reach the app: a widget
        on its way was removed (the key closed its dialog), so the key's route is over."""
        return any(
            pump._closing or pump._closed or (isinstance(pump, Widget) and not pump.is_attached)
            for pump in self._route
        )

    def _message_pumps(self) -> Iterator[MessagePump]:
        yield self
        for screen in self.screen_stack:
            yield screen
            yield from screen.walk_children()

    def _busy(self) -> bool:
        """True while any open screen or widget has messages or callbacks waiting, or is
        still being mounted (Textual has no public "idle" for this; see ``settle``)."""
        for pump in self._message_pumps():
            if (
                not pump._is_mounted
                or not pump._message_queue.empty()
                or pump._pending_message is not None
                or pump._next_callbacks
            ):
                return True
            if isinstance(pump, Screen) and pump._callbacks:
                return True
        return False

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until every typed key has landed and every submitted write is committed
        and its effect rendered."""
        from textual._wait import wait_for_idle

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (self._inflight or self._held or self._landing is not None) and (
            loop.time() < deadline
        ):
            await asyncio.sleep(0.005)
        await wait_for_idle(0)
        # Idle means "used little CPU for a moment", which a process starved by a loaded
        # machine also looks like: a screen pushed just before could still be mounting
        # (its first draw not yet submitted: Shadow Cats' roster error missing), a
        # commit's draw could still be queued (a new Cat Box screen without its
        # banner), or the footer's rebuild for the new bindings, and
        # a screen read then showed a blank footer line (kill-resume tests). So wait,
        # a little, for a moment when no widget has a message or callback waiting and
        # every footer is built. Bounded: a running clock keeps posting, and a footer
        # with no bindings to meet stays blank (waiting for either without a bound kept
        # a test in the 10 s timeout at every step, f92c24e).
        from companion.widgets.footer import KeyFooter

        def drawn() -> bool:
            if not self.screen_stack:  # closing: nothing left to draw
                return True
            return not self._busy() and all(
                footer.drawn() for footer in self.screen.query(KeyFooter)
            )

        grace = loop.time() + 2.0
        while loop.time() < deadline:
            if self._inflight or self._held or self._landing is not None:
                # A screen mounted since wrote (its first draw), or a key arrived: a
                # write always ends, so it is waited for as above, not within the grace.
                await asyncio.sleep(0.005)
                continue
            if loop.time() >= grace or drawn():
                return
            await asyncio.sleep(0.01)
            await wait_for_idle(0)

    # ------------------------------------------------------------------ sessions

    def run(self, *args: Any, **kwargs: Any) -> str | None:
        """Run the app (the process's one app: ``companion`` and the benchmarks).

        Everything imported and built so far (Textual, the games' records, the
        catalogs, the store) lives as long as the process: ``gc.freeze()`` moves it
        out of the collector's sight, so the first full collection, which fell in the
        middle of composing the home screen (~25 ms on the 2-core machine), and every
        later one only walk what was made since. The collector then rests until the
        first frame is painted (``on_mount``: after the next refresh): composing the
        first screen makes young objects in their thousands and ~50 young collections
        that find next to nothing to free (8–17 ms of the start). Tests (``run_test``)
        are unaffected.
        """
        gc.freeze()
        gc.disable()
        try:
            return super().run(*args, **kwargs)
        finally:
            gc.enable()

    def get_default_screen(self) -> Screen[Any]:
        """The first screen is the bottom of the stack itself: the home screen (or, when
        another window owns the database, the read-only offer). No blank default screen
        is composed and painted first."""
        if self.in_use is not None:
            from companion.ui.in_use import InUseScreen

            return InUseScreen(self.in_use)
        from companion.ui.home import HomeScreen

        return HomeScreen()

    def on_mount(self) -> None:
        self.title = _("Tabletop Companion")
        if self.disk_full is not None:
            self.sub_title = _("read-only")
            self.notify(
                self.disk_full.render(_), severity="error", title=_("Disk full"), timeout=60
            )
        # After the first frame: the check reads every page of the file, and the home
        # screen should not share the disk and the second core with it while it paints.
        self.call_after_refresh(self._check_in_background)
        self.call_after_refresh(gc.enable)  # paused by run() until the first frame
        self.set_timer(READ_AHEAD_S, self._read_style_sheets_ahead)

    def _read_style_sheets_ahead(self) -> None:
        """History's style sheet, read once Home is up, while the host reads it.

        Textual reads a screen's ``CSS_PATH`` when the screen is first pushed, and
        reading one re-parses every style sheet of the app and restyles every node
        on screen (18 ms at Home on the 2-core machine): that was the first ``h`` of
        an evening, paid here instead. The games' sheets are left to their first
        screen (which imports the game's screen module anyway).

        Only at Home (or a dialog over it): restyling every node under an open game
        screen had its table measured anew mid-draw (the 80x24 score pad snapshots, under
        load). Elsewhere it waits, and tries again after another ``READ_AHEAD_S``."""
        from companion.ui.history import HISTORY_CSS
        from companion.ui.home import HomeScreen

        if not self.is_running or self.stylesheet.has_source(str(HISTORY_CSS), ""):
            return
        # Home, or a dialog over it (the offer to resume at start): no game, no table.
        if not all(isinstance(s, HomeScreen | ModalScreen) for s in self.screen_stack):
            self.set_timer(READ_AHEAD_S, self._read_style_sheets_ahead)
            return
        self.stylesheet.read(HISTORY_CSS)
        self.stylesheet.reparse()
        self.stylesheet.update(self)

    def _check_in_background(self) -> None:
        """``PRAGMA integrity_check`` on its own thread: it reads every page of the file.

        The full check, not ``quick_check``: on a 10,000-session history it costs
        43 ms of CPU instead of 31 (docs/PERFORMANCE.md), and it also finds rows out
        of key order, which hide entries from a session without any other sign.
        """
        if self.store.path is None:
            return

        def job() -> None:
            problems = self.store.check(full=True)
            if not problems:
                return
            message = _(
                "The database is damaged ({problem}). Run 'companion check' to see which "
                "sessions; 'companion restore FILE' puts a backup back."
            ).format(problem=_(problems[0]))
            with contextlib.suppress(RuntimeError):  # the app already quit
                self.call_from_thread(
                    self.notify, message, severity="error", title=_("Damaged"), timeout=30
                )

        threading.Thread(target=job, name="quick-check", daemon=True).start()

    def tell_damage(self) -> None:
        """Name, once each, the sessions a listing found damaged (and an unreadable page).

        The listing left them out and goes on with the rest; the host is told which
        ones, in a sentence, so nothing vanishes from the history without a word.
        """
        told: set[str] = self.__dict__.setdefault("_damage_told", set())
        for sid, exc in list(self.store.damaged.items()):
            if sid in told:
                continue
            told.add(sid)
            self.notify(exc.render(_), severity="error", title=_("Damaged"), timeout=30)
        problem = self.store.unreadable
        if problem is not None and "" not in told:
            told.add("")
            self.notify(
                _(
                    "Part of the history could not be read ({problem}); what could be "
                    "read is shown. Run 'companion check'; 'companion restore FILE' puts "
                    "a backup back."
                ).format(problem=_(problem)),
                severity="error",
                title=_("Damaged"),
                timeout=30,
            )

    def _check_writable(self) -> None:
        if self.in_use is not None:
            raise StoreError(self.in_use.render(_))
        if self.disk_full is not None:
            raise self.disk_full

    def start_session(
        self,
        game_id: str,
        players: Sequence[Player] | Sequence[str],
        options: dict[str, Any] | None = None,
    ) -> LiveSession:
        """Start a session (setup checked before anything is written) and show it."""
        from companion.rules.base import seat_players
        from companion.session.live import LiveSession  # deferred: not needed for home

        self._check_writable()
        seated = (
            seat_players(list(players))  # type: ignore[arg-type]
            if players and isinstance(players[0], str)
            else tuple(players)
        )
        live = LiveSession.start(
            self.store,
            find_game(game_id).id,
            seated,  # type: ignore[arg-type]
            options or {},
            clock=self.clock,
            rng=self.rng,
        )
        self.open_session(live)
        return live

    def resume_session(self, session_id: str) -> LiveSession:
        from companion.session.live import LiveSession

        self._check_writable()
        live = LiveSession.resume(self.store, session_id, clock=self.clock, rng=self.rng)
        self.open_session(live)
        return live

    def open_session(self, live: LiveSession) -> None:
        self.push_screen(live.info.screen.load()(live))

    async def action_quit(self) -> None:
        # Every accepted action is already committed; wait for the ones in flight.
        self.writer.shutdown(wait=True)
        self.exit()

    def acquire_tadaa_hub(
        self, ports: Sequence[str], prepare: Callable[[Any], None] | None = None
    ) -> Any:
        """The app's Tadaa hub, started the first time a screen needs the buttons.

        It belongs to the app, not to a widget: devices stay connected and their clocks
        in sync from one performance, act or game to the next, and the hub is stopped
        once, when the app quits. Starting only spawns its thread (no port is opened
        on the UI thread). ``prepare(hub)`` runs first (before a new hub starts: the
        session's log view is restored before any device is met)."""
        if self.tadaa_hub is None:
            from companion.hardware.link import TadaaHub  # deferred: pyserial

            hub = TadaaHub(ports)
            if prepare is not None:
                prepare(hub)
            self.tadaa_hub = hub.start()
            self._own_tadaa_hub = True
        elif prepare is not None:
            prepare(self.tadaa_hub)
        return self.tadaa_hub

    def on_unmount(self) -> None:
        set_game_domain(None)  # the next app in this process starts with no game's words
        if self._gate is not None:
            self._gate.cancel()
        if self._own_tadaa_hub and self.tadaa_hub is not None:
            self.tadaa_hub.stop()
        self.writer.shutdown(wait=True)
        self.store.close()


def make_app(
    db_path: str | Path,
    lang: str = "en",
    clock: Clock | None = None,
    rng: random.Random | None = None,
    audio: Any = None,
    in_use: DatabaseInUse | None = None,
) -> CompanionApp:
    """Build the app on the database at ``db_path`` (``StoreError`` if unusable).

    With ``in_use`` (another window owns the database) the store is opened
    read-only and the app offers the history and the board only.
    """
    set_language(lang)
    try:
        store = Store.open(db_path, readonly=in_use is not None)
    except DiskFull as full:
        # No room to write: the history is still there to read and export.
        store = Store.open(db_path, readonly=True)
        return CompanionApp(store, lang, clock or SystemClock(), rng, audio, in_use, full)
    return CompanionApp(store, lang, clock or SystemClock(), rng, audio, in_use)
