"""喵喵开箱: the roll dialog — type or roll the dice, see the answer, place a token.

Design decisions:

* Dice are typed as digits (3 common dice, then 1 or 2 player dice) or rolled by
  the companion (``r``: one player die, ``R``: two). While they are typed, the dialog
  already shows bust / no bust, the slots the dice meet and where a token may go — the
  same ``check_roll`` the rules apply.
* **The roll is an entry the moment it exists.** ``enter`` on typed dice, or ``r`` /
  ``R``, commits the ``roll`` at once (the companion's dice are drawn by the preparer
  on the writer thread); the dialog stays open and shows the committed roll. A kill, an
  escape or a second dialog cannot give a free re-roll: a roll kept open is settled
  later with ``p``. Keys typed while the roll is being written wait in the dialog and
  apply, in order, once it is on disk.
* Only ``r`` / ``R`` roll. ``enter`` on dice that are not complete, and a digit that is
  no die (0, 7, 8, 9), say why on the dialog's message line; nothing is committed.
* Then one key per slot places the token, ``n`` places none, ``o`` places against the
  printed condition after asking the host's reason, ``escape`` / ``e`` keeps the roll
  open so an envy effect can be applied first. On a bust or the FAQ-6 case ``enter``
  settles it. The dialog returns the settlement; the screen submits it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar, Literal, Protocol

from rich.columns import Columns
from rich.console import Group
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static

from companion.games.cat_box.guide import GUIDE
from companion.games.cat_box.render import check_lines, condition_label, dice_text
from companion.games.cat_box.rules import GAME, CatBoxState, Place, Roll, RollCheck
from companion.i18n import N_, _, paren
from companion.rules.guide import accepted
from companion.widgets.dialogs import ReasonDialog
from companion.widgets.translate import translate_bindings

COMMON = 3
MAX_PLAYER_DICE = 2
CHOICE_KEYS = tuple("123456789abcdfghijklmpqstuvwxyz")
"""Keys for the slots a token may go on (``e``, ``n``, ``o``, ``r`` are taken)."""

Stage = Literal["dice", "saving", "place", "override"]


class RollHost(Protocol):
    """What the dialog needs of its screen: the state, the language, a way to commit."""

    @property
    def box(self) -> CatBoxState: ...

    @property
    def lang(self) -> str: ...

    def commit_roll(
        self, typed: Roll, player_dice: int, then: Callable[[str | None], None]
    ) -> None:
        """Commit the ``typed`` dice (``player_dice`` 0) or a roll the preparer completes
        to ``player_dice`` player dice; then ``then(None)``, or ``then(message)`` when it
        was refused."""


@dataclass(frozen=True)
class RollResult:
    """How the host settles the committed roll: place a token or pass."""

    choice: Literal["place", "pass"]
    card: str = ""
    slot: int = 0
    override: str | None = None


class RollDialog(ModalScreen[RollResult | None]):
    """Dismissed with a ``RollResult``, or ``None`` (the roll, if any, stays open)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def __init__(self, host: RollHost, player: str) -> None:
        super().__init__()
        self.host = host
        self.player = player
        pending = host.box.pending
        self.common: list[int] = list(pending.common) if pending else []
        self.rolled: list[int] = list(pending.rolled) if pending else []
        self.stage: Stage = "place" if pending else "dice"
        self.reason = ""
        self.waiting: list[events.Key] = []
        """Keys typed while the roll was being written (applied once it is on disk)."""
        translate_bindings(self)

    @property
    def state(self) -> CatBoxState:
        return self.host.box

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="roll-dialog"):
            yield Label(
                _("{name} rolls").format(name=self.state.name(self.player)), classes="section-title"
            )
            yield Static("", id="roll-dice")
            # The keys come before the answer, so a small terminal never cuts them off.
            yield Label("", id="roll-keys", classes="hint")
            yield Static("", id="roll-message", classes="message-line error")
            yield Static("", id="roll-check")
            yield Static("", id="roll-choices")

    def on_mount(self) -> None:
        self.say("")
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
        if check is None or not check.may_place or self.stage not in ("place", "override"):
            return []
        if self.stage == "override":
            # Every slot the rules take with the host's reason (tried, not guessed).
            tried = [
                ({"card": d.card, "slot": n}, Place(self.player, d.card, n, self.reason))
                for d in self.state.display
                for n in range(1, len(d.tokens) + 1)
            ]
            slots = [
                (str(f["card"]), int(f["slot"])) for f in accepted(GAME.apply, self.state, tried)
            ]
        else:
            slots = [
                (str(item["card"]), int(item["slot"]))
                for item in GUIDE.choices(self.state, Place.type)
            ]
        return [(key, card, slot) for key, (card, slot) in zip(CHOICE_KEYS, slots, strict=False)]

    def say(self, message: str) -> None:
        """A problem with what was typed, on the line under the dice (until the next key)."""
        line = self.query_one("#roll-message", Static)
        line.update(message)
        line.display = bool(message)

    def render_all(self) -> None:
        held = self.state.seat(self.player).held
        dice = Text()
        dice.append(_("{label}: ").format(label=_("Common dice")), style="bold")
        dice.append(
            " ".join([*(str(d) for d in self.common), *("_" * (COMMON - len(self.common)))])
        )
        dice.append("    " + _("{label}: ").format(label=_("Player dice")), style="bold")
        shown = [str(d) for d in self.rolled]
        if len(self.common) == COMMON and not self.rolled:
            shown.append("_")
        dice.append(" ".join(shown) or "_")
        dice.append("    " + _("{label}: ").format(label=_("Held")) + dice_text(held), style="dim")
        if self.stage in ("place", "override"):
            dice.append("    " + _("(saved)"), style="green")
        self.query_one("#roll-dice", Static).update(dice)
        check = self.check()
        self.query_one("#roll-check", Static).update(
            check_lines(self.state, check, self.host.lang, slots=self.stage == "dice")
            if check is not None
            else Text(_("Type 3 common dice, then 1 or 2 player dice."), style="dim")
        )
        header = Text()
        if self.stage == "override":
            header.append(
                _("Override ({reason}): any slot without your token").format(reason=self.reason),
                style="bold yellow",
            )
        # Side by side in columns (a short dialog), each choice whole: wrapped as one
        # line, "[4] 奶牛猫 1 (含 6)" had broken over two lines at 80 columns.
        items = []
        for key, card, slot in self.choices():
            condition = self.state.card(card).slots[slot - 1]
            item = Text(f"[{key}] ", style="bold")
            item.append(
                f"{self.state.card(card).display_name(self.host.lang)} {slot}"
                + paren(condition_label(condition))
            )
            items.append(item)
        options = (
            Group(header, Columns(items, padding=(0, 3)))
            if header
            else Columns(items, padding=(0, 3))
        )
        self.query_one("#roll-choices", Static).update(options)
        # Each key whole, like the choices: wrapped as one line at 80 columns the hint
        # broke "esc 或 e：保留这次投掷" between "或" and "e" (the tour, row 5).
        keys = [Text(part) for part in self.key_help(check).split(" · ")]
        self.query_one("#roll-keys", Label).update(Columns(keys, padding=(0, 3)))

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
        elif self.stage == "saving":
            parts = [_("saving the roll…")]
        elif check is not None and not check.may_place:
            parts = [_("enter: settle it")]
        elif self.stage == "override":
            parts = [_("key: place there"), _("n: no token")]
        else:
            parts = [_("key: place there"), _("n: no token"), _("o: override with a reason")]
        if self.stage in ("place", "override"):
            parts.append(_("esc or e: keep the roll open (envy)"))
        else:
            parts.append(_("esc: cancel"))
        return " · ".join(parts)

    # ------------------------------------------------------------------ keys

    def on_key(self, event: events.Key) -> None:
        if not (event.is_printable or event.key in ("enter", "backspace")):
            return  # escape (cancel / keep the roll open), ctrl+q …: the bindings
        event.stop()
        event.prevent_default()
        if self.stage == "saving":
            self.waiting.append(event)
            return
        self.say("")
        if self.stage == "dice":
            self._dice_key(event)
        else:
            self._place_key(event)
        if self.is_attached:
            self.render_all()

    def _dice_key(self, event: events.Key) -> None:
        char = event.character or ""
        if char.isdigit() and len(char) == 1:
            if not "1" <= char <= "6":
                self.say(_("A die shows 1 to 6: {value} is not a die.").format(value=char))
            elif len(self.common) < COMMON:
                self.common.append(int(char))
            elif len(self.rolled) < MAX_PLAYER_DICE:
                self.rolled.append(int(char))
            else:
                self.say(_("That is 3 common dice and 2 player dice already."))
        elif event.key == "backspace":
            if self.rolled:
                self.rolled.pop()
            elif self.common:
                self.common.pop()
        elif char in ("r", "R"):
            want = 1 if char == "r" else MAX_PLAYER_DICE
            if len(self.rolled) > want:
                self.say(_("Two player dice are typed already; erase one first."))
                return
            self._commit(want)
        elif event.key == "enter":
            if self.complete:
                self._commit(0)
            else:
                self.say(
                    _(
                        "Type 3 common dice and 1 or 2 player dice first, "
                        "or press r (or R) to roll them."
                    )
                )

    def _commit(self, player_dice: int) -> None:
        """Commit the typed dice (0) or have the preparer roll up to ``player_dice``."""
        self.stage = "saving"
        typed = Roll(self.player, tuple(self.common), tuple(self.rolled))
        self.host.commit_roll(typed, player_dice, self._saved)

    def _saved(self, error: str | None) -> None:
        """The roll is on disk (or the store refused it): show it, then the typed keys."""
        pending = self.state.pending
        if error is not None or pending is None or pending.player != self.player:
            self.stage = "dice"
            self.waiting.clear()
            if self.is_attached:
                self.say(error or _("The roll was not saved."))
                self.render_all()
            return
        self.common, self.rolled = list(pending.common), list(pending.rolled)
        self.stage = "place"
        waiting, self.waiting = self.waiting, []
        for event in waiting:
            if not self.is_attached:
                break
            self._place_key(event)
        if self.is_attached:
            self.render_all()

    def _place_key(self, event: events.Key) -> None:
        check = self.check()
        if check is None:
            return
        char = event.character or ""
        if char == "e":
            self.dismiss(None)
            return
        if not check.may_place:
            if event.key == "enter":
                self.dismiss(RollResult("pass"))
            return
        if char == "n":
            self.dismiss(RollResult("pass"))
            return
        if event.key == "enter":
            self.say(_("Press the key shown beside a slot, or n for no token."))
            return
        if char == "o" and self.stage == "place":
            self._ask_override()
            return
        for key, card, slot in self.choices():
            if char == key:
                override = self.reason if self.stage == "override" else None
                self.dismiss(RollResult("place", card, slot, override))
                return

    @work
    async def _ask_override(self) -> None:
        reason = await self.app.push_screen(
            ReasonDialog(_("Why may the token go against the printed condition?")),
            wait_for_dismiss=True,
        )
        if reason and reason.strip():
            self.reason = reason.strip()
            self.stage = "override"
            self.render_all()

    def action_cancel(self) -> None:
        self.dismiss(None)
