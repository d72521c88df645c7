"""喵喵咪呀 Meowfia on the board: the two tracks, the markers, the ballot, the timer, the reveals.

Design decisions:

* Drawn from ``view.table_view`` — the same view-model the host's screen renders — so
  totals, leader, tie, ring and timer are the host's own. That view holds public facts
  only (identities from the rules' ``side_of`` and turned tiles, the ballot as totals),
  so nothing hidden can reach the board.
* During a ballot the board shows the weighted totals as votes are entered, and how
  many have voted — not who voted whom, since the table reveals its votes together
  and the totals are what it argues over. Ties and the accused are named.
* The phase timer is computed on every tick from the logged ``timer`` actions and
  the board's own monotonic clock (the host's timeline on the same machine), so a
  board started late shows the right time, and "Time is up!" stays until the phase ends.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from companion.games.meowfia.rules.state import MeowfiaState
from companion.games.meowfia.view import TableView, Tally, TimerView, table_view, timer_view
from companion.i18n import _
from companion.rules.guide import Say
from companion.session.follow import Snapshot
from companion.widgets.bigtext import BigText
from companion.widgets.board_view import BoardView

PLAYER_GAP = "     "
COLOURS = {"red": "red", "blue": "dodger_blue1", "green": "green", "grey": "grey50"}


def tr(text: Say) -> str:
    return text.render(_)


def tile_name(tile: str) -> str:
    return {"undercover": _("Undercover"), "meowfia": _("Meowfia")}.get(tile, tile)


class MeowfiaView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="mf-banner", classes="board-banner")
        with Horizontal(id="mf-main"):
            with Vertical(id="mf-left"):
                yield Static("", id="mf-tracks")
                yield Static("", id="mf-timer")
                yield Static("", id="mf-round")
            yield Static("", id="mf-ballot")
        yield Static("", id="mf-players")

    @property
    def meowfia(self) -> MeowfiaState:
        state: MeowfiaState = self.snapshot.state
        return state

    def view(self, now_ns: int | None = None) -> TableView:
        return table_view(self.meowfia, now_ns)

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        for widget_id, renderable in self.panels().items():
            self.query_one(f"#{widget_id}", Static).update(renderable)
        self.tick(None)

    def tick(self, now_ns: int | None) -> None:
        now = now_ns if now_ns is not None else self.app_clock()
        self.query_one("#mf-timer", Static).update(self._timer(timer_view(self.meowfia, now)))

    def app_clock(self) -> int:
        clock = getattr(self.app, "clock", None)
        return int(clock()) if callable(clock) else 0

    def panels(self) -> dict[str, RenderableType]:
        """Every panel's content, by widget id (rendered from the snapshot alone)."""
        view = self.view()
        return {
            "mf-banner": self._banner(view),
            "mf-tracks": self._tracks(view),
            "mf-round": self._round(view),
            "mf-ballot": self._ballot_panel(view),
            "mf-players": self._players(view),
        }

    def _banner(self, view: TableView) -> str:
        banner = self.outcome_text()
        if banner:
            return banner
        head = view.banner
        parts = []
        if head.round:
            parts.append(_("Round {n}").format(n=head.round))
        phase = tr(head.phase_name)
        if head.call is not None:
            phase += " — " + tr(head.call)
        parts.append(phase)
        if head.sheriff is not None:
            parts.append(_("Sheriff: {name}").format(name=head.sheriff.name))
        return "  ·  ".join(parts)

    # ------------------------------------------------------------------ panels

    def _tracks(self, view: TableView) -> RenderableType:
        table = Table(box=None, show_header=False, padding=(0, 1))
        table.add_column(justify="right", vertical="middle")
        table.add_column()
        table.add_column(vertical="middle")
        for index, track in enumerate(view.tracks):
            colour = COLOURS[track.colour]
            line = Text()
            for full in track.slots:
                line.append("██████" if full else "░░░░░░", style=colour if full else "grey39")
                line.append("  ")
            if index:
                table.add_row("", "", "")
            table.add_row(
                Text(tr(track.label), style=f"bold {colour}"),
                Text("\n").join([line, line]),
                Text(f"{track.count}/{track.target}", style="bold"),
            )
        markers = Text()
        ring = view.markers.ring.name if view.markers.ring else _("nobody")
        markers.append(_("Ring: {name}").format(name=ring), style="bold yellow")
        if view.markers.message is not None:
            markers.append("   " + _("Message: {name}").format(name=view.markers.message.name))
        if view.markers.rose is not None:
            markers.append("   " + _("Rose: {name}").format(name=view.markers.rose.name))
        return Group(table, Text(""), markers)

    def _timer(self, timer: TimerView | None) -> RenderableType:
        if timer is None:
            return Text("")
        if timer.status == "up":
            return Text(tr(timer.label), style="bold white on red", justify="center")
        style = "bold yellow" if timer.status == "running" else "grey50"
        label = _("Smuggling") if timer.phase == "smuggling" else _("Discussion")
        return Group(Text(label, style="bold dim"), BigText(timer.clock, 1, style=style))

    def _round(self, view: TableView) -> RenderableType:
        rnd = view.questioning
        if rnd is None:
            return Text("")
        lines: list[Text] = [Text(_("Questioning order"), style="bold dim")]
        row = Text()
        for item in rnd.items:
            if item.status == "done":
                row.append(f"{item.who.name} ")
                row.append(
                    f"{item.claimed} {_arrow(view, item.claimed)}" if item.claimed else "—",
                    style="bold",
                )
            elif item.status == "now":
                row.append(f"▶ {item.who.name}", style="bold reverse")
            else:
                row.append(item.who.name, style="dim")
            row.append("   ")
        lines.append(row)
        opened = rnd.opened
        if opened is not None:
            found = _("contraband!") if opened.opened == "contraband" else _("empty box")
            lines.append(
                Text(
                    _("Inspected {building}: {result}").format(
                        building=f"{opened.code} {opened.arrow}", result=found
                    ),
                    style="bold",
                )
            )
        return Group(*lines)

    def _ballot_panel(self, view: TableView) -> RenderableType:
        tally = view.tally
        if tally is None:
            return self._reveals(view)
        title = _("Reckoning {n}").format(n=tally.reckoning)
        if tally.number > 1:
            title += " · " + _("revote {n}").format(n=tally.number - 1)
        table = Table(box=None, padding=(0, 2, 0, 0), show_header=False)
        table.add_column(vertical="middle")
        table.add_column(justify="right", vertical="middle")
        scale = 1 if len(tally.totals) <= 6 else 0
        for row in tally.totals:
            lead = row.mark != ""
            name = Text(row.who.name, style="bold reverse" if lead else "bold")
            table.add_row(name, BigText(row.total, scale, style="bold yellow" if lead else ""))
        status = Text(
            _("{voted} of {total} have voted").format(voted=tally.voted, total=tally.voters)
        )
        return Group(Text(title, style="bold"), table, Text(""), status, self._result(tally))

    def _result(self, tally: Tally) -> Text:
        if tally.result == "tie":
            return Text(
                _("Tie: {names} — vote again").format(names=tally.tied_names.render(_)),
                style="bold yellow",
            )
        if tally.result == "accused" and tally.accused is not None:
            return Text(
                _("Accused: {name} — turn the tile!").format(name=tally.accused.name),
                style="bold red",
            )
        ring = tally.ring.name if tally.ring else _("nobody")
        return Text(_("The ring ({name}) counts 1.5").format(name=ring), style="dim")

    def _reveals(self, view: TableView) -> RenderableType:
        if not view.reveals:
            return Text("")
        table = Table(
            box=None, padding=(0, 1), title=_("Revealed"), title_style="bold", show_header=False
        )
        for record in view.reveals:
            role = f" ({record.role})" if record.role else ""
            colour = "dodger_blue1" if record.tile == "undercover" else "red"
            table.add_row(
                _("Round {n}").format(n=record.round),
                Text(record.who.name, style="bold"),
                Text(tile_name(record.tile) + role, style=f"bold {colour}"),
            )
        return table

    def _players(self, view: TableView | None = None) -> Text:
        view = view or self.view()
        row = Text()
        for player in view.players:
            row.append(player.who.name, style="bold")
            colour = COLOURS[player.colour]
            if player.identity == "sheriff":
                row.append(" " + _("Sheriff"), style=f"bold {colour}")
            elif player.identity in ("undercover", "meowfia"):
                row.append(" " + tile_name(player.identity), style=colour)
            elif player.identity == "unknown":
                row.append(" ?", style="dim")
            if "ring" in player.markers:
                row.append(" 💍")
            row.append(PLAYER_GAP)
        return row


def _arrow(view: TableView, code: str | None) -> str:
    rnd = view.questioning
    if rnd is None or code is None:
        return ""
    return next((b.arrow for b in rnd.buildings if b.code == code), "")


VIEW = MeowfiaView
