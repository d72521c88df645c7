"""Home: start a session, resume an unfinished one, see the past ones."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Header, Label, OptionList, Static
from textual.widgets.option_list import Option

from companion.games import GAMES, find_game
from companion.i18n import N_, _
from companion.session.results import session_title
from companion.session.store import SessionRow, StoreError
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
"""A column is padded to its widest cell up to this many cells (a longer cell, say a
table of ten players, pushes that row's later cells right rather than being cut)."""


def player_names(row: SessionRow) -> str:
    return ", ".join(p.name for p in row.players)


def winner_names(row: SessionRow) -> str:
    if not row.outcome:
        return ""
    ids = set(row.outcome.get("winners", []))
    return ", ".join(p.name for p in row.players if p.id in ids)


def short_time(iso: str) -> str:
    return iso[:16].replace("T", " ")


def aligned(cells: Sequence[str], widths: Sequence[int]) -> str:
    """``cells`` as one line, each but the last padded to its column's width (in cells,
    so that Chinese names line up)."""
    pairs = zip(cells, widths, strict=True)
    parts = [cell + " " * max(0, width - cell_len(cell)) for cell, width in pairs]
    parts[-1] = cells[-1]
    return (" " * COLUMN_GAP).join(parts).rstrip()


class SessionList(OptionList):
    """A list of sessions, one row each, under a line of column titles.

    The home screen's lists only show rows and move a cursor: an ``OptionList`` does
    that for a fraction of a ``DataTable``'s start-up cost (its stylesheet, its column
    machinery and a second scroll view), and every row is a plain ``Text`` (a name
    with brackets is never read as markup). Each option's id is the session's id.
    """

    def __init__(self, titles: Sequence[str], *, id: str) -> None:
        super().__init__(id=id, compact=True)  # no box: a highlighted row, like a table
        self.titles = tuple(titles)
        self.header = Static(classes="session-columns", markup=False)

    def show(self, rows: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Replace the rows (``(session id, cells)``), keeping the cursor on the same
        session when it is still listed."""
        widths = [
            min(MAX_COLUMN, max([cell_len(title)] + [cell_len(cells[i]) for _key, cells in rows]))
            for i, title in enumerate(self.titles)
        ]
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


class HomeScreen(Screen[None]):
    """The first screen. Lists all five games in the chosen language."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_session", N_("New session")),
        Binding("r", "resume", N_("Resume")),
        Binding("a", "abandon", N_("Abandon")),
        Binding("h", "history", N_("History")),
        Binding("p", "play_again", N_("Same table again")),
        Binding("question_mark,f1", "help", N_("Help")),
    ]

    def action_help(self) -> None:
        from companion.widgets.help import HelpScreen

        self.app.push_screen(HelpScreen(self, _("Home"), _(HOME_ABOUT)))

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    @property
    def companion(self) -> CompanionApp:
        from companion.ui.app import CompanionApp

        assert isinstance(self.app, CompanionApp)
        return self.app

    def compose(self) -> ComposeResult:
        unfinished = SessionList(
            (_("Started"), _("Game"), _("Players"), _("Entries")), id="unfinished"
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
                yield Label(_("Unfinished sessions"), classes="section-title")
                yield unfinished.header
                yield unfinished
                yield Label(_("Past sessions"), classes="section-title")
                yield past.header
                yield past
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = _("Home")
        unfinished = self.reload()
        games = self.query_one("#games", OptionList)
        games.highlighted = 0
        games.focus()
        if unfinished:
            self.app.push_screen(ResumeDialog(unfinished, self.companion.lang), self._resume_chosen)

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> list[SessionRow]:
        """Fill both lists from the store; returns the unfinished sessions."""
        store = self.companion.store
        lang = self.companion.lang
        active = store.sessions(status="active")
        self.query_one("#unfinished", SessionList).show(
            [
                (
                    row.id,
                    (
                        short_time(row.started_at),
                        game_name(row.game, lang, session_title(row.game, row.options)),
                        player_names(row),
                        str(store.last_seq(row.id)),
                    ),
                )
                for row in active
            ]
        )
        self.query_one("#past", SessionList).show(
            [
                (
                    row.id,
                    (
                        short_time(row.started_at),
                        game_name(row.game, lang, session_title(row.game, row.options)),
                        player_names(row),
                        winner_names(row) if row.status == "finished" else _("abandoned"),
                    ),
                )
                for row in store.sessions(limit=PAST_LIMIT)
                if row.status != "active"
            ]
        )
        return active

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
                f"{game_name(row.game, lang, session_title(row.game, row.options))}  "
                f"({player_names(row)})",
            )
            for row in sessions
        ]
        choices.append(("", _("Not now")))
        super().__init__(_("Continue an unfinished session?"), choices)

    def answer(self, option_id: str | None) -> str | None:
        return option_id or None  # "Not now" has the empty id
