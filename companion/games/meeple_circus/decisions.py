"""The performance's and act's host decisions, as dialog chains: abort, void, settle, pick.

Design decisions:

* Each is straight-line ``await screen.ask(...)`` code run as one of the screen's
  workers; what it decides is submitted as one action (nothing is written while a
  question is open).
* Every list comes from the guide's ``choices``: a dialog offers only what the rules
  then accept (a press already void, a tie already settled, a player not in the tie
  never appear).
* Abort asks with the shared ``ConfirmDialog`` (only ``y`` says yes) and names what
  it discards. It stamps the time of the key, not of the answer; and a yes for a
  running attempt that ended while the question was open discards nothing: the
  host agreed to stop a running attempt, not to throw away a finished one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.meeple_circus import view
from companion.games.meeple_circus.dialogs import abort_question
from companion.games.meeple_circus.guide import GUIDE
from companion.games.meeple_circus.rules.actions import (
    AbortPerformance,
    HostPick,
    SettlePress,
    SettleTie,
    VoidPress,
)
from companion.games.meeple_circus.units import format_ms
from companion.i18n import _
from companion.widgets.dialogs import ConfirmDialog
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog, seat_key

if TYPE_CHECKING:
    from companion.games.meeple_circus.screen import MeepleCircusScreen

CHOICE_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"


async def abort(screen: MeepleCircusScreen) -> None:
    stamp = screen.clock_ns()
    state = screen.circus
    perf = state.performance
    if perf is None or perf.current is None:
        return
    asked_for, was_running = screen.attempt_key(), perf.current.running
    if not await screen.ask(ConfirmDialog(abort_question(state))):
        return
    now = screen.circus.performance
    current = now.current if now is not None else None
    if current is None or screen.attempt_key() != asked_for:
        return
    if was_running and not current.running:
        # The countdown ran on behind the question and the music ended: the host
        # agreed to stop a running attempt, not to discard a finished one.
        screen.say(
            _(
                "The music ended while the question was open, so nothing was "
                "discarded. Press a again to discard the finished performance."
            ),
            error=True,
        )
        return
    screen.submit(AbortPerformance(stamp, "host"))


async def void(screen: MeepleCircusScreen) -> None:
    offered = {item["index"] for item in GUIDE.choices(screen.circus, VoidPress.type)}
    rows = sorted(view.press_rows(screen.circus), key=lambda r: r.index)
    rows = [r for r in rows if r.index in offered and r.status != "discarded"]
    rows = rows[-len(CHOICE_KEYS) :]
    if not rows:
        screen.say(_("There is no press to void."), error=True)
        return
    choices = [
        KeyChoice(
            CHOICE_KEYS[i],
            str(row.index),
            _("#{n} {name} at {time} ({status})").format(
                n=row.index + 1, name=row.name, time=row.time, status=_(row.label)
            ),
        )
        for i, row in enumerate(rows)
    ]
    choice = await screen.ask(KeyChoiceDialog(_("Void which press?"), choices))
    if choice is not None:
        screen.submit(VoidPress(int(choice)))


async def settle(screen: MeepleCircusScreen) -> None:
    verdict = screen.circus.verdict()
    if verdict is None or not verdict.undecided:
        return
    kind, _sep, what = verdict.undecided[0].partition(":")
    if kind == "press":
        j = verdict.presses[int(what)]
        offered = GUIDE.choices(screen.circus, SettlePress.type)
        if not any(item["index"] == j.index for item in offered):
            return
        start = j.status == "uncertain-start"
        question = _(
            "Press #{n} by {name} was within {unc} of the music's {edge}. Did it count?"
        ).format(
            n=j.index + 1,
            name=screen.session.player(j.press.player).name,
            unc=format_ms(j.press.uncertainty_ns),
            edge=_("start") if start else _("end"),
        )
        choices = [
            KeyChoice("y", "yes", _("yes: inside the music")),
            KeyChoice("n", "no", _("no: false start") if start else _("no: too late")),
        ]
        choice = await screen.ask(KeyChoiceDialog(question, choices))
        if choice is not None:
            screen.submit(SettlePress(j.index, counted=choice == "yes"))
        return
    tied = set(what.split(","))
    groups = [item["order"] for item in GUIDE.choices(screen.circus, SettleTie.type)]
    group = next((g for g in groups if set(g) == tied), None)
    if group is None:
        return
    remaining: tuple[str, ...] = tuple(group)
    chosen: tuple[str, ...] = ()
    while len(remaining) > 1:
        question = _("Too close to call: who was first?") if not chosen else _("And next?")
        pick = await screen.ask(KeyChoiceDialog(question, player_choices(screen, remaining)))
        if pick is None:
            return
        remaining, chosen = tuple(p for p in remaining if p != pick), (*chosen, pick)
    screen.submit(SettleTie((*chosen, *remaining)))


async def host_pick(screen: MeepleCircusScreen) -> None:
    pending = screen.circus.pending_pick
    if pending is None:
        return
    question = _("Who becomes the first player?")
    offered = tuple(item["player"] for item in GUIDE.choices(screen.circus, HostPick.type))
    choice = await screen.ask(KeyChoiceDialog(question, player_choices(screen, offered)))
    if choice is not None:
        screen.submit(HostPick(choice))


def player_choices(screen: MeepleCircusScreen, pids: tuple[str, ...]) -> list[KeyChoice]:
    """The players to pick from, each on their own seat key (a tie of seats 3 and 4 is
    ``[3]`` and ``[4]``, as everywhere else; renumbering them ``[1] [2]`` refused the
    ``3`` a host knows for that player)."""
    seats = {p.id: number for number, p in enumerate(screen.session.players, start=1)}
    return [
        KeyChoice(seat_key(seats[pid]), pid, screen.session.player(pid).name)
        if pid in seats
        else KeyChoice(CHOICE_KEYS[i], pid, screen.session.player(pid).name)
        for i, pid in enumerate(pids)
    ]
