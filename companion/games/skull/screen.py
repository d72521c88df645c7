"""Skull host screen: the mats and bids; the host records what the table shows.

Keys: ``p`` a disc is placed, ``b`` a bid, ``s`` a pass, ``f`` / ``k`` the disc the
challenger turned over shows a flower / a skull, ``d`` draws the disc a failed
challenger loses (on the writer thread, on disk before it is shown; the host alone
reads which one it is, here, and takes it face down).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from companion.games.skull import prepare
from companion.games.skull.guide import GUIDE
from companion.games.skull.render import banner, table
from companion.games.skull.rules import Bid, Face, LoseDisc, Pass, Place, SkullState, TurnOver
from companion.games.skull.view import skull_view
from companion.i18n import N_, _
from companion.widgets.dialogs import ChoiceDialog, NumberDialog
from companion.widgets.game_screen import GameScreen
from companion.widgets.shown import Shown


class SkullScreen(GameScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("p", "place", N_("Place a disc")),
        Binding("b", "bid", N_("Bid")),
        Binding("s", "pass_bid", N_("Pass")),
        Binding("f", "turn('flower')", N_("Flower")),
        Binding("k", "turn('skull')", N_("Skull")),
        Binding("d", "lose", N_("Draw the lost disc")),
    ]
    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "place": (Place.type,),
        "bid": (Bid.type,),
        "pass_bid": (Pass.type,),
        "turn": (TurnOver.type,),
        "lose": (LoseDisc.type,),
    }

    def compose_game(self) -> ComposeResult:
        yield Shown("", id="skull-banner", classes="phase-banner")
        yield Shown("", id="skull-table")
        yield Shown("", id="skull-secret", classes="hint")

    @property
    def skull(self) -> SkullState:
        state: SkullState = self.session.state
        return state

    def refresh_view(self) -> None:
        view = skull_view(self.skull)
        self.query_one("#skull-banner", Static).update(banner(view))
        self.query_one("#skull-table", Static).update(table(view))
        secret = ""
        state = self.skull
        if state.lost is not None and state.phase in ("opening", "over"):
            drawn, of = state.lost
            secret = _(
                "For the host only: shuffle the challenger's discs face down and take "
                "disc {drawn} of {of}, counted from the left; show it to nobody."
            ).format(drawn=drawn, of=of)
        self.query_one("#skull-secret", Static).update(secret)

    def action_place(self) -> None:
        if self.refuse("place"):
            return
        state = self.skull
        seat = state.turn
        if seat is None:  # the opening: the next seat that has not placed yet
            n = len(state.players)
            order = [(state.starter + k) % n for k in range(n)]
            seat = next(i for i in order if state.alive(i) and not state.placed[i])
        self.submit(Place(state.players[seat].id))

    @work
    async def action_bid(self) -> None:
        if self.refuse("bid"):
            return
        state = self.skull
        if state.turn is None:
            return
        who = state.players[state.turn]
        low, high = state.bid + 1, state.total_placed()
        question = _("{player} bids how many flowers ({low} to {high})?").format(
            player=who.name, low=low, high=high
        )
        answer = await self.ask(NumberDialog(question, low, high, value=str(low)))
        if answer is not None:
            self.submit(Bid(who.id, int(answer)))

    def action_pass_bid(self) -> None:
        if self.refuse("pass_bid"):
            return
        state = self.skull
        if state.turn is not None:
            self.submit(Pass(state.players[state.turn].id))

    @work
    async def action_turn(self, face: Face) -> None:
        if self.refuse("turn"):
            return
        state = self.skull
        offered = {item["owner"] for item in GUIDE.choices(state, TurnOver.type)}
        if not offered:
            return
        if len(offered) == 1:
            owner = next(iter(offered))  # their own stack first, or the one stack left
        else:
            choices = [(p.id, p.name) for p in state.players if p.id in offered]
            question = _("Whose stack did the disc come from?")
            picked = await self.ask(ChoiceDialog(question, choices))
            if picked is None:
                return
            owner = picked
        self.submit(TurnOver(owner, face))

    def action_lose(self) -> None:
        if self.refuse("lose"):
            return
        state, rng = self.skull, self.session.rng
        self.submit(lambda: prepare.lose_disc(state, rng))


SCREEN = SkullScreen
