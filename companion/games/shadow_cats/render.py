"""喵窩暗影 drawn: the view-model (``view.py``) as Rich renderables, for both screens.

The host screen and the players' board call these functions, so an HP bar, an
identity, a slot's colour or the last attack look the same on both (the Cat Box
``render.py`` pattern). Text is translated here, at the moment it is drawn.
"""

from __future__ import annotations

from rich.align import Align
from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from companion.games.shadow_cats.rules.words import ELEMENT_WORDS, LOCATION_WORDS
from companion.games.shadow_cats.view import (
    IDENTITY_COLOURS,
    RING_ROWS,
    AttackLine,
    Cell,
    HpBar,
    SeatRow,
    ShadowView,
    colour_hex,
    colour_word,
)
from companion.i18n import N_, _, paren
from companion.rules.guide import Say
from companion.rules.names import fit_name

IDENTITY_LABELS = {"red": N_("Red team"), "blue": N_("Blue team"), "neutral": N_("Neutral")}
ELEMENT_GLYPHS = {
    "metal": "金",
    "wood": "木",
    "water": "水",
    "fire": "火",
    "earth": "土",
    "none": "—",
}


def text(value: Say | str | None) -> str:
    """A view-model sentence in the current language."""
    if value is None:
        return ""
    return value.render(_) if isinstance(value, Say) else value


def location_label(location: str | None) -> str:
    """A location in the current language."""
    return "—" if location is None else _(LOCATION_WORDS[location])


def element_label(element: str) -> str:
    """``火 fire`` in English; the glyph alone where the word is the glyph (Chinese)."""
    word = _(ELEMENT_WORDS[element])
    glyph = ELEMENT_GLYPHS[element]
    return word if element == "none" or word == glyph else f"{glyph} {word}"


def hp_text(bar: HpBar, width: int = 12) -> Text:
    """``██████░░░░ 60/100`` coloured by how much is left."""
    if width <= 0:  # numbers alone, in the bar's colour (a narrow table)
        return Text(bar.numbers, style=f"bold {bar.colour}")
    filled = bar.filled(width)
    out = Text("█" * filled, style=bar.colour)
    out.append("░" * (width - filled), style="grey39")
    out.append(" " + bar.numbers, style="bold")
    return out


def identity_text(identity: str | None) -> Text:
    """A recorded identity on its team's colour; ``?`` while it is hidden."""
    if identity is None:
        return Text("?", style="dim")
    colour = IDENTITY_COLOURS[identity]
    return Text(_(IDENTITY_LABELS[identity]), style=f"bold {colour}")


def name_text(row: SeatRow, cells: int | None = None) -> Text:
    """The player's cell: the turn mark, the name, a skull once dead; within ``cells``
    cells if given (the name is cut with …, the mark and skull stay)."""
    out = Text("▶ " if row.current else "", style="bold yellow")
    skull = "" if row.alive else " 💀"
    name = row.name
    if cells is not None:
        name = fit_name(name, max(1, cells - out.cell_len - cell_len(skull)))
    out.append(name, style="bold" if row.alive else "dim strike")
    if skull:
        out.append(skull)
    return out


def distance_label(row: SeatRow) -> str:
    return "" if row.distance is None else str(row.distance)


# --------------------------------------------------------------------------- the ring


PANEL_FRAME = 4
"""Cells a slot's panel takes round its text: a border and a space of padding each side."""

TITLE_FRAME = 6
"""Cells a panel's border keeps beside its title: a corner, a rule and a space each side."""


def cell_name(cell: Cell, compact: bool) -> str:
    """The slot's location (with its 2d6 sums when there is room for them)."""
    sums = "/".join(str(s) for s in cell.sums)
    name = location_label(cell.location) if cell.location else text(cell.where)
    return name + paren(sums) if sums and not compact else name


def cell_panel(cell: Cell, width: int, compact: bool, inside: bool = False) -> Panel:
    """One slot: its location card in the slot's colour, and who stands there."""
    colour = colour_hex(cell.colour)
    body = Text()
    if cell.location is None:
        body.append(_("(not dealt yet)"), style="dim")
    else:
        room = width - PANEL_FRAME
        for piece in cell.pieces:
            if body:
                body.append(" ")
            mark = "▶" if piece.current else ""
            life = f"♥{piece.hp}" if piece.alive else "💀"
            # The name gives way, never the HP: a long name had cut "♥100" to "♥10…".
            name = fit_name(piece.name, max(1, room - cell_len(mark) - cell_len(life)))
            body.append(mark, style="bold yellow")
            body.append(name, style="bold" if piece.alive else "dim strike")
            body.append(life, style="dim")
    name = cell_name(cell, compact)
    title: str | None = name
    if inside:  # the names go inside the panels (a long one was cut by the border)
        body = Text.assemble((name, f"bold {colour}"), "\n" if body else "", body)
        title = None
    subtitle = None if compact else f"{text(cell.where)} · {text(colour_word(cell.colour))}"
    return Panel(
        body,
        title=title,
        subtitle=subtitle,
        width=width,
        height=None if compact else 5,
        border_style=colour,
        padding=(0, 1),
    )


def flat_cell(cell: Cell, width: int) -> Text:
    """One slot on a line (two for a long name) without a frame: ``▌Location ▶ ♟2``
    in the slot's colour and how many stand there (a short terminal: the framed ring
    took 11 of 24 rows and left the players table three of five rows; who stands
    where is its Location column)."""
    colour = colour_hex(cell.colour)
    out = Text("▌", style=colour)
    name = location_label(cell.location) if cell.location else text(cell.where)
    alive = [p for p in cell.pieces if p.alive]
    count = f" ♟{len(alive)}" if alive else ""
    mark = " ▶" if any(p.current for p in cell.pieces) else ""
    out.append(name, style=f"bold {colour}")  # whole: a long one wraps to a second line
    out.append(mark, style="bold yellow")
    out.append(count, style="bold")
    return out


def ring(view: ShadowView, width: int, compact: bool, flat: bool = False) -> RenderableType:
    """The seven slots as three rows round the centre, fitting ``width`` columns
    (``flat``: two lines a slot, no frames, for a short terminal)."""
    if flat:
        cell_width = max(14, min(30, width // 3 - 2))
        rows = []
        for slots in RING_ROWS:
            grid = Table.grid(padding=(0, 2))
            for _slot in slots:
                grid.add_column(width=cell_width)
            grid.add_row(*(flat_cell(view.cell(slot), cell_width) for slot in slots))
            rows.append(Align.center(grid))
        return Group(*rows)
    cell_width = max(14, min(30, width // 3 - 1))
    # A name longer than a border's room was cut there ("Kumamoto S"): then every slot
    # names its location inside the panel, so the ring reads the same way all round.
    inside = any(
        cell_len(cell_name(view.cell(slot), compact)) + TITLE_FRAME > cell_width
        for slots in RING_ROWS
        for slot in slots
    )
    rows = []
    for slots in RING_ROWS:
        grid = Table.grid(padding=(0, 1))
        for _slot in slots:
            grid.add_column()
        grid.add_row(*(cell_panel(view.cell(slot), cell_width, compact, inside) for slot in slots))
        rows.append(Align.center(grid))
    return Group(*rows)


# --------------------------------------------------------------------------- panels


def attack_text(line: AttackLine | None, *, one_line: bool = False) -> Text:
    """``Ann → Bo · d100 62 → table 20 → element +5 … = 32 damage · HP 80 → 48``."""
    if line is None:
        return Text(_("none yet"), style="dim")
    out = Text(_("{attacker} → {target}").format(attacker=line.attacker, target=line.target))
    out.append(" · " if one_line else "\n")
    out.append(_("d100 {roll}").format(roll=line.roll), style="bold")
    if line.table is None:
        out.append(" → " + _("miss"), style="yellow")
        return out
    out.append(" → " + _("table {damage}").format(damage=line.table))
    if line.element:
        out.append(" → " + _("element +{n}").format(n=line.element), style="cyan")
    if line.weapon:
        out.append(" → " + _("weapon {n:+d}").format(n=line.weapon))
    if line.armour:
        out.append(" → " + _("armour −{n}").format(n=line.armour))
    out.append(" " if one_line else "\n")
    out.append(
        "= "
        + _("{damage} damage · HP {before} → {after}").format(
            damage=line.damage, before=line.hp_before, after=line.hp_after
        ),
        style="bold",
    )
    if line.killed:
        out.append("  💀", style="bold red")
    return out


def notices_text(view: ShadowView) -> Text:
    return Text("\n".join(text(n) for n in view.notices), style="bold")


def seats_table(view: ShadowView, hp_width: int = 20) -> Table:
    """The board's player list: name, character and items, HP bar, identity."""
    table = Table(box=None, padding=(0, 1), header_style="bold dim")
    for label in (_("Player"), _("Character"), _("HP"), _("Identity")):
        table.add_column(label)
    for row in view.rows:
        character = Text(row.character)
        for item in (row.weapon, row.armour):
            if item:
                character.append(f" [{item}]", style="cyan")
        table.add_row(
            name_text(row), character, hp_text(row.hp, hp_width), identity_text(row.identity)
        )
    return table
