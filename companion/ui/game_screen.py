"""The base of every game screen: the session, the log panel, undo/redo, the banner.

Subclasses implement ``compose_game`` (their widgets) and ``refresh_view`` (render
everything from ``self.session.state``). They change the game only through
``submit``: the action is committed on the writer thread first, and the screen
re-renders when the commit is reported. A ``RuleError`` is shown as a message and
changes nothing.
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from companion.i18n import N_, _
from companion.rules.base import Action, RuleError
from companion.session.live import Change, LiveSession, StaleSessionError
from companion.session.store import StoreError
from companion.ui.translate import translate_bindings
from companion.ui.widgets.log_panel import LogPanel

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp


class GameScreen(Screen[None]):
    """One running session. ``self.session`` is its ``LiveSession``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", N_("Undo")),
        Binding("ctrl+y", "redo", N_("Redo")),
        Binding("escape", "leave", N_("Home")),
    ]

    def __init__(self, session: LiveSession) -> None:
        super().__init__()
        self.session = session
        translate_bindings(self)

    @property
    def companion(self) -> CompanionApp:
        from companion.ui.app import CompanionApp

        app = self.app
        assert isinstance(app, CompanionApp)
        return app

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header(show_clock=True)
        with Horizontal(id="game-layout"):
            with Vertical(id="game-body"):
                yield Static("", id="outcome-banner", classes="banner hidden")
                yield from self.compose_game()
            yield LogPanel(self.session, id="log")
        yield Footer()

    def compose_game(self) -> ComposeResult:
        """The game's own widgets (override)."""
        yield from ()

    def refresh_view(self) -> None:
        """Render everything from ``self.session.state`` (override)."""

    def on_mount(self) -> None:
        self.sub_title = f"{self.session.info.name(self.companion.lang)} · {self.session.id[:8]}"
        self._refresh_all()

    # ------------------------------------------------------------------ writing

    def submit(self, action: Action | dict[str, Any]) -> None:
        """Commit ``action`` (on the writer thread), then re-render."""
        self.companion.write(lambda: self.session.act(action), self._committed)

    def action_undo(self) -> None:
        self.companion.write(self.session.undo, self._committed)

    def action_redo(self) -> None:
        self.companion.write(self.session.redo, self._committed)

    def action_leave(self) -> None:
        """Back to the home screen; the session stays resumable."""
        self.dismiss()

    def _committed(self, future: Future[Change]) -> None:
        error = future.exception()
        if isinstance(error, RuleError):
            self.notify(error.render(_), severity="error", title=_("Not allowed"))
            if isinstance(error, StaleSessionError):  # reloaded: show what is stored
                self._refresh_all()
            return
        if error is not None:
            # The store refused (disk full, database locked…): nothing was applied.
            reason = error.render(_) if isinstance(error, StoreError) else str(error)
            self.notify(
                _("Could not save; nothing was changed: {error}").format(error=reason),
                severity="error",
                title=_("Not saved"),
                timeout=10,
            )
            return
        self.on_committed(future.result())
        self._refresh_all()

    def on_committed(self, change: Change) -> None:
        """Hook: one entry was committed (override for sounds, focus moves…)."""

    def _refresh_all(self) -> None:
        self.refresh_view()
        self.query_one(LogPanel).refresh_log()
        banner = self.query_one("#outcome-banner", Static)
        outcome = self.session.outcome
        if outcome is None:
            banner.add_class("hidden")
        else:
            banner.update("🏆 " + _("Game over") + " — " + outcome.render(_))
            banner.remove_class("hidden")
