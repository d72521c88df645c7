"""米宝马戏团 Meeple Circus on the board: the huge countdown, the Tadaa order, standings.

Design decisions:

* The countdown is computed on every tick from the logged facts — the attempt's
  ``start_ns`` and ``length_ns`` (host-monotonic) — and the board's own monotonic
  clock, which on the same machine *is* the host's timeline. Nothing is counted
  down locally, so a board started mid-performance, or one that missed a poll,
  still shows the right time; a stop or abort shows as soon as it is logged.
* Everything shown comes from the view-model (``view.py``) the host screen renders
  too: the same places, times, gaps, verdicts, countdown labels and standings. The
  board never orders, measures or labels anything itself.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from companion.games.meeple_circus import view
from companion.games.meeple_circus.photo_finish import time_line
from companion.games.meeple_circus.rules.state import CircusState
from companion.games.meeple_circus.view import clock_text
from companion.hardware.qr import QR_STYLE, qr_lines
from companion.i18n import _
from companion.session.follow import Snapshot
from companion.widgets.bigtext import BigNumber, BigText
from companion.widgets.board_parts import Row, Standings
from companion.widgets.board_view import BoardView

__all__ = ["VIEW", "MeepleCircusView", "clock_text"]


def banner_text(state: CircusState) -> str:
    b = view.banner(state)
    parts = [_(b.phase_name)] if b.act is None else [_(b.act_name), _(b.phase_name)]
    if b.performer is not None:
        parts.append(_("performer: {name}").format(name=b.performer))
    if b.next_to_prepare is not None:
        parts.append(_("next to prepare: {name}").format(name=b.next_to_prepare))
    return "  ·  ".join(parts)


def press_table(rows: tuple[view.PressRow, ...]) -> Table:
    """The Tadaa order as the players see it (the view-model's rows)."""
    table = Table(
        box=None,
        padding=(0, 1),
        header_style="bold dim",
        title=_("Tadaa! order"),
        title_style="bold",
    )
    table.add_column("#", justify="right", vertical="middle")
    table.add_column(_("Player"), vertical="middle")
    table.add_column(_("Time"), justify="right", vertical="middle")
    table.add_column(_("Gap"), justify="right", vertical="middle")
    table.add_column("", vertical="middle")
    counted = [r for r in rows if r.place]
    for row in rows:
        if row.status == "repeat":
            continue  # a second press of a player who already counts: no news
        if row.place:
            note = _(row.label) if row.place.endswith("=") else ""
            if row.token:
                note = _("speed token +{n}").format(n=row.token)
            gap = Text(row.gap, style="bold" if row.gap_exact else "")
            if row.gap_exact:
                gap.append(" ⏱", style="dim")
            # Places in block figures while they fit (a table has at most 5 players).
            place = BigText(row.place.rstrip("="), 1 if len(counted) <= 5 else 0, style="bold")
            name = Text(f"{row.seat} ", style="dim").append(row.name, style="bold")
            colour = "yellow" if row.place.endswith("=") else "green"
            table.add_row(place, name, row.time, gap, Text(note, style=colour))
        else:
            table.add_row(
                "",
                Text(row.name, style="dim"),
                row.time,
                "",
                Text(_(row.label), style="dim italic"),
            )
    if not rows:
        table.add_row("", Text(_("No Tadaa! yet"), style="dim"), "", "", "")
    return table


class MeepleCircusView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="mc-banner", classes="board-banner")
        with Horizontal(id="mc-main"):
            with Vertical(id="mc-clock-column"):
                yield Static("", id="mc-clock-label", classes="board-label")
                yield BigNumber("", id="mc-clock", max_scale=8)
            yield Static("", id="mc-order")
            yield Static("", id="mc-phones")
        yield Standings(id="mc-standings", max_scale=2)

    _label: str | None = None

    @property
    def circus(self) -> CircusState:
        state: CircusState = self.snapshot.state
        return state

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        state = self.circus
        banner = self.outcome_text() or banner_text(state)
        self.query_one("#mc-banner", Static).update(banner)
        self.query_one("#mc-order", Static).update(self._order_table())
        self.query_one("#mc-phones", Static).update(self._phones())
        self._show_standings()
        self.tick(None)

    def tick(self, now_ns: int | None) -> None:
        now = now_ns if now_ns is not None else self.app_clock()
        clock = view.clock_view(self.circus, now, 0)
        idle = clock.remaining_ns is None or clock.mode == "idle"
        text = "" if idle or clock.remaining_ns is None else clock_text(clock.remaining_ns)
        self._set_clock(text, _(clock.label) if clock.label else "")

    def _set_clock(self, text: str, label: str) -> None:
        """Change only what changed: ten ticks a second must not repaint the screen."""
        clock = self.query_one("#mc-clock", BigNumber)
        if clock.value != text:
            clock.value = text
        if label != self._label:
            self._label = label
            self.query_one("#mc-clock-label", Static).update(label)

    def app_clock(self) -> int:
        clock = getattr(self.app, "clock", None)
        return int(clock()) if callable(clock) else 0

    def _phones(self) -> RenderableType:
        """The phones' QR code while the host has them on and no music plays."""
        url = self.snapshot.phones_url
        perf = self.circus.performance
        if url is None or (perf is not None and perf.started and not perf.ended):
            return Text("")
        qr = Text("\n".join(qr_lines(url)), style=QR_STYLE)
        return Group(Text(_("Your phone is your Tadaa! button:"), style="bold"), qr, Text(url))

    # ------------------------------------------------------------------ Tadaa order

    def _order_table(self) -> RenderableType:
        state = self.circus
        act = state.act
        if state.performance is None:
            if act is not None and act.speed_tokens and state.phase in ("evaluation", "end"):
                table = Table(box=None, show_header=False, padding=(0, 1))
                table.add_row(Text(_("Speed tokens"), style="bold"))
                for pid, token in sorted(act.speed_tokens, key=lambda kv: -kv[1]):
                    table.add_row(Text(f"+{token}  {self.name_of(pid)}", style="bold"))
                return table
            return Text("")
        line = time_line(view.timeline_marks(state), state.performance.current, width=40)
        return Group(press_table(view.press_rows(state)), Text(""), line)

    # ------------------------------------------------------------------ standings

    def _show_standings(self) -> None:
        state = self.circus
        winners = self.snapshot.outcome.winners if self.snapshot.outcome else ()
        rows = []
        for r in view.standings(state, tuple(winners)):
            mark = "🏆" if r.winner else ""
            if r.first_player:
                mark = (mark + " " + _("first player")).strip()
            cells = tuple("" if points is None else str(points) for points in r.per_act)
            rows.append(Row(r.name, str(r.total), r.rank, mark, highlight=r.winner, cells=cells))
        rows.sort(key=lambda r: r.rank or 0)
        self.query_one(Standings).update(
            rows, [_("Act {n}").format(n=n) for n in (1, 2, 3)], _("Total")
        )


VIEW = MeepleCircusView
