"""九张牌：喵喵开箱 screen: the four cards with their tokens, one row per player, the keys.

Design decisions:

* The screen renders the rules state and submits actions; every rule (bust, FAQ 6,
  where a token may go, opening, the last round) is decided by the rules module,
  shown here through ``check_roll`` and the state's notices.
* The first time a session is shown, the cards are dealt at once: the session
  layer reads the card file (the ``card_file`` option, or the default set) and
  shuffles with ``session.rng``; the ``deal`` action records the whole set. If the
  file is wrong, the message names the file, card and field; ``d`` deals again
  once the file is fixed (also after the deal was undone).
* Keys: ``r`` roll, ``p`` place or settle an open roll, ``o`` open a box, ``t``
  retire (体退), ``v`` use an envy effect, ``m`` manual changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import DataTable, Static

from companion.games.cat_box.dialogs import CHOICE_KEYS, RollDialog, RollResult
from companion.games.cat_box.prepare import deal_for
from companion.games.cat_box.render import (
    DIE_FACES,
    card_panel,
    check_lines,
    dice_text,
    notices_text,
    pieces_text,
    player_label,
    status_text,
    won_text,
)
from companion.games.cat_box.rules import (
    AdjustTokens,
    CatBoxState,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    UseEnvy,
)
from companion.i18n import N_, _
from companion.rules.base import RuleError
from companion.widgets.dialogs import PromptDialog
from companion.widgets.game_screen import GameScreen
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog, seat_key

DISPLAY = 4


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

    deal_error = ""
    """The card file's problem when the last deal attempt failed (shown in the banner)."""

    def compose_game(self) -> ComposeResult:
        yield Static("", id="cb-banner", classes="phase-banner")
        yield Static("", id="cb-notice")
        with Horizontal(id="cb-cards"):
            for index in range(DISPLAY):
                yield Static("", id=f"cb-card-{index}", classes="cb-card")
        yield Static("", id="cb-roll")
        yield DataTable(id="cb-players", cursor_type="none", zebra_stripes=True)
        yield Static("", id="cb-help", classes="hint")

    @property
    def box(self) -> CatBoxState:
        state: CatBoxState = self.session.state
        return state

    @property
    def lang(self) -> str:
        return self.companion.lang

    @property
    def rng(self) -> random.Random:
        return self.session.rng

    def on_mount(self) -> None:
        table = self.query_one("#cb-players", DataTable)
        table.add_columns(
            "",
            _("Player"),
            _("Status"),
            _("Held dice"),
            _("Sum"),
            _("Tokens"),
            _("Cards"),
            _("Score"),
        )
        # GameScreen.on_mount runs after this one (Textual calls each class's handler).
        if not self.box.dealt and not self.session.entries:
            self.action_deal()

    # ------------------------------------------------------------------ rendering

    def refresh_view(self) -> None:
        state = self.box
        banner = self.query_one("#cb-banner", Static)
        if not state.dealt:
            banner.update(
                Text(self.deal_error, style="bold red")
                if self.deal_error
                else Text(_("Not dealt yet: press d to deal the cards."))
            )
            for index in range(DISPLAY):
                self.query_one(f"#cb-card-{index}", Static).update("")
            self.query_one("#cb-players", DataTable).clear()
            self.query_one("#cb-notice", Static).update("")
            self.query_one("#cb-roll", Static).update("")
            return
        assert state.card_set is not None
        parts = [_("Round {n}").format(n=state.round), _("deck {n}").format(n=len(state.deck))]
        if state.current is not None and state.ended is None:
            parts.insert(1, _("{name}'s turn").format(name=state.name(state.current)))
        if state.last_round and state.ended is None:
            parts.append(_("LAST ROUND"))
        set_name = state.card_set.display_name(self.lang)
        label = _("default cards") if state.card_set.default else set_name
        banner.update(Text("  ·  ".join(parts) + f"    [{label}]"))
        self.query_one("#cb-notice", Static).update(notices_text(state, self.lang))
        check = state.pending_check()
        for index in range(DISPLAY):
            panel = self.query_one(f"#cb-card-{index}", Static)
            if index < len(state.display):
                panel.update(card_panel(state, state.display[index].card, self.lang, check))
                panel.remove_class("hidden")
            else:
                panel.update("")
                panel.add_class("hidden")
        roll = self.query_one("#cb-roll", Static)
        if check is not None and state.pending is not None:
            head = Text(
                _("Open roll: common {common} · player dice {dice}").format(
                    common=dice_text(state.pending.common), dice=dice_text(state.pending.rolled)
                ),
                style="bold",
            )
            if state.pending.adjusted:
                head.append(
                    "  " + _("(changed: {reason})").format(reason=state.pending.adjusted),
                    style="yellow",
                )
            roll.update(
                Text("\n").join(
                    [
                        head,
                        check_lines(state, check, self.lang, envy=state.pending.envy is None),
                        Text(_("p: place or settle · v: envy · m: manual"), style="dim"),
                    ]
                )
            )
            roll.remove_class("hidden")
        else:
            roll.update("")
            roll.add_class("hidden")
        self._render_players(state)
        self.query_one("#cb-help", Static).update(
            _(
                "r: roll · p: place/settle · o: open a box · t: retire · v: envy · "
                "m: manual · ctrl+z: undo · escape: home"
            )
        )

    def _render_players(self, state: CatBoxState) -> None:
        table = self.query_one("#cb-players", DataTable)
        table.clear()
        for player in state.players:
            seat = state.seat(player.id)
            marker = "▶" if player.id == state.current and state.ended is None else ""
            if state.final_queue and player.id in state.final_queue:
                marker = marker or "⏳"
            table.add_row(
                marker,
                player_label(state.players, player.id),
                status_text(state, player.id),
                dice_text(seat.held),
                str(sum(seat.held)) if seat.held else "",
                pieces_text(seat.owned),
                won_text(state, player.id, self.lang),
                Text(str(state.score(player.id)), style="bold"),
                key=player.id,
            )

    # ------------------------------------------------------------------ actions

    def _turn_player(self) -> str | None:
        state = self.box
        if not state.dealt:
            self.notify(_("Deal the cards first (d)."), severity="warning")
            return None
        if state.ended is not None or state.current is None:
            self.notify(_("The game is over; undo to change it."), severity="warning")
            return None
        return state.current

    def action_deal(self) -> None:
        if self.box.dealt:
            self.notify(_("The cards are already dealt."), severity="warning")
            return
        try:
            deal = deal_for(self.session.players, self.session.options, self.rng)
        except RuleError as error:
            self.deal_error = error.render(_) + "  " + _("(fix the file, then press d)")
            self.query_one("#cb-banner", Static).update(Text(self.deal_error, style="bold red"))
            self.notify(error.render(_), severity="error", title=_("Card file"), timeout=15)
            return
        self.deal_error = ""
        self.submit(deal)

    def action_roll(self) -> None:
        pid = self._turn_player()
        if pid is None:
            return
        if self.box.pending is not None:
            self.action_place()
            return
        self.app.push_screen(RollDialog(self.box, pid, self.rng, self.lang), self._rolled)

    def action_place(self) -> None:
        pid = self._turn_player()
        if pid is None:
            return
        pending = self.box.pending
        if pending is None:
            self.notify(_("Roll first (r)."), severity="warning")
            return
        self.app.push_screen(RollDialog(self.box, pid, self.rng, self.lang, pending), self._rolled)

    def _rolled(self, result: RollResult | None) -> None:
        if result is None:
            return
        state = self.box
        pid = state.current
        if pid is None:
            return
        if state.pending is None:
            self.submit(Roll(pid, result.common, result.dice))
        if result.choice == "place":
            self.submit(Place(pid, result.card, result.slot, result.override))
        elif result.choice == "pass":
            self.submit(Pass(pid))

    def action_open_box(self) -> None:
        pid = self._turn_player()
        if pid is None:
            return
        state = self.box
        openable = state.openable(pid)
        if not openable:
            self.notify(
                _("{name} has no card full of their tokens.").format(name=state.name(pid)),
                severity="warning",
            )
            return
        choices = [
            KeyChoice(
                str(i),
                c,
                f"{state.card(c).display_name(self.lang)} "
                f"({_('score {n}').format(n=state.card(c).score)})",
            )
            for i, c in enumerate(openable, start=1)
        ]

        def done(card: str | None) -> None:
            if card:
                self.submit(Open(pid, card))

        self.app.push_screen(
            KeyChoiceDialog(_("{name} opens which box?").format(name=state.name(pid)), choices),
            done,
        )

    def action_retire(self) -> None:
        pid = self._turn_player()
        if pid is not None:
            self.submit(Retire(pid))

    def action_envy(self) -> None:
        pid = self._turn_player()
        if pid is None:
            return
        state = self.box
        check = state.pending_check()
        if check is None or not check.envy_cards:
            self.notify(_("No rolled player die triggers an envy effect now."), severity="warning")
            return
        choices = []
        for i, card_id in enumerate(check.envy_cards, start=1):
            card = state.card(card_id)
            choices.append(
                KeyChoice(
                    str(i),
                    card_id,
                    f"{card.display_name(self.lang)} "
                    f"{DIE_FACES[card.envy.pip - 1]}: "
                    f"{card.envy_text(self.lang)}",
                )
            )

        def done(card: str | None) -> None:
            if card:
                self.submit(UseEnvy(pid, card))

        self.app.push_screen(
            KeyChoiceDialog(
                _("Which envy effect does {name} use (once this turn)?").format(
                    name=state.name(pid)
                ),
                choices,
                note=_("Then apply it with m (manual): set dice, tokens, remove a token."),
            ),
            done,
        )

    # ------------------------------------------------------------------ manual changes

    def action_manual(self) -> None:
        if not self.box.dealt or self.box.ended is not None:
            self.notify(_("Nothing to change now."), severity="warning")
            return
        choices = [
            KeyChoice("t", "tokens", _("A player gains or returns owned tokens")),
            KeyChoice("x", "remove", _("Take a token off a card")),
        ]
        if self.box.pending is not None:
            choices.insert(0, KeyChoice("d", "dice", _("Change the dice of the open roll")))
        self.app.push_screen(
            KeyChoiceDialog(_("Manual change (an envy effect, a fix)"), choices), self._manual
        )

    def _manual(self, what: str | None) -> None:
        if what == "dice":
            self._manual_dice()
        elif what in ("tokens", "remove"):
            state = self.box
            choices = [
                KeyChoice(seat_key(i), p.id, p.name) for i, p in enumerate(state.players, start=1)
            ]
            self.app.push_screen(
                KeyChoiceDialog(_("Which player?"), choices),
                lambda pid: self._manual_for(what, pid),
            )

    def _manual_dice(self) -> None:
        pending = self.box.pending
        if pending is None:
            return

        def check(text: str) -> str | None:
            return (
                None
                if _parse_dice(text)
                else _("Write 3 common dice, a space, then the player dice: e.g. 245 63.")
            )

        def got_dice(text: str | None) -> None:
            dice = _parse_dice(text or "")
            if dice is None:
                return
            self._ask_reason(
                lambda reason: self.submit(SetDice(pending.player, dice[0], dice[1], reason))
            )

        self.app.push_screen(
            PromptDialog(
                _("New dice: 3 common, a space, the player dice"),
                value=f"{''.join(map(str, pending.common))} {''.join(map(str, pending.rolled))}",
                check=check,
            ),
            got_dice,
        )

    def _manual_for(self, what: str, pid: str | None) -> None:
        if pid is None:
            return
        state = self.box
        if what == "tokens":

            def check(text: str) -> str | None:
                try:
                    int(text.strip().replace("＋", "+").replace("－", "-"))
                except ValueError:
                    return _("Write a whole number such as 2 or -1.")
                return None

            def got(text: str | None) -> None:
                if text is not None:
                    delta = int(text.strip().replace("＋", "+").replace("－", "-"))
                    self._ask_reason(lambda reason: self.submit(AdjustTokens(pid, delta, reason)))

            self.app.push_screen(
                PromptDialog(
                    _("Tokens {name} gains (negative: returns)").format(name=state.name(pid)),
                    check=check,
                    placeholder="+1",
                ),
                got,
            )
            return
        spots = [
            (d.card, n)
            for d in state.display
            for n, holders in enumerate(d.tokens, start=1)
            if pid in holders
        ]
        if not spots:
            self.notify(
                _("{name} has no token on a card.").format(name=state.name(pid)), severity="warning"
            )
            return
        choices = [
            KeyChoice(key, f"{card}|{slot}", f"{state.card(card).display_name(self.lang)} {slot}")
            for key, (card, slot) in zip(CHOICE_KEYS, spots, strict=False)
        ]

        def picked(spot: str | None) -> None:
            if spot:
                card, slot = spot.split("|")
                self._ask_reason(
                    lambda reason: self.submit(RemoveToken(pid, card, int(slot), reason))
                )

        self.app.push_screen(KeyChoiceDialog(_("Which token?"), choices), picked)

    def _ask_reason(self, then: Callable[[str], None]) -> None:
        def got(reason: str | None) -> None:
            if reason and reason.strip():
                then(reason.strip())

        self.app.push_screen(
            PromptDialog(
                _("Reason (kept in the log)"),
                check=lambda t: None if t.strip() else _("A reason is needed."),
            ),
            got,
        )


def _parse_dice(text: str) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
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


SCREEN = CatBoxScreen
