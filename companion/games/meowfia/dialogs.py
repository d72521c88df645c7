"""喵喵咪呀's dialog chains: a building, a seat, a tile, and the manual actions.

Design decisions:

* Each chain is straight-line code (``await screen.ask(dialog)``, Textual's
  ``push_screen(wait_for_dismiss=True)``) called from a ``@work`` method of the screen;
  escape at any step returns ``None`` and nothing is entered.
* A manual action the guide does not allow now is refused *before* any question is
  asked, with the guide's reason in the screen's message line (a weight outside an
  open ballot, a tile during a vote): never a reason typed for a refusal.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from companion.games.meowfia.guide import BUILDING_NAMES, GUIDE
from companion.games.meowfia.rules import (
    BUILDINGS,
    MoveMarker,
    RevealTile,
    SetCounter,
    SetWeight,
)
from companion.games.meowfia.rules.actions import Counter, Marker, Tile
from companion.games.meowfia.rules.game import reason_refusal, role_refusal
from companion.games.meowfia.view import seats
from companion.i18n import _
from companion.rules.base import Action, PlayerId
from companion.widgets.dialogs import PromptDialog
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog

if TYPE_CHECKING:
    from companion.games.meowfia.screen import MeowfiaScreen


def parse_weight(text: str) -> Fraction:
    """``"1.5"``, ``"3/2"``, ``"2"``, ``"0"`` → an exact ``Fraction``; else ``ValueError``."""
    clean = text.strip().replace("，", ".").replace("／", "/")
    if not clean:
        raise ValueError(text)
    try:
        value = Fraction(clean)
    except (ValueError, ZeroDivisionError):
        raise ValueError(text) from None
    if value < 0:
        raise ValueError(text)
    return value


def weight_problem(text: str) -> str | None:
    try:
        parse_weight(text)
    except ValueError:
        return _("Write a weight like 0, 1, 1.5, 2 or 1/2.")
    return None


def reason_problem(text: str) -> str | None:
    """The rules' own refusal of a reason, said in the dialog (which keeps the text)."""
    refusal = reason_refusal(text)
    return refusal.render(_) if refusal else None


def role_problem(text: str) -> str | None:
    """The rules' own refusal of a role name (too long), said in the dialog."""
    refusal = role_refusal(text)
    return refusal.render(_) if refusal else None


async def ask_building(screen: MeowfiaScreen, question: str) -> str | None:
    choices = [KeyChoice(b.lower(), b, _(BUILDING_NAMES[b])) for b in BUILDINGS]
    return await screen.ask(KeyChoiceDialog(question, choices))


async def ask_player(
    screen: MeowfiaScreen, question: str, pids: Iterable[PlayerId], nobody: bool = False
) -> str | None:
    """A seat key per player in ``pids`` (and ``-`` for nobody): the id, ``""`` or None."""
    wanted = set(pids)
    choices = [
        KeyChoice(seat.key, pid, seat.label)
        for pid, seat in seats(screen.mf).items()
        if pid in wanted
    ]
    if nobody:
        choices.append(KeyChoice("minus", "", _("nobody")))
    return await screen.ask(KeyChoiceDialog(question, choices))


async def ask_tile(
    screen: MeowfiaScreen, question: str, label: str, tiles: Iterable[str] | None = None
) -> tuple[Tile, str | None] | None:
    """What a turned tile shows: the Undercover, or a Meowfia member and its role name
    (only the ``tiles`` the rules accept, when given: the last hidden is the Undercover)."""
    offered = set(tiles) if tiles is not None else {"undercover", "meowfia"}
    choices = [
        KeyChoice("u", "undercover", _("the Undercover (卧底)")),
        KeyChoice("m", "meowfia", _("a Meowfia member (喵喵咪呀成员)")),
    ]
    tile = await screen.ask(KeyChoiceDialog(question, [c for c in choices if c.id in offered]))
    if tile == "undercover":
        return "undercover", None
    if tile != "meowfia":
        return None
    role = await screen.ask(
        PromptDialog(
            _("Role name on {name}'s tile (optional: enter to skip)").format(name=label),
            check=role_problem,
        )
    )
    return None if role is None else ("meowfia", role.strip() or None)


async def ask_reason(screen: MeowfiaScreen) -> str | None:
    return await screen.ask(PromptDialog(_("Reason (goes into the log)"), check=reason_problem))


def _has(items: Iterable[Mapping[str, Any]], pid: str) -> bool:
    return any(i.get("player") == pid for i in items)


def refused(screen: MeowfiaScreen, action_type: str) -> bool:
    """Say why ``action_type`` cannot be entered now (before asking anything)."""
    if screen.allowed() is None or action_type in (screen.allowed() or ()):
        return False
    screen.say(GUIDE.why_not(screen.mf, action_type).render(_), error=True)
    return True


async def manual_action(screen: MeowfiaScreen) -> Action | None:
    """The manual-action menu and its questions; the action to submit, or None."""
    kind = await screen.ask(
        KeyChoiceDialog(
            _("Manual action (role ability or table mistake); each asks for a reason."),
            [
                KeyChoice("r", "ring", _("move the ring")),
                KeyChoice("g", "message", _("move the message marker")),
                KeyChoice("o", "rose", _("move the rose marker")),
                KeyChoice("w", "weight", _("change a voter's weight for this ballot")),
                KeyChoice("t", "tile", _("reveal a tile outside a vote")),
                KeyChoice("c", "counter", _("correct a counter")),
            ],
        )
    )
    if kind in ("ring", "message", "rose"):
        return await _marker(screen, cast(Marker, kind))
    if kind == "weight":
        return await _weight(screen)
    if kind == "tile":
        return await _tile(screen)
    if kind == "counter":
        return await _counter(screen)
    return None


async def _marker(screen: MeowfiaScreen, marker: Marker) -> Action | None:
    names = {
        "ring": _("the ring"),
        "message": _("the message marker"),
        "rose": _("the rose marker"),
    }
    question = _("Move {marker} to whom?").format(marker=names[marker])
    pid = await ask_player(screen, question, [p.id for p in screen.mf.players], nobody=True)
    if pid is None:
        return None
    reason = await ask_reason(screen)
    return None if reason is None else MoveMarker(marker, pid or None, reason)


async def _weight(screen: MeowfiaScreen) -> Action | None:
    if refused(screen, "set-weight"):
        return None
    pid = await ask_player(screen, _("Whose weight changes?"), screen.mf.voters)
    if not pid:
        return None
    label = seats(screen.mf)[pid].label
    text = await screen.ask(
        PromptDialog(
            _("Weight of {name} on this ballot").format(name=label),
            check=weight_problem,
            placeholder="2",
        )
    )
    if text is None:
        return None
    reason = await ask_reason(screen)
    return None if reason is None else SetWeight(pid, parse_weight(text), reason)


async def _tile(screen: MeowfiaScreen) -> Action | None:
    if refused(screen, "reveal-tile"):
        return None
    # Only what the guide lists (GUIDE.choices): the players and tiles the rules accept.
    items = GUIDE.choices(screen.mf, "reveal-tile")
    pid = await ask_player(
        screen, _("Whose tile is revealed?"), [p for p in screen.mf.hidden if _has(items, p)]
    )
    if not pid:
        return None
    label = seats(screen.mf)[pid].label
    question = _("Reveal {name}'s tile. What does it show?").format(name=label)
    tiles = [i["tile"] for i in items if i["player"] == pid]
    answer = await ask_tile(screen, question, label, tiles)
    if answer is None:
        return None
    reason = await ask_reason(screen)
    return None if reason is None else RevealTile(pid, answer[0], reason, answer[1])


async def _counter(screen: MeowfiaScreen) -> Action | None:
    if refused(screen, "set-counter"):
        return None
    # Only the values the rules accept now (GUIDE.choices): no 3rd intercept while
    # smuggling, so the dialog never offers what is refused after the reason is typed.
    items = GUIDE.choices(screen.mf, "set-counter")
    counter = await screen.ask(
        KeyChoiceDialog(
            _("Which counter?"),
            [
                KeyChoice("s", "smuggles", _("Smuggles")),
                KeyChoice("i", "intercepts", _("Intercepts")),
            ],
        )
    )
    if counter is None:
        return None
    values = [int(i["value"]) for i in items if i["counter"] == counter]
    value = await screen.ask(
        KeyChoiceDialog(_("New value"), [KeyChoice(str(n), str(n), str(n)) for n in values])
    )
    if value is None:
        return None
    reason = await ask_reason(screen)
    return None if reason is None else SetCounter(cast(Counter, counter), int(value), reason)
