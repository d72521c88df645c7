"""A ``Static`` that repaints only when what it shows changed.

Textual's ``Static.update`` refreshes the widget (and asks for a layout) whatever it is
given, so a screen that re-renders its view after every commit repainted every panel,
changed or not: about half of the game screens' updates a key gave the same text back
(issue 26, ``docs/PERFORMANCE.md``: 185 of 420 at Meeple Circus, 226 of 364 at Cat Box,
its four card panels among them). ``Shown.update`` keeps the widget as it is when the new
content is the same: the same string, or a ``rich.text.Text`` with the same characters,
spans and style. Anything else (a table, a panel) cannot be compared and is drawn as
before.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.visual import VisualType
from textual.widgets import Static


def _key(content: Any) -> Any:
    """What makes two contents draw alike, or ``None`` when it cannot be told."""
    if isinstance(content, str):
        return (str, content)
    if type(content) is Text:  # Text.__eq__ alone ignores the style, justify, …
        return (
            Text,
            content.plain,
            tuple(content.spans),
            str(content.style),
            content.justify,
            content.overflow,
            content.no_wrap,
            content.end,
        )
    return None


class Shown(Static):
    """A ``Static`` whose ``update`` with the same content, at the same width, does
    nothing.

    The width counts: an update is also how a screen has a panel measured again once
    its width is final (Shadow Cats draws its view again after the first layout: a
    panel measured before the game view's scroll bar came kept a height for the wider
    box, and its text was cut), so the same content at a new width is drawn.
    """

    _shown: tuple[Any, int] | None = None
    """The content's ``_key`` and the width it was last drawn for."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        new = _key(content)
        shown = (new, self.size.width)
        # ``content`` read back too: set some other way (``Static.content = …``), the
        # widget shows what it was given then, not what ``_shown`` remembers.
        if new is not None and shown == self._shown and _key(self.content) == new:
            return
        self._shown = shown
        super().update(content, layout=layout)
