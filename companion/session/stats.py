"""Statistics over the history: per player, per game, sides, head-to-head.

Design decisions:

* Nothing here is stored. Every number is computed on demand from the session
  results (``companion.session.results``: the outcome each game wrote when it
  ended, in the same transaction as its last entry), so statistics can never
  drift from the log. 10,000 sessions take well under a second.
* A *play* is a finished session. Abandoned and unfinished sessions are counted
  apart (a host wants to see them) but never as plays, wins or losses.
* Scores of different games are never mixed: averages and bests are per game.
  "Best" follows the game's direction (lowest is best where lowest wins); when a
  score pad was played both ways, the direction of the majority of that player's
  plays decides.
* Sides (hidden-role games): a side *wins* a play when one of the winners was on
  it. Win rates are kept per player count, because balance changes with it.
* Head-to-head compares ranks in the plays both took part in: ahead, behind or
  level; shared wins are counted as level.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from companion.session.results import SessionResult, player_key


def rate(part: int, whole: int) -> float:
    """``part / whole`` (0.0 when there is nothing to divide)."""
    return part / whole if whole else 0.0


@dataclass(frozen=True)
class Distribution:
    """Final scores of one game: summary numbers and equal-width buckets."""

    count: int
    minimum: float
    maximum: float
    mean: float
    median: float
    buckets: tuple[tuple[float, float, int], ...]
    """``(low, high, count)``; ``low <= score < high`` (the last bucket includes high)."""


def distribution(values: Sequence[float], bins: int = 8) -> Distribution | None:
    if not values:
        return None
    low, high = min(values), max(values)
    if high == low:
        return Distribution(len(values), low, high, low, low, ((low, high, len(values)),))
    span = high - low
    # Whole-number buckets when scores are whole (the usual case).
    width = span / bins
    if all(float(v).is_integer() for v in values):
        width = float(max(1, math.ceil(span / bins)))
    count = max(1, math.ceil(span / width - 1e-9))
    counts = [0] * count
    for v in values:
        index = min(count - 1, int((v - low) // width))
        counts[index] += 1
    buckets = tuple(
        (low + i * width, min(high, low + (i + 1) * width), c) for i, c in enumerate(counts)
    )
    return Distribution(
        len(values), low, high, statistics.fmean(values), statistics.median(values), buckets
    )


@dataclass(frozen=True)
class PlayerGameStats:
    game: str
    plays: int
    wins: int
    average: float | None
    best: float | None

    @property
    def win_rate(self) -> float:
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class PlayerStats:
    name: str
    plays: int
    wins: int
    abandoned: int
    games: tuple[PlayerGameStats, ...]

    @property
    def key(self) -> str:
        return player_key(self.name)

    @property
    def win_rate(self) -> float:
        return rate(self.wins, self.plays)

    def game(self, game: str) -> PlayerGameStats | None:
        return next((g for g in self.games if g.game == game), None)


@dataclass(frozen=True)
class SideRate:
    players: int
    side: str
    plays: int
    wins: int

    @property
    def win_rate(self) -> float:
        return rate(self.wins, self.plays)


@dataclass(frozen=True)
class GameStats:
    game: str
    plays: int
    abandoned: int
    unfinished: int
    average_duration_s: float | None
    scores: Distribution | None
    sides: tuple[SideRate, ...]

    def side(self, players: int, side: str) -> SideRate | None:
        return next((s for s in self.sides if s.players == players and s.side == side), None)


@dataclass(frozen=True)
class Statistics:
    sessions: int
    plays: int
    players: tuple[PlayerStats, ...]
    games: tuple[GameStats, ...]

    def player(self, name: str) -> PlayerStats | None:
        key = player_key(name)
        return next((p for p in self.players if p.key == key), None)

    def game(self, game: str) -> GameStats | None:
        return next((g for g in self.games if g.game == game), None)


@dataclass
class _PlayerAcc:
    name: str
    plays: int = 0
    wins: int = 0
    abandoned: int = 0
    per_game: dict[str, list[tuple[float | None, bool, bool]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    """game -> [(score, won, highest_wins)]"""


def compute(results: Iterable[SessionResult]) -> Statistics:
    """All statistics of ``results`` in one pass."""
    players: dict[str, _PlayerAcc] = {}
    game_plays: dict[str, list[SessionResult]] = defaultdict(list)
    game_other: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # abandoned, unfinished
    sessions = 0
    for res in results:
        sessions += 1
        if not res.finished:
            game_other[res.game][0 if res.status == "abandoned" else 1] += 1
            if res.status == "abandoned":
                for pr in res.players:
                    players.setdefault(pr.key, _PlayerAcc(pr.name)).abandoned += 1
            continue
        game_plays[res.game].append(res)
        for pr in res.players:
            acc = players.setdefault(pr.key, _PlayerAcc(pr.name))
            acc.plays += 1
            acc.wins += pr.winner
            acc.per_game[res.game].append((pr.value, pr.winner, res.highest_wins))
    player_stats = tuple(
        sorted(
            (_player_stats(acc) for acc in players.values()),
            key=lambda p: (-p.plays, p.name.casefold()),
        )
    )
    names = sorted(set(game_plays) | set(game_other))
    game_stats = tuple(
        _game_stats(g, game_plays.get(g, []), *game_other.get(g, [0, 0])) for g in names
    )
    plays = sum(len(v) for v in game_plays.values())
    return Statistics(sessions, plays, player_stats, game_stats)


def _player_stats(acc: _PlayerAcc) -> PlayerStats:
    games = []
    for game, rows in sorted(acc.per_game.items()):
        values = [v for v, _won, _hw in rows if v is not None]
        highest = sum(1 for *_x, hw in rows if hw) * 2 >= len(rows)
        best = (max(values) if highest else min(values)) if values else None
        games.append(
            PlayerGameStats(
                game,
                len(rows),
                sum(1 for _v, w, _h in rows if w),
                statistics.fmean(values) if values else None,
                best,
            )
        )
    return PlayerStats(acc.name, acc.plays, acc.wins, acc.abandoned, tuple(games))


def _game_stats(
    game: str, plays: list[SessionResult], abandoned: int, unfinished: int
) -> GameStats:
    durations = [r.duration_s for r in plays if r.ended_at]
    values = [v for r in plays for p in r.players if (v := p.value) is not None]
    sides: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
    for r in plays:
        present = {p.side for p in r.players if p.side}
        if not present:
            continue
        winning = {p.side for p in r.players if p.winner and p.side}
        for side in present:
            acc = sides[(len(r.players), side)]
            acc[0] += 1
            acc[1] += side in winning
    side_rates = tuple(SideRate(n, side, c[0], c[1]) for (n, side), c in sorted(sides.items()))
    return GameStats(
        game,
        len(plays),
        abandoned,
        unfinished,
        statistics.fmean(durations) if durations else None,
        distribution(values),
        side_rates,
    )


# --------------------------------------------------------------------------- head-to-head


@dataclass(frozen=True)
class HeadToHeadGame:
    game: str
    plays: int
    a_ahead: int
    b_ahead: int
    level: int


@dataclass(frozen=True)
class HeadToHead:
    a: str
    b: str
    plays: int
    a_ahead: int
    b_ahead: int
    level: int
    a_wins: int
    b_wins: int
    games: tuple[HeadToHeadGame, ...]


def head_to_head(results: Iterable[SessionResult], a: str, b: str) -> HeadToHead:
    """How ``a`` and ``b`` did in the finished plays they both took part in."""
    per_game: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    a_wins = b_wins = 0
    a_name, b_name = a, b
    for res in results:
        if not res.finished:
            continue
        pa, pb = res.player(a), res.player(b)
        if pa is None or pb is None or pa.pid == pb.pid:
            continue
        a_name, b_name = pa.name, pb.name
        acc = per_game[res.game]
        acc[0] += 1
        ra, rb = pa.rank or 0, pb.rank or 0
        if ra < rb:
            acc[1] += 1
        elif rb < ra:
            acc[2] += 1
        else:
            acc[3] += 1
        a_wins += pa.winner
        b_wins += pb.winner
    games = tuple(HeadToHeadGame(g, *c) for g, c in sorted(per_game.items()))
    return HeadToHead(
        a_name,
        b_name,
        sum(g.plays for g in games),
        sum(g.a_ahead for g in games),
        sum(g.b_ahead for g in games),
        sum(g.level for g in games),
        a_wins,
        b_wins,
        games,
    )


# --------------------------------------------------------------------------- over time


@dataclass(frozen=True)
class PlayerPlay:
    session_id: str
    started_at: str
    game: str
    score: float | None
    rank: int | None
    winner: bool
    players: int


def player_plays(
    results: Iterable[SessionResult], name: str, game: str | None = None
) -> list[PlayerPlay]:
    """A player's finished plays, oldest first (for "results over time")."""
    out = []
    for res in results:
        if not res.finished or (game and res.game != game):
            continue
        pr = res.player(name)
        if pr is None:
            continue
        out.append(
            PlayerPlay(
                res.id, res.started_at, res.game, pr.value, pr.rank, pr.winner, len(res.players)
            )
        )
    out.sort(key=lambda p: (p.started_at, p.session_id))
    return out
