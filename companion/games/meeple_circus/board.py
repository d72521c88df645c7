"""米宝马戏团 Meeple Circus on the board: the huge countdown, the Tadaa order, standings.

Design decisions:

* The countdown is computed on every tick from the logged facts — the attempt's
  ``start_ns`` and ``length_ns`` (host-monotonic) — and the board's own monotonic
  clock, which on the same machine *is* the host's timeline. Nothing is counted
  down locally, so a board started mid-performance, or one that missed a poll,
  still shows the right time; a stop or abort shows as soon as it is logged.
* The Tadaa order is the rules' own judgement (``CircusState.verdict()``): places,
  the time into the music, and the gap to the press before — the photo finish —
  with "too close to call" ties and presses at the music's edges marked until the
  host settles them. The board never orders anything itself.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from companion.games.meeple_circus.photo_finish import format_gap, gap_between, time_line
from companion.games.meeple_circus.rules.state import CircusState
from companion.games.meeple_circus.rules.timing import Attempt, JudgedPress, Verdict
from companion.i18n import _
from companion.session.follow import Snapshot
from companion.widgets.bigtext import BigNumber, BigText
from companion.widgets.board_parts import Row, Standings, competition_ranks
from companion.widgets.board_view import BoardView

NS = 1_000_000_000


def phase_name(state: CircusState) -> str:
    names = {
        "first-player": _("Choosing the first player"),
        "preparation": _("Preparation"),
        "performance": _("Performance"),
        "evaluation": _("Evaluation"),
        "end": _("End of the act"),
        "over": _("The grand show is over"),
    }
    return names[state.phase]


def act_name(number: int) -> str:
    return {
        1: _("Act 1 · first rehearsal"),
        2: _("Act 2 · second rehearsal"),
        3: _("Act 3 · the grand show"),
    }.get(number, _("Act {n}").format(n=number))


def clock_text(remaining_ns: int) -> str:
    """``m:ss`` from ten seconds up, ``s.d`` below (tenths matter at the end)."""
    remaining_ns = max(0, remaining_ns)
    if remaining_ns >= 10 * NS:
        seconds = -(-remaining_ns // NS)  # round up: "0:10" until it is below ten
        return f"{seconds // 60}:{seconds % 60:02d}"
    tenths = -(-remaining_ns // (NS // 10))
    return f"{tenths // 10}.{tenths % 10}"


def seconds(ns: int) -> str:
    return f"{ns / NS:.2f} s"


def countdown(attempt: Attempt | None, now_ns: int) -> tuple[str, str]:
    """(clock, label) for the attempt at ``now_ns``."""
    if attempt is None:
        return ("", _("Waiting for the music"))
    if attempt.running:
        remaining = attempt.scheduled_end_ns - now_ns
        if remaining <= 0:
            return ("0.0", _("Time! Hands off"))
        return (clock_text(remaining), _("Music playing — build!"))
    if attempt.end_reason == "tadaa":
        return (clock_text(attempt.scheduled_end_ns - attempt.end_ns), _("Tadaa! — music stopped"))
    if attempt.end_reason == "stopped":
        return (
            clock_text(attempt.scheduled_end_ns - attempt.end_ns),
            _("Everyone finished — music stopped"),
        )
    return ("0.0", _("Time! Hands off"))


class MeepleCircusView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="mc-banner", classes="board-banner")
        with Horizontal(id="mc-main"):
            with Vertical(id="mc-clock-column"):
                yield Static("", id="mc-clock-label", classes="board-label")
                yield BigNumber("", id="mc-clock", max_scale=8)
            yield Static("", id="mc-order")
        yield Standings(id="mc-standings", max_scale=2)

    _label: str | None = None

    @property
    def circus(self) -> CircusState:
        state: CircusState = self.snapshot.state
        return state

    def _attempt(self) -> Attempt | None:
        perf = self.circus.performance
        if perf is None or not perf.attempts:
            return None
        return perf.attempts[-1]

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        state = self.circus
        banner = self.outcome_text()
        if not banner:
            parts = (
                [phase_name(state)]
                if state.act is None
                else [act_name(state.act_number), phase_name(state)]
            )
            if state.performer is not None:
                parts.append(_("performer: {name}").format(name=self.name_of(state.performer)))
            nxt = state.next_to_prepare()
            if nxt is not None:
                parts.append(_("next to prepare: {name}").format(name=self.name_of(nxt)))
            banner = "  ·  ".join(parts)
        self.query_one("#mc-banner", Static).update(banner)
        self.query_one("#mc-order", Static).update(self._order_table())
        self._show_standings()
        self.tick(None)

    def tick(self, now_ns: int | None) -> None:
        attempt = self._attempt()
        if attempt is not None and attempt.aborted:
            self._set_clock("", _("Attempt aborted — the table fell; play again"))
        elif self.circus.phase != "performance":
            self._set_clock("", "")
        else:
            now = now_ns if now_ns is not None else self.app_clock()
            self._set_clock(*countdown(attempt, now))

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

    # ------------------------------------------------------------------ Tadaa order

    def _order_table(self) -> RenderableType:
        state = self.circus
        verdict = state.verdict()
        act = state.act
        if verdict is None:
            if act is not None and act.speed_tokens and state.phase in ("evaluation", "end"):
                table = Table(box=None, show_header=False, padding=(0, 1))
                table.add_row(Text(_("Speed tokens"), style="bold"))
                for pid, token in sorted(act.speed_tokens, key=lambda kv: -kv[1]):
                    table.add_row(Text(f"+{token}  {self.name_of(pid)}", style="bold"))
                return table
            return Text("")
        return Group(self._verdict_table(verdict), Text(""), self._time_line())

    def seat_of(self, pid: str) -> str:
        """The player's seat number: the label of their mark on the time line."""
        return next((str(i) for i, p in enumerate(self.players, start=1) if p.id == pid), "?")

    def _time_line(self) -> Text:
        """Every press of the current attempt on one proportional line (the photo finish)."""
        perf = self.circus.performance
        if perf is None:
            return Text("")
        current = perf.current_index
        marks = [
            (self.seat_of(rp.press.player), rp.press.host_ns)
            for rp in perf.presses
            if rp.attempt == current
        ]
        return time_line(marks, perf.current, width=40)

    def _verdict_table(self, verdict: Verdict) -> Table:
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
        counted = sorted(
            (p for p in verdict.presses if p.rank is not None), key=lambda p: (p.rank or 0, p.index)
        )
        tokens = verdict.tokens or {}
        previous: JudgedPress | None = None
        for press in counted:
            note = ""
            if press.tied_with:
                note = _("too close to call — host decides")
            elif press.press.player in tokens:
                note = _("speed token +{n}").format(n=tokens[press.press.player])
            gap = Text("")
            if previous is not None:
                # From one button box's own clock when both presses came from it
                # (exact, marked ⏱); otherwise from the mapped host times.
                ns, exact = gap_between(previous.press, press.press)
                gap = Text("+" + format_gap(ns), style="bold" if exact else "")
                if exact:
                    gap.append(" ⏱", style="dim")
            # Places in block figures while they fit (a table has at most 5 players).
            place = BigText(str(press.rank), 1 if len(counted) <= 5 else 0, style="bold")
            table.add_row(
                place,
                Text(f"{self.seat_of(press.press.player)} ", style="dim").append(
                    self.name_of(press.press.player), style="bold"
                ),
                seconds(press.elapsed_ns) if press.elapsed_ns is not None else "",
                gap,
                Text(note, style="yellow" if press.tied_with else "green"),
            )
            previous = press
        for press in verdict.presses:
            if press.rank is None and press.status != "repeat":
                table.add_row(
                    "",
                    Text(self.name_of(press.press.player), style="dim"),
                    seconds(press.elapsed_ns) if press.elapsed_ns is not None else "",
                    "",
                    Text(self._status(press), style="dim italic"),
                )
        if not verdict.presses:
            table.add_row("", Text(_("No Tadaa! yet"), style="dim"), "", "", "")
        return table

    @staticmethod
    def _status(press: JudgedPress) -> str:
        return {
            "false-start": _("false start"),
            "too-late": _("too late"),
            "voided": _("voided by the host"),
            "discarded": _("attempt aborted"),
            "uncertain-start": _("at the music's start — host decides"),
            "uncertain-end": _("at the music's end — host decides"),
            "not-performer": _("not the performer"),
            "counted": "",
            "repeat": "",
        }[press.status]

    # ------------------------------------------------------------------ standings

    def _show_standings(self) -> None:
        state = self.circus
        totals = state.totals()
        ranks = competition_ranks([(pid, t) for pid, t in totals.items()])
        winners = set(self.snapshot.outcome.winners) if self.snapshot.outcome else set()
        act = state.act
        rows = []
        for player in state.players:
            cells: list[str | Text] = []
            for number in (1, 2, 3):
                past = next((a for a in state.acts if a.number == number), None)
                score = past.score_of(player.id) if past else None
                cells.append(str(score.total) if score else "")
            mark = "🏆" if player.id in winners else ""
            if act is not None and act.first_player == player.id and state.phase != "over":
                mark = (mark + " " + _("first player")).strip()
            rows.append(
                Row(
                    player.name,
                    str(totals[player.id]),
                    ranks[player.id],
                    mark,
                    highlight=player.id in winners,
                    cells=tuple(cells),
                )
            )
        rows.sort(key=lambda r: r.rank or 0)
        self.query_one(Standings).update(
            rows, [_("Act {n}").format(n=n) for n in (1, 2, 3)], _("Total")
        )


VIEW = MeepleCircusView
