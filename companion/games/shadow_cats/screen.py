"""喵窩暗影 Shadow Cats screen: the draft, the board, players with HP, dice, attacks.

Thin by design: the rules decide (``rules/``), the guide says which keys work now
(``ACTION_TYPES``), the view-model says what to show (``view.build``, drawn by
``render.py`` like the board), and every draw is made by ``prepare.py`` on the writer
thread and recorded as it is made (``submit(lambda: prepare....)``): the deal when the
setup opens, the equipment deck at the start, each roll. Leave, kill or resume at any
key: nothing is dealt or rolled again. Identities are asked only when a card is turned
(a death, a public reveal) and at the end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from companion.games.shadow_cats import prepare, render
from companion.games.shadow_cats.draft_keys import DraftKeys
from companion.games.shadow_cats.keys import choice_label, parse_hp_change
from companion.games.shadow_cats.manual_keys import ManualKeys
from companion.games.shadow_cats.rules.actions import (
    Attack,
    Destination,
    EndTurn,
    Forest,
    Place,
)
from companion.games.shadow_cats.rules.board import LOCATION_EFFECTS, LOCATIONS
from companion.games.shadow_cats.view import ShadowView, build
from companion.games.shadow_cats.widgets import DiceDialog
from companion.i18n import N_, _
from companion.session.live import Change
from companion.widgets.dialogs import PromptDialog

WIDE = 120
"""Columns from which the players table shows every column."""
TALL = 40
"""Rows from which the ring of locations is drawn in full (else compact)."""

__all__ = ["SCREEN", "ShadowCatsScreen", "choice_label", "parse_hp_change"]


class ShadowCatsScreen(DraftKeys, ManualKeys):
    CSS_PATH = "screen.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "begin", N_("Start game")),
        Binding("c", "change_character", N_("Character")),
        Binding("d", "deal", N_("Deal again")),
        Binding("k", "counts", N_("Identity counts")),
        Binding("o", "layout", N_("Lay out board")),
        Binding("w", "first", N_("First player")),
        Binding("R", "reload", N_("Reload roster")),
        Binding("m", "move", N_("Move / roll")),
        Binding("a", "attack", N_("Attack")),
        Binding("e", "end_turn", N_("End turn")),
        Binding("f", "forest", N_("Cat Forest")),
        Binding("r", "reveal", N_("Reveal")),
        Binding("h", "hp", N_("HP ±")),
        Binding("p", "relocate", N_("Relocate")),
        Binding("g", "give", N_("Give item")),
        Binding("t", "take", N_("Take item")),
        Binding("x", "copy", N_("Copy (丑时)")),
        Binding("n", "neutral", N_("Neutral win")),
        Binding("v", "identities", N_("Final identities")),
    ]
    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "begin": ("begin",),
        "change_character": ("pick-character",),
        "deal": ("deal",),
        "counts": ("identity-counts",),
        "layout": ("layout",),
        "first": ("first-player",),
        "reload": ("deal",),
        "move": ("place", "move", "move-dice", "destination"),
        "attack": ("attack",),
        "end_turn": ("end-turn",),
        "forest": ("forest",),
        "reveal": ("reveal",),
        "hp": ("change-hp",),
        "relocate": ("relocate",),
        "give": ("give-item",),
        "take": ("take-item",),
        "copy": ("copy",),
        "neutral": ("declare-neutral-win",),
        "identities": ("final-identities",),
    }

    # ------------------------------------------------------------------ layout

    def compose_game(self) -> ComposeResult:
        yield Static("", id="sc-phase", classes="phase-banner")
        yield Static("", id="sc-death", classes="sc-death hidden")
        yield Static("", id="sc-victory", classes="banner hidden")
        with Horizontal(id="sc-top"):
            yield Static("", id="sc-board")
            with Vertical(id="sc-side"):
                yield Static("", id="sc-notices")
                yield Static("", id="sc-attack")
        yield DataTable(id="sc-players", cursor_type="row", zebra_stripes=True)
        yield Static("", id="sc-setup", classes="hidden")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#sc-players", DataTable).focus()
        # Cells drawn during mount are measured before the table has its styles (their
        # columns came out cut on a resumed screen): draw once more after the first layout.
        self.call_after_refresh(self.refresh_view)
        if self.game.phase == "setup" and self.game.draft is None:
            self.deal()  # a new session (or one left before its deal): deal and record it

    def on_resize(self, event: Any) -> None:
        super().on_resize(event)
        self.refresh_view()

    # ------------------------------------------------------------------ rendering

    def view(self) -> ShadowView:
        return build(self.game, self.companion.lang)

    def refresh_view(self) -> None:
        state, view = self.game, self.view()
        self.query_one("#sc-phase", Static).update(render.text(view.banner))
        board = self.query_one("#sc-board", Static)
        compact = self.app.size.height < TALL
        self.query_one("#sc-side").set_class(self.size.width < WIDE, "narrow")
        # Once a victory is known the players table (identities, winners) is what the host
        # reads: on a short terminal the ring gives it its rows (at 80x24 the table showed
        # only its header under the ring, the winners below the fold).
        ended = state.phase in ("ended", "over")
        self.query_one("#sc-top").set_class(ended and compact, "hidden")
        board.update(render.ring(view, max(board.size.width, 42), compact))
        self._render_players(view)
        for widget_id, sentence in (("#sc-death", view.death), ("#sc-victory", view.victory)):
            banner = self.query_one(widget_id, Static)
            banner.update(("💀 " if widget_id == "#sc-death" else "🏆 ") + render.text(sentence))
            banner.set_class(sentence is None, "hidden")
        self.query_one("#sc-notices", Static).update(render.notices_text(view))
        attack = Text(_("Last attack") + "\n", style="bold underline")
        attack.append_text(render.attack_text(view.attack))
        self.query_one("#sc-attack", Static).update(attack)
        setup = self.query_one("#sc-setup", Static)
        setup.set_class(state.phase not in ("setup", "start"), "hidden")
        if state.phase == "setup":
            setup.update(self._setup_text(state))
        elif state.phase == "start":
            setup.update(self._deck_text(state))

    def _render_players(self, view: ShadowView) -> None:
        table = self.query_one("#sc-players", DataTable)
        cursor = table.cursor_row
        wide = self.app.size.width >= WIDE
        table.clear(columns=True)
        columns = [_("Player"), _("Character"), _("Element"), _("HP")]
        columns += [_("Range"), _("Weapon"), _("Armour")] if wide else []
        table.add_columns(*columns, _("Location"), _("Identity"), _("Distance"))
        for row in view.rows:
            element = render.element_label(row.element)
            if row.copied:
                element += " ⇐ " + row.copied
            cells: list[Any] = [render.name_text(row), row.character, element]
            cells.append(render.hp_text(row.hp, 12 if wide else 6) if row.hp.top else "")
            if wide:
                cells += [str(row.range) if row.range else "", row.weapon or "—", row.armour or "—"]
            cells += [render.location_label(row.location), render.identity_text(row.identity)]
            cells.append(render.distance_label(row))
            table.add_row(*cells, key=row.player)
        if 0 <= cursor < len(view.rows):
            table.move_cursor(row=cursor)

    # ------------------------------------------------------------------ turns

    @work
    async def action_move(self) -> None:
        state, rng = self.game, self.session.rng
        if state.phase == "start" and (placing := state.next_to_place) is not None:
            title = _("Start position for {player}").format(player=self._pname(placing))
            dice = await self.ask(DiceDialog(title, None, start=True))
            typed = dice.typed if dice is not None else ()
            if dice is not None and dice.roll_rest:
                self.submit(lambda: prepare.place(rng, placing, typed))
            elif dice is not None:
                self.submit(Place(placing, typed))
            return
        pid = state.turn
        if pid is None:
            return
        here = state.seat(pid).location
        if state.step == "choose":
            await self._destination(pid, here)
            return
        dice = await self.ask(DiceDialog(_("{player} moves").format(player=self._pname(pid)), here))
        if dice is None:
            return
        if dice.roll_rest:
            self.submit(lambda: prepare.move(rng, pid, here, dice.typed))
        else:
            self.submit(prepare.move_from(pid, dice.typed))

    async def _destination(self, pid: str, here: str | None) -> None:
        choices = [(loc, render.location_label(loc)) for loc in LOCATIONS if loc != here]
        question = _("{player} rolled a 7: where to?").format(player=self._pname(pid))
        chosen = await self._choose(question, choices)
        if chosen:
            self.submit(Destination(pid, chosen))

    def on_committed(self, change: Change) -> None:
        state = self.game
        if state.phase == "play" and change.entry.kind == "action":
            if state.step == "forest":
                self.call_after_refresh(self.action_forest)
            elif state.step == "choose":
                self.call_after_refresh(self.action_move)

    @work
    async def action_attack(self) -> None:
        state, rng = self.game, self.session.rng
        pid = state.turn
        if pid is None:
            return
        lang, choices = self.companion.lang, []
        for target in state.in_range(pid):
            parts = [self._pname(target), state.character(target).display_name(lang)]
            parts.append(_("distance {n}").format(n=state.distance(pid, target)))
            parts.append(
                _("expected {x}").format(x=f"{float(state.expected_attack(pid, target)):.1f}")
            )
            parts.append(_("HP {hp}").format(hp=state.seat(target).hp))
            choices.append((target, choice_label(parts)))
        if not choices:
            self.say(_("Nobody is in range: end the turn with e."), error=True)
            return
        question = _("{player} attacks (range {n}): targets in range").format(
            player=self._pname(pid), n=state.character(pid).range
        )
        chosen = await self._choose(question, choices)
        if chosen is None:
            return
        target = chosen

        def check(text: str) -> str | None:
            clean = text.strip().lower()
            if clean == "r" or (clean.isdigit() and 1 <= int(clean) <= 100):
                return None
            if not clean:  # an empty enter: say what to type (quoting nothing told nothing)
                return _("Type a number from 1 to 100, or r to roll.")
            return _("{text!r} is not a d100 roll (1 to 100, or r to roll).").format(text=text)

        prompt = _("d100 for {player} → {target}: type the roll, or r to roll").format(
            player=self._pname(pid), target=self._pname(target)
        )
        text = await self.ask(PromptDialog(prompt, check=check, placeholder="1–100 / r"))
        if text is None:
            return
        if text.strip().lower() == "r":
            self.submit(lambda: prepare.attack(rng, pid, target))
        else:
            self.submit(Attack(pid, target, int(text.strip())))

    def action_end_turn(self) -> None:
        if self.game.turn is not None:
            self.submit(EndTurn(self.game.turn))

    @work
    async def action_forest(self) -> None:
        state = self.game
        pid = state.turn
        if pid is None or state.step != "forest":
            return
        others = [s.player for s in state.living() if s.player != pid]
        choices = [
            (f"damage:{p}", _("20 damage to {player}").format(player=self._pname(p)))
            for p in others
        ]
        choices += [
            (f"heal:{s.player}", _("heal {player} by 10").format(player=self._pname(s.player)))
            for s in state.living()
        ]
        question = _("Cat Forest: {effect}").format(effect=_(LOCATION_EFFECTS["forest"]))
        chosen = await self._choose(question, choices)
        if chosen:
            effect, target = chosen.split(":")
            self.submit(Forest(pid, target, "damage" if effect == "damage" else "heal"))


SCREEN = ShadowCatsScreen
