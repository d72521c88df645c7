"""Block figures for the table board: numbers readable from across the room.

Design decisions:

* A 3×5 pixel font (digits, ``:``, ``-``, ``+``, ``.``, ``/``, ``%``, space) drawn
  with half blocks (``▀▄█``), so one pixel is ``scale`` columns wide and ``scale``
  half-rows tall — close to square in a terminal cell that is twice as tall as wide.
  At scale 6 a countdown ``1:23`` is 15 rows high, readable from 3 m on a TV.
* Characters outside the font are drawn as a blank of the same width rather than
  guessed; callers render only what the font holds (numbers, clocks, ranks).
* ``BigNumber`` picks the largest scale that fits its box (``max_scale`` caps it), so
  one widget serves a wide TV and a small laptop terminal.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style, StyleType
from textual.reactive import reactive
from textual.widget import Widget

_FONT_ROWS = 5
_FONT: dict[str, tuple[str, ...]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("###", "..#", "###", "#..", "###"),
    "3": ("###", "..#", ".##", "..#", "###"),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "###", "..#", "###"),
    "6": ("###", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", "###", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "###"),
    ":": (".", "#", ".", "#", "."),
    ".": (".", ".", ".", ".", "#"),
    "-": ("...", "...", "###", "...", "..."),
    "+": ("...", ".#.", "###", ".#.", "..."),
    "/": ("..#", "..#", ".#.", "#..", "#.."),
    "%": ("#.#", "..#", ".#.", "#..", "#.#"),
    " ": ("..", "..", "..", "..", ".."),
}
SUPPORTED = frozenset(_FONT)


def _glyph(char: str) -> tuple[str, ...]:
    return _FONT.get(char, _FONT[" "])


def pixel_width(text: str) -> int:
    """Width of ``text`` in font pixels (one blank pixel between characters)."""
    if not text:
        return 0
    return sum(len(_glyph(c)[0]) for c in text) + len(text) - 1


def size_at(text: str, scale: int) -> tuple[int, int]:
    """``(columns, rows)`` that ``text`` takes at ``scale`` (scale 0: plain text)."""
    if scale <= 0:
        return (len(text), 1)
    return (pixel_width(text) * scale, -(-_FONT_ROWS * scale // 2))


def best_scale(text: str, width: int, height: int, max_scale: int = 8) -> int:
    """The largest scale (down to 1) at which ``text`` fits ``width``×``height``; 0 if none."""
    for scale in range(max_scale, 0, -1):
        cols, rows = size_at(text, scale)
        if cols <= width and rows <= height:
            return scale
    return 0


def bitmap(text: str) -> list[str]:
    """The font pixels of ``text``: ``_FONT_ROWS`` strings of ``#`` and ``.``."""
    rows = ["" for _ in range(_FONT_ROWS)]
    for index, char in enumerate(text):
        glyph = _glyph(char)
        for r in range(_FONT_ROWS):
            rows[r] += ("." if index else "") + glyph[r]
    return rows


def render_lines(text: str, scale: int) -> list[str]:
    """``text`` as lines of block characters at ``scale`` (>= 1)."""
    pixels = bitmap(text)
    # Each pixel row becomes ``scale`` half-rows; pair half-rows into terminal rows.
    half_rows: list[str] = []
    for row in pixels:
        wide = "".join(p * scale for p in row)
        half_rows.extend([wide] * scale)
    if len(half_rows) % 2:
        half_rows.append("." * len(half_rows[0]) if half_rows else "")
    lines: list[str] = []
    for top, bottom in zip(half_rows[0::2], half_rows[1::2], strict=True):
        chars = []
        for t, b in zip(top, bottom, strict=True):
            if t == "#" and b == "#":
                chars.append("█")
            elif t == "#":
                chars.append("▀")
            elif b == "#":
                chars.append("▄")
            else:
                chars.append(" ")
        lines.append("".join(chars))
    return lines


class BigText:
    """A Rich renderable: ``text`` in block figures at ``scale`` (0 = plain bold text)."""

    def __init__(
        self, text: str, scale: int = 2, style: StyleType = "", justify: str = "left"
    ) -> None:
        self.text = text
        self.scale = scale
        self.style = style
        self.justify = justify

    def lines(self) -> list[str]:
        if self.scale <= 0:
            return [self.text]
        return render_lines(self.text, self.scale)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        style = console.get_style(self.style) if isinstance(self.style, str) else self.style
        if self.scale <= 0:
            style = style + Style(bold=True)
        width = options.max_width
        for line in self.lines():
            pad = max(0, width - len(line))
            left = {"center": pad // 2, "right": pad}.get(self.justify, 0)
            yield Segment(" " * left + line[:width], style)
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        width = size_at(self.text, self.scale)[0]
        return Measurement(width, width)


class BigNumber(Widget):
    """A number (or clock) in the largest block figures that fit the widget."""

    DEFAULT_CSS = """
    BigNumber { height: 1fr; width: 1fr; content-align: center middle; }
    """

    value: reactive[str] = reactive("", layout=False)

    def __init__(
        self,
        value: str = "",
        *,
        max_scale: int = 8,
        justify: str = "center",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.max_scale = max_scale
        self.justify = justify
        self.set_reactive(BigNumber.value, value)

    @property
    def scale(self) -> int:
        """The scale the value is drawn at in the current size."""
        region = self.content_region
        return best_scale(self.value, region.width, region.height, self.max_scale)

    def render(self) -> BigText:
        return BigText(self.value, self.scale, justify=self.justify)
