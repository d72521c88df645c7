"""The session log: what happened, in the game's own sentences, undone ones struck through.

Design decisions:

* Lines are the guide's ``describe`` sentences in the chosen language (through a
  ``Narrator``), not ``key=value`` text; ``j`` shows each entry's stored JSON instead,
  for audits.
* Only new entries are appended when nothing earlier changed (no new undo/redo
  marks): rewriting hundreds of wrapped lines after every commit kept the UI thread
  busy for tens of milliseconds.
* The panel's width follows the terminal (a third at most); the screen folds it away
  on a small terminal and ``l`` brings it back.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import RichLog

from companion.i18n import _
from companion.session.live import LiveSession
from companion.session.narrate import Narrator, raw
from companion.session.store import Entry

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

    def narrator(self) -> Narrator:
        if self._narrator is None:
            session = self.session
            game = session.game
            initial = game.setup(session.players, game.check_options(session.options))
            self._narrator = Narrator(game, session.info.guide, initial, session.players)
        return self._narrator

    def toggle_raw(self) -> None:
        self.show_raw = not self.show_raw
        self.border_title = _("Log (JSON)") if self.show_raw else _("Log")
        self._shown = None
        self.refresh_log()

    def refresh_log(self) -> None:
        """Show the log, appending only what is new when nothing earlier changed."""
        undone = frozenset(self.session.undone)
        entries = self.session.entries
        narrator = self.narrator()
        narrator.feed_all(entries)
        if self._shown is not None and self._shown[1] == undone:
            last = self._shown[0]
            fresh = [e for e in entries[-MAX_LINES:] if e.seq > last]
        else:
            self.clear()
            fresh = entries[-MAX_LINES:]
        for entry in fresh:
            self.write(self.line(entry, entry.seq in undone), shrink=True)
        self._shown = (entries[-1].seq if entries else 0, undone)

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
