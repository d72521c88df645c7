"""Shared pieces of the board views: standings with big numbers, banners, a log strip."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.widget import Widget

from companion.widgets.bigtext import BigText, size_at


@dataclass(frozen=True)
class Row:
    """One line of a standings table."""

    name: str
    score: str
    rank: int | None = None
    mark: str = ""
    """A short note after the name (``🏆``, ``(+3)``…)."""
    highlight: bool = False
    cells: tuple[str | Text, ...] = ()
    """Extra small cells between the name and the score (per-round points…)."""


def rows_scale(
    rows: Sequence[Row], height: int, width: int, name_width: int, max_scale: int = 3
) -> tuple[int, int]:
    """``(scale, gap)``: the largest number scale (0 = plain text) at which every row
    fits ``height``, with a blank line between rows (``gap`` 1) if there is room."""
    if not rows:
        return (0, 0)
    longest = max(rows, key=lambda r: len(r.score)).score
    for scale in range(max_scale, 0, -1):
        cols, lines = size_at(longest, scale)
        if cols + name_width + 8 > width:
            continue
        for gap in (1, 0):
            # The header line on top, then each row and its gap.
            if (lines + gap) * len(rows) + 1 <= height:
                return (scale, gap)
    return (0, 0)


class Standings(Widget):
    """Players with their scores in block figures, as large as the box allows."""

    DEFAULT_CSS = """
    Standings { height: 1fr; width: 1fr; }
    """

    def __init__(
        self, *, max_scale: int = 3, id: str | None = None, classes: str | None = None
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.rows: tuple[Row, ...] = ()
        self.headers: tuple[str, ...] = ()
        self.score_header = ""
        self.max_scale = max_scale

    def update(
        self, rows: Sequence[Row], headers: Sequence[str] = (), score_header: str = ""
    ) -> None:
        self.rows = tuple(rows)
        self.headers = tuple(headers)
        self.score_header = score_header
        self.refresh(layout=True)

    def render(self) -> RenderableType:
        region = self.content_region
        name_width = max((Text(r.name + " " + r.mark).cell_len for r in self.rows), default=4)
        extra = sum(
            max(
                (
                    Text.from_markup(str(c)).cell_len if isinstance(c, str) else c.cell_len
                    for c in (r.cells[i] for r in self.rows if i < len(r.cells))
                ),
                default=0,
            )
            + 2
            for i in range(len(self.headers))
        )
        scale, gap = rows_scale(
            self.rows, region.height, region.width - extra, name_width, self.max_scale
        )
        table = Table(
            box=None,
            expand=False,
            show_edge=False,
            pad_edge=False,
            padding=(0, 2, gap, 0),
            header_style="bold dim",
        )
        table.add_column("", justify="right", vertical="middle")
        table.add_column("", vertical="middle")
        for header in self.headers:
            table.add_column(header, justify="right", vertical="middle")
        table.add_column(self.score_header, justify="right", vertical="middle")
        for row in self.rows:
            name = Text(row.name, style="bold reverse" if row.highlight else "bold")
            if row.mark:
                name.append(" " + row.mark, style="yellow")
            rank = Text(f"{row.rank}." if row.rank else "", style="dim")
            cells = [c if isinstance(c, Text) else Text(c) for c in row.cells]
            cells += [Text("")] * (len(self.headers) - len(cells))
            score = BigText(row.score, scale, style="bold" if row.highlight else "")
            table.add_row(rank, name, *cells, score)
        return table
