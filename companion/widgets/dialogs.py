"""Small modal dialogs shared by every screen (one of each, not one per game).

Design decisions:

* A confirmation answers "no" unless the host types ``y``: ``enter`` and ``escape``
  both mean no, so a key typed a moment too early never destroys anything. The
  question names what would be lost.
* A choice list opens with its first item highlighted, so ``enter`` always means
  "this one" and the cursor never starts nowhere.
* Text, number and reason entries check the value as it is submitted and show the
  problem under the field; nothing is dismissed until the value is right.
* Chains of dialogs are written as straight-line code with
  ``await screen.ask(dialog)`` inside a ``@work`` method (Textual's
  ``push_screen(wait_for_dismiss=True)``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from companion.i18n import N_, _
from companion.widgets.text_input import TextInput
from companion.widgets.translate import translate_bindings


class ConfirmDialog(ModalScreen[bool]):
    """Yes only with ``y``; ``n``, ``escape`` and ``enter`` answer no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", N_("Yes")),
        Binding("n,escape,enter", "answer(False)", N_("No")),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-question")
            yield Label(_("[y] yes   [n] no (enter: no)"), classes="hint")

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
            yield Label(self.question, classes="dialog-question")
            yield TextInput(self.value, placeholder=self.placeholder, id="prompt-input")
            yield Label("", id="prompt-error", classes="error")

    def problem(self, text: str) -> str | None:
        """The message to show under the field, or None when ``text`` is acceptable."""
        return self.check(text) if self.check else None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        problem = self.problem(event.value)
        if problem:
            self.query_one("#prompt-error", Label).update(problem)
            return
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


def parse_whole_number(text: str) -> int:
    """``"+5"``, ``"-3"``, ``"７"`` → int (full-width digits and signs too); else ValueError."""
    clean = text.strip().replace("＋", "+").replace("－", "-").replace(" ", "")
    clean = clean.translate({0xFF10 + d: ord("0") + d for d in range(10)})
    body = clean[1:] if clean[:1] in "+-" else clean
    if not body.isascii() or not body.isdigit():
        raise ValueError(text)
    return int(clean)


class NumberDialog(PromptDialog):
    """Ask for a whole number between ``low`` and ``high``; dismisses with its text."""

    def __init__(
        self, question: str, low: int, high: int, value: str = "", placeholder: str = ""
    ) -> None:
        super().__init__(question, value=value, placeholder=placeholder)
        self.low = low
        self.high = high

    def problem(self, text: str) -> str | None:
        try:
            number = parse_whole_number(text)
        except ValueError:
            return _("{text!r} is not a whole number.").format(text=text.strip())
        if not self.low <= number <= self.high:
            return _("Write a number from {low} to {high}.").format(low=self.low, high=self.high)
        return None


class ReasonDialog(PromptDialog):
    """Ask why (a manual correction keeps its reason in the log); empty is refused."""

    def problem(self, text: str) -> str | None:
        if not text.strip():
            return _("Write a short reason; it is kept in the log.")
        return None


class ChoiceDialog(ModalScreen[str | None]):
    """Pick one of ``choices`` (id, label) with the arrows and enter; escape cancels.

    The list opens on its first item (or on ``selected``). Each item shows its number;
    typing moves the highlight (type-ahead, both languages): digits go to that item's
    number (``1`` ``5`` → item 15), letters to the first item whose name (or a word
    of it) starts with what was typed; backspace takes a character back, enter picks.
    A key that matches nothing starts the typed text again from that key, and says so.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(
        self, question: str, choices: Sequence[tuple[str, str]], selected: str | None = None
    ) -> None:
        super().__init__()
        self.question = question
        self.choices = choices
        self.selected = selected
        self.typed = ""
        """What the host typed to find an item (shown under the list)."""
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        width = len(str(len(self.choices)))
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-question")
            # Above the list: a long list fills the dialog, and what was typed stays seen.
            yield Label(
                _("Type a number or a name, or use the arrows; enter picks."),
                id="choice-typed",
                classes="hint",
            )
            yield OptionList(
                *[
                    Option(f"{number:>{width}}  {label}", id=cid)
                    for number, (cid, label) in enumerate(self.choices, 1)
                ],
                id="choices",
            )

    def on_mount(self) -> None:
        options = self.query_one("#choices", OptionList)
        ids = [cid for cid, _label in self.choices]
        if ids:
            options.highlighted = ids.index(self.selected) if self.selected in ids else 0
        options.focus()

    def find(self, typed: str) -> int | None:
        """The index of the item ``typed`` leads to, or None."""
        if typed.isdigit():
            number = int(typed)
            return number - 1 if 1 <= number <= len(self.choices) else None
        want = typed.casefold()
        labels = [label.casefold() for _cid, label in self.choices]
        for index, label in enumerate(labels):
            if label.lstrip("♪★•·- ").startswith(want):
                return index
        for index, label in enumerate(labels):
            if any(word.startswith(want) for word in label.split()):
                return index
        return None

    def on_key(self, event: events.Key) -> None:
        if event.key == "backspace" and self.typed:
            event.stop()
            self._type_ahead(self.typed[:-1])
            return
        char = event.character
        if not event.is_printable or not char or (char.isspace() and not self.typed):
            return
        event.stop()
        event.prevent_default()
        typed = self.typed + char
        if self.typed.isdigit() != char.isdigit() or self.find(typed) is None:
            typed = char  # a new search: "2" after "15", or a letter after digits
        self._type_ahead(typed)

    def _type_ahead(self, typed: str) -> None:
        self.typed = typed
        shown = self.query_one("#choice-typed", Label)
        index = self.find(typed) if typed else None
        if typed and index is None:
            self.typed = ""
            shown.update(
                _("Nothing matches {typed!r}: type an item's number or name.").format(typed=typed)
            )
            shown.set_class(True, "error")
            return
        shown.set_class(False, "error")
        if index is not None:
            self.query_one("#choices", OptionList).highlighted = index
            shown.update(_("Typed: {typed} (enter picks it)").format(typed=typed))
        else:
            shown.update(_("Type a number or a name, or use the arrows; enter picks."))

    def answer(self, option_id: str | None) -> str | None:
        """The dialog's result for the chosen option (override, not the handler).

        Textual runs a message handler of every class in the MRO: a subclass that
        overrode the handler and dismissed too made the dialog dismiss twice, and the
        second dismiss popped the screen below it (the home screen went blank)."""
        return option_id

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        event.prevent_default()
        if self.is_current:
            self.dismiss(self.answer(event.option.id))

    def action_cancel(self) -> None:
        self.dismiss(None)
