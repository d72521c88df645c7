"""Dialogs of the Meeple Circus screen: the evaluation form, its review, the abort question.

Design decisions:

* The evaluation form computes its live breakdown with the rules' own
  ``ActScore.breakdown`` and checks the entry by applying it to a *copy* of the
  state (``validate``), so the form can never disagree with what the rules accept
  and shows the refusal before anything is written.
* Lists (demand values, red heights, guest stars, challenges) are typed as numbers
  separated by spaces or commas (``3 3 2``); full-width digits and Chinese commas
  are accepted because the host may type with a Chinese input method.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static

from companion.games.meeple_circus import view
from companion.games.meeple_circus.rules.actions import ScorePlayer
from companion.games.meeple_circus.rules.state import (
    CHALLENGE_ACTS,
    GUEST_STAR_ACTS,
    GUEST_STAR_MULTIPLIER,
    SOURCES,
    SPEED_TOKEN_ACTS,
    ActScore,
    CircusState,
)
from companion.i18n import N_, _, ngettext
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog
from companion.widgets.text_input import TextInput
from companion.widgets.translate import translate_bindings

SOURCE_LABELS = {
    "demands": N_("Public demands"),
    "blue": N_("Blue acrobats (on the ground)"),
    "yellow": N_("Yellow acrobats (off the ground)"),
    "red": N_("Red acrobats (heights)"),
    "speed": N_("Speed token"),
    "guest_stars": N_("Guest stars"),
    "challenges": N_("Challenges"),
}
"""How each of the seven sources is named on screen."""

SOURCE_SHORT = {
    "demands": N_("Demands"),
    "blue": N_("Blue (ground)"),
    "yellow": N_("Yellow (air)"),
    "red": N_("Red (height)"),
    "speed": N_("Speed"),
    "guest_stars": N_("Guests"),
    "challenges": N_("Challenges"),
}

FIELD_ATTRS = {
    "demands": "demands",
    "blue": "blue",
    "yellow": "yellow",
    "red": "red_heights",
    "guest_stars": "guest_stars",
    "challenges": "challenges",
}
"""Each form field's id and the ``ScorePlayer`` field it fills."""
FIELD_IDS = {attr: fid for fid, attr in FIELD_ATTRS.items()}

SHORT_SCREEN = 36
"""Below this many lines the evaluation form packs one line a field."""

_SEPARATORS = re.compile(r"[\s,，、;；+]+")


class FormError(ValueError):
    """A field of the form cannot be read; ``message`` is already translated."""


def parse_count(text: str, label: str) -> int:
    """A whole number (empty = 0)."""
    clean = text.strip()
    if not clean:
        return 0
    try:
        return int(clean)
    except ValueError:
        raise FormError(
            _("{field}: {text!r} is not a whole number.").format(field=label, text=clean)
        ) from None


def parse_values(text: str, label: str) -> tuple[int, ...]:
    """Whole numbers separated by spaces or commas (empty = none)."""
    parts = [p for p in _SEPARATORS.split(text.strip()) if p]
    values = []
    for part in parts:
        try:
            values.append(int(part))
        except ValueError:
            raise FormError(
                _("{field}: {text!r} is not a whole number.").format(field=label, text=part)
            ) from None
    return tuple(values)


class ScoreDialog(ModalScreen[ScorePlayer | None]):
    """One player's evaluation: every source, a live breakdown and the total."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", N_("Save")),
        Binding("escape", "cancel", N_("Cancel")),
    ]

    def __init__(
        self,
        player: str,
        player_name: str,
        act: int,
        speed: int,
        total_before: int,
        validate: Callable[[ScorePlayer], str | None],
        initial: ScorePlayer | ActScore | None = None,
        correcting: bool = False,
        field_check: Callable[[ScorePlayer], Mapping[str, str]] = lambda _action: {},
    ) -> None:
        super().__init__()
        self.player = player
        self.player_name = player_name
        self.act = act
        self.speed = speed
        self.total_before = total_before
        self.validate = validate
        self.initial = initial
        """An evaluation to start from (a correction, or a second look in the review)."""
        self.correcting = correcting
        self.field_check = field_check
        """The rules' problem with each field (by ``ScorePlayer`` field name)."""
        translate_bindings(self)

    def initial_text(self, fid: str) -> str:
        score = self.initial
        if score is None:
            return ""
        values: dict[str, int | tuple[int, ...]] = {
            "demands": score.demands,
            "blue": score.blue,
            "yellow": score.yellow,
            "red": score.red_heights,
            "guest_stars": score.guest_stars,
            "challenges": score.challenges,
        }
        value = values[fid]
        if isinstance(value, tuple):
            return " ".join(str(v) for v in value)
        return str(value) if value else ""

    def fields(self) -> list[tuple[str, str, str]]:
        """(id, label, placeholder) of the inputs this act takes."""
        out = [
            (
                "demands",
                _("Public demands: printed value of each one met"),
                _("e.g. {example}").format(example="3 3 2"),
            ),
            ("blue", _("Blue acrobats touching the ground"), "0"),
            ("yellow", _("Yellow acrobats not touching the ground"), "0"),
            (
                "red",
                _("Red acrobats carrying nothing: height of each"),
                _("e.g. {example}").format(example="4 2"),
            ),
        ]
        if self.act in GUEST_STAR_ACTS:
            label = _("Guest stars used as their card asks: printed value of each")
            if GUEST_STAR_MULTIPLIER.get(self.act, 1) > 1:
                label += " " + _("(doubled in act 3)")
            out.append(("guest_stars", label, _("e.g. {example}").format(example="3 2")))
        if self.act in CHALLENGE_ACTS:
            out.append(
                (
                    "challenges",
                    _("Challenges met: printed value of each"),
                    _("e.g. {example}").format(example="4"),
                )
            )
        return out

    def compose(self) -> ComposeResult:
        # It scrolls and follows the focus, and says how to save right under its title;
        # a problem shows under the fields, above the breakdown: at 80x24 the form
        # (96 columns, 3 lines a field) ran past the screen's edge and bottom, with
        # the message and the keys out of sight.
        with VerticalScroll(classes="dialog mc-score-dialog", can_focus=False):
            title = (
                _("Correct the evaluation of {name}, act {act}")
                if self.correcting
                else _("Evaluation of {name}, act {act}")
            )
            yield Label(title.format(name=self.player_name, act=self.act), classes="section-title")
            yield Label(_("enter or ctrl+s: save · escape: cancel"), classes="hint")
            for fid, label, placeholder in self.fields():
                with Horizontal(classes="mc-field"):
                    yield Label(label, classes="mc-field-label")
                    yield TextInput(
                        self.initial_text(fid),
                        placeholder=placeholder,
                        id=f"mc-{fid}",
                        classes="mc-field-input",
                    )
                # Under its own field: every refused field says why at once.
                yield Label("", id=f"mc-{fid}-error", classes="error mc-field-error")
            yield Label("", id="mc-score-error", classes="error")
            yield Static("", id="mc-breakdown")

    def on_mount(self) -> None:
        if self.app.size.height < SHORT_SCREEN:  # one line a field, so all of them fit
            self.add_class("-short")
            for field in self.query(TextInput):
                field.compact = True
        self._update()

    def on_input_changed(self, event: Input.Changed) -> None:
        self._update()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    def _text(self, fid: str) -> str:
        found = self.query(f"#mc-{fid}")
        return found.first(Input).value if found else ""

    def read_fields(self) -> tuple[ScorePlayer, dict[str, str]]:
        """The evaluation from the fields that are accepted (a refused one counts as
        empty), and the problem of each refused field by its id: every field is
        checked, not only up to the first problem, so the host sees them all."""
        labels = {fid: label for fid, label, _p in self.fields()}
        problems: dict[str, str] = {}
        values: dict[str, int | tuple[int, ...]] = {}
        for fid, attr in FIELD_ATTRS.items():
            label = labels.get(fid, "")
            try:
                if attr in ("blue", "yellow"):
                    values[attr] = parse_count(self._text(fid), label)
                else:
                    values[attr] = parse_values(self._text(fid), label)
            except FormError as exc:
                problems[fid] = str(exc)
                values[attr] = 0 if attr in ("blue", "yellow") else ()
        action = ScorePlayer(player=self.player, **values)  # type: ignore[arg-type]
        refused = {
            fid: message
            for attr, message in self.field_check(action).items()
            if (fid := FIELD_IDS[attr]) not in problems
        }
        for fid in refused:
            attr = FIELD_ATTRS[fid]
            values[attr] = 0 if attr in ("blue", "yellow") else ()
        if refused:
            action = ScorePlayer(player=self.player, **values)  # type: ignore[arg-type]
        return action, {**problems, **refused}

    def read(self) -> ScorePlayer:
        """The action the form describes, or ``FormError`` (the first field's problem)."""
        action, problems = self.read_fields()
        order = [fid for fid, _label, _p in self.fields()]
        for fid in order:
            if fid in problems:
                raise FormError(problems[fid])
        return action

    def _update(self) -> str | None:
        """Refresh the breakdown (from the accepted fields only) and each field's
        problem; return the first problem with the entry, if any."""
        action, problems = self.read_fields()
        first: str | None = None
        for fid, _label, _p in self.fields():
            line = self.query_one(f"#mc-{fid}-error", Label)
            line.update(Text(problems.get(fid, "")))  # typed text, never markup
            line.display = fid in problems
            if first is None and fid in problems:
                first = problems[fid]
        score = ActScore(
            player=self.player,
            act=self.act,
            demands=action.demands,
            blue=action.blue,
            yellow=action.yellow,
            red_heights=action.red_heights,
            speed=self.speed,
            guest_stars=action.guest_stars,
            challenges=action.challenges,
        )
        self.query_one("#mc-breakdown", Static).update(breakdown_table(score, self.total_before))
        error = self.query_one("#mc-score-error", Label)
        if first is not None:
            error.update(_("Fix the fields marked above; the totals count only the others."))
            return first
        problem = self.validate(action)
        error.update(problem or "")
        return problem

    def action_save(self) -> None:
        if self._update() is None:
            self.dismiss(self.read())

    def action_cancel(self) -> None:
        self.dismiss(None)


def breakdown_table(score: ActScore, total_before: int) -> Table:
    """Points per source, the act's sum and the running total."""
    table = Table.grid(padding=(0, 2))
    table.add_column()
    table.add_column(justify="right")
    breakdown = score.breakdown()
    for source in SOURCES:
        if source == "guest_stars" and score.act not in GUEST_STAR_ACTS:
            continue
        if source == "challenges" and score.act not in CHALLENGE_ACTS:
            continue
        if source == "speed" and score.act not in SPEED_TOKEN_ACTS:
            continue
        table.add_row(_(SOURCE_LABELS[source]), str(breakdown[source]))
    table.add_row(Text(_("This act"), style="bold"), Text(str(score.total), style="bold"))
    table.add_row(
        Text(_("Running total"), style="bold"),
        Text(str(total_before + score.total), style="bold reverse"),
    )
    return table


class ReviewDialog(KeyChoiceDialog):
    """The act's evaluations before its last save closes it: close, or correct a player.

    ``enter`` (or ``y``) closes the act with the scores shown; a player's key opens
    their form again; ``escape`` goes back without saving the last evaluation.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", N_("Cancel")),
        Binding("enter", "close_act", N_("Close the act")),
    ]

    def __init__(self, question: str, table: Table, choices: list[KeyChoice]) -> None:
        super().__init__(question, choices)
        self.table = table

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide-dialog key-choice mc-review"):
            yield Label(self.question, classes="key-choice-question")
            yield Static(self.table, id="mc-review-table")
            for choice in self.choices:
                line = Text.assemble((f"[{choice.key_label}]", "bold"), "  ", choice.label)
                yield Static(line, classes="key-choice-option")
            yield Label(_("escape: back (the last evaluation is not saved)"), classes="hint")

    def action_close_act(self) -> None:
        self.dismiss("close")


def abort_question(state: CircusState) -> str:
    """The abort question, naming what it discards (the attempt's presses, its result)."""
    perf = state.performance
    attempt = perf.current if perf is not None else None
    rows = [r for r in view.press_rows(state) if r.current_attempt]
    counted = [r for r in rows if r.place]
    who = _(", ").join(f"{r.place}. {r.name}" for r in counted) or _("no Tadaa! yet")
    if attempt is not None and not attempt.running:
        return ngettext(
            "The music has already ended. Aborting DISCARDS this finished performance: "
            "{n} press ({who}) and its result; it is played again from the start.",
            "The music has already ended. Aborting DISCARDS this finished performance: "
            "{n} presses ({who}) and its result; it is played again from the start.",
            len(rows),
        ).format(n=len(rows), who=who)
    return ngettext(
        "Abort this attempt (the table fell)? It discards its {n} press ({who}); "
        "the music stops and the performance starts again with s.",
        "Abort this attempt (the table fell)? It discards its {n} presses ({who}); "
        "the music stops and the performance starts again with s.",
        len(rows),
    ).format(n=len(rows), who=who)
