"""The evaluation's dialog chains: score a player, review the act before it closes, correct.

Design decisions:

* The last evaluation of an act closes it (acts 1–2 move to the end of the act, act 3
  ends the game), so before that save the host sees the whole act as it will close
  (the rules apply the pending evaluation to a copy of the state) and either closes
  it or corrects anyone — the pending player by reopening their form, an already
  saved one with a ``correct-score`` entry. Nobody scored after a mistake is undone.
* A player's key on someone already scored opens the correction form, prefilled;
  ``c`` asks whom to correct. The form's check is the rules' own (a copy of the state).
* Written as straight-line ``await screen.ask(...)`` chains, run as the screen's
  workers (one dialog chain at a time).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Future
from dataclasses import fields
from typing import TYPE_CHECKING

from companion.games.meeple_circus import panels
from companion.games.meeple_circus.dialogs import ReviewDialog, ScoreDialog
from companion.games.meeple_circus.guide import GUIDE
from companion.games.meeple_circus.rules.actions import CorrectScore, ScorePlayer
from companion.games.meeple_circus.rules.game import field_problems
from companion.games.meeple_circus.rules.state import SPEED_TOKEN_ACTS, ActScore
from companion.i18n import _
from companion.rules.base import Action, RuleError
from companion.rules.names import MAX_NAME_CELLS
from companion.session.live import Change
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog

if TYPE_CHECKING:
    from companion.games.meeple_circus.screen import MeepleCircusScreen


def as_correction(action: ScorePlayer) -> CorrectScore:
    """The same evaluation, as a correction of the saved one."""
    return CorrectScore(**{f.name: getattr(action, f.name) for f in fields(CorrectScore)})


def form(
    screen: MeepleCircusScreen,
    pid: str,
    initial: ScorePlayer | ActScore | None = None,
    *,
    correcting: bool = False,
) -> ScoreDialog:
    """The evaluation form of ``pid`` in the open act, checked by the rules."""
    state = screen.circus
    act = state.act
    assert act is not None

    def validate(action: ScorePlayer) -> str | None:
        made: Action = as_correction(action) if correcting else action
        try:
            screen.session.game.apply(screen.circus, made)
        except RuleError as err:
            return err.render(_)
        return None

    def field_check(action: ScorePlayer) -> dict[str, str]:
        problems = field_problems(action, screen.circus.max_height)
        return {name: err.render(_) for name, err in problems.items()}

    speed = act.token_of(pid) if act.number in SPEED_TOKEN_ACTS else 0
    before = state.totals()[pid] - (score.total if (score := act.score_of(pid)) else 0)
    name = screen.session.player(pid).name
    return ScoreDialog(
        pid,
        name,
        act.number,
        speed,
        before,
        validate,
        initial=initial,
        correcting=correcting,
        field_check=field_check,
    )


async def commit(screen: MeepleCircusScreen, action: Action) -> bool:
    """Submit ``action`` and wait until it is committed and shown (True) or refused."""
    done: asyncio.Future[bool] = asyncio.get_running_loop().create_future()

    def after(future: Future[Change]) -> None:
        done.set_result(future.exception() is None)  # read once the screen has re-rendered

    screen.submit(action, then=after)
    return await done


async def score(screen: MeepleCircusScreen, pid: str) -> None:
    state = screen.circus
    act = state.act
    if state.phase != "evaluation" or act is None:
        return
    if act.score_of(pid) is not None:
        await correct(screen, pid)
        return
    action = await screen.ask(form(screen, pid))
    if action is None:
        return
    if state.unscored() != (pid,):
        screen.submit(action)
        return
    await review(screen, action)


async def review(screen: MeepleCircusScreen, pending: ScorePlayer) -> None:
    """Show the act as the last evaluation will close it; close it or correct first."""
    while True:
        state = screen.circus
        try:
            closed = screen.session.game.apply(state, pending)
        except RuleError as err:
            screen.say(err.render(_), error=True)
            return
        number = state.act_number
        choices = [
            KeyChoice("y", "close", _("Close act {n} with these scores (enter)").format(n=number))
        ]
        choices += [
            KeyChoice(str(seat), p.id, _("Correct {name}").format(name=p.name))
            for seat, p in enumerate(state.players, start=1)
        ]
        question = _("Review act {n} before it closes").format(n=number)
        # Under 100 columns the names give way (to 10 cells) so Act and Total keep their
        # numbers (issue 22).
        cells = 10 if screen.app.size.width < 100 else MAX_NAME_CELLS
        table = panels.evaluation_view(closed, name_cells=cells)
        choice = await screen.ask(ReviewDialog(question, table, choices))
        if choice is None:
            return
        if choice == "close":
            screen.submit(pending)
            return
        if choice == pending.player:
            again = await screen.ask(form(screen, choice, pending))
            pending = again if again is not None else pending
            continue
        act = state.act
        saved = act.score_of(choice) if act is not None else None
        corrected = await screen.ask(form(screen, choice, saved, correcting=True))
        if corrected is not None:
            await commit(screen, as_correction(corrected))


async def correct(screen: MeepleCircusScreen, pid: str | None = None) -> None:
    """Correct one saved evaluation of the open act (``c``, or a scored player's key)."""
    state = screen.circus
    act = state.act
    if act is None or state.phase not in ("evaluation", "end"):
        return
    if pid is None:
        offered = {item["player"] for item in GUIDE.choices(state, CorrectScore.type)}
        choices = [
            KeyChoice(str(seat), p.id, p.name)
            for seat, p in enumerate(state.players, start=1)
            if p.id in offered
        ]
        pid = await screen.ask(KeyChoiceDialog(_("Correct whose evaluation?"), choices))
        if pid is None:
            return
    corrected = await screen.ask(form(screen, pid, act.score_of(pid), correcting=True))
    if corrected is not None:
        screen.submit(as_correction(corrected))
