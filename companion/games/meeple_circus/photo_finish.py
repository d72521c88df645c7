"""The photo finish: every press of a performance on one time line, with exact gaps.

Design decisions:

* It shows what the rules decided, never decides: order, tie groups ("too close to
  call") and statuses come from ``companion.games.meeple_circus.rules.timing``.
* Gaps are labelled by the view-model's one gap function (``view.gap_label``): from
  one button box's own clock, exact ("+50 µs"); otherwise from the mapped host times
  ("+2.0 ms"), next to each press's ± uncertainty; "±" where the clock could not
  tell the order. Statuses are the guide's words, as on the Tadaa table and board.
* The time line is proportional: each press is a mark at its host time between the
  first and last press (and the music's start/end when they are in that window);
  presses too close to tell apart on the line share a mark, and the table below
  says who.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from companion.games.meeple_circus.guide import STATUS_WORDS
from companion.games.meeple_circus.rules.actions import Press
from companion.games.meeple_circus.rules.timing import (
    Attempt,
    JudgedPress,
    Performance,
    judge,
    tie_groups,
)
from companion.games.meeple_circus.units import format_exact, format_ms
from companion.games.meeple_circus.view import TOO_CLOSE, gap_label
from companion.hardware.hid import short_id
from companion.i18n import _
from companion.rules.base import Player

LINE_WIDTH = 64


def time_line(
    presses: Sequence[tuple[str, int]], attempt: Attempt | None, width: int = LINE_WIDTH
) -> Text:
    """One line of marks (label, host_ns), plus the music's start/end if nearby."""
    if not presses:
        return Text("")
    times = [t for _l, t in presses]
    lo, hi = min(times), max(times)
    span = max(hi - lo, 1)
    pad = span // 10 + 1
    marks: dict[int, str] = {}
    edges: dict[int, str] = {}

    def col(t: int) -> int:
        return round((t - lo) / span * (width - 1)) if hi > lo else width // 2

    if attempt is not None:
        for t, sign in ((attempt.start_ns, "▶"), (attempt.end_ns, "■")):
            if lo - pad <= t <= hi + pad:
                edges[max(0, min(width - 1, col(t)))] = sign
    for label, t in presses:
        c = col(t)
        marks[c] = "*" if c in marks else label
    line = Text("├")
    for c in range(width):
        if c in marks:
            line.append(marks[c], style="bold reverse")
        elif c in edges:
            line.append(edges[c], style="bold yellow")
        else:
            line.append("─", style="dim")
    line.append("┤ " + format_exact(span if hi > lo else 0), style="dim")
    return line


def render_photo_finish(
    perf: Performance | None, players: Sequence[Player], speed_tokens: bool = True
) -> RenderableType:
    """The photo finish of ``perf``'s current attempt (or a hint when empty)."""
    title = Text(_("Photo finish"), style="bold")
    if perf is None or not perf.presses:
        return Group(title, Text(_("No press yet."), style="dim"))
    verdict = judge(perf, speed_tokens=speed_tokens)
    attempt_index = perf.current_index
    judged = [j for j in verdict.presses if perf.presses[j.index].attempt == attempt_index]
    if not judged:
        return Group(title, Text(_("No press yet."), style="dim"))
    names = {p.id: p.name for p in players}
    seat = {p.id: str(i + 1) for i, p in enumerate(players)}
    by_press = {id(j.press): j for j in judged}
    groups = tie_groups([j.press for j in judged])
    attempt = perf.current
    start = attempt.start_ns if attempt is not None else None

    table = Table(expand=True, show_edge=False, pad_edge=False, box=None)
    table.add_column(_("Player"))
    table.add_column(_("Time"), justify="right")
    table.add_column(_("Gap"), justify="right")
    table.add_column("±", justify="right")
    table.add_column(_("Button"))
    table.add_column(_("Counts as"))
    previous: Press | None = None
    for group in groups:
        close = len(group) > 1
        for k, press in enumerate(group):
            j: JudgedPress = by_press[id(press)]
            if previous is None:
                gap = Text("")
            else:
                label, exact = gap_label(previous, press)
                gap = Text(label, style="bold" if exact else "")
                if exact:
                    gap.append(" ⏱", style="dim")
            when = "—" if start is None else f"{(press.host_ns - start) / 1e9:+.6f} s"
            if press.source == "button-box" and (press.device or "").startswith("hid:"):
                button = f"🔘 {short_id(press.device or '')}/{press.button}"
            elif press.source == "button-box":
                device = (press.device or "?")[-6:]
                button = f"🔘 {device}/{press.button}"
            else:
                button = "⌨"
            status = Text(_(STATUS_WORDS[j.status]))
            if close:
                bracket = "┌" if k == 0 else ("└" if k == len(group) - 1 else "│")
                status = Text(f"{bracket} " + _(TOO_CLOSE), style="bold magenta")
            table.add_row(
                Text(f"{seat.get(press.player, '?')} {names.get(press.player, '')}"),
                when,
                gap,
                "±" + format_ms(press.uncertainty_ns),
                button,
                status,
            )
            previous = press
    line = time_line([(seat.get(j.press.player, "?"), j.press.host_ns) for j in judged], attempt)
    legend = Text(
        _("▶ music start  ■ music end  ⏱ gap from one box's own clock  * several presses"),
        style="dim",
    )
    return Group(title, line, legend, table)


class PhotoFinish(Static):
    """Shows ``render_photo_finish``; its owner calls ``show`` when presses change."""

    DEFAULT_CSS = "PhotoFinish { height: auto; padding: 1 0 0 0; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._key: object = None

    def show(
        self, perf: Performance | None, players: Sequence[Player], speed_tokens: bool = True
    ) -> None:
        key = (perf, tuple(players), speed_tokens)
        if key == self._key:
            return
        self._key = key
        self.update(render_photo_finish(perf, players, speed_tokens))
