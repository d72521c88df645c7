"""The vote grid: one row per voter, a target picked by its seat key, live weighted totals.

Design decisions:

* Attributes down, messages up: the screen hands the grid the view-model's ``Tally``
  and ``VoterRow``s (counted by the rules, labelled once in ``view.py``, the same
  numbers the board shows) and the grid posts ``VoteGrid.Cast`` / ``VoteGrid.Withdraw``.
  The grid counts nothing itself.
* **One table**, one row per voter: seat, name, weight (the ring holder's ``1.5 ring``),
  their vote, and the weighted total they have *received* with a bar and the
  leader / tie mark. Voters and candidates are the same players (less the revealed),
  so the table is as tall as the table of players and as narrow as five short
  columns: it keeps its names and numbers at 80x24 as at 200x60.
* Cells that changed are updated in place (``update_cell``), so the cursor stays
  where the host is typing; a new ballot rebuilds the rows and starts at the top.
* A target is picked by its **seat number** (``1``…``9``, ``0`` for seat 10); after a
  vote the cursor jumps to the next voter who has not voted yet.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.message import Message
from textual.widgets import DataTable, Static

from companion.games.meowfia.view import Tally, Total, VoterRow, seat_key
from companion.i18n import N_, _, listing
from companion.widgets.shown import Shown
from companion.widgets.translate import translate_bindings

BAR_WIDTH = 10
MARK_STYLES = {
    "leads": "bold reverse",
    "accused": "bold white on red",
    "tie": "bold black on yellow",
    "": "",
}
MARK_NAMES = {"leads": N_("leads"), "accused": N_("accused"), "tie": N_("tie"), "": ""}
COLUMNS = ("seat", "voter", "weight", "vote", "received")


def grid_title(tally: Tally) -> str:
    title = tally.title.render(_)
    if tally.number > 1:
        title += "  " + _("(revote)")
    if tally.earlier_tie is not None:
        total, tied = tally.earlier_tie
        title += "  ·  " + _("ballot {b}: tie at {total} between {names}").format(
            b=tally.number - 1, total=total, names=listing(s.label for s in tied)
        )
    return title


def grid_status(tally: Tally) -> str:
    if tally.result == "tie":
        return _("Tie at {total} between {names}: no one is accused. Press r for a revote.").format(
            total=tally.best, names=listing(s.label for s in tally.tied)
        )
    if tally.result == "accused" and tally.accused is not None:
        return _("{name} is accused with {total}. Press v to turn their tile.").format(
            name=tally.accused.label, total=tally.best
        )
    return _(
        "{entered} of {voters} entered. Cursor on a voter, then the seat key of "
        "their target; a: abstain; backspace: clear."
    ).format(entered=tally.voted, voters=tally.voters)


def received(total: Total | None) -> Text:
    """``2.5 ████ leads``: a candidate's weighted total, bar and mark; ``—`` for none."""
    if total is None:
        return Text("—", style="dim")
    style = MARK_STYLES[total.mark]
    text = Text(total.total, style="bold" if total.mark else "")
    bar = "█" * round(total.share * BAR_WIDTH)
    if bar:
        text.append(" " + bar, style="cyan")
    if total.mark:
        text.append(" " + _(MARK_NAMES[total.mark]), style=style)
    return text


def name_seat_keys(node: DOMNode, action: str, seats: int) -> None:
    """Show ``node``'s number key for ``action`` as the keys this table has: ``1–7`` at
    seven seats, ``1–0`` at ten (the footer said ``1–0`` whatever the table, issue 22)."""
    table = node._bindings.key_to_bindings
    table["1"] = [
        replace(b, key_display=f"1–{seat_key(seats)}") if b.action == action else b
        for b in table.get("1", [])
    ]


class VoteGrid(Vertical):
    """A ballot on screen. Focus the table; number keys vote, ``a`` abstains."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick('1')", N_("Vote: seat number"), key_display="1–0"),
        *[Binding(k, f"pick('{k}')", "", show=False) for k in "234567890"],
        Binding("a", "abstain", N_("Abstain")),
        Binding("backspace", "withdraw", N_("Clear vote")),
    ]

    class Cast(Message):
        """The host entered ``voter``'s vote: a player id, or ``None`` to abstain."""

        def __init__(self, voter: str, target: str | None) -> None:
            super().__init__()
            self.voter = voter
            self.target = target

    class Withdraw(Message):
        """The host cleared ``voter``'s entry on the open ballot."""

        def __init__(self, voter: str) -> None:
            super().__init__()
            self.voter = voter

    class Refused(Message):
        """The host picked a seat that is not at this table (the screen says why)."""

        def __init__(self, key: str) -> None:
            super().__init__()
            self.key = key

    def __init__(self, seats: int = 10, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        name_seat_keys(self, "pick('1')", seats)
        self.tally: Tally | None = None
        self.rows: tuple[VoterRow, ...] = ()
        self.seats: Mapping[str, str] = {}
        self._typed_ahead: set[int] = set()
        """Rows entered by key whose commit has not been shown yet."""
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        yield Shown("", classes="vote-title")
        table: DataTable[str | Text] = DataTable(
            cursor_type="row", zebra_stripes=True, classes="vote-table"
        )
        yield table
        yield Shown("", classes="vote-status")

    @property
    def table(self) -> DataTable[str | Text]:
        return self.query_one(".vote-table", DataTable)

    # ------------------------------------------------------------------ rendering

    def show(self, tally: Tally, rows: tuple[VoterRow, ...], seats: Mapping[str, str]) -> None:
        """Render a ballot; keep the cursor on its voter, or move to the next one to vote."""
        old, old_rows = self.tally, self.rows
        same = (
            old is not None
            and (old.reckoning, old.number) == (tally.reckoning, tally.number)
            and [r.who.pid for r in old_rows] == [r.who.pid for r in rows]
        )
        previous = self.current_voter() if same else None
        if same:
            # An entry vanished (undo, clear): go to that voter, to enter it again.
            had = {r.who.pid for r in old_rows if r.entry != "none"}
            cleared = [r.who.pid for r in rows if r.entry == "none" and r.who.pid in had]
            if cleared:
                previous = cleared[0]
        self.tally, self.rows, self.seats = tally, rows, seats
        # Typed rows whose entry has now landed are no longer "ahead"; a new ballot resets.
        self._typed_ahead = (
            {i for i in self._typed_ahead if i < len(rows) and rows[i].entry == "none"}
            if same
            else set()
        )
        self.query_one(".vote-title", Static).update(Text(grid_title(tally), style="bold"))
        totals = {t.who.pid: t for t in tally.totals}
        cells = [self._cells(row, totals.get(row.who.pid), tally) for row in rows]
        table = self.table
        if same and table.row_count == len(rows):
            for row, values in zip(rows, cells, strict=True):
                for column, value in zip(COLUMNS, values, strict=True):
                    if table.get_cell(row.who.pid, column) != value:
                        table.update_cell(row.who.pid, column, value, update_width=True)
        else:
            table.clear(columns=True)
            for column, label in zip(
                COLUMNS,
                (_("Seat"), _("Voter"), _("Weight"), _("Vote"), _("Votes received")),
                strict=True,
            ):
                table.add_column(label, key=column)
            for row, values in zip(rows, cells, strict=True):
                table.add_row(*values, key=row.who.pid)
        style = {"open": "", "tie": "bold black on yellow", "accused": "bold white on red"}
        self.query_one(".vote-status", Static).update(
            Text(grid_status(tally), style=style[tally.result])
        )
        self._place_cursor(previous)

    def _cells(self, row: VoterRow, total: Total | None, tally: Tally) -> list[str | Text]:
        weight = Text(row.weight, style="bold magenta" if row.ring else "")
        if row.ring:
            weight.append(" " + _("ring"), style="magenta")
        name = Text(row.who.name)
        if row.revealed is not None:
            note = _("revealed: {role}").format(role=row.revealed or _("Meowfia"))
            name.append(f" ({note})", style="dim")
        if row.entry == "vote" and row.target is not None:
            leads = row.target_leads and tally.result != "tie"
            vote = Text("→ " + row.target.label, style="bold reverse" if leads else "bold")
        elif row.entry == "abstain":
            vote = Text(_("abstains"), style="italic dim")
        else:
            vote = Text("…", style="dim")
        return [Text(row.who.key, justify="right"), name, weight, vote, received(total)]

    def _place_cursor(self, previous: str | None) -> None:
        rows, tally = self.rows, self.tally
        if tally is None or not rows:
            return
        ids = [r.who.pid for r in rows]
        if tally.result != "open":
            # A closed ballot points at its result (the same after a restart).
            shown = tally.accused or (tally.tied[0] if tally.tied else None)
            self.table.move_cursor(row=ids.index(shown.pid) if shown and shown.pid in ids else 0)
            return
        start = ids.index(previous) if previous in ids else 0
        if rows[start].entry != "none":
            for step in range(1, len(ids) + 1):
                if rows[(start + step) % len(ids)].entry == "none":
                    start = (start + step) % len(ids)
                    break
        self.table.move_cursor(row=start)

    def current_voter(self) -> str | None:
        index = self.table.cursor_row
        return self.rows[index].who.pid if 0 <= index < len(self.rows) else None

    def focus_table(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Without a ballot on screen the keys belong to the screen around the grid.
        return self.tally is not None and self.display

    def action_pick(self, key: str) -> None:
        voter = self.current_voter()
        if voter is None:
            return
        target = self.seats.get(key)
        if target is None:
            self.post_message(self.Refused(key))
            return
        self.post_message(self.Cast(voter, target))
        self._advance_past(voter)

    def action_abstain(self) -> None:
        voter = self.current_voter()
        if voter is not None:
            self.post_message(self.Cast(voter, None))
            self._advance_past(voter)

    def refused(self, voter: str) -> None:
        """The entry typed for ``voter`` was refused: put the cursor back on their row."""
        ids = [r.who.pid for r in self.rows]
        if voter in ids:
            self._typed_ahead.discard(ids.index(voter))
            self.table.move_cursor(row=ids.index(voter))

    def _advance_past(self, voter: str) -> None:
        """Move on at once, before the commit lands, so votes can be typed one after another.

        The next row without an entry (other than ``voter``) gets the cursor; when the
        commit is refused the cursor goes back there and the message says why.
        """
        ids = [r.who.pid for r in self.rows]
        start = ids.index(voter)
        for step in range(1, len(ids)):
            index = (start + step) % len(ids)
            if self.rows[index].entry == "none" and index not in self._typed_ahead:
                self._typed_ahead.add(start)
                self.table.move_cursor(row=index)
                return

    def action_withdraw(self) -> None:
        voter = self.current_voter()
        if voter is not None:
            self.post_message(self.Withdraw(voter))
