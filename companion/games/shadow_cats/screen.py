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

from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from typing import Any, ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from companion.games.shadow_cats import prepare, render
from companion.games.shadow_cats.rules.actions import (
    IDENTITIES,
    Attack,
    ChangeHp,
    CopyCharacter,
    DeclareNeutralWin,
    Destination,
    EndTurn,
    FinalIdentities,
    Forest,
    GiveItem,
    IdentityEntry,
    PickCharacter,
    Place,
    Relocate,
    Reveal,
    SetCounts,
    SetFirstPlayer,
    SetLayout,
    TakeItem,
)
from companion.games.shadow_cats.rules.board import LOCATION_EFFECTS, LOCATIONS
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.rules.words import IDENTITY_WORDS, KIND_WORDS, NATION_WORDS
from companion.games.shadow_cats.view import ShadowView, build
from companion.games.shadow_cats.widgets import CountsDialog, DiceDialog, parse_counts
from companion.i18n import N_, _
from companion.rules.base import RuleError
from companion.session.live import Change
from companion.widgets.dialogs import ChoiceDialog, PromptDialog, ReasonDialog
from companion.widgets.game_screen import GameScreen

WIDE = 120
"""Columns from which the players table shows every column."""
TALL = 40
"""Rows from which the ring of locations is drawn in full (else compact)."""


def parse_hp_change(text: str) -> tuple[int, str]:
    """``"-20 NPC card"`` → ``(-20, "NPC card")``; ``ValueError`` if malformed."""
    clean = text.strip().replace("＋", "+").replace("－", "-").replace("−", "-")
    amount, _sep, reason = clean.partition(" ")
    if not amount.lstrip("+-").isdigit():
        raise ValueError(text)
    return int(amount), reason.strip()


def choice_label(parts: Sequence[str]) -> str:
    return "  ·  ".join(p for p in parts if p)


class ShadowCatsScreen(GameScreen):
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

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.roster_error = ""
        """The last roster file problem (shown in the setup panel until a deal works)."""

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

    @property
    def game(self) -> ShadowState:
        state: ShadowState = self.session.state
        return state

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

    def _setup_text(self, state: ShadowState) -> Text:
        draft = state.draft
        out = Text()
        file = draft.roster_file if draft else str(self.session.options.get("roster_file") or "")
        out.append(_("Roster: {file}").format(file=file or "default_roster.toml") + "\n", "bold")
        if self.roster_error:
            out.append(self.roster_error + "\n", style="bold red")
            out.append(_("Fix the file and press R to read it again.") + "\n", style="dim")
        if draft is None:
            return out
        if draft.roster.note:
            out.append(_(draft.roster.note) + "\n", style="yellow")
        for cid, printed, computed in draft.roster.warnings():
            out.append(
                _(
                    "{character}: the card prints attack {printed}, its table's "
                    "expectation is {computed}."
                ).format(character=cid, printed=printed, computed=f"{float(computed):.2f}")
                + "\n",
                style="yellow",
            )
        counts = draft.counts
        red, blue, neutral = (counts.red, counts.blue, counts.neutral) if counts else ("?",) * 3
        out.append(
            _("Identities: {red} Red · {blue} Blue · {neutral} Neutral").format(
                red=red, blue=blue, neutral=neutral
            )
            + "\n"
        )
        out.append(_("First player: {player}").format(player=self._pname(draft.first_player)))
        names = {c.id: c.display_name(self.companion.lang) for c in draft.roster.characters}
        dealt = "  ".join(
            f"{p.name}: " + " / ".join(names.get(c, c) for c in pair)
            for p, pair in zip(state.players, draft.pairs, strict=False)
        )
        out.append("\n" + _("Dealt: {pairs}").format(pairs=dealt), style="dim")
        return out

    def _deck_text(self, state: ShadowState) -> Text:
        lang = self.companion.lang
        count = len(state.equipment_deck)
        out = Text(_("Equipment deck: shuffle these {count} cards").format(count=count) + "\n")
        out.stylize("bold")
        for kind in ("weapon", "armour"):
            names = [
                item.display_name(lang)
                for iid in state.equipment_deck
                if (item := state.item(iid)) is not None and item.kind == kind
            ]
            if names:
                out.append(_(KIND_WORDS[kind]) + f" ({len(names)}): ", style="bold")
                out.append(("、" if lang.startswith("zh") else ", ").join(names) + "\n")
        return out

    def _pname(self, pid: str | None) -> str:
        return "—" if pid is None else self.session.player(pid).name

    def _selected(self) -> str | None:
        table = self.query_one("#sc-players", DataTable)
        players = self.game.players
        return players[table.cursor_row].id if 0 <= table.cursor_row < len(players) else None

    async def _choose(
        self, question: str, choices: Sequence[tuple[str, str]], selected: str | None = None
    ) -> str | None:
        if not choices:
            self.say(_("Nothing to choose from."), error=True)
            return None
        return await self.ask(ChoiceDialog(question, choices, selected))

    async def _reason(self, question: str) -> str | None:
        text = await self.ask(ReasonDialog(question, placeholder=_("e.g. event card")))
        return text.strip() if text is not None else None

    # ------------------------------------------------------------------ the draft

    def deal(self) -> None:
        """Read the roster file and deal, on the writer thread, as one entry."""
        path = str(self.session.options.get("roster_file") or "")
        players, rng = self.game.players, self.session.rng

        def dealt() -> Change:
            return self.session.act(prepare.deal(prepare.read_roster(path), players, rng))

        def done(future: Future[Change]) -> None:
            error = future.exception()
            self.roster_error = error.render(_) if isinstance(error, RuleError) else ""
            self._committed(future)
            self.refresh_view()

        self.companion.write(dealt, done)

    def action_deal(self) -> None:
        self.deal()

    def action_reload(self) -> None:
        self.deal()

    def action_begin(self) -> None:
        draft, rng = self.game.draft, self.session.rng
        if draft is not None:
            self.submit(lambda: prepare.begin(draft, rng))

    @work
    async def action_change_character(self) -> None:
        draft, pid = self.game.draft, self._selected()
        if draft is None or pid is None:
            return
        index = [p.id for p in self.game.players].index(pid)
        taken = {c for i, c in enumerate(draft.characters) if i != index}
        pair = draft.pairs[index]
        ordered = [*pair, *(c.id for c in draft.roster.characters if c.id not in pair)]
        lang, choices = self.companion.lang, []
        for cid in ordered:
            c = draft.roster.character(cid)
            if c is None or cid in taken:
                continue
            parts = [
                c.display_name(lang),
                _(NATION_WORDS[c.nation]),
                render.element_label(c.element),
            ]
            parts += [_("HP {n}").format(n=c.max_hp), _("range {n}").format(n=c.range)]
            parts.append(_("expected {x}").format(x=f"{float(c.expected_damage):.1f}"))
            choices.append((cid, ("★ " if cid in pair else "") + choice_label(parts)))
        question = _("Character for {player} (★ dealt)").format(player=self._pname(pid))
        chosen = await self._choose(question, choices, draft.characters[index])
        if chosen:
            self.submit(PickCharacter(pid, chosen))

    @work
    async def action_counts(self) -> None:
        draft = self.game.draft
        if draft is None:
            return
        current = (
            f"{draft.counts.red} {draft.counts.blue} {draft.counts.neutral}" if draft.counts else ""
        )
        dialog = CountsDialog(
            _("Identity cards: Red Blue Neutral"), len(self.game.players), current
        )
        text = await self.ask(dialog)
        counts = parse_counts(text) if text is not None else None
        if counts is not None:
            self.submit(SetCounts(*counts))

    @work
    async def action_first(self) -> None:
        choices = [(p.id, p.name) for p in self.game.players]
        draft = self.game.draft
        chosen = await self._choose(
            _("Who takes the first turn?"), choices, draft.first_player if draft else None
        )
        if chosen:
            self.submit(SetFirstPlayer(chosen))

    @work
    async def action_layout(self) -> None:
        """The host's layout: pick the location on each slot, centre first."""
        picked: list[str] = []
        while len(picked) < len(LOCATIONS):
            slot = len(picked)
            where = _("centre") if slot == 0 else _("slot {n}").format(n=slot)
            options = [
                (loc, render.location_label(loc))
                for loc in LOCATIONS
                if loc not in picked and not (slot == 0 and loc == "warp")
            ]
            question = _("Which location lies on the {where}?").format(where=where)
            loc = await self._choose(question, options)
            if loc is None:
                return
            picked.append(loc)
        self.submit(SetLayout(tuple(picked)))

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

    # ------------------------------------------------------------------ identities

    async def _identity(self, question: str) -> str | None:
        return await self._choose(question, [(i, _(IDENTITY_WORDS[i])) for i in IDENTITIES])

    @work
    async def action_reveal(self) -> None:
        state = self.game
        pending = state.pending_reveal
        if pending is not None:
            question = _("{player} died: which identity card is turned?")
            chosen = await self._identity(question.format(player=self._pname(pending)))
            if chosen in IDENTITIES:
                self.submit(Reveal(pending, chosen))
            return
        pid = self._selected()
        if pid is None:
            return
        chosen = await self._identity(_("Identity of {player}").format(player=self._pname(pid)))
        if chosen not in IDENTITIES:
            return
        reason = ""
        if state.seat(pid).alive:
            why = _("Why is {player}'s identity public?").format(player=self._pname(pid))
            if (reason := await self._reason(why) or "") == "":
                return
        self.submit(Reveal(pid, chosen, reason))

    @work
    async def action_neutral(self) -> None:
        hidden = [
            (s.player, self._pname(s.player))
            for s in self.game.seats
            if s.identity in (None, "neutral")
        ]
        pid = await self._choose(_("Which Neutral met their win condition?"), hidden)
        if pid is None:
            return
        why = _("Which Neutral condition did {player} meet?").format(player=self._pname(pid))
        reason = await self._reason(why)
        if reason:
            self.submit(DeclareNeutralWin((pid,), reason))

    @work
    async def action_identities(self) -> None:
        given: list[IdentityEntry] = []
        for seat in self.game.seats:
            if seat.identity is not None:
                continue
            question = _("Identity of {player}").format(player=self._pname(seat.player))
            chosen = await self._identity(question)
            if chosen not in IDENTITIES:
                return
            given.append(IdentityEntry(seat.player, chosen))
        self.submit(FinalIdentities(tuple(given)))

    # ------------------------------------------------------------------ manual actions

    @work
    async def action_hp(self) -> None:
        pid = self._selected()
        if pid is None:
            return

        def check(text: str) -> str | None:
            try:
                amount, reason = parse_hp_change(text)
            except ValueError:
                return _("Write the change and a reason, e.g. -20 NPC card.")
            if not reason:
                return _("Give a short reason for the log.")
            return None if amount else _("An HP change of 0 changes nothing.")

        question = _("HP change for {player} (e.g. -20 NPC card, +10 potion)")
        text = await self.ask(
            PromptDialog(question.format(player=self._pname(pid)), check=check, placeholder="-20 …")
        )
        if text is not None:
            amount, reason = parse_hp_change(text)
            self.submit(ChangeHp(pid, amount, reason))

    @work
    async def action_relocate(self) -> None:
        pid = self._selected()
        if pid is None:
            return
        here = self.game.seat(pid).location
        choices = [(loc, render.location_label(loc)) for loc in LOCATIONS if loc != here]
        question = _("Move {player} to (no location effect)").format(player=self._pname(pid))
        loc = await self._choose(question, choices)
        reason = (
            await self._reason(_("Why does {player} move?").format(player=self._pname(pid)))
            if loc
            else None
        )
        if loc and reason:
            self.submit(Relocate(pid, loc, reason))

    @work
    async def action_give(self) -> None:
        state, pid = self.game, self._selected()
        if pid is None:
            return
        lang, character, choices = self.companion.lang, state.seat(pid).character, []
        for iid in state.equipment_deck:
            item = state.item(iid)
            if item is None or state.holder_of(iid) is not None:
                continue
            bonus = f"{item.bonus_for(character):+d}" + (" ★" if item.owner == character else "")
            choices.append(
                (iid, choice_label([item.display_name(lang), _(KIND_WORDS[item.kind]), bonus]))
            )
        question = _("Give {player} an item (★ their own)").format(player=self._pname(pid))
        given = await self._choose(question, choices)
        reason = await self._reason(_("Where does the item come from?")) if given else None
        if given and reason:
            self.submit(GiveItem(pid, given, reason))

    @work
    async def action_take(self) -> None:
        state, pid = self.game, self._selected()
        if pid is None:
            return
        seat, lang = state.seat(pid), self.companion.lang
        items = [state.item(i) for i in (seat.weapon, seat.armour)]
        choices = [(item.id, item.display_name(lang)) for item in items if item is not None]
        iid = await self._choose(
            _("Take an item from {player}").format(player=self._pname(pid)), choices
        )
        reason = await self._reason(_("Why is the item taken?")) if iid else None
        if iid and reason:
            self.submit(TakeItem(pid, iid, reason))

    @work
    async def action_copy(self) -> None:
        state, pid = self.game, self._selected()
        if pid is None or state.roster is None:
            return
        lang, own = self.companion.lang, state.seat(pid).character
        in_play = {s.character for s in state.seats}
        ordered = sorted(state.roster.characters, key=lambda c: c.id not in in_play)
        choices = [
            (c.id, choice_label([c.display_name(lang), render.element_label(c.element)]))
            for c in ordered
            if c.id != own
        ]
        question = _("Whose attack and element does {player} copy?").format(player=self._pname(pid))
        cid = await self._choose(question, choices)
        reason = (
            await self._reason(_("Why does {player} copy?").format(player=self._pname(pid)))
            if cid
            else None
        )
        if cid and reason:
            self.submit(CopyCharacter(pid, cid, reason))


SCREEN = ShadowCatsScreen
