"""Hand-built histories for the history tests and benchmark: exact times, known results.

Sessions are played through the real score-pad rules (so their logs replay), but
written with chosen wall-clock stamps, which ``LiveSession`` (real clock) cannot do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from companion.games.scorepad.rules import GAME as SCOREPAD
from companion.games.scorepad.rules import CloseRound, EndGame, Score
from companion.rules.base import Outcome, Player, action_to_json, seat_players
from companion.session.store import SessionRow, Store

T0 = datetime(2026, 3, 1, 19, 0, tzinfo=UTC)


def stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def scorepad_session(
    store: Store,
    names: Sequence[str],
    rounds: Sequence[Mapping[str, int]],
    *,
    start: datetime = T0,
    minutes: float = 30.0,
    highest_wins: bool = True,
    end: str = "end",
    undo_last_score: bool = False,
    session_id: str | None = None,
) -> str:
    """A score-pad session: ``rounds`` of {name: points}; ``end`` is "end" (host ends),
    "open" (left unfinished) or "abandon". Entries are spread over ``minutes``."""
    players = seat_players(list(names))
    by_name = {p.name: p.id for p in players}
    options = {"highest_wins": highest_wins, "target": 0}
    sid = store.create_session(
        "scorepad", options, players, session_id=session_id, started_at=stamp(start)
    )
    actions: list[Any] = []
    for points in rounds:
        actions.extend(Score(by_name[n], v) for n, v in points.items())
        actions.append(CloseRound())
    if end == "end":
        actions.append(EndGame())
    state = SCOREPAD.setup(players, SCOREPAD.check_options(options))
    states = [state]
    steps = len(actions) + (2 if undo_last_score else 0)
    step = timedelta(minutes=minutes) / max(1, steps)
    seq = 0

    def write(
        kind: str, payload: dict[str, Any], outcome: Outcome | None, reopen: bool = False
    ) -> None:
        nonlocal seq
        seq += 1
        store.append(
            sid,
            seq,
            kind,
            payload,
            seq * 1_000_000_000,
            outcome=outcome.to_json() if outcome else None,
            reopen=reopen,
            at=stamp(start + step * seq),
        )

    for i, action in enumerate(actions):
        if undo_last_score and i == len(actions) - 1 and isinstance(action, EndGame | CloseRound):
            wrong = Score(players[0].id, 99)
            write("action", action_to_json(wrong), None)
            write("undo", {"undoes": seq}, None)
        new = SCOREPAD.apply(states[-1], action)
        states.append(new)
        write("action", action_to_json(action), SCOREPAD.outcome(new))
    if end == "abandon":
        store.set_status(sid, "abandoned")
    return sid


def outcome_session(
    store: Store,
    game: str,
    names: Sequence[str],
    *,
    winners: Sequence[str],
    scores: Mapping[str, int] | None = None,
    sides: Mapping[str, str] | None = None,
    start: datetime = T0,
    minutes: float = 20.0,
    highest_wins: bool = True,
    status: str = "finished",
) -> str:
    """A session of any game with only its outcome (for statistics, which never replay)."""
    players = seat_players(list(names))
    pid = {p.name: p.id for p in players}
    outcome = None
    if status == "finished":
        outcome = {
            "termination": "test",
            "winners": [pid[n] for n in winners],
            "scores": {pid[n]: v for n, v in (scores or {}).items()},
            "sides": {pid[n]: s for n, s in (sides or {}).items()},
            "summary": "",
            "highest_wins": highest_wins,
        }
    sid = f"{game}-{len(store.sessions()) + 1:05d}"
    row = SessionRow(
        id=sid,
        game=game,
        options={},
        players=tuple(players),
        started_at=stamp(start),
        ended_at=stamp(start + timedelta(minutes=minutes)) if outcome else None,
        outcome=outcome,
        status=status,
    )
    store.import_session(row, [])
    return sid


def players_of(names: Sequence[str]) -> tuple[Player, ...]:
    return seat_players(list(names))
