"""Small modal dialogs shared by the screens."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from companion.i18n import N_, _
from companion.widgets.translate import translate_bindings


class ConfirmDialog(ModalScreen[bool]):
    """Yes (y / enter) or no (n / escape)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "answer(True)", N_("Yes")),
        Binding("n,escape", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question)
            yield Label(_("[y] yes   [n] no"), classes="hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class PromptDialog(ModalScreen[str | None]):
    """Ask for one line of text; ``check`` returns an error message or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(
        self,
        question: str,
        value: str = "",
        check: Callable[[str], str | None] | None = None,
        placeholder: str = "",
    ) -> None:
        super().__init__()
        self.question = question
        self.value = value
        self.check = check
        self.placeholder = placeholder
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question)
            yield Input(self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("", id="prompt-error", classes="error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        problem = self.check(event.value) if self.check else None
        if problem:
            self.query_one("#prompt-error", Label).update(problem)
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class ChoiceDialog(ModalScreen[str | None]):
    """Pick one of ``choices`` (id, label) with the arrows and enter; escape cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, question: str, choices: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.question = question
        self.choices = choices
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question)
            yield OptionList(*[Option(label, id=cid) for cid, label in self.choices], id="choices")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
