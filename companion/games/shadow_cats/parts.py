"""Pieces of the 喵窩暗影 screen: the board widget, the dice dialog, text helpers.

The board is seven cells in a grid (a ring of six around the centre), each bordered in
its slot's colour from the roster, listing who stands there. The dice dialog takes
physical dice (type the sum) or rolls with the session's ``rng`` (enter on an empty
line), shows every roll with where it leads, asks again on a re-roll and offers the
free choice on a 7; what it returns goes into one ``move``/``place`` action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color
from textual.containers import Grid, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from companion.games.shadow_cats.prepare import roll_2d6
from companion.games.shadow_cats.rules.board import (
    AGAIN,
    CENTRE,
    CHOOSE,
    LOCATIONS,
    SLOTS,
    roll_outcome,
    sums_for,
)
from companion.games.shadow_cats.rules.game import MAX_ROLLS
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.rules.words import (
    ELEMENT_WORDS,
    IDENTITY_WORDS,
    LOCATION_WORDS,
    render_params,
)
from companion.i18n import N_, _
from companion.widgets.translate import translate_bindings

COLOURS = {
    # Roster colour names → what the terminal shows (CSS names where they exist).
    "brown": "#8b5a2b",
    "red": "#c0392b",
    "green": "#27ae60",
    "blue": "#2e86de",
    "yellow": "#d4ac0d",
    "purple": "#8e44ad",
    "orange": "#e67e22",
    "grey": "#7f8c8d",
    "gray": "#7f8c8d",
    "black": "#34495e",
    "white": "#ecf0f1",
    "pink": "#e84393",
}
IDENTITY_STYLES = {
    "red": "bold white on #c0392b",
    "blue": "bold white on #2e86de",
    "neutral": "bold black on #d4ac0d",
}
ELEMENT_GLYPHS = {
    "metal": "金",
    "wood": "木",
    "water": "水",
    "fire": "火",
    "earth": "土",
    "none": "—",
}
# Cell order in the grid: top row slots 1 2, middle 6 centre 3, bottom 5 4 (going round).
GRID_ORDER = (1, 2, 6, CENTRE, 3, 5, 4)


def colour_of(name: str) -> Color:
    """A roster colour name (or ``#rrggbb``) as a Textual colour; grey if unknown."""
    key = name.strip().lower()
    try:
        return Color.parse(COLOURS.get(key, key))
    except Exception:
        return Color.parse(COLOURS["grey"])


def location_label(location: str | None) -> str:
    if location is None:
        return "—"
    return _(LOCATION_WORDS[location])


def identity_text(identity: str | None) -> Text:
    if identity is None:
        return Text("?", style="dim")
    return Text(f" {_(IDENTITY_WORDS[identity])} ", style=IDENTITY_STYLES[identity])


def element_text(element: str) -> str:
    """``火 fire`` in English; the glyph alone where the word is the glyph (Chinese)."""
    word = _(ELEMENT_WORDS[element])
    glyph = ELEMENT_GLYPHS[element]
    return word if element == "none" or word == glyph else f"{glyph} {word}"


COLOUR_WORDS = {
    "brown": N_("brown"),
    "red": N_("red"),
    "green": N_("green"),
    "blue": N_("blue"),
    "yellow": N_("yellow"),
    "purple": N_("purple"),
    "orange": N_("orange"),
    "grey": N_("grey"),
    "gray": N_("grey"),
    "black": N_("black"),
    "white": N_("white"),
    "pink": N_("pink"),
}


def colour_word(name: str) -> str:
    """A roster colour name in the current language (unknown names as written)."""
    word = COLOUR_WORDS.get(name.strip().lower())
    return _(word) if word else name


def hp_bar(hp: int, top: int, width: int = 12) -> Text:
    """``██████░░░░ 60/100`` coloured by how much is left."""
    filled = 0 if top <= 0 else round(width * hp / top)
    if hp > 0:
        filled = max(1, filled)
    ratio = hp / top if top else 0
    style = "green" if ratio > 0.5 else "yellow" if ratio > 0.25 else "red"
    bar = Text("█" * filled, style=style)
    bar.append("░" * (width - filled), style="dim")
    bar.append(f" {hp}/{top}")
    return bar


def render_notice(state: ShadowState, template: str, params: dict[str, object]) -> str:
    """A rules notice in the current language, player ids shown as names."""
    names = {p.id: p.name for p in state.players}
    shown = {
        k: names.get(v, v) if isinstance(v, str) and k in ("player", "target") else v
        for k, v in params.items()
    }
    return render_params(template, shown, _)


# --------------------------------------------------------------------------- board


class BoardView(Grid):
    """The seven slots with their location, colour and the characters standing there."""

    DEFAULT_CSS = """
    BoardView { grid-size: 6 3; grid-gutter: 0 1; height: 18; width: 1fr; }
    BoardView .slot { column-span: 2; height: 6; border: heavy $primary; padding: 0 1; }
    BoardView .pad { column-span: 1; height: 6; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._painted: dict[int, str] = {}

    def compose(self) -> ComposeResult:
        cells = [f"slot-{i}" for i in GRID_ORDER]
        yield Static("", classes="pad")
        yield Static("", id=cells[0], classes="slot")
        yield Static("", id=cells[1], classes="slot")
        yield Static("", classes="pad")
        for cell in cells[2:5]:
            yield Static("", id=cell, classes="slot")
        yield Static("", classes="pad")
        for cell in cells[5:]:
            yield Static("", id=cell, classes="slot")
        yield Static("", classes="pad")

    def show(self, state: ShadowState, lang: str) -> None:
        roster = state.roster
        colours = (
            (roster.centre_colour, *roster.outer_colours) if roster else ("brown",) + ("grey",) * 6
        )
        for slot in range(SLOTS):
            cell = self.query_one(f"#slot-{slot}", Static)
            if self._painted.get(slot) != colours[slot]:
                # Only when the colour changes: restyling every refresh re-lays the grid.
                colour = colour_of(colours[slot])
                cell.styles.border = ("heavy", colour)
                cell.styles.background = colour.with_alpha(0.25)
                self._painted[slot] = colours[slot]
            where = _("centre") if slot == CENTRE else _("slot {n}").format(n=slot)
            cell.border_title = f"{where} · {colour_word(colours[slot])}"
            if not state.layout:
                cell.update(Text(_("(not dealt yet)"), style="dim"))
                continue
            location = state.layout[slot]
            sums = "/".join(str(s) for s in sums_for(location))
            text = Text(location_label(location), style="bold")
            text.append(f"  ({sums})", style="dim")
            # Everyone on one flowing line: up to ten pieces fit in a cell this way.
            text.append("\n")
            for seat in state.seats:
                if seat.location != location:
                    continue
                name = next(p.name for p in state.players if p.id == seat.player)
                piece = Text("▶" if seat.player == state.turn else "", style="bold yellow")
                piece.append(name, style="bold" if seat.alive else "dim strike")
                piece.append(f"♥{seat.hp}" if seat.alive else "💀", style="dim")
                text.append_text(piece)
                text.append("  ")
            cell.update(text)


# --------------------------------------------------------------------------- dice


DiceResult = tuple[tuple[int, ...], str | None]


class DiceDialog(ModalScreen[DiceResult | None]):
    """2d6 for a move or a start position: typed sums or rolled ones, with re-rolls."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(
        self, title: str, here: str | None, rng: random.Random, *, start: bool = False
    ) -> None:
        super().__init__()
        self.title_text = title
        self.here = here
        self.rng = rng
        self.start = start
        self.rolls: list[int] = []
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="dice-dialog"):
            yield Label(self.title_text, classes="section-title")
            if self.here is not None:
                yield Label(_("Now on: {location}").format(location=location_label(self.here)))
            yield Static("", id="dice-rolls")
            yield Input(placeholder=_("dice sum 2–12, or enter to roll"), id="dice-input")
            yield Label("", id="dice-error", classes="error")
            yield OptionList(id="dice-choose", classes="hidden")
            hint = (
                _("A 7 is rolled again for a start position.")
                if self.start
                else _(
                    "A 7 lets the player choose; a roll that lands where the player "
                    "is is rolled again."
                )
            )
            yield Label(hint, classes="hint")

    def on_mount(self) -> None:
        self.query_one("#dice-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.query_one("#dice-error", Label)
        text = event.value.strip().lower()
        if text in ("", "r"):
            total = roll_2d6(self.rng)
        else:
            try:
                total = int(text)
            except ValueError:
                total = 0
            if not 2 <= total <= 12:
                error.update(_("{text!r} is not a 2d6 sum (2 to 12).").format(text=event.value))
                return
        error.update("")
        event.input.value = ""
        self.rolls.append(total)
        outcome = roll_outcome(total, self.here, start=self.start)
        self._show_rolls(outcome)
        if outcome == AGAIN:
            if len(self.rolls) >= MAX_ROLLS:
                self.dismiss(None)
            return
        if outcome == CHOOSE:
            event.input.disabled = True
            choices = self.query_one("#dice-choose", OptionList)
            choices.clear_options()
            choices.add_options(
                [Option(location_label(loc), id=loc) for loc in LOCATIONS if loc != self.here]
            )
            choices.remove_class("hidden")
            choices.focus()
            return
        self.dismiss((tuple(self.rolls), None))

    def _show_rolls(self, last: str) -> None:
        lines = Text()
        for i, total in enumerate(self.rolls):
            outcome = roll_outcome(total, self.here, start=self.start)
            lines.append(f"{total}", style="bold")
            if outcome == AGAIN:
                why = (
                    _("a 7: roll again")
                    if total == 7
                    else _("that is where the player is: roll again")
                )
                lines.append(" → " + why, style="yellow")
            elif outcome == CHOOSE:
                lines.append(" → " + _("7: choose any other location"), style="cyan")
            else:
                lines.append(" → " + location_label(outcome), style="green")
            if i < len(self.rolls) - 1:
                lines.append("\n")
        self.query_one("#dice-rolls", Static).update(lines)
        del last

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss((tuple(self.rolls), event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)


def choice_label(parts: Sequence[str]) -> str:
    return "  ·  ".join(p for p in parts if p)
