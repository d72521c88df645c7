"""A modal question answered by one key per choice: ``[n] North  [e] East …``.

Design decision: at the table the host's hands are on the keyboard and the answer
set is small (a building, a tile, a seat), so one key press answers — no cursor,
no enter. Escape cancels. Each choice shows its key, so nothing is hidden; any other
character key is answered in the dialog ("x is not one of the answers…").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from companion.i18n import N_, _, listing
from companion.widgets.translate import translate_bindings


@dataclass(frozen=True)
class KeyChoice:
    """One answer: the key that picks it (a Textual key name), its id, its label."""

    key: str
    id: str
    label: str

    @property
    def key_label(self) -> str:
        return {"minus": "-", "space": "␣"}.get(self.key, self.key)


class KeyChoiceDialog(ModalScreen[str | None]):
    """Dismissed with the chosen id, or ``None`` on escape."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, question: str, choices: Sequence[KeyChoice], note: str = "") -> None:
        super().__init__()
        self.question = question
        self.choices = tuple(choices)
        self.note = note
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog key-choice"):
            yield Label(self.question, classes="key-choice-question")
            for choice in self.choices:
                line = Text.assemble((f"[{choice.key_label}]", "bold"), "  ", choice.label)
                yield Static(line, classes="key-choice-option")
            if self.note:
                yield Label(self.note, classes="hint")
            yield Label("", id="key-choice-error", classes="error")
            yield Label(_("esc: cancel"), classes="hint")

    def on_key(self, event: events.Key) -> None:
        typed = (event.character or "").lower()
        for choice in self.choices:
            if event.key == choice.key or (typed and typed == choice.key):
                event.stop()
                event.prevent_default()
                self.dismiss(choice.id)
                return
        if event.is_printable and event.character:  # a wrong answer: say so, keep asking
            event.stop()
            keys = listing(c.key_label for c in self.choices)
            self.query_one("#key-choice-error", Label).update(
                _("{key} is not one of the answers: press {keys} or escape.").format(
                    key=event.character, keys=keys
                )
            )

    def action_cancel(self) -> None:
        self.dismiss(None)


def seat_key(seat: int) -> str:
    """The key for seat ``seat`` (1-based): ``1``…``9``, then ``0`` for seat 10."""
    return "0" if seat == 10 else str(seat)
