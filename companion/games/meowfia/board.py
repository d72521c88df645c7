"""喵喵咪呀 Meowfia on the board: the two tracks, the markers, the ballot, the reveals.

Design decisions:

* Hidden information cannot show because the state holds none: a player's tile is
  known only from a ``revealed`` record (or ``undercover`` once the rules know it).
  The view draws identities *only* from those, and marks every other player "?".
* During a ballot the board shows the weighted totals as votes are entered, and how
  many have voted — not who voted whom, since the table reveals its votes together
  and the totals are what it argues over. Ties and the accused are named.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from companion.games.meowfia.rules.state import TARGET, Ballot, MeowfiaState, format_weight
from companion.i18n import _
from companion.session.follow import Snapshot
from companion.widgets.bigtext import BigText
from companion.widgets.board_view import BoardView

PLAYER_GAP = "     "
BUILDING_NAMES = {"N": "N ↑", "E": "E →", "S": "S ↓", "W": "W ←"}


def phase_name(state: MeowfiaState) -> str:
    return {
        "setup": _("Waiting for the Sheriff"),
        "smuggling": _("Smuggling — Sheriff, close your eyes"),
        "inspection": _("Inspection"),
        "reckoning": _("Reckoning"),
        "over": _("Game over"),
    }[state.phase]


def tile_name(tile: str) -> str:
    return {"undercover": _("Undercover"), "meowfia": _("Meowfia")}.get(tile, tile)


def track(filled: int, colour: str) -> list[Text]:
    """Three slots as big blocks, ``filled`` of them full (two lines)."""
    lines = [Text(), Text()]
    for slot in range(TARGET):
        full = slot < filled
        for line in lines:
            line.append("██████" if full else "░░░░░░", style=colour if full else "grey39")
            line.append("  ")
    return lines


class MeowfiaView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="mf-banner", classes="board-banner")
        with Horizontal(id="mf-main"):
            with Vertical(id="mf-left"):
                yield Static("", id="mf-tracks")
                yield Static("", id="mf-round")
            yield Static("", id="mf-ballot")
        yield Static("", id="mf-players")

    @property
    def meowfia(self) -> MeowfiaState:
        state: MeowfiaState = self.snapshot.state
        return state

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        for widget_id, renderable in self.panels().items():
            self.query_one(f"#{widget_id}", Static).update(renderable)

    def panels(self) -> dict[str, RenderableType]:
        """Every panel's content, by widget id (rendered from the snapshot alone)."""
        return {
            "mf-banner": self._banner(),
            "mf-tracks": self._tracks(),
            "mf-round": self._round(),
            "mf-ballot": self._ballot_panel(),
            "mf-players": self._players(),
        }

    def _banner(self) -> str:
        state = self.meowfia
        banner = self.outcome_text()
        if not banner:
            parts = []
            if state.round_number:
                parts.append(_("Round {n}").format(n=state.round_number))
            parts.append(phase_name(state))
            if state.sheriff is not None:
                parts.append(_("Sheriff: {name}").format(name=state.name(state.sheriff)))
            banner = "  ·  ".join(parts)
        return banner

    # ------------------------------------------------------------------ panels

    def _tracks(self) -> RenderableType:
        state = self.meowfia
        table = Table(box=None, show_header=False, padding=(0, 1))
        table.add_column(justify="right", vertical="middle")
        table.add_column()
        table.add_column(vertical="middle")
        smuggles = track(state.smuggles, "red")
        intercepts = track(state.intercepts, "dodger_blue1")
        table.add_row(
            Text(_("Smuggles"), style="bold red"),
            Text("\n").join(smuggles),
            Text(f"{state.smuggles}/{TARGET}", style="bold"),
        )
        table.add_row("", "", "")
        table.add_row(
            Text(_("Intercepts"), style="bold dodger_blue1"),
            Text("\n").join(intercepts),
            Text(f"{state.intercepts}/{TARGET}", style="bold"),
        )
        markers = Text()
        ring = state.name(state.ring) if state.ring else _("nobody")
        markers.append(_("Ring: {name}").format(name=ring), style="bold yellow")
        if state.message is not None:
            markers.append("   " + _("Message: {name}").format(name=state.name(state.message)))
        if state.rose is not None:
            markers.append("   " + _("Rose: {name}").format(name=state.name(state.rose)))
        return Group(table, Text(""), markers)

    def _round(self) -> RenderableType:
        state = self.meowfia
        rnd = state.current_round
        if rnd is None:
            return Text("")
        lines: list[Text] = [Text(_("Questioning order"), style="bold dim")]
        claims = {q.player: q.claim for q in rnd.questioned}
        row = Text()
        for pid in rnd.order:
            if pid in claims:
                claim = claims[pid]
                row.append(f"{state.name(pid)} ")
                row.append(BUILDING_NAMES[claim] if claim else "—", style="bold")
            elif pid == rnd.next_to_question and state.phase == "inspection":
                row.append(f"▶ {state.name(pid)}", style="bold reverse")
            else:
                row.append(state.name(pid), style="dim")
            row.append("   ")
        lines.append(row)
        if rnd.building is not None and rnd.result is not None:
            found = _("contraband!") if rnd.result == "contraband" else _("empty box")
            lines.append(
                Text(
                    _("Inspected {building}: {result}").format(
                        building=BUILDING_NAMES[rnd.building], result=found
                    ),
                    style="bold",
                )
            )
        return Group(*lines)

    def _ballot_panel(self) -> RenderableType:
        state = self.meowfia
        ballot = state.ballot
        if ballot is None:
            return self._reveals()
        title = _("Reckoning {n}").format(n=ballot.reckoning)
        if ballot.number > 1:
            title += " · " + _("revote {n}").format(n=ballot.number - 1)
        table = Table(box=None, padding=(0, 2, 0, 0), show_header=False)
        table.add_column(vertical="middle")
        table.add_column(justify="right", vertical="middle")
        totals = ballot.totals()
        best = max(totals.values(), default=0)
        scale = 1 if len(totals) <= 6 else 0
        for candidate, total in totals.items():
            lead = bool(best) and total == best
            name = Text(state.name(candidate), style="bold reverse" if lead else "bold")
            table.add_row(
                name, BigText(format_weight(total), scale, style="bold yellow" if lead else "")
            )
        voted = len(ballot.casts)
        status = Text(
            _("{voted} of {total} have voted").format(voted=voted, total=len(ballot.voters))
        )
        return Group(
            Text(title, style="bold"), table, Text(""), status, self._ballot_result(ballot)
        )

    def _ballot_result(self, ballot: Ballot) -> Text:
        state = self.meowfia
        if ballot.result == "tie":
            names = ", ".join(state.name(p) for p in ballot.tied)
            return Text(_("Tie: {names} — vote again").format(names=names), style="bold yellow")
        if ballot.result == "accused" and ballot.accused is not None:
            return Text(
                _("Accused: {name} — turn the tile!").format(name=state.name(ballot.accused)),
                style="bold red",
            )
        ring = state.name(ballot.ring) if ballot.ring else _("nobody")
        return Text(_("The ring ({name}) counts 1.5").format(name=ring), style="dim")

    def _reveals(self) -> RenderableType:
        state = self.meowfia
        if not state.revealed:
            return Text("")
        table = Table(
            box=None, padding=(0, 1), title=_("Revealed"), title_style="bold", show_header=False
        )
        for record in state.revealed:
            role = f" ({record.role})" if record.role else ""
            table.add_row(
                _("Round {n}").format(n=record.round),
                Text(state.name(record.player), style="bold"),
                Text(
                    tile_name(record.tile) + role,
                    style="bold dodger_blue1" if record.tile == "undercover" else "bold red",
                ),
            )
        return table

    def _players(self) -> RenderableType:
        state = self.meowfia
        row = Text()
        for player in state.players:
            pid = player.id
            row.append(player.name, style="bold")
            if pid == state.sheriff:
                row.append(" " + _("Sheriff"), style="bold dodger_blue1")
            elif (record := state.revealed_tile(pid)) is not None:
                row.append(
                    " " + tile_name(record.tile),
                    style="dodger_blue1" if record.tile == "undercover" else "red",
                )
            elif pid == state.undercover:
                row.append(" " + tile_name("undercover"), style="dodger_blue1")
            elif state.phase != "setup":
                row.append(" ?", style="dim")
            if pid == state.ring:
                row.append(" 💍")
            row.append(PLAYER_GAP)
        return row


VIEW = MeowfiaView
