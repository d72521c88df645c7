"""The host screen's panels as Rich renderables, drawn from the view-model alone.

Each function takes a part of ``view.TableView`` and returns what one ``Static`` shows;
no panel reads the rules' state, so the host sees the numbers the board sees.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from companion.games.meowfia.view import (
    Banner,
    PlayerRow,
    Questioning,
    Seat,
    TableView,
    TimerView,
    Track,
    WinView,
)
from companion.i18n import N_, _, listing
from companion.rules.guide import Say

TRACK_STYLES = {"red": "bold red", "blue": "bold blue"}
IDENTITY_NOTES = {
    "sheriff": (N_("Sheriff"), "bold blue"),
    "undercover": (N_("Undercover"), "bold blue"),
}
MARKER_NAMES = {"ring": N_("ring"), "message": N_("message"), "rose": N_("rose")}

# The smuggling phase as the rules text words it (偷渡), one prompt per step.
SMUGGLING_STEPS = (
    N_("Sheriff, close your eyes."),
    N_("Everyone else, the Undercover included, agree on this round's smuggling plan."),
    N_("Choose 1 of the 5 contraband tokens as this round's real contraband."),
    N_(
        "Take the 3 empty boxes and share them out with the real contraband among the "
        "four buildings."
    ),
    N_("Each building takes exactly 1 token; all four buildings must hold one."),
    N_(
        "When all four buildings hold a token, end the discussion and tell the Sheriff to "
        "begin the inspection."
    ),
)
INSPECTION_PROMPT = N_(
    "Sheriff, open your eyes. Question the players in order: "
    "“Which building holds the real contraband?”"
)


def tr(text: Say) -> str:
    return text.render(_)


def label(seat: Seat | None) -> str:
    return seat.label if seat is not None else "-"


def banner(head: Banner, game_name: str, timer: TimerView | None) -> Text:
    text = Text(game_name, style="bold")
    if head.round:
        text.append("  ·  " + _("Round {n}").format(n=head.round))
    text.append("  ·  " + tr(head.phase_name))
    if head.sheriff is not None:
        text.append("  ·  " + _("Sheriff: {name}").format(name=head.sheriff.label))
    if timer is not None:
        style = "bold white on red" if timer.status == "up" else "bold yellow"
        text.append("  ·  ")
        text.append(tr(timer.label), style=style)
    return text


def track(item: Track) -> Text:
    """A 3-slot track: ``Smuggles  ■ ■ □  1/3``."""
    style = TRACK_STYLES[item.colour]
    text = Text(f"{tr(item.label)} ", style="bold")
    for full in item.slots:
        text.append("■ " if full else "□ ", style=style if full else "dim")
    text.append(f"{item.count}/{item.target}")
    return text


def tracks(view: TableView) -> Group:
    markers = view.markers
    return Group(
        *[track(t) for t in view.tracks],
        Text(""),
        Text(_("Ring: {name}").format(name=label(markers.ring)), style="magenta"),
        Text(_("Message: {name}").format(name=label(markers.message))),
        Text(_("Rose: {name}").format(name=label(markers.rose))),
    )


def status_line(view: TableView) -> Text:
    """The tracks and the ring on one line (the reckoning's compact layout)."""
    text = Text()
    for item in view.tracks:
        text.append_text(track(item))
        text.append("   ")
    text.append(_("Ring: {name}").format(name=label(view.markers.ring)), style="magenta")
    return text


def buildings(rnd: Questioning | None) -> Table:
    grid = Table.grid(padding=(0, 1))
    for _col in range(3):
        grid.add_column(justify="center", width=12)
    cells: dict[str, Text] = {}
    for b in rnd.buildings if rnd is not None else ():
        text = Text(f"[{b.code}] " + tr(b.name), style="bold")
        if b.opened == "contraband":
            text.append("\n" + _("contraband!"), style="bold white on blue")
        elif b.opened == "empty":
            text.append("\n" + _("empty box"), style="bold white on red")
        elif b.claims:
            text.append("\n" + _("claimed {n}×").format(n=b.claims), style="dim")
        else:
            text.append("\n")
        cells[b.code] = text
    if not cells:
        return grid
    grid.add_row("", cells["N"], "")
    grid.add_row(cells["W"], Text("✛", style="dim", justify="center"), cells["E"])
    grid.add_row("", cells["S"], "")
    return grid


def player_notes(row: PlayerRow) -> Text:
    notes: list[Text] = []
    if row.identity in IDENTITY_NOTES:
        words, style = IDENTITY_NOTES[row.identity]
        notes.append(Text(_(words), style=style))
    elif row.identity == "meowfia" and row.revealed:
        role = f" ({row.role})" if row.role else ""
        notes.append(Text(_("revealed: Meowfia") + role, style="green"))
    elif row.identity == "meowfia":  # known once the Undercover is: the rest are Meowfia
        notes.append(Text(_("Meowfia"), style="green"))
    for marker in row.markers:
        notes.append(Text(_(MARKER_NAMES[marker]), style="magenta"))
    return Text(" · ").join(notes)


class SeatList:
    """The seat list, laid out for the width it is drawn at: seat number, name and notes
    on one line when they fit, else the notes on the line below the name. Side by side
    in any width, 16-cell names left the notes a cell or two beside the log at 80x24
    (the Sheriff note read 「…」 on two lines)."""

    def __init__(self, rows: list[tuple[Text, str, Text]]) -> None:
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        keys = max((k.cell_len for k, _name, _notes in self.rows), default=0)
        names = max((cell_len(n) for _key, n, _notes in self.rows), default=0)
        notes = max((t.cell_len for _key, _name, t in self.rows), default=0)
        table = Table.grid(padding=(0, 1))
        table.add_column(justify="right", no_wrap=True)
        if notes == 0 or keys + names + notes + 2 <= options.max_width:
            table.add_column(no_wrap=True)
            table.add_column()
            for key, name, note in self.rows:
                table.add_row(key, name, note)
        else:
            table.add_column()
            for key, name, note in self.rows:
                table.add_row(key, Text(name).append("\n").append_text(note) if note else name)
        yield table

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(1, options.max_width)


def seats(view: TableView) -> SeatList:
    return SeatList(
        [(Text(row.who.key, style="bold"), row.who.name, player_notes(row)) for row in view.players]
    )


def order(rnd: Questioning | None) -> Text:
    if rnd is None:
        return Text("")
    text = Text(_("Questioning order: "), style="bold")
    for index, item in enumerate(rnd.items):
        if index:
            text.append(" → ", style="dim")
        if item.status == "now":
            text.append("▶ " + item.who.label + " " + _("(now)"), style="bold reverse")
        elif item.status == "done":
            text.append("✓ " + item.who.label, style="dim")
        else:
            text.append(item.who.label)
        if item.last:
            text.append(" " + _("(last)"), style="bold magenta")
    if rnd.ring_goes_to_last:
        text.append(
            "\n" + _("At the first reckoning the ring goes to the player questioned last."),
            style="dim",
        )
    return text


def narration(view: TableView, step: int) -> tuple[Text, Text | None]:
    """(the line to read out now, the whole smuggling sequence or ``None``).

    What the *host* does next is the guide's prompt, which the base screen shows above."""
    phase = view.banner.phase
    if phase == "smuggling":
        now = Text(f"{step + 1}/{len(SMUGGLING_STEPS)}  " + _(SMUGGLING_STEPS[step]))
        steps = Text()
        for index, words in enumerate(SMUGGLING_STEPS):
            style = "bold" if index == step else ("dim" if index < step else "")
            mark = "▶" if index == step else ("✓" if index < step else " ")
            steps.append(f"{mark} {index + 1}. " + _(words) + "\n", style=style)
        return now, steps
    if phase == "inspection":
        return Text(_(INSPECTION_PROMPT)), None
    return Text(""), None


def win(box: WinView | None) -> Text | None:
    if box is None:
        return None
    # The winners are named once, by the end banner above (``end_banner``, in seat order).
    text = Text(tr(box.title) + "\n", style="bold")
    if box.losers:
        text.append(_("Lose: {names}").format(names=listing(s.label for s in box.losers)) + "\n")
    if box.needs_identify:
        text.append(
            _("Press u to enter who was the Undercover, so every player's side is recorded."),
            style="bold",
        )
    return text
