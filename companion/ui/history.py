"""The history: every session, filtered by game, player and dates; open, resume, export.

Design decisions:

* The screen is a view of ``companion.session.results``: rows are read from the
  store each time the filter changes (one SQL query), never kept apart.
* Filters apply as they are typed; a date that is not ``YYYY-MM-DD`` yet is shown
  as a hint and ignored until it is one.
* Abandon and export are writes, so they go through the app's writer thread;
  resume hands the session to the app, which pushes its game screen on top.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from concurrent.futures import Future
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.suggester import Suggester, SuggestFromList
from textual.widgets import DataTable, Header, Input, Label, Select

from companion.games import GAMES
from companion.i18n import N_, _, listing, ngettext, set_game_domain
from companion.rules.names import MAX_NAME_CELLS, fit_name
from companion.session.results import (
    HistoryFilter,
    SessionResult,
    count_results,
    parse_day,
    player_names,
    query_ids,
    query_results,
)
from companion.session.store import Store, StoreError
from companion.ui.history_export import start_export, start_import
from companion.ui.history_format import (
    duration,
    game_name,
    scores_text,
    status_label,
    when,
    winners_text,
)
from companion.widgets.dialogs import ConfirmDialog
from companion.widgets.footer import KeyFooter
from companion.widgets.text_input import TextInput
from companion.widgets.translate import translate_bindings

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp

HISTORY_CSS = Path(__file__).resolve().with_name("history.tcss")
"""The style sheet of History, its detail and its statistics (read ahead of the first
``h`` by ``CompanionApp._read_style_sheets_ahead``)."""

PAGE = 100
"""Rows loaded at a time: a DataTable measures every cell, so 10,000 rows at once
would take seconds; the next page loads when the cursor reaches the last row. The
first fill is a screenful (``_first_rows``), not a page."""


class NamesOnDemand(Suggester):
    """``SuggestFromList`` over names read the first time a suggestion is asked for:
    the player filter's names are a query over every player of every session (15 ms
    at 10,000 sessions), which History's open paid before anyone typed a name."""

    def __init__(self, load: Callable[[], Iterable[str]]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self._load = load
        self._names: SuggestFromList | None = None

    def forget(self) -> None:
        """The names changed (an import): read them again at the next suggestion."""
        self._names = None

    async def get_suggestion(self, value: str) -> str | None:
        if self._names is None:
            self._names = SuggestFromList(self._load(), case_sensitive=False)
        return await self._names.get_suggestion(value)


HISTORY_ABOUT = N_(
    "Every session, newest first. Enter opens one: its scores, chart, log and photo "
    "finish. g, p and d filter by game, player and dates; c clears the filters. r resumes "
    "an unfinished session, a abandons it, x exports the sessions shown (JSON, CSV, "
    "BG Stats), i imports a file, s shows statistics; escape goes back."
)
"""What ``?`` / F1 says of this screen."""


WIDE = 132
"""From this width the five filters fit on one row and the table shows every column;
below it (80x24 at the table) the filters wrap to two rows and the table leaves out
the scores and the duration (the detail has both) and shows the status right after
the game, so no title is cut and a row's status never scrolls out of sight."""

COLUMN_TITLES = {
    "date": N_("Date"),
    "game": N_("Game"),
    "players": N_("Players"),
    "winners": N_("Winners"),
    "scores": N_("Scores"),
    "duration": N_("Duration"),
    "status": N_("Status"),
}
WIDE_COLUMNS = ("date", "game", "players", "winners", "scores", "duration", "status")
NARROW_COLUMNS = ("date", "game", "status", "winners", "players")


class HistoryScreen(Screen[None]):
    """Every session, newest first. Opened from home with ``h``."""

    CSS_PATH = HISTORY_CSS
    # Textual declares it ``ClassVar[...] | None``, which mypy will not let a ClassVar
    # override, hence the bare assignment.
    HORIZONTAL_BREAKPOINTS = [  # noqa: RUF012
        (0, "-narrow"),
        (WIDE, "-wide"),
    ]
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "open", N_("Open"), show=True),
        Binding("g", "focus('#filter-game')", N_("Game")),
        Binding("p", "focus('#filter-player')", N_("Player")),
        Binding("d", "focus('#filter-since')", N_("Dates")),
        Binding("c", "clear_filters", N_("Clear filters")),
        Binding("m", "more", N_("More"), show=False),
        Binding("r", "resume", N_("Resume")),
        Binding("a", "abandon", N_("Abandon")),
        Binding("x", "export", N_("Export")),
        Binding("i", "import", N_("Import")),
        Binding("s", "stats", N_("Statistics")),
        Binding("escape", "back", N_("Back")),
        Binding("question_mark,f1", "help", N_("Help")),
    ]

    def action_help(self) -> None:
        from companion.widgets.help import HelpScreen

        self.app.push_screen(HelpScreen(self, _("History"), _(HISTORY_ABOUT)))

    def __init__(self, store: Store | None = None) -> None:
        super().__init__()
        self._store = store
        self.results: list[SessionResult] = []
        self.total = 0
        self.filter = HistoryFilter()
        self.columns: tuple[str, ...] = ()
        self._names = NamesOnDemand(lambda: player_names(self.store))
        self._caps: tuple[int, int] = (24, 16)
        """Cells the winners and the players columns take (see ``_cell_caps``)."""
        translate_bindings(self)

    @property
    def companion(self) -> CompanionApp:
        from companion.ui.app import CompanionApp

        assert isinstance(self.app, CompanionApp)
        return self.app

    @property
    def store(self) -> Store:
        return self._store if self._store is not None else self.companion.store

    @property
    def lang(self) -> str:
        return str(getattr(self.app, "lang", "en"))

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header(show_clock=True)
        with Horizontal(id="history-filters"):
            yield Select(
                [(info.name(self.lang), info.id) for info in GAMES],
                prompt=_("All games"),
                id="filter-game",
            )
            yield TextInput(placeholder=_("Player"), id="filter-player")
            yield TextInput(placeholder=_("From (YYYY-MM-DD)"), id="filter-since", max_length=10)
            yield TextInput(placeholder=_("To (YYYY-MM-DD)"), id="filter-until", max_length=10)
            yield Select(
                [
                    (_("finished"), "finished"),
                    (_("unfinished"), "active"),
                    (_("abandoned"), "abandoned"),
                ],
                prompt=_("Any status"),
                id="filter-status",
            )
        yield Label("", id="history-count", classes="hint")
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = _("History")
        table = self.query_one("#history-table", DataTable)
        self._set_columns()
        self.query_one("#filter-player", Input).suggester = self._names
        self.reload()
        self._fresh = True
        table.focus()
        self.watch(table, "scroll_y", self._scrolled, init=False)

    _fresh = False
    """The table was just filled by ``on_mount``: the resume Textual sends right after
    the mount need not query and fill it again (it did: two first pages per open)."""

    def on_screen_resume(self) -> None:
        set_game_domain(None)  # sessions of every game are listed
        if self._fresh:
            self._fresh = False
            return
        self.reload()

    def on_screen_suspend(self) -> None:
        self._fresh = False  # covered (a dialog, a session): the next resume reads the store

    def on_resize(self) -> None:
        changed = self._set_columns()
        if changed or self._caps != self._cell_caps():
            self.reload()

    def _cell_caps(self) -> tuple[int, int]:
        """Cells the winners and the players (or scores) columns may take: the names
        are cut with ``…`` there, so the winners are never pushed off or cut
        (``小明, 阿``, issue 22) and the table fits the terminal's width."""
        width = self.app.size.width
        winners = 2 * MAX_NAME_CELLS + 2  # two whole names
        fixed = 16 + 12 + 8 + winners + 2 * len(self.columns)  # date, game, status
        if self.columns == WIDE_COLUMNS:
            fixed += 8  # the duration
            return winners, max(16, (width - fixed) // 2)
        return winners, max(16, width - fixed)

    def _set_columns(self) -> bool:
        """The columns for the terminal's width (see ``WIDE``); True if they changed."""
        columns = WIDE_COLUMNS if self.app.size.width >= WIDE else NARROW_COLUMNS
        if columns == self.columns:
            return False
        self.columns = columns
        table = self.query_one("#history-table", DataTable)
        table.clear(columns=True)
        for key in columns:
            table.add_column(_(COLUMN_TITLES[key]), key=key)
        return True

    # ------------------------------------------------------------------ data

    def _first_rows(self, cursor: int) -> int:
        """Rows the first fill loads: a screenful (the table is shorter than the
        terminal, so every row it can show is there), and down to the cursor's row
        when a reload keeps it (an abandon at row 150 still lands on row 150)."""
        return max(self.app.size.height, cursor + 1)

    def reload(self) -> None:
        """Query the store with the current filter and refill the table (first rows)."""
        table = self.query_one("#history-table", DataTable)
        cursor = table.cursor_row
        self.total = count_results(self.store, self.filter)
        self.results = query_results(self.store, self.filter, limit=self._first_rows(cursor))
        self._caps = self._cell_caps()
        table.clear()
        table.add_rows([self._row(r) for r in self.results])  # row i is self.results[i]
        if self.results:
            table.move_cursor(row=min(cursor, len(self.results) - 1))
        self.query_one("#history-count", Label).update(self._count_text())
        tell = getattr(self.app, "tell_damage", None)
        if tell is not None:  # damaged sessions are left out of the table, and named
            tell()

    def load_more(self) -> None:
        """Append the next page of the same filter (scrolling past the last row does it)."""
        if len(self.results) >= self.total:
            return
        more = query_results(self.store, self.filter, limit=PAGE, offset=len(self.results))
        self.results.extend(more)
        self.query_one("#history-table", DataTable).add_rows([self._row(r) for r in more])
        self.query_one("#history-count", Label).update(self._count_text())

    def _count_text(self) -> str:
        n = self.total
        text = ngettext("{n} session", "{n} sessions", n).format(n=n)
        if len(self.results) < n:
            text += " · " + _("showing the newest {shown}; scroll down or press m for more").format(
                shown=len(self.results)
            )
        return text

    def _scrolled(self, y: float) -> None:
        """Scrolled (the wheel moves no cursor) to the end of the rows loaded: the next
        page, as the cursor reaching the last row loads it."""
        table = self.query_one("#history-table", DataTable)
        if y >= table.max_scroll_y > 0:
            self.load_more()

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= len(self.results) - 1:
            self.load_more()

    def action_more(self) -> None:
        self.load_more()

    def _row(self, res: SessionResult) -> tuple[Any, ...]:
        winners, others = self._caps
        cells = {
            "date": lambda: when(res.started_at),
            "game": lambda: game_name(res.game, self.lang, res.title),
            "players": lambda: fit_name(listing(fit_name(p.name) for p in res.players), others),
            "winners": lambda: fit_name(winners_text(res), winners),
            "scores": lambda: fit_name(scores_text(res), others),
            "duration": lambda: duration(res.duration_s),
            "status": lambda: status_label(res.status),
        }
        return tuple(cells[key]() for key in self.columns)

    def selected(self) -> SessionResult | None:
        table = self.query_one("#history-table", DataTable)
        if not self.results or table.cursor_row < 0:
            return None
        return self.results[min(table.cursor_row, len(self.results) - 1)]

    # ------------------------------------------------------------------ filters

    def on_select_changed(self, event: Select.Changed) -> None:
        self._apply_filters()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._apply_filters()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.query_one("#history-table", DataTable).focus()

    def _apply_filters(self) -> None:
        game = self.query_one("#filter-game", Select).value
        status = self.query_one("#filter-status", Select).value
        player = self.query_one("#filter-player", Input).value.strip()
        since, since_bad = self._day("#filter-since")
        until, until_bad = self._day("#filter-until")
        problem = since_bad or until_bad
        new = HistoryFilter(
            game=game if isinstance(game, str) else None,
            player=player or None,
            since=since,
            until=until,
            status=status if isinstance(status, str) else None,
        )
        if new != self.filter:
            self.filter = new
            self.reload()
        if problem:
            label = self.query_one("#history-count", Label)
            label.update(f"{self._count_text()} · {problem}")

    def _day(self, selector: str) -> tuple[date | None, str | None]:
        text = self.query_one(selector, Input).value.strip()
        if not text:
            return None, None
        try:
            return parse_day(text), None
        except ValueError:
            return None, _("{value} is not a date like 2026-11-29.").format(value=repr(text))

    def action_clear_filters(self) -> None:
        for selector in ("#filter-player", "#filter-since", "#filter-until"):
            self.query_one(selector, Input).value = ""
        self.query_one("#filter-game", Select).clear()
        self.query_one("#filter-status", Select).clear()
        self.filter = HistoryFilter()
        self.reload()
        self.query_one("#history-table", DataTable).focus()

    # ------------------------------------------------------------------ actions

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open()

    def action_open(self) -> None:
        res = self.selected()
        if res is None:
            return
        from companion.ui.history_detail import SessionDetailScreen

        self.app.push_screen(SessionDetailScreen(self.store, res.id))

    def action_resume(self) -> None:
        res = self.selected()
        if res is not None:
            resume(self, res)

    def action_abandon(self) -> None:
        res = self.selected()
        if res is not None:
            abandon(self, self.store, res, self.reload)

    def action_export(self) -> None:
        # Everything the filter matches, not only the rows loaded so far.
        start_export(self, self.store, query_ids(self.store, self.filter), single=False)

    def action_import(self) -> None:
        start_import(self, self.store, self._imported)

    def _imported(self) -> None:
        self._names.forget()  # an import brings players the suggestions did not know
        self.reload()

    def action_stats(self) -> None:
        from companion.ui.history_stats import StatsScreen

        self.app.push_screen(StatsScreen(self.store, self.filter))

    def action_back(self) -> None:
        """Escape in a filter field gives the keys back to the table (the filter stays);
        escape on the table leaves the history. It left from a filter, so a host who
        typed a player's name lost the screen instead of the field."""
        table = self.query_one("#history-table", DataTable)
        if self.focused is not None and self.focused is not table:
            table.focus()
            return
        self.app.pop_screen()


def resume(screen: Screen[Any], res: SessionResult) -> None:
    """Continue an unfinished (or abandoned) session in its game screen.

    A session stored as finished by an older version although its guide still allows
    an entry (the Undercover after a Police win) is unfinished by the one rule
    (``is_finished``): it is marked so here and resumed."""
    from companion.ui.app import CompanionApp

    app = screen.app
    assert isinstance(app, CompanionApp)
    if res.status == "finished" and not _still_waiting(app.store, res.id):
        screen.notify(
            _("This session is finished; undo inside it is not offered from the history."),
            severity="warning",
        )
        return
    try:
        if res.status == "finished":
            app.store.mark_unfinished(res.id)
        if res.status == "abandoned":
            app.store.set_status(res.id, "active")
        app.resume_session(res.id)
    except Exception as exc:  # a log that no longer replays, a game not available
        screen.notify(
            _("Cannot resume this session: {error}").format(error=exc), severity="error", timeout=10
        )


def _still_waiting(store: Store, session_id: str) -> bool:
    """Does a stored session's log still leave an entry to make (not finished by the rule)?"""
    from companion.session.export import replay_session
    from companion.session.log import ReplayError

    try:
        return not replay_session(store.session(session_id), store.entries(session_id)).finished
    except (ReplayError, StoreError):
        return False


def abandon(screen: Screen[Any], store: Store, res: SessionResult, after: Any) -> None:
    """Mark an unfinished session abandoned (it stays in the history), after asking."""
    if res.status != "active":
        screen.notify(_("Only an unfinished session can be abandoned."), severity="warning")
        return
    from companion.ui.app import CompanionApp

    app = screen.app

    def confirmed(yes: bool | None) -> None:
        if not yes:
            return

        def done(future: Future[None]) -> None:
            error = future.exception()
            if isinstance(error, StoreError):
                screen.notify(error.render(_), severity="error", title=_("Not saved"), timeout=10)
                return
            if error is not None:
                raise error
            after()

        if isinstance(app, CompanionApp):
            app.write(lambda: store.set_status(res.id, "abandoned"), done)
        else:  # pragma: no cover - the history always runs inside the companion app
            store.set_status(res.id, "abandoned")
            after()

    app.push_screen(
        ConfirmDialog(_("Abandon this session? It stays in the history, marked.")), confirmed
    )
