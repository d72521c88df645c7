"""喵喵开箱: the manual changes (``m``) — an envy effect applied by hand, or a fix.

Design decisions:

* One dialog chain read as straight-line code (``await host.ask(...)``): what to
  change, whose, how much or which token, and the reason kept in the log. It returns
  the action; the screen submits it (nothing is changed here).
* What is offered comes from the guide (``allowed``): changing the dice only with a
  roll open, taking a token off a card only when one is on a card.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Protocol, TypeVar

from textual.screen import Screen

from companion.games.cat_box.dialogs import CHOICE_KEYS
from companion.games.cat_box.guide import GUIDE
from companion.games.cat_box.rules import (
    AdjustTokens,
    CatBoxState,
    RemoveToken,
    SetDice,
)
from companion.i18n import _
from companion.rules.base import Action
from companion.widgets.dialogs import (
    NumberDialog,
    PromptDialog,
    ReasonDialog,
    parse_whole_number,
)
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog, seat_key

T = TypeVar("T")
MAX_ADJUST = 50


class ManualHost(Protocol):
    """What the chain needs of the screen."""

    @property
    def box(self) -> CatBoxState: ...

    @property
    def lang(self) -> str: ...

    def allowed(self) -> frozenset[str] | None: ...

    def ask(self, dialog: Screen[T]) -> Awaitable[T]: ...

    def say(self, message: str, *, error: bool = False) -> None: ...


async def ask_manual_change(host: ManualHost) -> Action | None:
    """Ask the host what to change; the action to submit, or None (cancelled)."""
    allowed = host.allowed() or frozenset()
    choices = [KeyChoice("t", "tokens", _("A player gains or returns owned tokens"))]
    if RemoveToken.type in allowed:
        choices.append(KeyChoice("x", "remove", _("Take a token off a card")))
    if SetDice.type in allowed:
        choices.insert(0, KeyChoice("d", "dice", _("Change the dice of the open roll")))
    what = await host.ask(KeyChoiceDialog(_("Manual change (an envy effect, a fix)"), choices))
    if what == "dice":
        return await _dice(host)
    if what is None:
        return None
    players = [
        KeyChoice(seat_key(i), p.id, p.name) for i, p in enumerate(host.box.players, start=1)
    ]
    pid = await host.ask(KeyChoiceDialog(_("Which player?"), players))
    if pid is None:
        return None
    if what == "tokens":
        return await _tokens(host, pid)
    return await _remove(host, pid)


async def _reason(host: ManualHost) -> str | None:
    reason = await host.ask(ReasonDialog(_("Reason (kept in the log)")))
    return reason.strip() if reason and reason.strip() else None


async def _dice(host: ManualHost) -> Action | None:
    pending = host.box.pending
    if pending is None:
        return None

    def check(text: str) -> str | None:
        if parse_dice(text):
            return None
        return _("Write 3 common dice, a space, then the player dice: e.g. 245 63.")

    value = f"{''.join(map(str, pending.common))} {''.join(map(str, pending.rolled))}"
    prompt = _("New dice: 3 common, a space, the player dice")
    text: str | None = await host.ask(PromptDialog(prompt, value=value, check=check))
    dice = parse_dice(text or "")
    reason = await _reason(host) if dice is not None else None
    if dice is None or reason is None:
        return None
    return SetDice(pending.player, dice[0], dice[1], reason)


async def _tokens(host: ManualHost, pid: str) -> Action | None:
    prompt = _("Tokens {name} gains (negative: returns)").format(name=host.box.name(pid))
    text = await host.ask(NumberDialog(prompt, -MAX_ADJUST, MAX_ADJUST, placeholder="+1"))
    reason = await _reason(host) if text is not None else None
    if text is None or reason is None:
        return None
    return AdjustTokens(pid, parse_whole_number(text), reason)


async def _remove(host: ManualHost, pid: str) -> Action | None:
    state = host.box
    spots = [
        (str(item["card"]), int(item["slot"]))
        for item in GUIDE.choices(state, RemoveToken.type)
        if item["player"] == pid
    ]
    if not spots:
        host.say(_("{name} has no token on a card.").format(name=state.name(pid)), error=True)
        return None
    choices = [
        KeyChoice(key, f"{card}|{slot}", f"{state.card(card).display_name(host.lang)} {slot}")
        for key, (card, slot) in zip(CHOICE_KEYS, spots, strict=False)
    ]
    spot = await host.ask(KeyChoiceDialog(_("Which token?"), choices))
    reason = await _reason(host) if spot else None
    if not spot or reason is None:
        return None
    card, slot = spot.split("|")
    return RemoveToken(pid, card, int(slot), reason)


def parse_dice(text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """``"245 63"`` → ((2, 4, 5), (6, 3)); None unless 3 common and 1–6 player dice."""
    parts = text.replace(",", " ").replace("/", " ").split()
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        return None
    common = tuple(int(c) for c in parts[0])
    dice = tuple(int(c) for c in parts[1])
    if len(common) != 3 or not 1 <= len(dice) <= 6:
        return None
    if not all(1 <= d <= 6 for d in (*common, *dice)):
        return None
    return common, dice
