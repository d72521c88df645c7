"""The companion app: one store, one writer thread, the home screen and game screens.

Design decisions:

* ``make_app`` builds the app (the tests reuse it), Posting-style: every outside
  dependency (database path, language, clock, randomness, audio) is passed in.
* Every write goes through ``writer``: a single thread, so actions commit in the
  order the host made them and the UI thread never waits for an fsync. A screen
  shows an action's effect only when the writer reports the commit.
* ``settle()`` lets tests wait until everything submitted has been committed and
  rendered.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding, BindingType
from textual.screen import Screen

from companion.games import find_game
from companion.i18n import N_, _, set_language
from companion.session.clock import Clock, SystemClock
from companion.session.owner import DatabaseInUse
from companion.session.store import Store, StoreError
from companion.widgets.translate import translate_bindings

if TYPE_CHECKING:
    from companion.rules.base import Player
    from companion.session.live import LiveSession

T = TypeVar("T")


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
    ) -> None:
        super().__init__()
        self.in_use = in_use
        """Set when another window owns the database: this one is read-only."""
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
        self._typed: list[tuple[Any, Any]] = []
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
                if not self._inflight and self._typed:
                    self.call_later(self._run_typed)

            loop.call_soon_threadsafe(on_ui)

        self.writer.submit(job)

    @property
    def writes_pending(self) -> bool:
        """True while a submitted write has not been committed and rendered yet."""
        return self._inflight > 0

    async def run_action(
        self, action: Any, default_namespace: Any = None, namespaces: Any = None
    ) -> bool:
        """Keys bound on a game screen wait for the commits typed before them, and a
        key the game's guide does not allow now says why instead of doing nothing.

        A game screen judges a key (``check_action``) against its current state. A key
        typed while the previous action is still being written would be judged
        against the old state and could be dropped or misapplied; instead it is
        queued and run, in order, once the commits before it have landed.
        """
        from companion.widgets.game_screen import GameScreen

        if default_namespace is self.screen and isinstance(default_namespace, GameScreen):
            if self._inflight:
                self._typed.append((action, default_namespace))
                return True
            if isinstance(action, str) and default_namespace.refuse(action):
                return True
        return await super().run_action(action, default_namespace, namespaces)

    async def on_event(self, event: events.Event) -> None:
        """Note on each arriving key the screen it was typed at (see ``_on_key``)."""
        if isinstance(event, events.Key) and not event.is_forwarded:
            event._typed_at = self.screen  # type: ignore[attr-defined]
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        """A key nothing took, typed at a game screen that a dialog now covers, is meant
        for that dialog: typed in a burst ("s 5 enter"), it had been handed to the game
        screen's focused widget before the key before it opened the dialog. It is posted
        again, behind the keys already waiting, and so reaches the dialog in order.

        Any other key goes on to Textual's own handler (Textual runs the ``_on_key`` of
        every class in the MRO; calling it here as well ran a key's binding twice)."""
        from companion.widgets.game_screen import GameScreen

        typed_at = getattr(event, "_typed_at", None)
        if isinstance(typed_at, GameScreen) and typed_at is not self.screen:
            event.prevent_default()
            self.post_message(events.Key(event.key, event.character))

    async def _run_typed(self) -> None:
        from companion.widgets.game_screen import GameScreen

        while self._typed and not self._inflight:
            action, screen = self._typed.pop(0)
            if screen is not self.screen:
                self._typed.clear()  # a dialog opened: later keys were meant for it
                return
            if isinstance(screen, GameScreen) and isinstance(action, str) and screen.refuse(action):
                continue
            await super().run_action(action, screen)

    async def settle(self, timeout: float = 10.0) -> None:
        """Wait until every submitted write is committed and its effect rendered."""
        from textual._wait import wait_for_idle

        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (self._inflight or self._typed) and loop.time() < deadline:
            await asyncio.sleep(0.005)
        await wait_for_idle(0)

    # ------------------------------------------------------------------ sessions

    def run(self, *args: Any, **kwargs: Any) -> str | None:
        """Run the app (the process's one app: ``companion`` and the benchmarks).

        Everything imported and built so far (Textual, the games' records, the
        catalogs, the store) lives as long as the process: ``gc.freeze()`` moves it
        out of the collector's sight, so the first full collection, which fell in the
        middle of composing the home screen (~25 ms on the 2-core machine), and every
        later one only walk what was made since. Tests (``run_test``) are unaffected.
        """
        gc.freeze()
        return super().run(*args, **kwargs)

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
        # After the first frame: the check reads every page of the file, and the home
        # screen should not share the disk and the second core with it while it paints.
        self.call_after_refresh(self._check_in_background)

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
            ).format(problem=problems[0])
            with contextlib.suppress(RuntimeError):  # the app already quit
                self.call_from_thread(
                    self.notify, message, severity="error", title=_("Damaged"), timeout=30
                )

        threading.Thread(target=job, name="quick-check", daemon=True).start()

    def _check_writable(self) -> None:
        if self.in_use is not None:
            raise StoreError(self.in_use.render(_))

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

    def acquire_tadaa_hub(self, ports: Sequence[str]) -> Any:
        """The app's Tadaa hub, started the first time a screen needs the buttons.

        It belongs to the app, not to a widget: devices stay connected and their clocks
        in sync from one performance, act or game to the next, and the hub is stopped
        once, when the app quits. Starting only spawns its thread (no port is opened
        on the UI thread)."""
        if self.tadaa_hub is None:
            from companion.hardware.link import TadaaHub  # deferred: pyserial

            self.tadaa_hub = TadaaHub(ports).start()
            self._own_tadaa_hub = True
        return self.tadaa_hub

    def on_unmount(self) -> None:
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
    store = Store.open(db_path, readonly=in_use is not None)
    return CompanionApp(store, lang, clock or SystemClock(), rng, audio, in_use)
