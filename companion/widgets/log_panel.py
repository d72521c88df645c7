"""The session log: what happened, in the game's own sentences, undone ones struck through.

Design decisions:

* Lines are the guide's ``describe`` sentences in the chosen language (through a
  ``Narrator``), not ``key=value`` text; ``j`` shows each entry's stored JSON instead,
  for audits.
* Only new entries are appended when nothing earlier changed (no new undo/redo
  marks): rewriting hundreds of wrapped lines after every commit kept the UI thread
  busy for tens of milliseconds. An undo or redo changes one earlier entry (struck
  through, or no longer): its lines are re-rendered in place, where the panel wrote
  them, and only the undo/redo entry itself is appended (issue 26: every ctrl+z had
  rewritten the whole log, ~30 wrapped lines a key mid-game). The whole log is only
  written again when the width changes, on ``j``, or when an entry's lines cannot be
  found (written before the first layout, or trimmed past ``MAX_LINES``).
* The panel's width follows the terminal (a third at most); the screen folds it away
  on a small terminal and ``l`` brings it back.
* **Lines are wrapped at the width they are shown at.** A ``RichLog`` wraps a line
  once, when it is written, at its width then: an entry written while the panel was
  folded away (no width: Textual's ``min_width``, 20 columns) or before a resize from
  80 to 160 columns stayed wrapped at ~20 columns inside a ~50-column panel (issue
  22). So nothing is written while the panel has no width, and a change of width (or
  unfolding) writes the log again at the new width, then scrolls to its end.
* In a burst of keys the log is written once, when the burst has landed
  (``after_burst``): no key reads it.
"""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.widgets import RichLog

from companion.i18n import _
from companion.session.live import LiveSession
from companion.session.narrate import Narrator, raw
from companion.session.store import Entry
from companion.widgets.shown import after_burst

MAX_LINES = 500


class LogPanel(RichLog):
    """The session log, newest at the bottom. Undo and redo are shown as entries."""

    DEFAULT_CSS = """
    LogPanel { width: 32%; max-width: 56; min-width: 26; border-left: solid $primary-darken-2; }
    """

    def __init__(self, session: LiveSession, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, max_lines=MAX_LINES, min_width=20, **kwargs)  # type: ignore[arg-type]
        self.session = session
        self.border_title = _("Log")
        self.show_raw = False
        self._narrator: Narrator | None = None
        self._shown: tuple[int, frozenset[int]] | None = None
        """(last seq written, undone seqs) of what is on screen."""
        self._wrapped_at = 0
        """The content width the lines on screen were wrapped at (0: none written)."""
        self._before_layout = False
        """Lines were handed to RichLog before the panel had a size."""
        self._spans: dict[int, tuple[int, int]] = {}
        """seq → its lines in ``RichLog.lines``, counted from the first line ever written
        (``_start_line`` + index), for restyling an entry in place."""

    def narrator(self) -> Narrator:
        if self._narrator is None:
            session = self.session
            game = session.game
            initial = game.setup(session.players, game.stored_options(session.options))
            self._narrator = Narrator(game, session.info.guide, initial, session.players)
        return self._narrator

    def toggle_raw(self) -> None:
        self.show_raw = not self.show_raw
        self.border_title = _("Log (JSON)") if self.show_raw else _("Log")
        self._shown = None
        self.refresh_log()

    def _width(self) -> int:
        return self.scrollable_content_region.width if self.display else 0

    def on_resize(self, event: events.Resize) -> None:
        if self._before_layout and event.size.width and not self._size_known and self._width():
            # The first size: the log is written now, by ``refresh_log``, not from
            # RichLog's queue, so that each entry's lines are counted (``_spans``).
            # Written from the queue they were not, and the first undo of every
            # opened session wrote the whole log again to strike one entry through.
            self._size_known = True
            self._deferred_renders.clear()
            self._before_layout = False
            self._shown = None
            self.refresh_log()
        super().on_resize(event)  # writes what waited for the first size, at that width
        if self._before_layout and self._width():
            self._before_layout = False
            self._wrapped_at = self._width()
        self.call_after_refresh(self._rewrap_if_needed)

    def unfolded(self) -> None:
        """The screen showed the panel again: write what came while it was folded."""
        self.call_after_refresh(self._rewrap_if_needed)

    def _rewrap_if_needed(self) -> None:
        width = self._width()
        if width and width != self._wrapped_at:
            self._shown = None  # everything again, at the new width
            self.refresh_log()

    def refresh_log(self) -> None:
        """Show the log, appending only what is new when nothing earlier changed."""
        if self.is_attached and after_burst(self, self.refresh_log):
            return
        width = self._width()
        if not self.display:
            self._wrapped_at = 0  # folded away: written when it unfolds, at its width then
            self._before_layout = False
            return
        if not width:
            # Shown but not laid out yet (a screen opening): RichLog keeps the lines and
            # writes them at its first size (``on_resize``).
            self._before_layout = True
        if width != self._wrapped_at:
            self._shown = None
        undone = frozenset(self.session.undone)
        entries = self.session.entries
        narrator = self.narrator()
        narrator.feed_all(entries)
        if self._shown is not None and self._restyled(self._shown[1], undone):
            last = self._shown[0]
            fresh = [e for e in entries[-MAX_LINES:] if e.seq > last]
        else:
            self.clear()
            self._spans.clear()
            fresh = entries[-MAX_LINES:]
        for entry in fresh:
            start = self._start_line + len(self.lines)
            self.write(self.line(entry, entry.seq in undone), shrink=True, scroll_end=False)
            if self._size_known:  # else deferred by RichLog: its lines are not known
                self._spans[entry.seq] = (start, self._start_line + len(self.lines))
        self._shown = (entries[-1].seq if entries else 0, undone)
        self._wrapped_at = width  # 0 before the first layout: set in ``on_resize``
        if fresh:
            # Follow the newest entry (at once, not animated: an animation still
            # running when the next entry came left the panel behind). With its size
            # known the lines are written and counted already, so the scroll is made
            # now: deferred to after the next frame, it cost a second frame a key.
            self.scroll_end(animate=False, x_axis=False, immediate=self._size_known)

    def _restyled(self, shown: frozenset[int], undone: frozenset[int]) -> bool:
        """Re-render in place the entries whose undone mark changed; False if one of
        them cannot be (the caller then writes the whole log again)."""
        changed = shown ^ undone
        if not changed:
            return True
        by_seq = {e.seq: e for e in self.session.entries if e.seq in changed}
        for seq in sorted(changed):
            span, entry = self._spans.get(seq), by_seq.get(seq)
            if span is None or entry is None or span[0] < self._start_line:
                return False
            # Rendered as ``write`` renders it (same width rules), then moved into place.
            end, first = len(self.lines), self._start_line
            self.write(self.line(entry, seq in undone), shrink=True, scroll_end=False)
            new = self.lines[end:]
            del self.lines[end:]
            self.virtual_size = Size(self._widest_line_width, len(self.lines))
            if self._start_line != first or len(new) != span[1] - span[0]:
                return False  # trimmed or wrapped differently: write everything
            self.lines[span[0] - first : span[1] - first] = new
        self._line_cache.clear()
        self.refresh()
        return True

    def line(self, entry: Entry, undone: bool) -> Text:
        """One log line: time, seq, what happened."""
        said = self.narrator().said(entry.seq)
        return log_line(
            entry,
            raw(entry) if self.show_raw or said is None else said.render(_),
            undone,
        )


def log_line(entry: Entry, body: str, undone: bool) -> Text:
    clock = entry.at[11:19] if len(entry.at) >= 19 else entry.at
    if entry.kind in ("undo", "redo"):
        style = "yellow"
    elif entry.kind == "hw":
        body = "⚙ " + body
        style = "dim"
    else:
        style = "strike dim" if undone else ""
    line = Text(f"{clock} #{entry.seq} ", style="dim")
    line.append(body, style=style)
    return line
