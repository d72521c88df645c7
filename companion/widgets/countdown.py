"""A countdown in big block digits, readable from across a table.

Design decisions:

* The widget only *shows* time; it never reads a clock. Its owner sets
  ``remaining_ns`` from the session's monotonic clock (start of playback + the
  track's length − now), so the countdown and the music share one timeline and a
  test's fake clock drives it exactly.
* Seconds are rounded *up*: the display reads ``2:00`` the instant the music starts
  and ``0:00`` only when it has ended, like a kitchen timer.
* The last ``warning_s`` seconds are marked (a CSS class, ``-warning``), so the
  table sees the end coming even without a cue sound.
* The digits come from the board's block font (``companion.widgets.bigtext``) at the
  largest scale that fits the widget: one font for every big number in the app.
"""

from __future__ import annotations

from typing import Literal

from textual.reactive import reactive
from textual.widget import Widget

from companion.widgets.bigtext import BigText, best_scale

NS_PER_S = 1_000_000_000
WARNING_S = 10

CountdownMode = Literal["idle", "running", "ended"]


def format_remaining(remaining_ns: int) -> str:
    """``M:SS``, seconds rounded up; never negative.

    >>> format_remaining(120 * NS_PER_S), format_remaining(59_000_000_001), format_remaining(-5)
    ('2:00', '1:00', '0:00')
    """
    seconds = max(0, -(-remaining_ns // NS_PER_S))
    minutes, secs = divmod(seconds, 60)
    return f"{minutes}:{secs:02d}"


class Countdown(Widget):
    """Big ``M:SS`` digits. ``mode`` idle (not started), running or ended."""

    DEFAULT_CSS = """
    Countdown { height: 12; width: 1fr; content-align: center middle; color: $text; }
    Countdown.-running { color: $success; }
    Countdown.-warning { color: $error; text-style: bold; }
    Countdown.-ended { color: $text-muted; }
    """

    remaining_ns: reactive[int] = reactive(0, repaint=False)
    """Set ten times a second by its screen; drawn again only when ``text`` changes."""
    mode: reactive[CountdownMode] = reactive("idle")

    def __init__(
        self,
        remaining_ns: int = 0,
        *,
        warning_s: int = WARNING_S,
        max_scale: int = 5,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.warning_s = warning_s
        self.max_scale = max_scale
        self.set_reactive(Countdown.remaining_ns, remaining_ns)
        self._drawn: str | None = None
        self._title = ""

    @property
    def text(self) -> str:
        """What the digits read now (``M:SS``)."""
        return format_remaining(self.remaining_ns)

    @property
    def warning(self) -> bool:
        """True in the last ``warning_s`` seconds of a running countdown."""
        return self.mode == "running" and self.remaining_ns <= self.warning_s * NS_PER_S

    def show(self, remaining_ns: int, mode: CountdownMode) -> None:
        """Set both at once (one refresh)."""
        self.remaining_ns = remaining_ns
        self.mode = mode

    def set_title(self, text: str) -> None:
        """The border title (what the countdown counts); set only when it changes:
        Textual repaints a widget whenever its border title is set, even to the same."""
        if text != self._title:
            self._title = text
            self.border_title = text

    def watch_remaining_ns(self) -> None:
        self._restyle()
        if self.text != self._drawn:
            self.refresh()  # the digits changed (once a second; the ticks are tenths)

    def watch_mode(self) -> None:
        self._restyle()

    def _restyle(self) -> None:
        self.set_class(self.mode == "running" and not self.warning, "-running")
        self.set_class(self.warning, "-warning")
        self.set_class(self.mode == "ended", "-ended")

    def render(self) -> BigText:
        self._drawn = self.text
        region = self.content_region
        scale = best_scale(self.text, region.width, region.height, self.max_scale)
        return BigText(self.text, scale, justify="center")
