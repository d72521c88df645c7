"""The base of every board view: one game's big display, rendered from a snapshot.

A view is mounted when the board starts following a session and replaced when the
session changes. ``show`` receives every new ``Snapshot`` (state, outcome, recent
entries) and must render *only* from it: the snapshot holds exactly what the host's
app has recorded, and so nothing hidden. ``tick`` is called a few times a second
with the host-monotonic time for views that run a clock (the Meeple Circus
countdown); others ignore it.
"""

from __future__ import annotations

from typing import Any

from textual.containers import Vertical

from companion.i18n import _
from companion.rules.base import Player
from companion.session.follow import Snapshot
from companion.widgets.outcome import outcome_sentence


class BoardView(Vertical):
    """One game's display. Subclasses override ``show`` (and ``tick`` if timed)."""

    DEFAULT_CLASSES = "board-view"

    def __init__(self, snapshot: Snapshot, lang: str) -> None:
        super().__init__()
        self.snapshot = snapshot
        self.lang = lang

    @property
    def state(self) -> Any:
        return self.snapshot.state

    @property
    def players(self) -> tuple[Player, ...]:
        return self.snapshot.session.players if self.snapshot.session else ()

    def name_of(self, pid: str | None) -> str:
        for p in self.players:
            if p.id == pid:
                return p.name
        return pid or ""

    def on_mount(self) -> None:
        self.show(self.snapshot)

    def show(self, snapshot: Snapshot) -> None:
        """Render ``snapshot`` (override; call ``super().show`` to keep it)."""
        self.snapshot = snapshot

    def tick(self, now_ns: int) -> None:
        """The host-monotonic time, a few times a second (override for clocks)."""

    def outcome_text(self) -> str:
        outcome = self.snapshot.outcome
        if outcome is None:
            return ""
        return "🏆 " + _("Game over") + " — " + outcome_sentence(self.players, outcome)
