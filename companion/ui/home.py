"""Home: start a session, resume an unfinished one, see the past ones."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from companion.games import GAMES, find_game
from companion.i18n import N_, _, listing, paren, set_game_domain
from companion.rules.names import fit_name
from companion.session.demo import is_demo
from companion.session.results import session_title
from companion.session.store import DamagedError, SessionRow, Store, StoreError
from companion.ui.history_format import game_name
from companion.widgets.dialogs import ChoiceDialog, ConfirmDialog
from companion.widgets.footer import KeyFooter
from companion.widgets.translate import translate_bindings

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp

PAST_LIMIT = 50
COLUMN_GAP = 2
"""Spaces between two columns of a session list."""
MAX_COLUMN = 36
"""A column is padded to its widest cell up to this many cells."""
MIN_COLUMN = 6
"""A column shrunk to fit the list keeps at least this many cells (or its title's)."""


def player_names(row: SessionRow) -> str:
    return listing(fit_name(p.name) for p in row.players)


def winner_names(row: SessionRow) -> str:
    if not row.outcome:
        return ""
    ids = set(row.outcome.get("winners", []))
    return listing(fit_name(p.name) for p in row.players if p.id in ids)


def last_seq_text(store: Store, session_id: str) -> str:
    """The number of the session's last entry, "?" (and the session named) if its
    entries cannot be read."""
    try:
        return str(store.last_seq(session_id))
    except DamagedError as exc:
        store.damaged[session_id] = exc
        return "?"


def short_time(iso: str) -> str:
    return iso[:16].replace("T", " ")


def aligned(cells: Sequence[str], widths: Sequence[int]) -> str:
    """``cells`` as one line, each padded to its column's width (in cells, so that
    Chinese names line up) and cut with ``…`` where it is wider."""
    pairs = zip(cells, widths, strict=True)
    parts = [fit_name(cell, width) for cell, width in pairs]
    parts = [
        part + " " * max(0, width - cell_len(part))
        for part, width in zip(parts, widths, strict=True)
    ]
    return (" " * COLUMN_GAP).join(parts).rstrip()


def fitted_widths(
    titles: Sequence[str], rows: Sequence[Sequence[str]], room: int, whole: Sequence[int]
) -> list[int]:
    """Column widths that fit ``room`` cells: each column as wide as its widest cell
    (up to ``MAX_COLUMN``), then the widest shrinkable column narrowed, one cell at a
    time, until the row fits. Columns in ``whole`` (times, counts) are never narrowed,
    nor any column below its title (or ``MIN_COLUMN``): a row never wraps and a title
    is never cut (Home at 80x24 wrapped every unfinished row, issue 22)."""
    widths = [
        min(MAX_COLUMN, max([cell_len(title)] + [cell_len(cells[i]) for cells in rows]))
        for i, title in enumerate(titles)
    ]
    floor = [max(MIN_COLUMN, cell_len(t)) for t in titles]
    over = sum(widths) + COLUMN_GAP * (len(widths) - 1) - room
    while over > 0:
        narrowable = [i for i in range(len(widths)) if i not in whole and widths[i] > floor[i]]
        if not narrowable:
            break
        widest = max(narrowable, key=lambda i: widths[i])
        widths[widest] -= 1
        over -= 1
    return widths


class SessionList(OptionList):
    """A list of sessions, one row each, under a line of column titles.

    The home screen's lists only show rows and move a cursor: an ``OptionList`` does
    that for a fraction of a ``DataTable``'s start-up cost (its stylesheet, its column
    machinery and a second scroll view), and every row is a plain ``Text`` (a name
    with brackets is never read as markup). Each option's id is the session's id.
    """

    def __init__(self, titles: Sequence[str], *, id: str, whole: Sequence[int] = (0,)) -> None:
        super().__init__(id=id, compact=True)  # no box: a highlighted row, like a table
        self.titles = tuple(titles)
        self.whole = tuple(whole)
        """Columns never cut (the start time, a count of entries)."""
        self.header = Static(classes="session-columns", markup=False)
        self._rows: list[tuple[str, Sequence[str]]] = []
        self._room = 0

    def _content_room(self) -> int:
        return self.scrollable_content_region.width or MAX_COLUMN * len(self.titles)

    def show(self, rows: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Replace the rows (``(session id, cells)``), keeping the cursor on the same
        session when it is still listed."""
        self._rows = list(rows)
        self._render_rows()

    def _on_resize(self) -> None:
        # OptionList's own handler (its caches), then a refit after the frame: a refit
        # inside an ``on_resize`` handler had swallowed Enter in the resume dialog.
        super()._on_resize()  # type: ignore[no-untyped-call]
        if self._content_room() != self._room:
            self.call_after_refresh(self._render_rows)

    def _render_rows(self) -> None:
        rows = self._rows
        self._room = self._content_room()
        widths = fitted_widths(self.titles, [c for _k, c in rows], self._room, self.whole)
        self.header.update(aligned(self.titles, widths))
        kept = self.highlighted_id
        self.clear_options()
        self.add_options([Option(Text(aligned(cells, widths)), id=key) for key, cells in rows])
        ids = [key for key, _cells in rows]
        if ids:
            self.highlighted = ids.index(kept) if kept in ids else 0

    @property
    def highlighted_id(self) -> str | None:
        """The session id under the cursor (None on an empty list)."""
        index = self.highlighted
        if index is None or not 0 <= index < self.option_count:
            return None
        return self.get_option_at_index(index).id


HOME_ABOUT = N_(
    "Pick a game on the left and press Enter (or n) to seat its players. Unfinished "
    "sessions: Enter or r resumes one, a abandons it (after asking), p sets up the same "
    "table again, with the same seats and options. h opens the history of every session. "
    "ctrl+q quits: every action is saved the moment it is made, so quitting loses nothing."
)
"""What ``?`` / F1 says of this screen."""

WELCOME = N_(
    "Welcome. Tabletop Companion keeps score and phase at a real table for the games "
    "listed on the left (the score pad serves any other game). Every action is saved the "
    "moment it is made.\n\n"
    "Play: pick a game on the left, press Enter.\n"
    "Tour: t starts a demo session of every game, to try; x throws them away.\n\n"
    "Your files (companion paths lists them):\n"
    "history   {db}\n"
    "backups   {backups}\n"
    "settings  {config}\n\n"
    "companion doctor checks sound, buttons and the database on this machine."
)
"""Home's right column while the history is empty (the first run)."""


HOME_REFUSALS = {
    "resume": N_("There is no unfinished session."),
    "abandon": N_("There is no unfinished session."),
    "play_again": N_("Pick a session in one of the tables first."),
    "throw_away_demos": N_("There are no demo sessions (t starts the tour)."),
    "tour": N_("The demo sessions are already listed; x throws them away."),
}
"""What a Home key says when it does not apply now (it is then left out of the footer)."""


class HomeScreen(Screen[None]):
    """The first screen. Lists every registered game in the chosen language."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_session", N_("New session")),
        Binding("r", "resume", N_("Resume")),
        Binding("a", "abandon", N_("Abandon")),
        Binding("h", "history", N_("History")),
        Binding("p", "play_again", N_("Rematch")),
        Binding("t", "tour", N_("Tour")),
        Binding("x", "throw_away_demos", N_("Drop demos")),
        Binding("question_mark,f1", "help", N_("Help")),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Only the keys that apply now are in the footer (issue 22): with no unfinished
        session r and a say nothing, with no session at all p has nothing to repeat,
        and x only while demo sessions exist (t while none do). None dims the key (left out of the
        footer); pressing it still says why it does nothing."""
        if action in ("resume", "abandon"):
            return True if self._has_rows("#unfinished") else None
        if action == "play_again":
            return True if self._has_rows("#unfinished", "#past") else None
        if action == "throw_away_demos":
            return True if self._demos else None
        if action == "tour":
            return None if self._demos else True
        return True

    def refuse(self, action: str) -> bool:
        """Say why a key left out of the footer does nothing now; True if it was refused
        (asked by the app before it runs a key, like a game screen's ``refuse``)."""
        name = action.partition("(")[0]
        reason = HOME_REFUSALS.get(name)
        if reason is None or self.check_action(name, ()):
            return False
        self.notify(_(reason), severity="warning")
        return True

    def _has_rows(self, *list_ids: str) -> bool:
        try:
            return any(self.query_one(i, SessionList).option_count for i in list_ids)
        except NoMatches:  # not composed yet
            return False

    def action_help(self) -> None:
        from companion.widgets.help import HelpScreen

        self.app.push_screen(HelpScreen(self, _("Home"), _(HOME_ABOUT)))

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)
        self._demos = False

    @property
    def companion(self) -> CompanionApp:
        from companion.ui.app import CompanionApp

        assert isinstance(self.app, CompanionApp)
        return self.app

    def compose(self) -> ComposeResult:
        unfinished = SessionList(
            (_("Started"), _("Game"), _("Players"), _("Entries")), id="unfinished", whole=(0, 3)
        )
        past = SessionList((_("Started"), _("Game"), _("Players"), _("Winners")), id="past")
        yield Header(show_clock=True)
        with Horizontal(id="home"):
            with Vertical(id="home-games"):
                yield Label(_("New session"), classes="section-title")
                yield OptionList(
                    *(Option(Text(info.name(self.companion.lang)), id=info.id) for info in GAMES),
                    id="games",
                )
            with Vertical(id="home-sessions"):
                with VerticalScroll(id="welcome"):
                    yield Static(self._welcome_text(), id="welcome-text", markup=False)
                yield Label(_("Unfinished sessions"), classes="section-title")
                yield unfinished.header
                yield unfinished
                yield Label(_("Past sessions"), classes="section-title")
                yield past.header
                yield past
        yield KeyFooter(fit=True)  # every key that applies, whole, at 80 columns

    def _welcome_text(self) -> str:
        from companion.session.backup import backup_dir
        from companion.session.locations import config_dir

        db = self.companion.store.path
        if db is None or str(db) == ":memory:":
            return _(WELCOME).format(db="-", backups="-", config=config_dir())
        db = Path(db)
        return _(WELCOME).format(db=db, backups=backup_dir(db), config=config_dir())

    _fresh = False
    """The lists were just filled by ``on_mount``: the screen's first resume (which
    Textual sends right after the mount) need not query the store again."""

    def on_mount(self) -> None:
        self.sub_title = _("Home")
        unfinished = self.reload()
        self._fresh = True
        games = self.query_one("#games", OptionList)
        games.highlighted = 0
        games.focus()
        if unfinished:
            self.app.push_screen(ResumeDialog(unfinished, self.companion.lang), self._resume_chosen)

    def on_screen_resume(self) -> None:
        set_game_domain(None)  # no game's catalog first here: every game is listed
        if self._fresh:  # the resume that follows the mount: filled a moment ago
            self._fresh = False
            return
        self.reload()

    def on_screen_suspend(self) -> None:
        self._fresh = False  # covered (a dialog, a game): the next resume reads the store

    def reload(self) -> list[SessionRow]:
        """Fill both lists from the store; returns the unfinished sessions."""
        store = self.companion.store
        lang = self.companion.lang
        active = store.sessions(status="active")

        def title(row: SessionRow) -> str:
            name = game_name(row.game, lang, session_title(row.game, row.options))
            return _("{game} (demo)").format(game=name) if is_demo(row.id) else name

        self.query_one("#unfinished", SessionList).show(
            [
                (
                    row.id,
                    (
                        short_time(row.started_at),
                        title(row),
                        player_names(row),
                        last_seq_text(store, row.id),
                    ),
                )
                for row in active
            ]
        )
        past_rows = [row for row in store.sessions(limit=PAST_LIMIT) if row.status != "active"]
        self.query_one("#past", SessionList).show(
            [
                (
                    row.id,
                    (
                        short_time(row.started_at),
                        title(row),
                        player_names(row),
                        winner_names(row) if row.status == "finished" else _("abandoned"),
                    ),
                )
                for row in past_rows
            ]
        )
        self._show_welcome(not active and not past_rows)
        self._demos = any(is_demo(row.id) for row in [*active, *past_rows])
        self.refresh_bindings()
        self.companion.tell_damage()
        return active

    def _show_welcome(self, empty: bool) -> None:
        """The welcome while the history is empty; the session tables once it is not."""
        self.query_one("#welcome").display = empty
        for widget in self.query("#home-sessions > *"):
            if widget.id != "welcome":
                widget.display = not empty

    # ------------------------------------------------------------------ actions

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option_list.id == "unfinished":
            self._resume_chosen(event.option.id)
        elif event.option_list.id == "games" and event.option.id:
            from companion.ui.new_session import NewSessionScreen

            self.app.push_screen(NewSessionScreen(find_game(event.option.id)))

    def action_new_session(self) -> None:
        """The form for the highlighted game (the first one if none is)."""
        from companion.ui.new_session import NewSessionScreen

        games = self.query_one("#games", OptionList)
        index = games.highlighted if games.highlighted is not None else 0
        games.focus()
        self.app.push_screen(NewSessionScreen(GAMES[index]))

    def _selected_unfinished(self) -> str | None:
        return self.query_one("#unfinished", SessionList).highlighted_id

    def _selected_session(self) -> str | None:
        """The highlighted row of the session list that has focus (else unfinished)."""
        focused = self.focused
        list_id = "#past" if isinstance(focused, SessionList) and focused.id == "past" else None
        return self.query_one(list_id or "#unfinished", SessionList).highlighted_id

    def action_play_again(self) -> None:
        """A new session of the same game with the same seats and options (a rematch)."""
        from companion.ui.new_session import NewSessionScreen, Seat

        sid = self._selected_session()
        if sid is None:
            self.notify(_("Pick a session in one of the tables first."), severity="warning")
            return
        row = self.companion.store.session(sid)
        try:
            info = find_game(row.game)
        except Exception:  # a game this version does not know
            self.notify(_("This game is not known to this version."), severity="error")
            return
        seats = [Seat(p.name, p.colour, p.birth_date) for p in row.players]
        self.app.push_screen(NewSessionScreen(info, seats, row.options))

    def action_resume(self) -> None:
        sid = self._selected_unfinished()
        if sid is None:
            self.notify(_("There is no unfinished session."), severity="warning")
            return
        self._resume_chosen(sid)

    def _resume_chosen(self, session_id: str | None) -> None:
        if not session_id:
            return
        try:
            self.companion.resume_session(session_id)
        except (StoreError, Exception) as exc:  # a log that no longer replays, a lost game
            self.notify(
                _("Cannot resume this session: {error}").format(error=exc),
                severity="error",
                timeout=10,
            )

    def action_abandon(self) -> None:
        sid = self._selected_unfinished()
        if sid is None:
            return

        def done(future: Future[None]) -> None:
            error = future.exception()
            if isinstance(error, StoreError):
                self.notify(error.render(_), severity="error", title=_("Not saved"), timeout=10)
            elif error is not None:
                raise error
            self.reload()

        def confirmed(yes: bool | None) -> None:
            if yes:  # on the writer thread, like every write
                store = self.companion.store
                self.companion.write(lambda: store.set_status(sid, "abandoned"), done)

        self.app.push_screen(
            ConfirmDialog(_("Abandon this session? It stays in the history, marked.")), confirmed
        )

    def action_tour(self) -> None:
        """A demo session of every game (thrown away with x)."""
        from companion.session.demo import start_demos

        store = self.companion.store

        def done(future: Future[list[str]]) -> None:
            error = future.exception()
            if isinstance(error, StoreError):
                self.notify(error.render(_), severity="error", title=_("Not saved"), timeout=10)
                return
            if error is not None:
                raise error
            self.reload()
            unfinished = self.query_one("#unfinished", SessionList)
            unfinished.focus()
            unfinished.highlighted = 0
            self.notify(
                _(
                    "{n} demo sessions are under Unfinished sessions: Enter opens one, "
                    "escape comes back here. x throws them away."
                ).format(n=len(future.result())),
                timeout=10,
            )

        self.companion.write(lambda: start_demos(store), done)

    def action_throw_away_demos(self) -> None:
        from companion.session.demo import demo_ids, throw_away_demos

        store = self.companion.store
        if not demo_ids(store):
            self.notify(_("There are no demo sessions (t starts the tour)."), severity="warning")
            return

        def done(future: Future[int]) -> None:
            error = future.exception()
            if isinstance(error, StoreError):
                self.notify(error.render(_), severity="error", title=_("Not saved"), timeout=10)
                return
            if error is not None:
                raise error
            self.reload()
            self.query_one("#games", OptionList).focus()
            self.notify(_("{n} demo sessions thrown away.").format(n=future.result()))

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.companion.write(lambda: throw_away_demos(store), done)

        self.app.push_screen(
            ConfirmDialog(_("Throw every demo session away? Your own games stay.")), confirmed
        )

    def action_history(self) -> None:
        if importlib.util.find_spec("companion.ui.history") is None:
            self.notify(_("The history screen is not available yet."), severity="warning")
            return
        from companion.ui.history import HistoryScreen

        self.app.push_screen(HistoryScreen())


class ResumeDialog(ChoiceDialog):
    """Offered at start when unfinished sessions exist: pick one, or not now."""

    def __init__(self, sessions: Sequence[SessionRow], lang: str) -> None:
        choices = [
            (
                row.id,
                f"{short_time(row.started_at)}  "
                f"{game_name(row.game, lang, session_title(row.game, row.options))}"
                + paren(player_names(row)),
            )
            for row in sessions
        ]
        choices.append(("", _("Not now")))
        super().__init__(_("Continue an unfinished session?"), choices)

    def answer(self, option_id: str | None) -> str | None:
        return option_id or None  # "Not now" has the empty id
