"""计分板 Score pad screen: a table of rounds × players, totals, the leader marked."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey

from companion.games.scorepad.render import banner, round_cells, round_headers
from companion.games.scorepad.rules import CloseRound, EndGame, Score, ScorepadState
from companion.games.scorepad.view import HOST_ROUNDS, pad_view
from companion.i18n import N_, _
from companion.widgets.dialogs import ConfirmDialog, PromptDialog, parse_whole_number
from companion.widgets.game_screen import GameScreen
from companion.widgets.shown import Shown

parse_points = parse_whole_number
"""``"+5"``, ``"-3"``, ``"7"`` → int; anything else raises ``ValueError``."""


def _cell_width(cell: str | Text) -> int:
    return cell.cell_len if isinstance(cell, Text) else cell_len(cell)


def _cell_key(cell: str | Text) -> object:
    """What a cell shows (``Text`` equality ignores its style)."""
    return (cell.plain, str(cell.style), cell.justify) if isinstance(cell, Text) else cell


class ScorepadScreen(GameScreen):
    CSS_PATH = "screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "score", N_("Score")),
        Binding("plus,equals_sign", "bump(1)", N_("+1")),
        Binding("minus", "bump(-1)", N_("-1")),
        Binding("c", "close_round", N_("Close round")),
        Binding("E", "end_game", N_("End game")),
    ]
    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "score": (Score.type,),
        "bump": (Score.type,),
        "close_round": (CloseRound.type,),
        "end_game": (EndGame.type,),
    }

    _pad_shape: tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]] | None = None
    """(headers, row keys, column widths) of the table as it stands."""
    _pad_columns: list[ColumnKey] = []  # noqa: RUF012 (replaced, never mutated)
    _pad_cells: dict[str, tuple[str | Text, ...]] = {}  # noqa: RUF012

    def compose_game(self) -> ComposeResult:
        yield Shown("", id="pad-banner", classes="phase-banner")
        yield DataTable(id="pad", cursor_type="row", zebra_stripes=True)
        yield Shown("", id="pad-help", classes="hint")

    @property
    def pad(self) -> ScorepadState:
        state: ScorepadState = self.session.state
        return state

    def refresh_view(self) -> None:
        view = pad_view(self.pad, max_rounds=HOST_ROUNDS)
        self.query_one("#pad-banner", Static).update(banner(view))
        table = self.query_one("#pad", DataTable)
        headers = (_("Player"), *round_headers(view), _("Total"))
        rows: dict[str, tuple[str | Text, ...]] = {}
        for row in view.rows:
            style = "bold reverse" if row.leading else "bold"
            total = Text(str(row.total), style=style, justify="right")
            rows[row.player] = (row.name, *round_cells(view, row), total)
        widths = tuple(
            max(cell_len(header), *(_cell_width(cells[i]) for cells in rows.values()))
            for i, header in enumerate(headers)
        )
        shape = (headers, tuple(rows))
        built = self._pad_shape
        if (
            built is not None
            and (built[0], built[1]) == shape
            and all(new >= old for new, old in zip(widths, built[2], strict=True))
        ):
            # Same columns and rows, no column narrower: a rebuild would draw the same
            # grid (a column widens to its widest cell either way), so only the cells
            # that changed are written (issue 26: every key had cleared and refilled
            # the table). A column that would shrink (an undo) is built again. Widths
            # settle at the table's idle pass on both paths (add_row defers them too).
            for key, cells in rows.items():
                before = self._pad_cells.get(key, ())
                for column, cell, old in zip(self._pad_columns, cells, before, strict=False):
                    if _cell_key(cell) != _cell_key(old):
                        table.update_cell(key, column, cell, update_width=True)
            self._pad_shape = (*shape, widths)
        else:
            cursor = table.cursor_row
            table.clear(columns=True)
            self._pad_columns = table.add_columns(*headers)
            for key, cells in rows.items():
                table.add_row(*cells, key=key)
            if 0 <= cursor < len(view.rows):
                table.move_cursor(row=cursor)
            self._pad_shape = (*shape, widths)
        self._pad_cells = rows
        self._show_help()

    def _show_help(self) -> None:
        """The hint says that after an entry the highlight moves on to the next seat by
        itself, and the arrows move on from there (a host who pressed Down after an
        entry, as in a spreadsheet, wrote to the seat after: issue 22)."""
        hint = _(
            "enter or s: write points for the highlighted player (the highlight then moves "
            "on to the next player; arrows move it from there) · +/-: one point · "
            "c: close the round · E: end the game · ctrl+z: undo · ?: help"
        )
        self.query_one("#pad-help", Static).update(hint)

    def _current_player(self) -> str | None:
        table = self.query_one("#pad", DataTable)
        if not 0 <= table.cursor_row < len(self.pad.players):
            return None
        return self.pad.players[table.cursor_row].id

    def action_score(self) -> None:
        pid = self._current_player()
        if pid is None:
            return
        name = self.session.player(pid).name

        def check(text: str) -> str | None:
            try:
                parse_points(text)
            except ValueError:
                return _("{text!r} is not a whole number; write e.g. 5, +5 or -3.").format(
                    text=text
                )
            return None

        def done(text: str | None) -> None:
            if text is not None:
                self.submit(Score(pid, parse_points(text)))
                self._next_player()

        self.app.push_screen(
            PromptDialog(
                _("Points for {name} in round {n}").format(name=name, n=self.pad.round_number),
                check=check,
                placeholder="+5",
            ),
            done,
        )

    def on_mount(self) -> None:
        # (Textual also runs GameScreen.on_mount, which fills the table.)
        self.call_after_refresh(self._resume_cursor)

    def _resume_cursor(self) -> None:
        """A resumed round opens on the seat after the last one scored in it (it had
        opened on the first seat, so the next points went to the wrong player)."""
        state = self.pad
        if state.current and state.ended is None:
            last = state.current[-1][0]
            ids = [p.id for p in state.players]
            if last in ids:
                table = self.query_one("#pad", DataTable)
                table.move_cursor(row=(ids.index(last) + 1) % len(ids))

    def _next_player(self) -> None:
        """After writing a player's points the cursor moves on to the next seat."""
        table = self.query_one("#pad", DataTable)
        if self.pad.players:
            table.move_cursor(row=(table.cursor_row + 1) % len(self.pad.players))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_score()

    def action_bump(self, points: int) -> None:
        pid = self._current_player()
        if pid is not None:
            self.submit(Score(pid, points))

    def action_close_round(self) -> None:
        self.submit(CloseRound())

    def action_end_game(self) -> None:
        def done(yes: bool | None) -> None:
            if yes:
                self.submit(EndGame())

        self.app.push_screen(
            ConfirmDialog(_("End the game now? The open round is closed and nobody can score.")),
            done,
        )


SCREEN = ScorepadScreen
