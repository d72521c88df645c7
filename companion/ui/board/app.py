"""The table board: a read-only big display that follows the host's session.

Design decisions:

* It is a separate app and process from the host's. It reads the database through
  a ``Follower`` (read-only connection, ``PRAGMA data_version`` change detection)
  and cannot change the game: it has no writer, no actions, no session object.
* Polling runs on one worker thread (SQLite calls never block the UI, even if the
  database is busy); each changed ``Snapshot`` is rendered on the UI thread.
* A view per game (``companion.ui.board.views``), swapped when the followed session
  changes; the generic view for a game without one.
* Clocks shown on the board (the Meeple Circus countdown) run from the host's
  monotonic clock — the same machine, so the same timeline as the logged
  ``host_ns`` — on a 10 Hz timer, independent of polling.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Container
from textual.css.query import NoMatches
from textual.widgets import Static

from companion.i18n import N_, _, set_game_domain, set_language
from companion.session.follow import Follower, Snapshot
from companion.widgets.board_generic import GenericView
from companion.widgets.board_view import BoardView
from companion.widgets.translate import translate_bindings
from companion.widgets.wrap import install as install_cjk_wrap

POLL_INTERVAL = 0.02
"""Seconds between two ``PRAGMA data_version`` checks (cheap: no table is read)."""
RETRY_AFTER = 1.0
"""Seconds before polling again after an unexpected failure."""
TICK_INTERVAL = 0.1
"""Seconds between two redraws of running clocks."""


def view_class(snapshot: Snapshot) -> type[BoardView]:
    """The followed game's own board view (from its registry record); the generic
    view only for a session whose game this version does not know."""
    if snapshot.info is None:
        return GenericView
    cls: type[BoardView] = snapshot.info.board.load()
    return cls


class WaitingView(BoardView):
    """No session yet: say so, large."""

    def compose(self) -> ComposeResult:
        yield Static(_("Waiting for a session…"), id="waiting", classes="board-waiting")
        yield Static(
            _("Start or resume a game in the host app; it appears here."), classes="board-hint"
        )


class BoardApp(App[None]):
    """The board. Build it with ``make_board``."""

    CSS_PATH = "board.tcss"
    TITLE = "Companion board"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+q", "quit", N_("Quit"), priority=True),
    ]

    def __init__(
        self,
        follower: Follower,
        lang: str = "en",
        *,
        poll_interval: float = POLL_INTERVAL,
        clock: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        install_cjk_wrap()  # Chinese prose breaks between characters (widgets/wrap.py)
        super().__init__()
        self.follower = follower
        self.lang = lang
        self.poll_interval = poll_interval
        self.clock = clock
        self.snapshot: Snapshot | None = None
        self._view_key: tuple[str, str] | None = None
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="board-reader")
        self._closing = False
        self._shown = asyncio.Event()
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        yield Static("", id="board-title")
        yield Container(id="board-body")
        yield Static("", id="board-status")

    async def on_mount(self) -> None:
        self.title = _("Table board")
        self.theme = "textual-dark"
        await self._swap(WaitingView(Snapshot(0), self.lang), None)
        self.run_worker(self._follow(), name="follow", exclusive=True)
        self.set_interval(TICK_INTERVAL, self._tick)

    async def _follow(self) -> None:
        loop = asyncio.get_running_loop()
        while not self._closing:
            try:
                snapshot = await loop.run_in_executor(self._reader, self.follower.poll)
            except Exception as exc:  # a board on a wall must outlive any one bad read
                if self._closing:  # the reader was shut down under us: we are exiting
                    return
                self._show_failure(exc)
                await asyncio.sleep(max(self.poll_interval, RETRY_AFTER))
                continue
            if self._closing:
                return
            if snapshot is not None:
                await self.show(snapshot)
            await asyncio.sleep(self.poll_interval)

    def _show_failure(self, exc: Exception) -> None:
        status = self.query_one("#board-status", Static)
        status.add_class("problem")
        status.update(
            "⚠ "
            + _("Cannot read the session ({error}); retrying.").format(
                error=f"{type(exc).__name__}: {exc}"
            )
        )

    async def show(self, snapshot: Snapshot) -> None:
        """Render a new snapshot (swapping the view when the session changed)."""
        self.snapshot = snapshot
        session = snapshot.session
        key = (session.id, session.game) if session else None
        if key != self._view_key:
            # The followed game's catalog first (its labels never read another's).
            set_game_domain(snapshot.info.domain if snapshot.info is not None else None)
            view: BoardView = (
                view_class(snapshot)(snapshot, self.lang)
                if session
                else WaitingView(snapshot, self.lang)
            )
            await self._swap(view, key)
        else:
            self.query_one("#board-body").query_one(BoardView).show(snapshot)
        self._show_title(snapshot)
        self._show_status(snapshot)
        self._tick()
        self._shown.set()

    async def _swap(self, view: BoardView, key: tuple[str, str] | None) -> None:
        body = self.query_one("#board-body", Container)
        await body.remove_children()
        await body.mount(view)
        self._view_key = key

    def _show_title(self, snapshot: Snapshot) -> None:
        title = self.query_one("#board-title", Static)
        session = snapshot.session
        if session is None or snapshot.info is None:
            title.update(_("Table board"))
            return
        names = " · ".join(p.name for p in session.players)
        guide = snapshot.info.guide
        named = guide.title(session.options) if guide is not None else None  # "Carcassonne"
        title.update(f"{named or snapshot.info.name(self.lang)}  —  {names}")

    def _show_status(self, snapshot: Snapshot) -> None:
        status = self.query_one("#board-status", Static)
        parts: list[str] = []
        session = snapshot.session
        if snapshot.problem is not None:
            template, params = snapshot.problem
            parts.append("⚠ " + _(template).format(**params))
            status.add_class("problem")
        else:
            status.remove_class("problem")
        if session is not None:
            if session.status == "finished":
                parts.append(_("Finished — waiting for the next session"))
            elif session.status == "abandoned":
                parts.append(_("Abandoned — waiting for the next session"))
            else:
                parts.append(_("Following live"))
            parts.append(_("session {id}").format(id=session.id[:8]))
            # The newest entry shown: the table can see the board is current.
            parts.append(_("entry {n}").format(n=snapshot.last_seq))
        status.update("  ·  ".join(parts))

    def _tick(self) -> None:
        now = self.clock()
        for view in self.query(BoardView):
            # A view being swapped in has no children yet, one being swapped out has
            # lost them: the clock skips it this tick rather than crash the board.
            if not view.is_mounted:
                continue
            with contextlib.suppress(NoMatches):
                view.tick(now)

    # ------------------------------------------------------------------ tests

    async def caught_up(self, seq: int, timeout: float = 10.0) -> Snapshot:
        """Wait until the board shows entry ``seq`` (or later) of its session."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            snap = self.snapshot
            if snap is not None and snap.session is not None and snap.last_seq >= seq:
                return snap
            if loop.time() > deadline:
                raise TimeoutError(f"board did not reach seq {seq}: {snap}")
            self._shown.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._shown.wait(), timeout=0.2)

    def on_unmount(self) -> None:
        set_game_domain(None)
        self._closing = True
        self._reader.shutdown(wait=True, cancel_futures=True)
        self.follower.close()


def make_board(
    db_path: str | Path,
    session_id: str | None = None,
    lang: str = "en",
    *,
    poll_interval: float = POLL_INTERVAL,
    clock: Callable[[], int] = time.monotonic_ns,
) -> BoardApp:
    """The board on the database at ``db_path`` (which may not exist yet)."""
    set_language(lang)
    return BoardApp(Follower(db_path, session_id), lang, poll_interval=poll_interval, clock=clock)
