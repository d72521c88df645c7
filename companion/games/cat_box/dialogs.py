"""喵喵开箱: the roll dialog — type or roll the dice, see the answer, place a token.

Design decisions:

* Dice are typed as digits (3 common dice, then 1 or 2 player dice) or rolled by
  the companion (``r``: one player die, ``R``: two) with the session's randomness.
  While they are typed, the dialog already shows bust / no bust, the slots the
  dice meet and where a token may go — the same ``check_roll`` the rules apply.
* ``enter`` confirms the dice; then one key per slot places the token, ``n``
  places none, ``o`` places against the printed condition after asking the
  host's reason, and ``e`` keeps the roll open so an envy effect can be applied
  first. On a bust or the FAQ-6 case ``enter`` settles it.
* The dialog returns what to submit; the screen submits it (no rules here).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from companion.games.cat_box.render import check_lines, condition_label, dice_text
from companion.games.cat_box.rules import CatBoxState, PendingRoll, RollCheck
from companion.i18n import N_, _
from companion.widgets.dialogs import PromptDialog
from companion.widgets.translate import translate_bindings

COMMON = 3
MAX_PLAYER_DICE = 2
CHOICE_KEYS = tuple("123456789abcdfghijklmpqstuvwxyz")
"""Keys for the slots a token may go on (``e``, ``n``, ``o``, ``r`` are taken)."""


@dataclass(frozen=True)
class RollResult:
    """What the host decided: the dice, and place / pass / keep the roll open."""

    common: tuple[int, ...]
    dice: tuple[int, ...]
    choice: Literal["place", "pass", "keep"]
    card: str = ""
    slot: int = 0
    override: str | None = None


class RollDialog(ModalScreen[RollResult | None]):
    """Dismissed with a ``RollResult``, or ``None`` when the host cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(
        self,
        state: CatBoxState,
        player: str,
        rng: random.Random,
        lang: str,
        pending: PendingRoll | None = None,
    ) -> None:
        super().__init__()
        self.state = state
        self.player = player
        self.rng = rng
        self.lang = lang
        self.pending = pending
        self.common: list[int] = list(pending.common) if pending else []
        self.rolled: list[int] = list(pending.rolled) if pending else []
        self.stage: Literal["dice", "place", "override"] = "place" if pending else "dice"
        self.reason = ""
        translate_bindings(self)

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="roll-dialog"):
            yield Label(
                _("{name} rolls").format(name=self.state.name(self.player)), classes="section-title"
            )
            yield Static("", id="roll-dice")
            yield Static("", id="roll-check")
            yield Static("", id="roll-choices")
            yield Label("", id="roll-keys", classes="hint")

    def on_mount(self) -> None:
        self.render_all()

    @property
    def complete(self) -> bool:
        return len(self.common) == COMMON and 1 <= len(self.rolled) <= MAX_PLAYER_DICE

    def check(self) -> RollCheck | None:
        if not self.complete:
            return None
        return self.state.check_roll(self.player, tuple(self.common), tuple(self.rolled))

    def choices(self) -> list[tuple[str, str, int]]:
        """(key, card, slot) for the current stage."""
        check = self.check()
        if check is None or not check.may_place:
            return []
        if self.stage == "override":
            slots = [
                (d.card, n)
                for d in self.state.display
                for n, holders in enumerate(d.tokens, start=1)
                if self.player not in holders and d.card not in check.too_hot
            ]
        else:
            slots = list(check.allowed)
        return [(key, card, slot) for key, (card, slot) in zip(CHOICE_KEYS, slots, strict=False)]

    def render_all(self) -> None:
        held = self.state.seat(self.player).held
        dice = Text()
        dice.append(_("Common dice") + ": ", style="bold")
        dice.append(
            " ".join([*(str(d) for d in self.common), *("_" * (COMMON - len(self.common)))])
        )
        dice.append("    " + _("Player dice") + ": ", style="bold")
        shown = [str(d) for d in self.rolled]
        if len(self.common) == COMMON and not self.rolled:
            shown.append("_")
        dice.append(" ".join(shown) or "_")
        dice.append("    " + _("Held") + f": {dice_text(held)}", style="dim")
        self.query_one("#roll-dice", Static).update(dice)
        check = self.check()
        self.query_one("#roll-check", Static).update(
            check_lines(self.state, check, self.lang)
            if check is not None
            else Text(_("Type 3 common dice, then 1 or 2 player dice."), style="dim")
        )
        options = Text()
        if self.stage != "dice" and check is not None:
            if self.stage == "override":
                options.append(
                    _("Override ({reason}): any slot without your token").format(reason=self.reason)
                    + "\n",
                    style="bold yellow",
                )
            for key, card, slot in self.choices():
                condition = self.state.card(card).slots[slot - 1]
                options.append(f"[{key}] ", style="bold")
                options.append(
                    f"{self.state.card(card).display_name(self.lang)} {slot} "
                    f"({condition_label(condition)})\n"
                )
        self.query_one("#roll-choices", Static).update(options)
        self.query_one("#roll-keys", Label).update(self.key_help(check))

    def key_help(self, check: RollCheck | None) -> str:
        if self.stage == "dice":
            parts = [
                _("1–6: a die"),
                _("backspace: erase"),
                _("r: roll 1 player die"),
                _("R: roll 2 player dice"),
            ]
            if check is not None:
                parts.append(_("enter: these dice"))
        elif check is not None and not check.may_place:
            parts = [_("enter: settle it")]
        else:
            parts = [_("key: place there"), _("n: no token"), _("o: override with a reason")]
            if self.stage == "override":
                parts = [_("key: place there"), _("n: no token")]
        if self.stage != "dice" and self.pending is None:
            parts.append(_("e: keep the roll open (envy)"))
            parts.append(_("backspace: change the dice"))
        parts.append(_("escape: cancel"))
        return " · ".join(parts)

    # ------------------------------------------------------------------ keys

    def on_key(self, event: events.Key) -> None:
        handled = self._dice_key(event) if self.stage == "dice" else self._place_key(event)
        if handled:
            event.stop()
            event.prevent_default()
            self.render_all()

    def _dice_key(self, event: events.Key) -> bool:
        char = event.character or ""
        if char in "123456" and char:
            if len(self.common) < COMMON:
                self.common.append(int(char))
            elif len(self.rolled) < MAX_PLAYER_DICE:
                self.rolled.append(int(char))
            return True
        if event.key == "backspace":
            if self.rolled:
                self.rolled.pop()
            elif self.common:
                self.common.pop()
            return True
        if char in ("r", "R"):
            want = 1 if char == "r" else MAX_PLAYER_DICE
            self.common += [self.rng.randint(1, 6) for _ in range(COMMON - len(self.common))]
            self.rolled += [self.rng.randint(1, 6) for _ in range(want - len(self.rolled))]
            return True
        if event.key == "enter" and self.complete:
            self.stage = "place"
            return True
        return event.key == "enter"

    def _place_key(self, event: events.Key) -> bool:
        check = self.check()
        assert check is not None
        char = event.character or ""
        if event.key == "backspace" and self.pending is None:
            self.stage = "dice"
            return True
        if char == "e" and self.pending is None:
            self._done("keep")
            return True
        if not check.may_place:
            if event.key == "enter":
                self._done("pass")
            return True
        if char == "n":
            self._done("pass")
            return True
        if char == "o" and self.stage == "place":
            self.app.push_screen(
                PromptDialog(_("Why may the token go against the printed condition?")),
                self._override_reason,
            )
            return True
        for key, card, slot in self.choices():
            if char == key:
                self._done("place", card, slot, self.reason if self.stage == "override" else None)
                return True
        return False

    def _override_reason(self, reason: str | None) -> None:
        if reason and reason.strip():
            self.reason = reason.strip()
            self.stage = "override"
            self.render_all()

    def _done(
        self,
        choice: Literal["place", "pass", "keep"],
        card: str = "",
        slot: int = 0,
        override: str | None = None,
    ) -> None:
        self.dismiss(
            RollResult(tuple(self.common), tuple(self.rolled), choice, card, slot, override)
        )

    def action_cancel(self) -> None:
        self.dismiss(None)
