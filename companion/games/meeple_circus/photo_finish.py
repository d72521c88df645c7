"""The photo finish: every press of a performance on one time line, with exact gaps.

Design decisions:

* It shows what the rules decided, never decides. It draws the presses; the list of
  them (order, gaps, ± uncertainty, button, what each counts as) is the Tadaa!
  order table under it, one row a press (both listed every press, issue 22).
* The time line is proportional: each press is a mark at its host time between the
  first and last press (and the music's start/end when they are in that window);
  presses too close to tell apart on the line share a mark, and the table below
  says who.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.text import Text

from companion.games.meeple_circus.rules.timing import Attempt, Performance, judge
from companion.games.meeple_circus.units import format_exact
from companion.i18n import _
from companion.rules.base import Player
from companion.widgets.shown import Shown

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


class FittedTimeLine:
    """``time_line`` drawn as wide as it is shown (a fixed 64-cell line wrapped at
    100 columns, its span on a line of its own)."""

    def __init__(self, presses: Sequence[tuple[str, int]], attempt: Attempt | None) -> None:
        self.presses = presses
        self.attempt = attempt

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        times = [t for _l, t in self.presses]
        span = max(times) - min(times) if times else 0
        # "├" and "┤ " around the marks, then the span.
        room = options.max_width - 3 - cell_len(format_exact(span))
        yield time_line(self.presses, self.attempt, width=max(8, room))


def render_photo_finish(
    perf: Performance | None, players: Sequence[Player], speed_tokens: bool = True
) -> RenderableType:
    """The photo finish of ``perf``'s current attempt (or a hint when empty): every
    press of it on one time line, marked with the player's seat. The presses
    themselves are listed once, in the Tadaa! order below it (they were listed twice,
    here and there, issue 22)."""
    title = Text(_("Photo finish"), style="bold")
    if perf is None or not perf.presses:
        return Group(title, Text(_("No press yet."), style="dim"))
    verdict = judge(perf, speed_tokens=speed_tokens)
    attempt_index = perf.current_index
    judged = [j for j in verdict.presses if perf.presses[j.index].attempt == attempt_index]
    if not judged:
        return Group(title, Text(_("No press yet."), style="dim"))
    seat = {p.id: str(i + 1) for i, p in enumerate(players)}
    marks = [(seat.get(j.press.player, "?"), j.press.host_ns) for j in judged]
    legend = Text(
        _("▶ music start  ■ music end  ⏱ gap from one box's own clock  * several presses"),
        style="dim",
    )
    return Group(title, FittedTimeLine(marks, perf.current), legend)


class PhotoFinish(Shown):
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
