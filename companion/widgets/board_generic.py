"""The view for a game that has no board view of its own: players, scores, the log.

It shows only what every game offers through the rules surface (``Game.scores``,
``outcome``) and, for the log, each entry's action type and the players it names —
never other fields of a payload, so nothing a game might keep private shows here.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.widgets import Static

from companion.i18n import _, listing
from companion.rules.base import Player, competition_ranks
from companion.session.follow import Snapshot
from companion.session.store import Entry
from companion.widgets.board_parts import Row, Standings
from companion.widgets.board_view import BoardView


def _mentioned(value: Any, players: dict[str, Player]) -> list[str]:
    if isinstance(value, str):
        return [players[value].name] if value in players else []
    if isinstance(value, list | tuple):
        return [name for v in value for name in _mentioned(v, players)]
    if isinstance(value, dict):
        return [name for v in value.values() for name in _mentioned(v, players)]
    return []


def describe_entry(entry: Entry, players: tuple[Player, ...], undone: frozenset[int]) -> str:
    """``#12 score · Ann`` — the kind of an entry and whom it names, nothing more."""
    by_id = {p.id: p for p in players}
    if entry.kind == "undo":
        text = _("undo")
    elif entry.kind == "redo":
        text = _("redo")
    elif entry.kind == "hw":
        text = _("button event")
    else:
        text = str(entry.payload.get("type", "?"))
        names = list(dict.fromkeys(_mentioned(entry.payload, by_id)))
        if names:
            text += " · " + listing(names)
        if entry.seq in undone:
            text += " " + _("(undone)")
    return f"#{entry.seq} {text}"


class GenericView(BoardView):
    def compose(self) -> ComposeResult:
        yield Static("", id="generic-banner", classes="board-banner")
        yield Standings(id="generic-standings")
        yield Static("", id="generic-log", classes="board-log")

    def show(self, snapshot: Snapshot) -> None:
        super().show(snapshot)
        banner = self.query_one("#generic-banner", Static)
        banner.update(self.outcome_text() or _("In play"))
        game = snapshot.info.load() if snapshot.info else None
        scores: dict[str, Any] = dict(game.scores(snapshot.state)) if game else {}
        outcome = snapshot.outcome
        winners = set(outcome.winners) if outcome else set()
        if outcome and outcome.scores:
            scores = dict(outcome.scores)
        highest = outcome.highest_wins if outcome else (game.highest_wins if game else True)
        ranks = competition_ranks([(pid, float(v)) for pid, v in scores.items()], highest)
        rows = [
            Row(
                p.name,
                str(scores[p.id]) if p.id in scores else "",
                ranks.get(p.id),
                "🏆" if p.id in winners else "",
                highlight=p.id in winners,
            )
            for p in self.players
        ]
        if scores:
            rows.sort(key=lambda r: r.rank or 0)
        self.query_one(Standings).update(rows, score_header=_("Score") if scores else "")
        lines = [describe_entry(e, self.players, snapshot.undone) for e in snapshot.entries[-6:]]
        self.query_one("#generic-log", Static).update("\n".join(lines))


VIEW = GenericView
