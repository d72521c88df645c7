"""A plotext plot that keeps its frame straight when labels are Chinese.

Plotext lays text out one character per cell, but a CJK character takes two cells
on a terminal (Rich measures it so). Each line with wide characters therefore
comes out too long and pushes the frame right. This widget gives back the extra
cells by shortening the widest run of spaces after the last wide character (the
padding after a title, an axis label or a legend entry).
"""

from __future__ import annotations

import re

from rich.cells import cell_len
from rich.text import Text
from textual.app import RenderResult
from textual_plotext import PlotextPlot

_SPACES = re.compile(r" {2,}")


def fit_wide_line(line: Text) -> Text:
    """``line`` with as many spaces removed as its wide characters take extra cells."""
    plain = line.plain
    excess = cell_len(plain) - len(plain)
    if excess <= 0:
        return line
    last_wide = max(i for i, ch in enumerate(plain) if cell_len(ch) > 1)
    runs = [m for m in _SPACES.finditer(plain)]
    after = [m for m in runs if m.start() > last_wide]
    candidates = after or runs
    if not candidates:
        return line
    out = line
    # Take from the longest run first (keeping one space of each), then the next.
    for run in sorted(candidates, key=lambda m: m.end() - m.start(), reverse=True):
        if excess <= 0:
            break
        cut = min(excess, run.end() - run.start() - 1)
        if cut <= 0:
            continue
        out = out[: run.start()] + out[run.start() + cut :]
        excess -= cut
        # Later runs (to the right) moved left by ``cut``; recompute on the new text.
        return fit_wide_line(out) if excess > 0 else out
    return out


def fit_wide(text: Text) -> Text:
    lines = text.split("\n", allow_blank=True)
    return Text("\n").join(fit_wide_line(line) for line in lines)


class WidePlot(PlotextPlot):
    """``PlotextPlot`` whose CJK titles, labels and legends line up."""

    def render(self) -> RenderResult:
        rendered = super().render()
        return fit_wide(rendered) if isinstance(rendered, Text) else rendered
