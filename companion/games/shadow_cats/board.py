"""喵窩暗影 Shadow Cats on the board: the locations with who stands where, HP bars,
equipment, the last attack, and identities once revealed.

Identities are hidden: ``Seat.identity`` is None until a death, a public reveal or
the final entry records it, and the view shows an identity only from that field —
every other player is "?". Characters are public (face up at the table).
"""

from __future__ import annotations

from rich.align import Align
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from companion.games.shadow_cats.rules.board import LOCATION_NAMES
from companion.games.shadow_cats.rules.state import Seat, ShadowState
from companion.i18n import _
from companion.session.follow import Snapshot
from companion.widgets.board_view import BoardView

HP_BAR = 20
"""Cells of a full HP bar."""
IDENTITY_STYLE = {"red": "bold red", "blue": "bold dodger_blue1", "neutral": "bold yellow"}
# The ring drawn as three rows round the centre: slots 1–6 go round clockwise.
RING_ROWS = ((1, 2), (6, 0, 3), (5, 4))


def identity_name(identity: str) -> str:
    return {"red": _("Red team"), "blue": _("Blue team"), "neutral": _("Neutral")}.get(
        identity, identity
    )


def colour_style(colour: str) -> str:
    try:
        Style.parse(colour)
    except Exception:  # a roster colour Rich does not know: draw it plain
        return ""
    return colour


def hp_bar(hp: int, max_hp: int) -> Text:
    filled = round(HP_BAR * hp / max_hp) if max_hp > 0 else 0
    filled = min(HP_BAR, max(1 if hp > 0 else 0, filled))
    share = hp / max_hp if max_hp else 0
    colour = "green" if share > 0.5 else "yellow" if share > 0.25 else "red"
    bar = Text("█" * filled, style=colour)
    bar.append("░" * (HP_BAR - filled), style="grey39")
    bar.append(f" {hp}/{max_hp}", style="bold")
    return bar


class ShadowCatsView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="sc-banner", classes="board-banner")
        with Horizontal(id="sc-main"):
            yield Static("", id="sc-board")
            yield Static("", id="sc-seats")
        yield Static("", id="sc-attack", classes="board-log")

    @property
    def shadow(self) -> ShadowState:
        state: ShadowState = self.snapshot.state
        return state

    def character_name(self, seat: Seat) -> str:
        state = self.shadow
        if state.roster is None:
            return seat.character
        found = state.roster.character(seat.character)
        if found is None:
            return seat.character
        return found.name if self.lang == "zh" or not found.name_en else found.name_en

    def location_name(self, location: str) -> str:
        english, original = LOCATION_NAMES.get(location, (location, location))
        return original if self.lang == "zh" else f"{_(english)} {original}"

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        for widget_id, renderable in self.panels().items():
            self.query_one(f"#{widget_id}", Static).update(renderable)

    def panels(self) -> dict[str, RenderableType]:
        """Every panel's content, by widget id (rendered from the snapshot alone)."""
        return {
            "sc-banner": self._banner(),
            "sc-board": self._board(),
            "sc-seats": self._seats(),
            "sc-attack": self._attack(),
        }

    def _banner(self) -> str:
        state = self.shadow
        banner = self.outcome_text()
        if banner:
            return banner
        if state.phase == "setup":
            return _("Setting up the table")
        if state.phase == "start":
            nxt = state.next_to_place
            return _("Start positions") + (
                "  ·  " + _("next: {name}").format(name=self.name_of(nxt)) if nxt else ""
            )
        if state.phase == "ended":
            return _("Victory! Waiting for the last identities")
        step = {"move": _("move"), "forest": _("forest"), "attack": _("attack")}
        banner = "  ·  ".join(
            [
                _("Round {n}").format(n=state.round),
                _("{name}'s turn").format(name=self.name_of(state.turn)),
                step.get(state.step, state.step),
            ]
        )
        if state.pending_reveal is not None:
            banner += "  ·  " + _("{name} died: turn the identity card").format(
                name=self.name_of(state.pending_reveal)
            )
        return banner

    # ------------------------------------------------------------------ panels

    def _board(self) -> RenderableType:
        state = self.shadow
        if not state.layout or state.roster is None:
            return Text("")
        colours = (state.roster.centre_colour, *state.roster.outer_colours)
        rows = []
        for slots in RING_ROWS:
            row = Table.grid(padding=(0, 1))
            panels = []
            for slot in slots:
                location = state.layout[slot]
                here = Text()
                for seat in state.seats:
                    if seat.location == location:
                        if here:
                            here.append("\n")
                        here.append(
                            self.name_of(seat.player), style="bold" if seat.alive else "dim strike"
                        )
                panels.append(
                    Panel(
                        here,
                        title=self.location_name(location),
                        width=30,
                        height=6,
                        border_style=colour_style(colours[slot]),
                    )
                )
                row.add_column()
            row.add_row(*panels)
            rows.append(Align.center(row))
        return Group(*rows)

    def _seats(self) -> RenderableType:
        state = self.shadow
        table = Table(box=None, padding=(0, 1), header_style="bold dim")
        table.add_column(_("Player"))
        table.add_column(_("Character"))
        table.add_column(_("HP"))
        table.add_column(_("Identity"))
        for seat in state.seats:
            max_hp = state.character(seat.player).max_hp if state.roster else seat.hp
            name = Text(self.name_of(seat.player), style="bold" if seat.alive else "dim")
            if state.turn == seat.player and state.phase == "play":
                name.stylize("reverse")
            if not seat.alive:
                name.append(" ✝")
            character = Text(self.character_name(seat))
            for iid in (seat.weapon, seat.armour):
                item = state.item(iid)
                if item is not None:
                    label = item.name if self.lang == "zh" or not item.name_en else item.name_en
                    character.append(f" [{label}]", style="cyan")
            identity = (
                Text(identity_name(seat.identity), style=IDENTITY_STYLE.get(seat.identity, "bold"))
                if seat.identity is not None
                else Text("?", style="dim")
            )
            table.add_row(name, character, hp_bar(seat.hp, max_hp), identity)
        return table

    def _attack(self) -> Text:
        report = self.shadow.last_attack
        if report is None:
            return Text("")
        who = _("{attacker} attacks {target}: d100 {roll}").format(
            attacker=self.name_of(report.attacker),
            target=self.name_of(report.target),
            roll=report.roll,
        )
        if report.table is None:
            return Text(who + " — " + _("miss"))
        parts = [str(report.table)]
        if report.element:
            parts.append(_("+{n} element").format(n=report.element))
        if report.weapon:
            parts.append(_("+{n} weapon").format(n=report.weapon))
        if report.armour:
            parts.append(_("−{n} armour").format(n=report.armour))
        text = Text(who + " → " + " ".join(parts) + " = ")
        text.append(_("{n} damage").format(n=report.damage), style="bold red")
        text.append(f"  ({report.hp_before} → {report.hp_after})")
        if report.killed:
            text.append("  " + _("killed!"), style="bold red")
        return text


VIEW = ShadowCatsView
