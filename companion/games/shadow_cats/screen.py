"""喵窩暗影 Shadow Cats screen: board, players with HP, turn and step, dice, attacks.

Thin by design: every decision is the rules' (``companion.games.shadow_cats.rules``); this
screen reads the roster file through the session helper, rolls with
``session.rng`` when the host does not type physical dice, and submits actions.
Identities are never asked for during play except when a card is turned (a death,
a public reveal) and at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, Literal

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from companion.games.shadow_cats.parts import (
    BoardView,
    DiceDialog,
    DiceResult,
    choice_label,
    element_text,
    hp_bar,
    identity_text,
    location_label,
    render_notice,
)
from companion.games.shadow_cats.prepare import (
    RosterSource,
    deal_character_pairs,
    deal_equipment,
    deal_layout,
    read_roster,
    roll_d100,
)
from companion.games.shadow_cats.rules.actions import (
    IDENTITIES,
    Attack,
    ChangeHp,
    CopyCharacter,
    DeclareNeutralWin,
    EndTurn,
    FinalIdentities,
    Forest,
    GiveItem,
    Identity,
    IdentityEntry,
    Move,
    Place,
    Relocate,
    Reveal,
    Setup,
    TakeItem,
)
from companion.games.shadow_cats.rules.board import LOCATION_EFFECTS, LOCATIONS
from companion.games.shadow_cats.rules.roster import Roster
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.rules.words import IDENTITY_WORDS, KIND_WORDS, NATION_WORDS
from companion.i18n import N_, _
from companion.rules.base import RuleError
from companion.widgets.dialogs import ChoiceDialog, PromptDialog
from companion.widgets.game_screen import GameScreen

PHASE_KEYS = {
    # which keys make sense in which phase (the footer shows only these)
    "setup": {"begin", "change_character", "deal", "counts", "layout", "first", "reload"},
    "start": {"move"},
    "play": {
        "move",
        "attack",
        "end_turn",
        "forest",
        "reveal",
        "hp",
        "relocate",
        "give",
        "take",
        "copy",
        "neutral",
    },
    "ended": {"reveal", "neutral", "identities"},
    "over": set(),
}


IDENTITY_OF: dict[str, Identity] = {i: i for i in IDENTITIES}
EFFECTS: dict[str, Literal["damage", "heal"]] = {"damage": "damage", "heal": "heal"}


@dataclass
class Draft:
    """What the setup action will carry, editable before the game starts."""

    source: RosterSource | None = None
    roster: Roster | None = None
    error: str = ""
    pairs: tuple[tuple[str, str], ...] = ()
    characters: list[str] = field(default_factory=list)
    layout: tuple[str, ...] = ()
    counts: tuple[int, int, int] = (0, 0, 0)
    first: str = "p1"


def parse_hp_change(text: str) -> tuple[int, str]:
    """``"-20 NPC card"`` → ``(-20, "NPC card")``; ``ValueError`` if malformed."""
    clean = text.strip().replace("＋", "+").replace("－", "-").replace("−", "-")
    amount, _sep, reason = clean.partition(" ")
    if not amount.lstrip("+-").isdigit():
        raise ValueError(text)
    return int(amount), reason.strip()


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
        Binding("l", "relocate", N_("Relocate")),
        Binding("g", "give", N_("Give item")),
        Binding("t", "take", N_("Take item")),
        Binding("x", "copy", N_("Copy (丑時)")),
        Binding("n", "neutral", N_("Neutral win")),
        Binding("v", "identities", N_("Final identities")),
    ]

    def __init__(self, session: Any) -> None:
        super().__init__(session)
        self.draft = Draft()

    # ------------------------------------------------------------------ layout

    def compose_game(self) -> ComposeResult:
        yield Static("", id="sc-phase", classes="phase-banner")
        yield Static("", id="sc-death", classes="sc-death hidden")
        yield Static("", id="sc-victory", classes="banner hidden")
        with Horizontal(id="sc-top"):
            yield BoardView(id="sc-board")
            with Vertical(id="sc-side"):
                yield Static("", id="sc-notices")
                yield Static("", id="sc-attack")
        yield DataTable(id="sc-players", cursor_type="row", zebra_stripes=True)
        yield Static("", id="sc-setup", classes="hidden")
        yield Static("", id="sc-help", classes="hint")

    @property
    def game(self) -> ShadowState:
        state: ShadowState = self.session.state
        return state

    def on_mount(self) -> None:
        if self.game.phase == "setup":
            self._load_roster()
        super().on_mount()
        self.query_one("#sc-players", DataTable).focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        for keys in PHASE_KEYS.values():
            if action in keys:
                return action in PHASE_KEYS[self.game.phase]
        return True

    # ------------------------------------------------------------------ rendering

    def refresh_view(self) -> None:
        state = self.game
        if state.phase == "setup" and self.draft.source is None:
            self._load_roster()  # back at the setup with nothing read yet (resumed later)
        lang = self.companion.lang
        self.query_one("#sc-phase", Static).update(self._phase_text(state))
        self.query_one(BoardView).show(self._board_state(state), lang)
        self._render_players(state, lang)
        self._render_banners(state)
        notices = [render_notice(state, n.template, dict(n.params)) for n in state.notices]
        self.query_one("#sc-notices", Static).update(
            Text("\n".join(notices) if notices else "", style="bold")
        )
        self.query_one("#sc-attack", Static).update(self._attack_text(state))
        setup = self.query_one("#sc-setup", Static)
        if state.phase == "setup":
            setup.remove_class("hidden")
            setup.update(self._setup_text())
        elif state.phase == "start":
            # While start positions are rolled, the host builds the equipment deck.
            setup.remove_class("hidden")
            setup.update(self._deck_text(state, lang))
        else:
            setup.add_class("hidden")
        self.query_one("#sc-help", Static).update(self._help_text(state))
        self.refresh_bindings()

    def _board_state(self, state: ShadowState) -> ShadowState:
        """During setup, preview the dealt layout and the roster's colours."""
        if state.phase != "setup" or self.draft.roster is None:
            return state
        from dataclasses import replace

        return replace(state, roster=self.draft.roster, layout=self.draft.layout)

    def _pname(self, pid: str | None) -> str:
        if pid is None:
            return "—"
        return self.session.player(pid).name

    def _phase_text(self, state: ShadowState) -> str:
        if state.phase == "setup":
            return _(
                "Setup: check the roster, characters, identity counts and board; s starts the game"
            )
        if state.phase == "start":
            return _("Start positions: {player} rolls 2d6 (m)").format(
                player=self._pname(state.next_to_place)
            )
        if state.phase in ("ended", "over"):
            return (
                _("Game over")
                if state.phase == "over"
                else _("Victory: enter the identities still hidden (v)")
            )
        steps = {
            "move": _("move: roll 2d6 (m)"),
            "forest": _("Cat Forest: choose its effect (f)"),
            "attack": _("attack (a) or end the turn (e)"),
        }
        return _("Round {n} · {player}'s turn · {step}").format(
            n=state.round, player=self._pname(state.turn), step=steps[state.step]
        )

    def _render_players(self, state: ShadowState, lang: str) -> None:
        table = self.query_one("#sc-players", DataTable)
        cursor = table.cursor_row
        table.clear(columns=True)
        table.add_columns(
            "",
            _("Player"),
            _("Character"),
            _("Element"),
            _("HP"),
            _("Range"),
            _("Weapon"),
            _("Armour"),
            _("Location"),
            _("Status"),
            _("Identity"),
            _("Distance"),
        )
        if state.phase == "setup":
            self._render_draft_rows(table, lang)
        else:
            for seat in state.seats:
                character = state.character(seat.player)
                fighting = state.fighting_character(seat.player)
                element = element_text(fighting.element)
                if seat.copied:
                    element += " ⇐ " + fighting.display_name(lang)
                weapon = state.item(seat.weapon)
                armour = state.item(seat.armour)
                status = (
                    Text(_("alive"), style="green")
                    if seat.alive
                    else Text("💀 " + _("dead"), style="bold red")
                )
                distance = ""
                if (
                    state.turn
                    and seat.player != state.turn
                    and seat.location
                    and state.seat(state.turn).location
                ):
                    distance = str(state.distance(state.turn, seat.player))
                table.add_row(
                    "▶" if seat.player == state.turn else "",
                    self._pname(seat.player),
                    character.display_name(lang),
                    element,
                    hp_bar(seat.hp, character.max_hp),
                    str(character.range),
                    weapon.display_name(lang) if weapon else "—",
                    armour.display_name(lang) if armour else "—",
                    location_label(seat.location),
                    status,
                    identity_text(seat.identity),
                    distance,
                    key=seat.player,
                )
        if 0 <= cursor < len(state.players):
            table.move_cursor(row=cursor)

    def _render_draft_rows(self, table: DataTable[Any], lang: str) -> None:
        roster = self.draft.roster
        for i, player in enumerate(self.game.players):
            cid = self.draft.characters[i] if i < len(self.draft.characters) else None
            character = roster.character(cid) if roster and cid else None
            if character is None:
                table.add_row(
                    "", player.name, "—", "", "", "", "", "", "", "", "?", "", key=player.id
                )
                continue
            table.add_row(
                "▶" if player.id == self.draft.first else "",
                player.name,
                character.display_name(lang),
                element_text(character.element),
                hp_bar(character.max_hp, character.max_hp),
                str(character.range),
                "",
                "",
                "",
                "",
                identity_text(None),
                "",
                key=player.id,
            )

    def _render_banners(self, state: ShadowState) -> None:
        death = self.query_one("#sc-death", Static)
        if state.pending_reveal is not None:
            death.update(
                "💀 "
                + _("{player} died: press r and enter the identity on the turned card.").format(
                    player=self._pname(state.pending_reveal)
                )
            )
            death.remove_class("hidden")
        else:
            death.add_class("hidden")
        victory = self.query_one("#sc-victory", Static)
        won = state.victory
        if state.phase == "ended" and won is not None:
            if won.kind == "neutral":
                text = _("Neutral win: {names}.").format(
                    names=", ".join(self._pname(p) for p in won.neutrals)
                )
            elif won.team == "red":
                text = _("Every Blue character is dead: the Red team wins.")
            else:
                text = _("Every Red character is dead: the Blue team wins.")
            victory.update(
                "🏆 "
                + text
                + "  "
                + _(
                    "Press v to enter the identities still "
                    "hidden (a Neutral who won at the same "
                    "moment: n)."
                )
            )
            victory.remove_class("hidden")
        else:
            victory.add_class("hidden")

    def _attack_text(self, state: ShadowState) -> Text:
        report = state.last_attack
        out = Text(_("Last attack") + "\n", style="bold underline")
        if report is None:
            out.append(_("none yet"), style="dim")
            return out
        out.append(
            _("{attacker} → {target}").format(
                attacker=self._pname(report.attacker), target=self._pname(report.target)
            )
            + "\n"
        )
        out.append(_("d100 {roll}").format(roll=report.roll), style="bold")
        if report.table is None:
            out.append(" → " + _("miss"), style="yellow")
        else:
            out.append(" → " + _("table {damage}").format(damage=report.table))
            if report.element:
                out.append(" → " + _("element +{n}").format(n=report.element), style="cyan")
            if report.weapon:
                out.append(" → " + _("weapon {n:+d}").format(n=report.weapon))
            if report.armour:
                out.append(" → " + _("armour −{n}").format(n=report.armour))
        out.append(
            "\n= "
            + _("{damage} damage · HP {before} → {after}").format(
                damage=report.damage, before=report.hp_before, after=report.hp_after
            ),
            style="bold",
        )
        if report.killed:
            out.append("  💀", style="bold red")
        return out

    def _setup_text(self) -> Text:
        d = self.draft
        out = Text()
        if d.source is not None:
            out.append(_("Roster: {file}").format(file=d.source.file_name) + "\n", style="bold")
        if d.error:
            out.append(d.error + "\n", style="bold red")
            out.append(_("Fix the file and press R to read it again.") + "\n", style="dim")
            return out
        if d.roster is not None:
            if d.roster.note:
                out.append(_(d.roster.note) + "\n", style="yellow")
            for cid, printed, computed in d.roster.warnings():
                out.append(
                    _(
                        "{character}: the card prints attack {printed}, its table's "
                        "expectation is {computed}."
                    ).format(character=cid, printed=printed, computed=f"{float(computed):.2f}")
                    + "\n",
                    style="yellow",
                )
        red, blue, neutral = d.counts
        out.append(
            _("Identities: {red} Red · {blue} Blue · {neutral} Neutral").format(
                red=red, blue=blue, neutral=neutral
            )
            + "\n"
        )
        out.append(_("First player: {player}").format(player=self._pname(d.first)) + "\n")
        if d.roster is not None and d.pairs:
            dealt = "  ".join(
                f"{p.name}: " + " / ".join(self._char_name(c) for c in pair)
                for p, pair in zip(self.game.players, d.pairs, strict=False)
            )
            out.append(_("Dealt: {pairs}").format(pairs=dealt), style="dim")
        return out

    def _deck_text(self, state: ShadowState, lang: str) -> Text:
        out = Text(
            _("Equipment deck: shuffle these {count} cards").format(count=len(state.equipment_deck))
            + "\n",
            style="bold",
        )
        for kind in ("weapon", "armour"):
            names = [
                item.display_name(lang)
                for iid in state.equipment_deck
                if (item := state.item(iid)) is not None and item.kind == kind
            ]
            if names:
                out.append(_(KIND_WORDS[kind]) + f" ({len(names)}): ", style="bold")
                out.append("、".join(names) if lang.startswith("zh") else ", ".join(names))
                out.append("\n")
        return out

    def _char_name(self, cid: str) -> str:
        roster = self.draft.roster or self.game.roster
        found = roster.character(cid) if roster else None
        return found.display_name(self.companion.lang) if found else cid

    def _help_text(self, state: ShadowState) -> str:
        if state.phase == "setup":
            return _(
                "↑↓ pick a player · c character · d deal again · k identity counts · "
                "o lay out the board · w first player · R reload the roster · s start"
            )
        if state.phase == "play":
            return _(
                "↑↓ pick a player for h (HP ±), l (relocate), g/t (items), r (reveal), "
                "x (copy) · n: a Neutral met their condition"
            )
        return ""

    # ------------------------------------------------------------------ helpers

    def _selected(self) -> str | None:
        table = self.query_one("#sc-players", DataTable)
        if not 0 <= table.cursor_row < len(self.game.players):
            return None
        return self.game.players[table.cursor_row].id

    def _choose(
        self, question: str, choices: Sequence[tuple[str, str]], then: Callable[[str], None]
    ) -> None:
        if not choices:
            self.notify(_("Nothing to choose from."), severity="warning")
            return

        def done(choice: str | None) -> None:
            if choice:
                then(choice)

        self.app.push_screen(ChoiceDialog(question, choices), done)

    def _reason(self, question: str, then: Callable[[str], None]) -> None:
        def check(text: str) -> str | None:
            return None if text.strip() else _("Give a short reason for the log.")

        def done(text: str | None) -> None:
            if text is not None:
                then(text.strip())

        self.app.push_screen(
            PromptDialog(question, check=check, placeholder=_("e.g. event card")), done
        )

    # ------------------------------------------------------------------ setup

    def _load_roster(self) -> None:
        d = self.draft
        try:
            d.source = read_roster(str(self.session.options.get("roster_file") or ""))
            d.roster = d.source.parse()
            d.error = ""
        except RuleError as exc:
            d.roster = None
            d.error = exc.render(_)
            if d.source is None:
                d.source = RosterSource(str(self.session.options.get("roster_file")), "")
            return
        self._deal()

    def _deal(self) -> None:
        d = self.draft
        if d.roster is None:
            return
        rng = self.session.rng
        n = len(self.game.players)
        d.pairs = deal_character_pairs(d.roster, n, rng)
        d.characters = [pair[0] for pair in d.pairs]
        d.layout = deal_layout(rng)
        found = d.roster.counts_for(n)
        d.counts = (found.red, found.blue, found.neutral) if found else (0, 0, 0)
        d.first = rng.choice(self.game.players).id

    def action_reload(self) -> None:
        self._load_roster()
        self._refresh_all()

    def action_deal(self) -> None:
        self._deal()
        self._refresh_all()

    def action_begin(self) -> None:
        d = self.draft
        if d.source is None or d.roster is None:
            self.notify(d.error or _("No roster loaded."), severity="error")
            return
        red, blue, neutral = d.counts
        self.submit(
            Setup(
                roster_file=d.source.file_name,
                roster=d.source.text,
                characters=tuple(d.characters),
                layout=d.layout,
                red=red,
                blue=blue,
                neutral=neutral,
                first_player=d.first,
                equipment_deck=deal_equipment(d.roster, d.characters, self.session.rng),
            )
        )

    def action_change_character(self) -> None:
        d = self.draft
        pid = self._selected()
        if d.roster is None or pid is None:
            return
        index = [p.id for p in self.game.players].index(pid)
        taken = {c for i, c in enumerate(d.characters) if i != index}
        pair = d.pairs[index] if index < len(d.pairs) else ()
        ordered = [*pair, *(c.id for c in d.roster.characters if c.id not in pair)]
        lang = self.companion.lang
        choices = []
        for cid in ordered:
            c = d.roster.character(cid)
            if c is None or cid in taken:
                continue
            mark = "★ " if cid in pair else ""
            choices.append(
                (
                    cid,
                    mark
                    + choice_label(
                        [
                            c.display_name(lang),
                            _(NATION_WORDS[c.nation]),
                            element_text(c.element),
                            _("HP {n}").format(n=c.max_hp),
                            _("range {n}").format(n=c.range),
                            _("expected {x}").format(x=f"{float(c.expected_damage):.1f}"),
                        ]
                    ),
                )
            )

        def chosen(cid: str) -> None:
            d.characters[index] = cid
            self._refresh_all()

        self._choose(
            _("Character for {player} (★ dealt)").format(player=self._pname(pid)), choices, chosen
        )

    def action_counts(self) -> None:
        def check(text: str) -> str | None:
            parts = text.split()
            if len(parts) != 3 or not all(p.isdigit() for p in parts):
                return _("Write three numbers: Red Blue Neutral, e.g. 2 2 1.")
            return None

        def done(text: str | None) -> None:
            if text is not None:
                red, blue, neutral = (int(p) for p in text.split())
                self.draft.counts = (red, blue, neutral)
                self._refresh_all()

        current = " ".join(str(c) for c in self.draft.counts)
        self.app.push_screen(
            PromptDialog(_("Identity cards: Red Blue Neutral"), current, check=check), done
        )

    def action_first(self) -> None:
        def chosen(pid: str) -> None:
            self.draft.first = pid
            self._refresh_all()

        self._choose(
            _("Who takes the first turn?"), [(p.id, p.name) for p in self.game.players], chosen
        )

    def action_layout(self) -> None:
        """The host's layout: pick the location on each slot, centre first."""
        picked: list[str] = []

        def ask() -> None:
            slot = len(picked)
            if slot == len(LOCATIONS):
                self.draft.layout = tuple(picked)
                self._refresh_all()
                return
            where = _("centre") if slot == 0 else _("slot {n}").format(n=slot)
            options = [
                (loc, location_label(loc))
                for loc in LOCATIONS
                if loc not in picked and not (slot == 0 and loc == "warp")
            ]

            def pick(loc: str) -> None:
                picked.append(loc)
                ask()

            self._choose(
                _("Which location lies on the {where}?").format(where=where), options, pick
            )

        ask()

    # ------------------------------------------------------------------ turns

    def action_move(self) -> None:
        state = self.game
        if state.phase == "start":
            placing = state.next_to_place
            if placing is None:
                return

            def placed(result: DiceResult | None) -> None:
                if result is not None and placing is not None:
                    self.submit(Place(placing, result[0]))

            self.app.push_screen(
                DiceDialog(
                    _("Start position for {player}").format(player=self._pname(placing)),
                    None,
                    self.session.rng,
                    start=True,
                ),
                placed,
            )
            return
        pid = state.turn
        if pid is None:
            return

        def moved(result: DiceResult | None) -> None:
            if result is not None:
                self.submit(Move(pid, result[0], result[1]))

        self.app.push_screen(
            DiceDialog(
                _("{player} moves").format(player=self._pname(pid)),
                state.seat(pid).location,
                self.session.rng,
            ),
            moved,
        )

    def on_committed(self, change: Any) -> None:
        state = self.game
        if state.phase == "play" and state.step == "forest" and change.entry.kind == "action":
            self.call_after_refresh(self.action_forest)

    def action_attack(self) -> None:
        state = self.game
        pid = state.turn
        if pid is None or state.step != "attack":
            self.notify(_("Attack after moving."), severity="warning")
            return
        lang = self.companion.lang
        choices = []
        for target in state.in_range(pid):
            seat = state.seat(target)
            expected: Fraction = state.expected_attack(pid, target)
            choices.append(
                (
                    target,
                    choice_label(
                        [
                            self._pname(target),
                            state.character(target).display_name(lang),
                            _("distance {n}").format(n=state.distance(pid, target)),
                            _("expected {x}").format(x=f"{float(expected):.1f}"),
                            _("HP {hp}").format(hp=seat.hp),
                        ]
                    ),
                )
            )
        if not choices:
            self.notify(_("Nobody is in range: end the turn with e."), severity="warning")
            return

        def target_chosen(target: str) -> None:
            def check(text: str) -> str | None:
                clean = text.strip().lower()
                if clean in ("", "r"):
                    return None
                if not clean.isdigit() or not 1 <= int(clean) <= 100:
                    return _("{text!r} is not a d100 roll (1 to 100).").format(text=text)
                return None

            def rolled(text: str | None) -> None:
                if text is None:
                    return
                clean = text.strip().lower()
                roll = roll_d100(self.session.rng) if clean in ("", "r") else int(clean)
                self.submit(Attack(pid, target, roll))

            self.app.push_screen(
                PromptDialog(
                    _("d100 for {player} → {target}: type the roll, or enter to roll").format(
                        player=self._pname(pid), target=self._pname(target)
                    ),
                    check=check,
                    placeholder="1–100",
                ),
                rolled,
            )

        reach = state.character(pid).range
        self._choose(
            _("{player} attacks (range {n}): targets in range").format(
                player=self._pname(pid), n=reach
            ),
            choices,
            target_chosen,
        )

    def action_end_turn(self) -> None:
        if self.game.turn is not None:
            self.submit(EndTurn(self.game.turn))

    def action_forest(self) -> None:
        state = self.game
        pid = state.turn
        if pid is None or state.step != "forest":
            return
        choices = [
            (f"damage:{s.player}", _("20 damage to {player}").format(player=self._pname(s.player)))
            for s in state.living()
            if s.player != pid
        ]
        choices += [
            (f"heal:{s.player}", _("heal {player} by 10").format(player=self._pname(s.player)))
            for s in state.living()
        ]

        def chosen(choice: str) -> None:
            effect, target = choice.split(":")
            self.submit(Forest(pid, target, EFFECTS[effect]))

        self._choose(
            _("Cat Forest: {effect}").format(effect=_(LOCATION_EFFECTS["forest"])), choices, chosen
        )

    # ------------------------------------------------------------------ identities

    def _identity_choices(self) -> list[tuple[str, str]]:
        return [(i, _(IDENTITY_WORDS[i])) for i in IDENTITIES]

    def action_reveal(self) -> None:
        state = self.game
        pending = state.pending_reveal
        if pending is not None:
            self._choose(
                _("{player} died: which identity card is turned?").format(
                    player=self._pname(pending)
                ),
                self._identity_choices(),
                lambda identity: self.submit(Reveal(pending, IDENTITY_OF[identity])),
            )
            return
        pid = self._selected()
        if pid is None:
            return

        def chosen(identity: str) -> None:
            if not state.seat(pid).alive:
                self.submit(Reveal(pid, IDENTITY_OF[identity]))
                return
            self._reason(
                _("Why is {player}'s identity public?").format(player=self._pname(pid)),
                lambda reason: self.submit(Reveal(pid, IDENTITY_OF[identity], reason)),
            )

        self._choose(
            _("Identity of {player}").format(player=self._pname(pid)),
            self._identity_choices(),
            chosen,
        )

    def action_neutral(self) -> None:
        state = self.game
        choices = [
            (s.player, self._pname(s.player))
            for s in state.seats
            if s.identity in (None, "neutral")
        ]

        def chosen(pid: str) -> None:
            self._reason(
                _("Which Neutral condition did {player} meet?").format(player=self._pname(pid)),
                lambda reason: self.submit(DeclareNeutralWin((pid,), reason)),
            )

        self._choose(_("Which Neutral met their win condition?"), choices, chosen)

    def action_identities(self) -> None:
        hidden = [s.player for s in self.game.seats if s.identity is None]
        given: list[IdentityEntry] = []

        def ask() -> None:
            if len(given) == len(hidden):
                self.submit(FinalIdentities(tuple(given)))
                return
            pid = hidden[len(given)]

            def chosen(identity: str) -> None:
                given.append(IdentityEntry(pid, IDENTITY_OF[identity]))
                ask()

            self._choose(
                _("Identity of {player}").format(player=self._pname(pid)),
                self._identity_choices(),
                chosen,
            )

        ask()

    # ------------------------------------------------------------------ manual actions

    def action_hp(self) -> None:
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

        def done(text: str | None) -> None:
            if text is not None:
                amount, reason = parse_hp_change(text)
                self.submit(ChangeHp(pid, amount, reason))

        self.app.push_screen(
            PromptDialog(
                _("HP change for {player} (e.g. -20 NPC card, +10 potion)").format(
                    player=self._pname(pid)
                ),
                check=check,
                placeholder="-20 …",
            ),
            done,
        )

    def action_relocate(self) -> None:
        pid = self._selected()
        if pid is None:
            return
        here = self.game.seat(pid).location
        choices = [(loc, location_label(loc)) for loc in LOCATIONS if loc != here]

        def chosen(loc: str) -> None:
            self._reason(
                _("Why does {player} move?").format(player=self._pname(pid)),
                lambda reason: self.submit(Relocate(pid, loc, reason)),
            )

        self._choose(
            _("Move {player} to (no location effect)").format(player=self._pname(pid)),
            choices,
            chosen,
        )

    def action_give(self) -> None:
        state = self.game
        pid = self._selected()
        if pid is None or state.roster is None:
            return
        lang = self.companion.lang
        character = state.seat(pid).character
        choices = []
        for iid in state.equipment_deck:
            item = state.item(iid)
            if item is None or state.holder_of(iid) is not None:
                continue
            choices.append(
                (
                    iid,
                    choice_label(
                        [
                            item.display_name(lang),
                            _(KIND_WORDS[item.kind]),
                            f"{item.bonus_for(character):+d}"
                            + (" ★" if item.owner == character else ""),
                        ]
                    ),
                )
            )

        def chosen(iid: str) -> None:
            self._reason(
                _("Where does the item come from?"),
                lambda reason: self.submit(GiveItem(pid, iid, reason)),
            )

        self._choose(
            _("Give {player} an item (★ their own)").format(player=self._pname(pid)),
            choices,
            chosen,
        )

    def action_take(self) -> None:
        state = self.game
        pid = self._selected()
        if pid is None:
            return
        seat = state.seat(pid)
        lang = self.companion.lang
        choices = []
        for iid in (seat.weapon, seat.armour):
            item = state.item(iid)
            if item is not None:
                choices.append((item.id, item.display_name(lang)))

        def chosen(iid: str) -> None:
            self._reason(
                _("Why is the item taken?"), lambda reason: self.submit(TakeItem(pid, iid, reason))
            )

        self._choose(
            _("Take an item from {player}").format(player=self._pname(pid)), choices, chosen
        )

    def action_copy(self) -> None:
        state = self.game
        pid = self._selected()
        if pid is None or state.roster is None:
            return
        lang = self.companion.lang
        own = state.seat(pid).character
        in_play = {s.character for s in state.seats}
        ordered = sorted(state.roster.characters, key=lambda c: c.id not in in_play)
        choices = [
            (c.id, choice_label([c.display_name(lang), element_text(c.element)]))
            for c in ordered
            if c.id != own
        ]

        def chosen(cid: str) -> None:
            self._reason(
                _("Why does {player} copy?").format(player=self._pname(pid)),
                lambda reason: self.submit(CopyCharacter(pid, cid, reason)),
            )

        self._choose(
            _("Whose attack and element does {player} copy?").format(player=self._pname(pid)),
            choices,
            chosen,
        )


SCREEN = ShadowCatsScreen
