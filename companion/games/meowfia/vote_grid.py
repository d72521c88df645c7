"""The vote grid: one row per voter, a target picked by its seat key, live weighted totals.

Design decisions:

* Attributes down, messages up: the screen hands the grid a ``GridView`` (plain
  rows and totals, already counted by the rules and formatted) and the grid posts
  ``VoteGrid.Cast`` / ``VoteGrid.Withdraw``. The grid counts nothing itself, so
  what it shows is what the rules decided.
* A target is picked by its **seat number** (``1``…``9``, ``0`` for seat 10): the
  same number is printed next to every name on the screen, so the host never
  scrolls a list while six hands point at once. After a vote the cursor jumps to
  the next voter who has not voted yet.
* Totals are bars with the exact total (``2.5``), the leader highlighted and a tie
  shown as a tie; the ring holder's weight is shown in their row.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Literal

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import DataTable, Static

from companion.i18n import N_, _
from companion.widgets.translate import translate_bindings

BAR_WIDTH = 24


@dataclass(frozen=True)
class VoterRow:
    """One voter: seat, name, weight as shown (``1.5``), and their entry on the ballot."""

    voter: str
    seat: int
    name: str
    weight: str
    ring: bool
    entry: Literal["none", "vote", "abstain"] = "none"
    target: str | None = None
    target_label: str = ""
    revealed: str = ""
    """A short note for a revealed voter (they still vote)."""


@dataclass(frozen=True)
class CandidateTotal:
    player: str
    label: str
    total: str
    share: float
    """The total as a fraction of the highest total (0…1), for the bar length."""
    leader: bool


@dataclass(frozen=True)
class GridView:
    title: str
    """Names the ballot; a new title means a new ballot (the cursor goes back to the top)."""
    rows: tuple[VoterRow, ...]
    totals: tuple[CandidateTotal, ...]
    status: str
    result: Literal["open", "tie", "accused"]
    seats: Mapping[str, str] = field(default_factory=dict)
    """Seat key (``"1"``…``"0"``) → player id, for every player at the table."""


class VoteGrid(Vertical):
    """A ballot on screen. Focus the table; number keys vote, ``a`` abstains."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "pick('1')", N_("Vote: seat 1–9, 0"), key_display="1–0"),
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

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.view: GridView | None = None
        self._typed_ahead: set[int] = set()
        """Rows entered by key whose commit has not been shown yet."""
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        yield Static("", classes="vote-title")
        with Horizontal(classes="vote-body"):
            yield DataTable(cursor_type="row", zebra_stripes=True, classes="vote-table")
            yield Static("", classes="vote-totals")
        yield Static("", classes="vote-status")

    @property
    def table(self) -> DataTable[str | Text]:
        return self.query_one(".vote-table", DataTable)

    # ------------------------------------------------------------------ rendering

    def show(self, view: GridView) -> None:
        """Render ``view``; keep the cursor on its voter, or move to the next one to vote."""
        # A new ballot starts at the first voter; the same ballot keeps its place.
        old = self.view
        same = old is not None and old.title == view.title
        previous = self.current_voter() if same else None
        if same and old is not None:
            # An entry vanished (undo, clear): go to that voter, to enter it again.
            had = {r.voter for r in old.rows if r.entry != "none"}
            cleared = [r.voter for r in view.rows if r.entry == "none" and r.voter in had]
            if cleared:
                previous = cleared[0]
        self.view = view
        # Typed rows whose entry has now landed are no longer "ahead"; a new ballot resets.
        self._typed_ahead = (
            {i for i in self._typed_ahead if i < len(view.rows) and view.rows[i].entry == "none"}
            if same
            else set()
        )
        self.query_one(".vote-title", Static).update(Text(view.title, style="bold"))
        table = self.table
        table.clear(columns=True)
        table.add_columns(_("Seat"), _("Voter"), _("Weight"), _("Vote"))
        leaders = {c.player for c in view.totals if c.leader}
        for row in view.rows:
            weight = Text(row.weight, style="bold magenta" if row.ring else "")
            if row.ring:
                weight.append(" " + _("ring"), style="magenta")
            name = Text(row.name)
            if row.revealed:
                name.append(f" ({row.revealed})", style="dim")
            if row.entry == "vote":
                style = "bold reverse" if row.target in leaders and view.result != "tie" else "bold"
                vote = Text("→ " + row.target_label, style=style)
            elif row.entry == "abstain":
                vote = Text(_("abstains"), style="italic dim")
            else:
                vote = Text("…", style="dim")
            table.add_row(Text(str(row.seat), justify="right"), name, weight, vote, key=row.voter)
        self.query_one(".vote-totals", Static).update(self._totals(view))
        status_style = {"open": "", "tie": "bold black on yellow", "accused": "bold white on red"}[
            view.result
        ]
        self.query_one(".vote-status", Static).update(Text(view.status, style=status_style))
        self._place_cursor(previous)

    def _totals(self, view: GridView) -> Table:
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column(width=BAR_WIDTH, no_wrap=True)
        grid.add_column(justify="right", no_wrap=True)
        grid.add_column(no_wrap=True)
        for c in view.totals:
            bar = "█" * round(c.share * BAR_WIDTH)
            if c.leader and view.result == "tie":
                mark, style = _("tie"), "bold black on yellow"
            elif c.leader:
                mark, style = _("leads"), "bold reverse"
            else:
                mark, style = "", ""
            grid.add_row(
                Text(c.label, style=style),
                Text(bar, style="cyan"),
                Text(c.total, style="bold" if c.leader else ""),
                Text(mark, style=style),
            )
        return grid

    def _place_cursor(self, previous: str | None) -> None:
        view = self.view
        if view is None or not view.rows:
            return
        ids = [r.voter for r in view.rows]
        start = ids.index(previous) if previous in ids else 0
        row = view.rows[start]
        if row.entry != "none" and view.result == "open":
            for step in range(1, len(ids) + 1):
                candidate = view.rows[(start + step) % len(ids)]
                if candidate.entry == "none":
                    start = (start + step) % len(ids)
                    break
        self.table.move_cursor(row=start)

    def current_voter(self) -> str | None:
        view = self.view
        if view is None:
            return None
        index = self.table.cursor_row
        return view.rows[index].voter if 0 <= index < len(view.rows) else None

    def focus_table(self) -> None:
        self.table.focus()

    # ------------------------------------------------------------------ keys

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Without a ballot on screen the keys belong to the screen around the grid.
        return self.view is not None and self.display

    def action_pick(self, key: str) -> None:
        voter = self.current_voter()
        if voter is None or self.view is None:
            return
        target = self.view.seats.get(key)
        if target is None:
            self.notify(
                _("There is no seat {key} at this table.").format(key=key), severity="warning"
            )
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
        view = self.view
        if view is None:
            return
        ids = [r.voter for r in view.rows]
        if voter in ids:
            self._typed_ahead.discard(ids.index(voter))
            self.table.move_cursor(row=ids.index(voter))

    def _advance_past(self, voter: str) -> None:
        """Move on at once, before the commit lands, so votes can be typed one after another.

        The next row without an entry (other than ``voter``) gets the cursor; when the
        commit is refused the cursor stays there and the message says why.
        """
        view = self.view
        if view is None:
            return
        ids = [r.voter for r in view.rows]
        start = ids.index(voter)
        for step in range(1, len(ids)):
            index = (start + step) % len(ids)
            if view.rows[index].entry == "none" and index not in self._typed_ahead:
                self._typed_ahead.add(start)
                self.table.move_cursor(row=index)
                return

    def action_withdraw(self) -> None:
        voter = self.current_voter()
        if voter is not None:
            self.post_message(self.Withdraw(voter))
