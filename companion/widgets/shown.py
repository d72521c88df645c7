"""A ``Static`` that repaints only when what it shows changed.

Textual's ``Static.update`` refreshes the widget (and asks for a layout) whatever it is
given, so a screen that re-renders its view after every commit repainted every panel,
changed or not: about half of the game screens' updates a key gave the same text back
(issue 26, ``docs/PERFORMANCE.md``: 185 of 420 at Meeple Circus, 226 of 364 at Cat Box,
its four card panels among them). ``Shown.update`` keeps the widget as it is when the new
content is the same: the same string, or a ``rich.text.Text`` with the same characters,
spans and style. Anything else (a table, a panel) cannot be compared and is drawn as
before.

In a burst of keys (keys typed ahead wait at the app, issue 13) a ``Shown`` puts its
update off until the burst's keys have landed (``after_burst``): no key reads a panel,
so the frames between the keys are not painted and the panel is drawn once, with the
burst's last state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.dom import DOMNode
from textual.visual import VisualType
from textual.widgets import Static


def after_burst(node: DOMNode, draw: Callable[[], object]) -> bool:
    """Put ``draw`` off until the keys typed ahead have landed, if keys wait: True then
    (the companion's ``after_typed_keys``; any other app draws at once). Only for what
    shows: a key's effect on what the next key reads must be there when it comes."""
    put_off = getattr(node.app, "after_typed_keys", None)
    return bool(put_off is not None and put_off(node, draw))


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
    _waiting: tuple[VisualType, bool] | None = None
    """The update put off until a burst of keys has landed (``after_burst``)."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        if self.is_attached and after_burst(self, self._draw_waiting):
            self._waiting = (content, layout)
            return
        self._waiting = None
        self._draw(content, layout)

    def _draw_waiting(self) -> None:
        waiting, self._waiting = self._waiting, None
        if waiting is not None and self.is_attached:
            self._draw(*waiting)

    def _draw(self, content: VisualType, layout: bool) -> None:
        new = _key(content)
        shown = (new, self.size.width)
        # ``content`` read back too: set some other way (``Static.content = …``), the
        # widget shows what it was given then, not what ``_shown`` remembers.
        if new is not None and shown == self._shown and _key(self.content) == new:
            return
        self._shown = shown
        super().update(content, layout=layout)
