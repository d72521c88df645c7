"""九张牌：喵喵开箱 screen: the four cards with their tokens, one row per player, the keys.

Design decisions:

* The screen renders ``view.table_view`` (the board renders the same view-model) and
  submits actions; every rule (bust, FAQ 6, where a token may go, opening, the last
  round) is decided by the rules, and which key works now by the guide
  (``ACTION_TYPES``): a key that is not allowed says why in the message line.
* Nothing random happens here. The deal and the companion's dice are made by
  ``prepare`` on the writer thread (``submit(lambda: ...)``), so they are on disk
  before they are shown. The first time a session is shown the cards are dealt at
  once; a card file that went wrong since the form checked it is reported in the
  message line, and ``d`` deals again once it is fixed (also after an undone deal).
* A roll is committed the moment it is accepted (``enter`` on typed dice) or rolled
  (``r`` / ``R`` in the roll dialog); placing the token is the next entry.
* Keys: ``r`` roll, ``p`` place or settle an open roll, ``o`` open a box, ``t``
  retire (体退), ``v`` use an envy effect, ``m`` manual changes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Static

from companion.games.cat_box import prepare
from companion.games.cat_box.dialogs import RollDialog, RollResult
from companion.games.cat_box.guide import GUIDE
from companion.games.cat_box.manual import ask_manual_change
from companion.games.cat_box.render import (
    DIE_FACES,
    MARKER,
    banner_parts,
    card_panel,
    check_lines,
    dice_text,
    notices_text,
    pieces_text,
    player_label,
    set_label,
    status_text,
    won_text,
)
from companion.games.cat_box.rules import (
    AdjustTokens,
    CatBoxState,
    Deal,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    UseEnvy,
)
from companion.games.cat_box.view import TableView, table_view
from companion.i18n import N_, _, paren
from companion.rules.base import Action, RuleError
from companion.session.live import Change
from companion.widgets.game_screen import GameScreen, store_problem
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog
from companion.widgets.shown import Shown

DISPLAY = 4
COMPACT_ROWS = 34
CARDS_FROM = 70
"""Cells of the players table before its Cards column (marker to Score, with padding)."""
"""Below this many rows the key hint folds away (the footer shows the keys) and the open
roll leaves its envy texts to the roll dialog and to ``v``."""


class CatBoxScreen(GameScreen):
    CSS_PATH = "screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "roll", N_("Roll")),
        Binding("p", "place", N_("Place / settle")),
        Binding("o", "open_box", N_("Open a box")),
        Binding("t", "retire", N_("Retire")),
        Binding("v", "envy", N_("Envy")),
        Binding("m", "manual", N_("Manual")),
        Binding("d", "deal", N_("Deal")),
    ]
    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "roll": (Roll.type, Place.type, Pass.type),
        "place": (Place.type, Pass.type),
        "open_box": (Open.type,),
        "retire": (Retire.type,),
        "envy": (UseEnvy.type,),
        "manual": (SetDice.type, AdjustTokens.type, RemoveToken.type),
        "deal": (Deal.type,),
    }

    def compose_game(self) -> ComposeResult:
        yield Shown("", id="cb-banner", classes="phase-banner")
        yield Shown("", id="cb-notice")
        with Horizontal(id="cb-cards"):
            for index in range(DISPLAY):
                yield Shown("", id=f"cb-card-{index}", classes="cb-card")
        yield Shown("", id="cb-roll")
        yield DataTable(id="cb-players", cursor_type="none", zebra_stripes=True)
        yield Shown("", id="cb-help", classes="hint")

    @property
    def box(self) -> CatBoxState:
        state: CatBoxState = self.session.state
        return state

    @property
    def lang(self) -> str:
        return self.companion.lang

    def view(self) -> TableView:
        """What this screen shows (the board shows the same, without the roll marks)."""
        return table_view(self.box)

    def on_mount(self) -> None:
        table = self.query_one("#cb-players", DataTable)
        table.add_columns(
            "",
            _("Player"),
            _("Status"),
            _("Held dice"),
            _("Sum"),
            _("Tokens"),
            _("Score"),
            _("Cards"),
        )

    def first_draw(self) -> Callable[[], Action] | None:
        """A new session's deal (the shared screen commits it, then shows it)."""
        if self.box.dealt or self.session.entries:
            return None
        players, options, rng = self.session.players, self.session.options, self.session.rng
        return lambda: prepare.deal_for(players, options, rng)

    # ------------------------------------------------------------------ rendering

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        compact = event.size.height < COMPACT_ROWS
        if compact != self.has_class("compact"):
            self.set_class(compact, "compact")
            self.refresh_view()

    def refresh_view(self) -> None:
        view = self.view()
        state = self.box
        banner = self.query_one("#cb-banner", Static)
        if not view.banner.dealt:
            banner.update(Text(_("Not dealt yet: press d to deal the cards.")))
        else:
            label = set_label(view.banner, self.lang)
            banner.update(Text("  ·  ".join(banner_parts(view.banner)) + f"    [{label}]"))
        self.query_one("#cb-notice", Static).update(
            notices_text(state, self.lang) if view.banner.dealt else ""
        )
        for index in range(DISPLAY):
            panel = self.query_one(f"#cb-card-{index}", Static)
            if index < len(view.cards):
                panel.update(card_panel(view.cards[index], self.lang))
                panel.remove_class("hidden")
            else:
                panel.update("")
                panel.set_class(view.banner.dealt, "hidden")
        self._render_roll(view)
        self._render_players(view)
        self.query_one("#cb-help", Static).update(
            _(
                "r: roll · p: place/settle · o: open a box · t: retire · v: envy · "
                "m: manual · ctrl+z: undo · esc: home"
            )
        )

    def _render_roll(self, view: TableView) -> None:
        roll = self.query_one("#cb-roll", Static)
        check = self.box.pending_check()
        if view.roll is None or check is None:
            roll.update("")
            roll.add_class("hidden")
            return
        head = Text(
            _("Open roll: common {common} · player dice {dice}").format(
                common=dice_text(view.roll.common), dice=dice_text(view.roll.rolled)
            ),
            style="bold",
        )
        if view.roll.adjusted:
            head.append(
                "  " + _("(changed: {reason})").format(reason=view.roll.adjusted), style="yellow"
            )
        lines = [
            head,
            check_lines(
                self.box,
                check,
                self.lang,
                envy=not view.roll.envy_used and not self.has_class("compact"),
                slots=False,
            ),
            Text(_("p: place or settle · v: envy · m: manual"), style="dim"),
        ]
        roll.update(Text("\n").join(lines))
        roll.remove_class("hidden")

    def _render_players(self, view: TableView) -> None:
        table = self.query_one("#cb-players", DataTable)
        table.clear()
        for row in view.players:
            table.add_row(
                MARKER[row.marker],
                player_label(row),
                status_text(row.status),
                dice_text(row.held),
                str(row.held_sum) if row.held_sum is not None else "",
                pieces_text(row),
                Text(str(row.score), style="bold"),
                # Last and cut to the room left: the won cards pushed Score off screen
                # at 80 columns with two cards (and at 160 with five), issue 22.
                won_text(row.won, self.lang, max(12, self.app.size.width - CARDS_FROM)),
                key=row.player,
            )

    # ------------------------------------------------------------------ actions

    def _player(self) -> str:
        """The player whose turn it is (keys that reach here are allowed by the guide)."""
        pid = self.box.current
        assert pid is not None
        return pid

    def action_deal(self) -> None:
        players, options, rng = self.session.players, self.session.options, self.session.rng
        # Read the card file and shuffle on the writer thread: the deal is made and
        # committed together, off the UI thread.
        self.submit(lambda: prepare.deal_for(players, options, rng))

    def action_roll(self) -> None:
        self.action_place() if self.box.pending is not None else self._open_roll()

    def action_place(self) -> None:
        self._open_roll()

    def _open_roll(self) -> None:
        self.app.push_screen(RollDialog(self, self._player()), self._settle)

    def commit_roll(
        self, typed: Roll, player_dice: int, then: Callable[[str | None], None]
    ) -> None:
        """Commit the roll now (the dialog stays open); ``then(error or None)`` after."""
        state, rng = self.box, self.session.rng

        def make() -> Roll:
            if not player_dice:
                return typed
            return prepare.roll_for(state, typed.player, typed.common, typed.dice, player_dice, rng)

        def done(future: Future[Change]) -> None:
            self._committed(future)
            error = future.exception()
            if error is None:
                then(None)
            else:
                then(error.render(_) if isinstance(error, RuleError) else store_problem(error))

        self.companion.write(lambda: self.session.act(make()), done)

    def _settle(self, result: RollResult | None) -> None:
        pid = self.box.current
        if result is None or pid is None or self.box.pending is None:
            return  # escape: the roll stays open (settle it later with p)
        if result.choice == "place":
            self.submit(Place(pid, result.card, result.slot, result.override))
        else:
            self.submit(Pass(pid))

    @work
    async def action_open_box(self) -> None:
        pid = self._player()
        state = self.box
        choices = [
            KeyChoice(
                str(i),
                c,
                state.card(c).display_name(self.lang)
                + paren(_("score {n}").format(n=state.card(c).score)),
            )
            for i, c in enumerate(offered_cards(state, Open.type), start=1)
        ]
        question = _("{name} opens which box?").format(name=state.name(pid))
        card = await self.ask(KeyChoiceDialog(question, choices))
        if card:
            self.submit(Open(pid, card))

    def action_retire(self) -> None:
        self.submit(Retire(self._player()))

    @work
    async def action_envy(self) -> None:
        pid = self._player()
        state = self.box
        choices = []
        for i, card_id in enumerate(offered_cards(state, UseEnvy.type), start=1):
            card = state.card(card_id)
            label = (
                f"{card.display_name(self.lang)} {DIE_FACES[card.envy.pip - 1]}: "
                f"{card.envy_text(self.lang)}"
            )
            choices.append(KeyChoice(str(i), card_id, label))
        question = _("Which envy effect does {name} use (once this turn)?").format(
            name=state.name(pid)
        )
        note = _("Then apply it with m (manual): set dice, tokens, remove a token.")
        chosen = await self.ask(KeyChoiceDialog(question, choices, note=note))
        if chosen:
            self.submit(UseEnvy(pid, chosen))

    # ------------------------------------------------------------------ manual changes

    @work
    async def action_manual(self) -> None:
        action = await ask_manual_change(self)
        if action is not None:
            self.submit(action)


def offered_cards(state: CatBoxState, action_type: str) -> list[str]:
    """The cards a dialog offers for ``action_type``: the guide's ``choices``, only
    what the rules accept now."""
    return [str(item["card"]) for item in GUIDE.choices(state, action_type)]


SCREEN = CatBoxScreen
