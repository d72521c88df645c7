"""Dialogs of the 喵窩暗影 screen: 2d6 from the table, identity counts checked as typed.

Design decisions:

* The dice dialog never rolls. It collects the sums the host types from the physical
  dice, shows where each leads and asks again on a re-roll; ``r`` hands the rest of the
  procedure to the preparer, which rolls on the writer thread and records the action
  at once (so a kill never gives a free re-roll). An empty ``enter`` does nothing but
  say how to roll: a key typed a moment too early never commits a random roll.
* A 7 during play ends the dialog with the dice (``move-dice``); the destination is
  chosen next in the shared choice list, which opens on its first item.
* The identity counts are checked against the rules (``check_counts``) on every key,
  with the message under the field, not only when the host presses ``enter``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from companion.games.shadow_cats.render import location_label
from companion.games.shadow_cats.rules.board import AGAIN, CHOOSE, roll_outcome
from companion.games.shadow_cats.rules.game import MAX_ROLLS, check_counts
from companion.i18n import N_, _
from companion.rules.base import RuleError
from companion.widgets.dialogs import PromptDialog
from companion.widgets.shown import Shown
from companion.widgets.text_input import TextInput
from companion.widgets.translate import translate_bindings


@dataclass(frozen=True)
class Dice:
    """What the dice dialog returns: the typed sums, and whether the preparer rolls on."""

    typed: tuple[int, ...]
    roll_rest: bool


class DiceDialog(ModalScreen[Dice | None]):
    """2d6 for a move or a start position: typed sums (with re-rolls), or ``r`` to roll."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, title: str, here: str | None, *, start: bool = False) -> None:
        super().__init__()
        self.title_text = title
        self.here = here
        self.start = start
        self.rolls: list[int] = []
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="dice-dialog"):
            yield Label(self.title_text, classes="dialog-question")
            if self.here is not None:
                yield Label(_("Now on: {location}").format(location=location_label(self.here)))
            yield Shown("", id="dice-rolls")
            yield TextInput(placeholder=_("dice sum 2–12, or r to roll"), id="dice-input")
            yield Label("", id="dice-error", classes="error")
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
        # At the foot of the screen: the ring (where everyone stands) stays in sight
        # above it while the host types the roll (it sat behind the dialog at 80x24,
        # issue 22). Set here: the app's ``ModalScreen`` rule centres every dialog.
        self.styles.align = ("center", "bottom")
        self.query_one("#dice-input", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        error = self.query_one("#dice-error", Label)
        text = event.value.strip().lower()
        if text == "r":
            self.dismiss(Dice(tuple(self.rolls), roll_rest=True))
            return
        if not text:
            error.update(_("Type the sum of the two dice, or r to let the companion roll."))
            return
        total = int(text) if text.isdigit() else 0
        if not 2 <= total <= 12:
            error.update(_("{text!r} is not a 2d6 sum (2 to 12).").format(text=event.value))
            return
        error.update("")
        event.input.value = ""
        self.rolls.append(total)
        self._show_rolls()
        outcome = roll_outcome(total, self.here, start=self.start)
        if outcome == AGAIN and len(self.rolls) < MAX_ROLLS:
            return
        self.dismiss(Dice(tuple(self.rolls), roll_rest=False))

    def _show_rolls(self) -> None:
        lines = Text()
        for i, total in enumerate(self.rolls):
            outcome = roll_outcome(total, self.here, start=self.start)
            lines.append(f"{total}", style="bold")
            if outcome == AGAIN:
                why = (
                    _("roll again (a 7)")
                    if total == 7
                    else _("that is where the player is: roll again")
                )
                lines.append(" → " + why, style="yellow")
            elif outcome == CHOOSE:
                lines.append(" → " + _("choose any other location"), style="cyan")
            else:
                lines.append(" → " + location_label(outcome), style="green")
            if i < len(self.rolls) - 1:
                lines.append("\n")
        self.query_one("#dice-rolls", Static).update(lines)

    def action_cancel(self) -> None:
        self.dismiss(None)


def parse_counts(text: str) -> tuple[int, int, int] | None:
    """``"2 2 1"`` → ``(2, 2, 1)``; ``None`` unless three whole numbers."""
    parts = text.replace(",", " ").replace("，", " ").split()
    if len(parts) != 3 or not all(p.isascii() and p.isdigit() for p in parts):
        return None
    red, blue, neutral = (int(p) for p in parts)
    return red, blue, neutral


class CountsDialog(PromptDialog):
    """Identity cards ``Red Blue Neutral``, checked by the rules as they are typed."""

    def __init__(self, question: str, players: int, value: str = "") -> None:
        super().__init__(question, value=value, placeholder="2 2 1")
        self.players = players

    def problem(self, text: str) -> str | None:
        counts = parse_counts(text)
        if counts is None:
            return _("Write three numbers: Red Blue Neutral, e.g. 2 2 1.")
        try:
            check_counts(self.players, *counts)
        except RuleError as exc:
            return exc.render(_)
        return None

    def on_input_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.query_one("#prompt-error", Label).update(self.problem(event.value) or "")
