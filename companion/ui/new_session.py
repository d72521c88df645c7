"""New session: players from the roster or new ones, seat order, the game's options.

Nothing is written until the host starts and the rules accept the setup; a refused
setup shows the rules' message and creates nothing.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import DataTable, Header, Input, Label, OptionList, Select, Switch
from textual.widgets.option_list import Option

from companion.games import GameInfo
from companion.i18n import N_, _
from companion.rules.base import OptionSpec, Player, RuleError
from companion.rules.names import MAX_NAME_CELLS, fit_name, name_cells
from companion.session.store import StoreError
from companion.widgets.dialogs import ConfirmDialog
from companion.widgets.footer import KeyFooter
from companion.widgets.text_input import TextInput
from companion.widgets.translate import translate_bindings

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp

COLOURS = (
    "red",
    "yellow",
    "green",
    "blue",
    "purple",
    "orange",
    "pink",
    "white",
    "black",
    "grey",
    "brown",
    "cyan",
)
COLOUR_NAMES = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "blue": N_("blue"),
    "purple": N_("purple"),
    "orange": N_("orange"),
    "pink": N_("pink"),
    "white": N_("white"),
    "black": N_("black"),
    "grey": N_("grey"),
    "brown": N_("brown"),
    "cyan": N_("cyan"),
}


@dataclass(frozen=True)
class Seat:
    name: str
    colour: str | None
    birth_date: str | None


def check_birth_date(text: str) -> str | None:
    """An error message, or None if ``text`` is empty or a real YYYY-MM-DD date."""
    if not text.strip():
        return None
    clean = text.strip()
    try:
        day = dt.date.fromisoformat(clean)
    except ValueError:
        parts = clean.split("-")
        if len(parts) == 3 and all(part.isdigit() for part in parts) and len(parts[0]) == 4:
            year, month = int(parts[0]), int(parts[1])
            if not 1 <= month <= 12:
                return _("{date} is not a real date: a month is 01 to 12.").format(date=clean)
            days = calendar.monthrange(max(year, 1), month)[1]
            return _("{date} is not a real date: that month has {n} days.").format(
                date=clean, n=days
            )
        return _("A birth date is written YYYY-MM-DD, e.g. 2012-05-31.")
    if day > dt.date.today():
        return _("A birth date cannot be in the future.")
    return None


class SeatTable(DataTable[str]):
    """The seated players in seating order (clockwise)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("u", "move(-1)", N_("Seat up")),
        Binding("d", "move(1)", N_("Seat down")),
        Binding("x,delete", "remove", N_("Remove")),
        Binding("e", "edit", N_("Edit")),
    ]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)
        translate_bindings(self)

    def action_move(self, delta: int) -> None:
        screen = self.screen
        assert isinstance(screen, NewSessionScreen)
        screen.move_seat(self.cursor_row, delta)

    def action_remove(self) -> None:
        screen = self.screen
        assert isinstance(screen, NewSessionScreen)
        screen.remove_seat(self.cursor_row)

    def action_edit(self) -> None:
        screen = self.screen
        assert isinstance(screen, NewSessionScreen)
        screen.edit_seat(self.cursor_row)


class PlayerDialog(ModalScreen[Seat | None]):
    """Edit one seat's name, ring colour and birth date."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("ctrl+s", "save", N_("Save")),
    ]

    def __init__(self, seat: Seat, taken: dict[str, str] | None = None) -> None:
        super().__init__()
        self.seat = seat
        self.taken = taken or {}
        """Colours other seats already have: colour → that seat's name."""
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(_("Name"))
            yield TextInput(self.seat.name, id="player-name")
            yield Label(_(NAME_LIMIT_HINT), classes="hint")
            yield Label(_("Colour"))
            yield Select(
                [(_(COLOUR_NAMES[c]), c) for c in COLOURS],
                value=self.seat.colour or Select.BLANK,
                id="player-colour",
                allow_blank=True,
            )
            yield Label(_("Birth date (optional, YYYY-MM-DD)"))
            yield TextInput(self.seat.birth_date or "", id="player-birth", placeholder="2012-05-31")
            yield Label("", id="player-error", classes="error")
            yield Label(_("[ctrl+s] save   [esc] cancel"), classes="hint")

    def on_input_submitted(self) -> None:
        self.action_save()

    def action_save(self) -> None:
        name = self.query_one("#player-name", Input).value.strip()
        birth = self.query_one("#player-birth", Input).value.strip()
        colour = self.query_one("#player-colour", Select).value
        problem = (
            _("A player needs a name.")
            if not name
            else name_problem(name) or check_birth_date(birth)
        )
        if not problem and isinstance(colour, str) and colour in self.taken:
            problem = _("{name} already plays {colour}; pick another colour.").format(
                name=self.taken[colour], colour=_(COLOUR_NAMES.get(colour, colour))
            )
        if problem:
            self.query_one("#player-error", Label).update(problem)
            return
        self.dismiss(Seat(name, colour if isinstance(colour, str) else None, birth or None))

    def action_cancel(self) -> None:
        self.dismiss(None)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be seated (too wide for the tables), or None."""
    if name_cells(name) > MAX_NAME_CELLS:
        return _(
            "{name} is too long: a name takes up to 16 letters or 8 Chinese characters."
        ).format(name=fit_name(name, MAX_NAME_CELLS + 8))
    return None


NAME_LIMIT_HINT = N_("Up to 16 letters or 8 Chinese characters.")
"""Said next to every name field (a Chinese character is two cells wide on screen)."""


class NameInput(TextInput):
    """The new player's name: emptied the moment Enter submits it (by the app's Enter,
    in key order), so a burst of names and Enters seats each name on its own."""

    clear_on_submit = True


class OptionsColumn(VerticalScroll, can_focus=False):
    """The options scroll with the mouse or with the fields inside; the column itself
    is no Tab stop (text typed into it vanished)."""


class OptionProblems(Exception):
    """The preparer refused options (by option name); shown next to their fields."""

    def __init__(self, problems: Mapping[str, RuleError | str]) -> None:
        super().__init__(", ".join(problems))
        self.problems = problems


NEW_SESSION_ABOUT = N_(
    "Type a player's name and press Enter to seat them; the seat list is the order of "
    "play (on the list: u and d move a seat, x removes it, e edits it). Tab moves to the "
    "next field or option; a value the game cannot use is said next to its field. "
    "ctrl+s starts the game; escape goes back (it asks first when players are seated)."
)
"""What ``?`` / F1 says of this screen."""


class NewSessionScreen(Screen[None]):
    """Choose players and options for one game, then start."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", N_("Start"), priority=True),
        Binding("escape", "cancel", N_("Back")),
        Binding("question_mark,f1", "help", N_("Help")),
    ]

    def action_help(self) -> None:
        from companion.widgets.help import HelpScreen

        self.app.push_screen(HelpScreen(self, _("New session"), _(NEW_SESSION_ABOUT)))

    def __init__(
        self,
        info: GameInfo,
        seats: Sequence[Seat] = (),
        options: Mapping[str, Any] | None = None,
    ) -> None:
        """``seats`` and ``options`` prefill the form ("same table again")."""
        super().__init__()
        self.info = info
        self.game = info.load()
        self.seats: list[Seat] = list(seats)
        self.preset = dict(options or {})
        translate_bindings(self)

    @property
    def companion(self) -> CompanionApp:
        from companion.ui.app import CompanionApp

        assert isinstance(self.app, CompanionApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield Header(show_clock=True)
        with Horizontal(id="new-session"):
            with Vertical(id="roster-column"):
                yield Label(_("New player (enter to seat)"), classes="section-title")
                yield NameInput(id="new-name", placeholder=_("Name"))
                yield Label(_(NAME_LIMIT_HINT), id="name-limit", classes="hint")
                yield Label(_("Known players (enter to seat)"), classes="section-title")
                yield OptionList(id="roster")
                yield Label(_("No known players yet."), id="roster-empty", classes="hint")
            with Vertical(id="seat-column"):
                yield Label(_("Seating order (clockwise)"), classes="section-title")
                yield SeatTable(id="seats")
                yield Label("", id="setup-error", classes="error")
            with OptionsColumn(id="options-column"):
                yield Label(_("Options"), classes="section-title")
                for spec in self.game.options:
                    yield Label(_(spec.label), classes="option-label")
                    yield self._option_widget(spec)
                    yield Label("", id=f"opt-error-{spec.name}", classes="error option-error")
        yield KeyFooter()

    def _option_widget(self, spec: OptionSpec) -> Switch | Input | Select[str]:
        wid = f"opt-{spec.name}"
        value = self.preset.get(spec.name, spec.default)
        if spec.kind is bool:
            return Switch(bool(value), id=wid)
        if spec.kind is int:
            return TextInput(str(value if value is not None else ""), id=wid, type="integer")
        if spec.choices:
            return Select(
                [(self._choice_label(c), c) for c in spec.choices],
                value=str(value) if value in spec.choices else str(spec.default),
                allow_blank=False,
                id=wid,
            )
        return TextInput(str(value or ""), id=wid)

    def on_mount(self) -> None:
        self.sub_title = _("New session") + " · " + self.info.name(self.companion.lang)
        roster = self.query_one("#roster", OptionList)
        for entry in self.companion.store.roster():
            roster.add_option(Option(entry.name, id=entry.name))
        # An empty list would be a Tab stop where typed names vanish.
        roster.display = roster.option_count > 0
        self.query_one("#roster-empty", Label).display = roster.option_count == 0
        if roster.option_count:
            roster.highlighted = 0
        self.render_seats()
        self.query_one("#new-name", Input).focus()

    # ------------------------------------------------------------------ seats

    def add_seat(self, name: str, colour: str | None = None, birth_date: str | None = None) -> bool:
        """Seat ``name``; False (and the reason said under the seats) if refused."""
        clean = name.strip()
        if not clean:  # said, and the old message goes (it said nothing before)
            self.show_error(_("A player needs a name: type it, then Enter."))
            return False
        problem = name_problem(clean)
        if problem:
            self.show_error(problem)
            return False
        if any(s.name.casefold() == clean.casefold() for s in self.seats):
            self.show_error(_("{name} is already seated.").format(name=clean))
            return False
        if colour is None:
            used = {s.colour for s in self.seats}
            colour = next((c for c in COLOURS if c not in used), None)
        self.seats.append(Seat(clean, colour, birth_date))
        self.show_error("")
        self.render_seats()
        return True

    def move_seat(self, row: int, delta: int) -> None:
        target = row + delta
        if 0 <= row < len(self.seats) and 0 <= target < len(self.seats):
            self.seats[row], self.seats[target] = self.seats[target], self.seats[row]
            self.render_seats()
            self.query_one(SeatTable).move_cursor(row=target)

    def remove_seat(self, row: int) -> None:
        if 0 <= row < len(self.seats):
            del self.seats[row]
            self.render_seats()
            if self.seats:  # the cursor stays on the seat that took the removed one's place
                self.query_one(SeatTable).move_cursor(row=min(row, len(self.seats) - 1))

    def edit_seat(self, row: int) -> None:
        if not 0 <= row < len(self.seats):
            return

        def done(seat: Seat | None) -> None:
            if seat is not None:
                clash = any(
                    s.name.casefold() == seat.name.casefold()
                    for i, s in enumerate(self.seats)
                    if i != row
                )
                if clash:
                    self.show_error(_("{name} is already seated.").format(name=seat.name))
                    return
                self.seats[row] = seat
                self.render_seats()

        taken = {s.colour: s.name for i, s in enumerate(self.seats) if i != row and s.colour}
        self.app.push_screen(PlayerDialog(self.seats[row], taken), done)

    def render_seats(self) -> None:
        table = self.query_one(SeatTable)
        cursor = table.cursor_row
        # The birth date column only once a seat has one: empty, it still took 12 cells
        # and at 80x24 it was off the table's right edge behind a scroll bar (eight
        # 16-cell names), so a host never saw that a date had been read either.
        dated = any(seat.birth_date for seat in self.seats)
        titles = [_("Seat"), _("Name"), _("Colour")] + ([_("Birth date")] if dated else [])
        if [str(c.label) for c in table.ordered_columns] != titles:
            table.clear(columns=True)
            table.add_columns(*titles)
        else:
            table.clear()
        for i, seat in enumerate(self.seats, start=1):
            colour = _(COLOUR_NAMES[seat.colour]) if seat.colour in COLOUR_NAMES else ""
            row = [str(i), seat.name, colour] + ([seat.birth_date or ""] if dated else [])
            table.add_row(*row)
        if self.seats:
            table.move_cursor(row=max(0, min(cursor, len(self.seats) - 1)))
        self._name_seat_choices()

    def _choice_label(self, choice: str) -> str:
        """An option's choice in words; a seat (``p3``, the id the rules keep) by the
        name seated there: the Cat Box start player listed ``p1``…``p8`` whatever the
        table."""
        match = re.fullmatch(r"p(\d+)", choice)
        seats = getattr(self, "seats", [])
        if match is None:
            return _(choice)
        number = int(match.group(1))
        if number <= len(seats):
            return f"{number}. {seats[number - 1].name}"
        return _("seat {n} (nobody yet)").format(n=number)

    def _name_seat_choices(self) -> None:
        for spec in self.info.rules.options:
            if not spec.choices or not any(re.fullmatch(r"p\d+", c) for c in spec.choices):
                continue
            for select in self.query(f"#opt-{spec.name}").results(Select):
                value = select.value
                select.set_options([(self._choice_label(c), c) for c in spec.choices])
                if isinstance(value, str) and value in spec.choices:
                    select.value = value

    def show_error(self, message: str) -> None:
        self.query_one("#setup-error", Label).update(message)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if event.input.id == "new-name":
            seated = self.add_seat(event.value)
            if not isinstance(event.input, NameInput):  # a NameInput clears itself in order
                event.input.value = ""
            if not seated and event.value.strip() and not event.input.value:
                event.input.value = event.value  # a refused name stays to be shortened

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        for entry in self.companion.store.roster():
            if entry.name == event.option.id:
                self.add_seat(entry.name, entry.colour, entry.birth_date)

    # ------------------------------------------------------------------ start

    def read_options(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The form's option values, and the problems of the number fields by option:
        not a whole number, or outside the option's range. Each is shown next to its
        field in the host's words (the rules' own check names the option by its
        internal name, "Option target must be at least 0", under the seats)."""
        out: dict[str, Any] = {}
        problems: dict[str, str] = {}
        for spec in self.game.options:
            widget = self.query_one(f"#opt-{spec.name}")
            if isinstance(widget, Switch | Select):
                out[spec.name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if spec.kind is not int:
                    out[spec.name] = text
                    continue
                try:
                    value = int(text) if text else spec.default
                except ValueError:
                    problems[spec.name] = _("{text!r} is not a whole number.").format(text=text)
                    continue
                out[spec.name] = value
                if isinstance(value, int) and spec.minimum is not None and value < spec.minimum:
                    problems[spec.name] = _("At least {minimum}.").format(minimum=spec.minimum)
                elif isinstance(value, int) and spec.maximum is not None and value > spec.maximum:
                    problems[spec.name] = _("At most {maximum}.").format(maximum=spec.maximum)
        return out, problems

    def preparer_check(
        self,
    ) -> Callable[[Mapping[str, Any]], Mapping[str, RuleError | str]] | None:
        """The game's preparer's ``check_options`` (the files it would read: a card set,
        act music), if it has one — the one machine-side check of the options."""
        prepare = self.info.prepare.load() if self.info.prepare is not None else None
        check: Callable[[Mapping[str, Any]], Mapping[str, RuleError | str]] | None = getattr(
            prepare, "check_options", None
        )
        return check

    def show_option_problems(self, problems: Mapping[str, RuleError | str]) -> None:
        """Each option's problem next to its field (an empty mapping clears them)."""
        for spec in self.game.options:
            problem = problems.get(spec.name)
            text = problem.render(_) if isinstance(problem, RuleError) else problem or ""
            self.query_one(f"#opt-error-{spec.name}", Label).update(text)

    def action_start(self) -> None:
        players = tuple(
            replace(Player(f"p{i}", s.name), colour=s.colour, birth_date=s.birth_date)
            for i, s in enumerate(self.seats, start=1)
        )
        options, problems = self.read_options()
        self.show_option_problems(problems)
        if problems:
            return
        from companion.session.live import LiveSession

        app = self.companion
        seats = list(self.seats)

        check_files = self.preparer_check()

        def start() -> LiveSession:  # on the writer thread: the UI never waits for the disk
            # What only this machine can check (a music file exists and decodes, a card
            # file reads) is checked here, before anything is written; the rules
            # checked the rest.
            problems = check_files(options) if check_files is not None else {}
            if problems:
                raise OptionProblems(problems)
            live = LiveSession.start(
                app.store, self.info.id, players, options, clock=app.clock, rng=app.rng
            )
            for seat in seats:  # after the session: a full disk here loses no game
                try:
                    app.store.add_to_roster(seat.name, seat.colour, seat.birth_date)
                except StoreError:
                    break
            return live

        def started(future: Future[LiveSession]) -> None:
            error = future.exception()
            if isinstance(error, OptionProblems):
                self.show_option_problems(error.problems)
            elif isinstance(error, RuleError | StoreError):
                self.show_error(error.render(_))
            elif isinstance(error, ValueError):
                self.show_error(str(error))
            elif error is not None:
                raise error
            else:  # in the screen's own message loop, as when the key was handled
                self.call_later(self._open, future.result())

        app.write(start, started)

    def _open(self, live: Any) -> None:
        self.dismiss()
        self.companion.open_session(live)

    def action_cancel(self) -> None:
        """Back to home; with players seated, ask first (they would be dropped)."""
        if not self.seats:
            self.dismiss()
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss()

        self.app.push_screen(
            ConfirmDialog(
                _("Leave this form? The {n} seated players are dropped.").format(n=len(self.seats))
            ),
            answered,
        )
