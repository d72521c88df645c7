"""The always-visible log: every entry of the session, undone ones struck through."""

from __future__ import annotations

import json

from rich.text import Text
from textual.widgets import RichLog

from companion.i18n import _
from companion.session.live import LiveSession

MAX_LINES = 500


class LogPanel(RichLog):
    """The session log, newest at the bottom. Undo and redo are shown as entries."""

    DEFAULT_CSS = """
    LogPanel { width: 42; border-left: solid $primary-darken-2; }
    """

    def __init__(self, session: LiveSession, **kwargs: object) -> None:
        super().__init__(wrap=True, markup=False, max_lines=MAX_LINES, min_width=20, **kwargs)  # type: ignore[arg-type]
        self.session = session
        self.border_title = _("Log")
        self._shown: tuple[int, frozenset[int]] | None = None
        """(last seq written, undone seqs) of what is on screen."""

    def refresh_log(self) -> None:
        """Show the log. Only new entries are appended when nothing earlier changed
        (no new undo/redo marks): rewriting hundreds of wrapped lines after every
        commit kept the UI thread busy for tens of milliseconds."""
        undone = frozenset(self.session.undone)
        entries = self.session.entries
        names = {p.id: p.name for p in self.session.players}
        if self._shown is not None and self._shown[1] == undone:
            last = self._shown[0]
            fresh = [e for e in entries[-MAX_LINES:] if e.seq > last]
        else:
            self.clear()
            fresh = entries[-MAX_LINES:]
        for entry in fresh:
            self.write(
                describe_entry(
                    entry.seq, entry.kind, entry.payload, entry.at, entry.seq in undone, names
                ),
                shrink=True,
            )
        self._shown = (entries[-1].seq if entries else 0, undone)


def describe_entry(
    seq: int, kind: str, payload: dict[str, object], at: str, undone: bool, names: dict[str, str]
) -> Text:
    """One log line: time, seq, what happened (player ids shown as names)."""
    clock = at[11:19] if len(at) >= 19 else at
    if kind == "undo":
        body = _("undo #{seq}").format(seq=payload.get("undoes"))
        style = "yellow"
    elif kind == "redo":
        body = _("redo #{seq}").format(seq=payload.get("redoes"))
        style = "yellow"
    elif kind == "hw":
        body = "⚙ " + _compact(payload, names)
        style = "dim"
    else:
        body = _compact(payload, names)
        style = "strike dim" if undone else ""
    line = Text(f"{clock} #{seq} ", style="dim")
    line.append(body, style=style)
    return line


def _compact(payload: dict[str, object], names: dict[str, str]) -> str:
    kind = str(payload.get("type", ""))
    rest = {
        k: names.get(v, v) if isinstance(v, str) else v
        for k, v in payload.items()
        if k != "type" and v is not None
    }
    if not rest:
        return kind
    parts = [f"{k}={_plain(v)}" for k, v in rest.items()]
    return kind + " · " + " ".join(parts)


MAX_VALUE_CHARS = 80
"""Longer values (a whole card set in a deal) are cut: the export keeps them in full."""


def _plain(value: object) -> str:
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    )
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"
