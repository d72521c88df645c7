"""The base of every game screen: keys that ask the guide, one message line, the log.

Design decisions:

* **Keys map to action types** (``ACTION_TYPES``: binding action name → the rules'
  action type tags it can make). A key is enabled from the game guide's
  ``allowed(state)``: the footer shows it dimmed when it is not allowed now, and
  pressing it shows the guide's ``why_not`` in the message line — never silence, and
  no screen keeps its own table of keys per phase or dry-runs ``apply``.
* **One message line** at the foot of the game body holds refusals and notices until
  the next commit. Refusals are not toasts: a toast crossing the log panel's border
  loses double-width characters there (Textual issue #6357), and it vanishes.
* **Nothing shows before it is saved**: ``submit`` commits on the writer thread and the
  screen re-renders when the commit is reported. ``submit`` also takes a callable that
  makes the action on the writer thread (a preparer's roll or deal), so a random draw
  is on disk before anyone sees it and a kill cannot give a free re-roll.
* **Dialog chains read straight**: ``await self.ask(dialog)`` inside a ``@work``
  method (Textual's ``push_screen(wait_for_dismiss=True)``).
* The log folds away on a small terminal (under ``LOG_MIN_WIDTH`` columns) and ``l``
  toggles it; ``j`` shows the stored JSON; ``?`` / F1 shows this screen's keys for the
  current phase and the game's rules summary.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from typing import Any, ClassVar, TypeVar, cast

from rich.text import Text
from textual import events
from textual.actions import parse as parse_action_text
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.widget import Widget
from textual.widgets import Header, Static

from companion.i18n import N_, _, set_game_domain
from companion.rules.base import Action, Outcome, Player, RuleError
from companion.rules.guide import Guide, Say
from companion.session.live import Change, LiveSession, StaleSessionError
from companion.session.store import StoreError, db_problem
from companion.widgets.footer import KeyFooter
from companion.widgets.host import HostApp
from companion.widgets.log_panel import LogPanel
from companion.widgets.outcome import names_itself, outcome_sentence, winner_names
from companion.widgets.shown import Shown
from companion.widgets.translate import translate_bindings

T = TypeVar("T")

LOG_MIN_WIDTH = 110
"""Below this many columns the log starts folded away (``l`` shows it)."""

Submittable = Action | Mapping[str, Any] | Callable[[], Action | Mapping[str, Any]]


def store_problem(error: BaseException) -> str:
    """A host's sentence for a failed write (disk full, read-only, locked …), with the
    cause named by the store's own classification (``db_problem``)."""
    if isinstance(error, StoreError):  # the store names the cause in the host's words
        reason = error.render(_)
    elif isinstance(error, sqlite3.Error):
        reason = _(db_problem(error))
    else:
        return _("Could not save; nothing was changed: {error}").format(error=error)
    return _("Not saved: {reason}").format(reason=reason)


class GameScreen(Screen[None]):
    """One running session. ``self.session`` is its ``LiveSession``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+z", "undo", N_("Undo")),
        Binding("ctrl+y", "redo", N_("Redo")),
        Binding("escape", "leave", N_("Home")),
        Binding("question_mark,f1", "help", N_("Help")),
        Binding("l", "toggle_log", N_("Log")),
        Binding("j", "toggle_raw", N_("Log JSON"), show=False),
    ]

    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """Binding action name → the rules' action types it can make (enabled from the guide)."""

    def __init__(self, session: LiveSession) -> None:
        super().__init__()
        self.session = session
        self._allowed_cache: tuple[int, frozenset[str]] | None = None
        self._log_wanted: bool | None = None
        self._mounted_once = False
        # Every string of this screen, its dialogs and help reads the game's own
        # catalog first (its labels never take another game's translation).
        set_game_domain(session.info.domain)
        translate_bindings(self)

    @property
    def companion(self) -> HostApp:
        return cast(HostApp, self.app)

    @property
    def guide(self) -> Guide[Any] | None:
        return self.session.info.guide

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header(show_clock=True)
        with Horizontal(id="game-layout"):
            with Vertical(id="game-body"):
                yield Shown("", id="outcome-banner", classes="banner hidden")
                yield Shown("", id="guide-prompt", classes="guide-prompt")
                # The game's own widgets scroll in their own box: the message line below
                # is never laid over them (an overlay crossing a border drops CJK, #6357).
                with VerticalScroll(id="game-view", can_focus=False):
                    yield from self.compose_game()
                yield Shown("", id="message-line", classes="message-line")
            yield LogPanel(self.session, id="log")
        yield KeyFooter()

    def compose_game(self) -> ComposeResult:
        """The game's own widgets (override)."""
        yield from ()

    def refresh_view(self) -> None:
        """Render everything from ``self.session.state`` (override)."""

    def first_draw(self) -> Callable[[], Action | Mapping[str, Any]] | None:
        """The draw a session needs before anything can be played (a deal), or ``None``.

        Override to return the preparer's call (``lambda: prepare.deal(…, rng)``):
        when the screen opens, after every ``on_mount`` of the game's own classes ran,
        the shared screen runs it on the writer thread, commits it, and only then
        shows it (``first_draw_done`` sees the writer's answer). Asked again on a
        resumed session, it returns ``None`` once the draw is in the log, so a kill
        between the draw and the screen never deals twice."""
        return None

    def first_draw_done(self, future: Future[Change]) -> None:
        """The writer's answer to the first draw (override: show a data file's error)."""

    def on_mount(self) -> None:
        # Textual runs each class's ``on_mount`` of the screen's MRO, so a game whose own
        # ``on_mount`` also calls ``super()`` ran this twice: the whole view drawn twice
        # at open, for nothing (issue 26). Once per screen.
        if self._mounted_once:
            return
        self._mounted_once = True
        # The host's own name for the game (the score pad's "Carcassonne"), as on Home.
        guide = self.guide
        name = guide.title(self.session.options) if guide is not None else None
        self.sub_title = (
            f"{name or self.session.info.name(self.companion.lang)} · {self.session.id[:8]}"
        )
        self._refresh_all()
        # Textual runs this after the game's own on_mount (each class's handler, the
        # subclass first): the game's widgets exist when the draw is shown.
        draw = self.first_draw()
        if draw is not None:
            self.submit(draw, self._first_draw_answered)

    def _first_draw_answered(self, future: Future[Change]) -> None:
        """The game's hook sees the answer; a refusal is drawn too (a commit is drawn
        by ``_committed``). A refused draw drew nothing: Shadow Cats' roster error
        showed only if the screen's first refresh happened to come after the writer's
        answer (under load it came before, and the setup panel never said why)."""
        self.first_draw_done(future)
        if future.exception() is not None:
            self._refresh_all()

    def on_screen_resume(self) -> None:
        set_game_domain(self.session.info.domain)

    def set_focus(
        self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False
    ) -> None:
        """Focus a widget; a table inside the game view does not scroll the view to itself.

        The top of a game view (the phase banner, whose turn, the board) matters more
        than a focused table lower down, which scrolls its own rows: Textual's
        scroll-into-view had opened the Shadow Cats setup at 80x24 with its banner and
        the top of its board off screen. A field (an ``Input``) is still scrolled to,
        so nothing is typed out of sight."""
        in_view = widget is not None and any(a.id == "game-view" for a in widget.ancestors)
        if in_view and isinstance(widget, ScrollView):
            scroll_visible = False
        super().set_focus(widget, scroll_visible, from_app_focus)

    def on_resize(self, event: events.Resize) -> None:
        self._place_log(event.size.width)

    def _place_log(self, width: int) -> None:
        shown = self._log_wanted if self._log_wanted is not None else width >= LOG_MIN_WIDTH
        log = self.query_one(LogPanel)
        if shown and not log.display:
            log.unfolded()
        log.display = shown

    def action_toggle_log(self) -> None:
        log = self.query_one(LogPanel)
        self._log_wanted = not log.display
        log.display = self._log_wanted
        if log.display:
            log.unfolded()

    def action_toggle_raw(self) -> None:
        self.query_one(LogPanel).toggle_raw()

    def action_help(self) -> None:
        from companion.widgets.help import HelpScreen

        self.app.push_screen(HelpScreen(self))

    # ------------------------------------------------------------------ the guide

    def allowed(self) -> frozenset[str] | None:
        """Action types legal now (None for a game without a guide)."""
        guide = self.guide
        if guide is None:
            return None
        state = self.session.state
        if self._allowed_cache is None or self._allowed_cache[0] != id(state):
            self._allowed_cache = (id(state), guide.allowed(state))
        return self._allowed_cache[1]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Textual's hook: a guided key not allowed now is shown dimmed (None)."""
        types = self.ACTION_TYPES.get(action)
        allowed = self.allowed()
        if types is None or allowed is None:
            return True
        return True if allowed.intersection(types) else None

    def is_phase_key(self, active: ActiveBinding) -> bool:
        """A key of the game itself: bound on one of the game's widgets (the vote grid)
        or mapped to the rules' action types — as against undo, home, help, log."""
        if active.node is not self:
            return active.node is not self.app
        try:
            _ns, name, _params = parse_action_text(active.binding.action)
        except Exception:  # an action string Textual itself would refuse
            return False
        return name in self.ACTION_TYPES

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's active keys in the footer's order: the keys of the phase first, then
        the screen's own (undo, home, help, log), then the keys that do nothing now
        (dimmed). At 80 columns the footer is cut at the right: the key that ends the
        phase must not be the one cut off."""

        def rank(item: tuple[str, ActiveBinding]) -> int:
            active = item[1]
            if not active.enabled:
                return 2
            return 0 if self.is_phase_key(active) else 1

        return dict(sorted(super().active_bindings.items(), key=rank))

    def refusal(self, action: str) -> Say | None:
        """The guide's reason why the key bound to ``action`` does nothing now."""
        try:
            _ns, name, _params = parse_action_text(action)
        except Exception:  # an action string Textual itself would refuse
            return None
        types = self.ACTION_TYPES.get(name)
        allowed = self.allowed()
        guide = self.guide
        if types is None or allowed is None or guide is None or allowed.intersection(types):
            return None
        return guide.why_not(self.session.state, types[0])

    def refuse(self, action: str) -> bool:
        """Show why ``action`` is not allowed now; True if it was refused."""
        reason = self.refusal(action)
        if reason is None:
            return False
        self.say(reason.render(_), error=True)
        return True

    # ------------------------------------------------------------------ messages

    def say(self, message: str, *, error: bool = False) -> None:
        """Show ``message`` in the message line until the next commit."""
        line = self.query_one("#message-line", Static)
        line.update(Text(message))  # plain text: "[set]" in a message is not markup
        line.set_class(error, "error")
        line.set_class(not error, "notice")

    def clear_message(self) -> None:
        self.query_one("#message-line", Static).update("")

    # ------------------------------------------------------------------ writing

    def submit(
        self, action: Submittable, then: Callable[[Future[Change]], None] | None = None
    ) -> None:
        """Commit ``action`` (on the writer thread), then re-render.

        A callable is called on the writer thread to make the action (a roll, a deal):
        the draw and its commit happen together, before the screen shows anything.
        ``then`` runs on the UI thread with the writer's answer, before the re-render.
        """

        def commit() -> Change:
            made = action() if callable(action) else action
            return self.session.act(made)

        def done(future: Future[Change]) -> None:
            if then is not None:
                then(future)
            self._committed(future)

        self.companion.write(commit, done)

    async def ask(self, dialog: Screen[T]) -> T:
        """Show ``dialog`` and wait for its answer (call from a ``@work`` method)."""
        result: T = await self.app.push_screen(dialog, wait_for_dismiss=True)
        return result

    def action_undo(self) -> None:
        self.companion.write(self.session.undo, self._undone_or_redone)

    def action_redo(self) -> None:
        self.companion.write(self.session.redo, self._undone_or_redone)

    def _undone_or_redone(self, future: Future[Change]) -> None:
        """Commit as usual, then say what was undone (or redone) in the message line:
        the log may be hidden (below 110 columns), and a silent ctrl+z left the host
        guessing what it took back. The sentence is the log's own ("Undone: …")."""
        self._committed(future)
        if future.exception() is not None:
            return
        narrator = self.query_one(LogPanel).narrator()
        narrator.feed_all(self.session.entries)  # a folded log narrates nothing by itself
        said = narrator.said(future.result().entry.seq)
        if said is not None:
            self.say(said.render(_))

    def action_leave(self) -> None:
        """Back to the home screen; the session stays resumable."""
        self.dismiss()

    def _committed(self, future: Future[Change]) -> None:
        error = future.exception()
        if isinstance(error, RuleError):
            self.say(error.render(_), error=True)
            if isinstance(error, StaleSessionError):  # reloaded: show what is stored
                self._refresh_all()
            return
        if error is not None:
            # The store refused (disk full, database locked…): nothing was applied.
            self.say(store_problem(error), error=True)
            return
        self.clear_message()
        self.on_committed(future.result())
        self._refresh_all()

    def on_committed(self, change: Change) -> None:
        """Hook: one entry was committed (override for sounds, focus moves…)."""

    def _refresh_all(self) -> None:
        self.refresh_view()
        self.query_one(LogPanel).refresh_log()
        guide = self.guide
        prompt = self.query_one("#guide-prompt", Static)
        if guide is not None and self.session.outcome is None:
            prompt.update(guide.prompt(self.session.state).render(_))
            prompt.display = True
        else:
            prompt.display = False
        banner = self.query_one("#outcome-banner", Static)
        outcome = self.session.outcome
        if outcome is None:
            banner.add_class("hidden")
        else:
            banner.update(end_banner(self.session.players, outcome))
            banner.remove_class("hidden")
        self.refresh_bindings()


def end_banner(players: Sequence[Player], outcome: Outcome) -> str:
    """ "🏆 Game over — <summary>", naming each winner once, in seat order.

    A summary that names the winners itself does so with its ``{names}`` field (the
    convention of every game's ``outcome``): the banner fills that field with the
    winners in seat order and adds nothing. Any other summary gets "Winners: A, B"
    after it. Before, both happened and every winner was named twice."""
    names = winner_names(players, outcome)
    text: str = "🏆 " + _("Game over") + " — " + outcome_sentence(players, outcome)
    if names and not names_itself(outcome):
        text += "  ·  " + _("Winners: {names}").format(names=names)
    return text
