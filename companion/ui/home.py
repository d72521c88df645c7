"""Home: start a session, resume an unfinished one, see the past ones."""

from __future__ import annotations

import importlib.util
from collections.abc import Sequence
from concurrent.futures import Future
from typing import TYPE_CHECKING, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Header, Label, OptionList
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


def player_names(row: SessionRow) -> str:
    return ", ".join(p.name for p in row.players)


def winner_names(row: SessionRow) -> str:
    if not row.outcome:
        return ""
    ids = set(row.outcome.get("winners", []))
    return ", ".join(p.name for p in row.players if p.id in ids)


def short_time(iso: str) -> str:
    return iso[:16].replace("T", " ")


class HomeScreen(Screen[None]):
    """The first screen. Lists all five games in the chosen language."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_session", N_("New session")),
        Binding("r", "resume", N_("Resume")),
        Binding("a", "abandon", N_("Abandon")),
        Binding("h", "history", N_("History")),
        Binding("p", "play_again", N_("Same table again")),
    ]

    def __init__(self) -> None:
        super().__init__()
        translate_bindings(self)

    @property
    def companion(self) -> CompanionApp:
        from companion.ui.app import CompanionApp

        assert isinstance(self.app, CompanionApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Header(show_clock=True)
        with Horizontal(id="home"):
            with Vertical(id="home-games"):
                yield Label(_("New session"), classes="section-title")
                yield OptionList(id="games")
            with Vertical(id="home-sessions"):
                yield Label(_("Unfinished sessions"), classes="section-title")
                yield DataTable(id="unfinished", cursor_type="row", zebra_stripes=True)
                yield Label(_("Past sessions"), classes="section-title")
                yield DataTable(id="past", cursor_type="row", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = _("Home")
        lang = self.companion.lang
        games = self.query_one("#games", OptionList)
        for info in GAMES:
            games.add_option(Option(info.name(lang), id=info.id))
        for table_id in ("#unfinished", "#past"):
            table = self.query_one(table_id, DataTable)
            table.add_columns(
                _("Started"),
                _("Game"),
                _("Players"),
                _("Winners") if table_id == "#past" else _("Entries"),
            )
        self.reload()
        games.highlighted = 0
        games.focus()
        unfinished = self.companion.store.sessions(status="active")
        if unfinished:
            self.app.push_screen(ResumeDialog(unfinished, lang), self._resume_chosen)

    def on_screen_resume(self) -> None:
        self.reload()

    def reload(self) -> None:
        store = self.companion.store
        lang = self.companion.lang
        unfinished = self.query_one("#unfinished", DataTable)
        unfinished.clear()
        for row in store.sessions(status="active"):
            unfinished.add_row(
                short_time(row.started_at),
                game_name(row.game, lang, session_title(row.game, row.options)),
                player_names(row),
                str(store.last_seq(row.id)),
                key=row.id,
            )
        past = self.query_one("#past", DataTable)
        past.clear()
        for row in store.sessions(limit=PAST_LIMIT):
            if row.status == "active":
                continue
            winners = winner_names(row) if row.status == "finished" else _("abandoned")
            past.add_row(
                short_time(row.started_at),
                game_name(row.game, lang, session_title(row.game, row.options)),
                player_names(row),
                winners,
                key=row.id,
            )

    # ------------------------------------------------------------------ actions

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            from companion.ui.new_session import NewSessionScreen

            self.app.push_screen(NewSessionScreen(find_game(event.option.id)))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "unfinished" and event.row_key.value:
            self._resume_chosen(event.row_key.value)

    def action_new_session(self) -> None:
        """The form for the highlighted game (the first one if none is)."""
        from companion.ui.new_session import NewSessionScreen

        games = self.query_one("#games", OptionList)
        index = games.highlighted if games.highlighted is not None else 0
        games.focus()
        self.app.push_screen(NewSessionScreen(GAMES[index]))

    def _selected_unfinished(self) -> str | None:
        table = self.query_one("#unfinished", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value) if key.value else None

    def _selected_session(self) -> str | None:
        """The highlighted row of the session table that has focus (else unfinished)."""
        focused = self.focused
        table_id = "#past" if isinstance(focused, DataTable) and focused.id == "past" else None
        table = self.query_one(table_id or "#unfinished", DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value) if key.value else None

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
