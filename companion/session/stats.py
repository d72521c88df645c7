"""Statistics over the history: per player, per game, sides, head-to-head.

Design decisions:

* Nothing here is stored. Every number is computed on demand from the session
  results (``companion.session.results``: the outcome each game wrote when it
  ended, in the same transaction as its last entry), so statistics can never
  drift from the log. 10,000 sessions take well under a second.
* A *play* is a finished session. Abandoned and unfinished sessions are counted
  apart (a host wants to see them) but never as plays, wins or losses.
* Scores of different games are never mixed: averages and bests are per game, and
  a game the host names (the score pad's "Carcassonne", "Azul") is a game of its
  own: ``game`` is the id, ``title`` the host's name, ``key`` what is grouped by
  (``SessionResult.game_key``).
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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import tzinfo
from typing import Any

from companion.session.results import (
    HistoryFilter,
    SessionResult,
    filter_sql,
    game_key,
    player_key,
)
from companion.session.store import Store


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
    title: str | None = None
    """The host's name for the game (score pad) as the first result listed spells it
    (the history lists the newest first); None for the other games."""

    @property
    def key(self) -> str:
        return game_key(self.game, self.title)

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

    def game(self, key: str) -> PlayerGameStats | None:
        """By ``key`` (a game id, or ``scorepad:carcassonne`` for a named game)."""
        return next((g for g in self.games if g.key == key), None)


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
    title: str | None = None
    """The host's name for the game (score pad) as the first result listed spells it
    (the history lists the newest first); None for the other games."""

    @property
    def key(self) -> str:
        return game_key(self.game, self.title)

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

    def game(self, key: str) -> GameStats | None:
        """By ``key`` (a game id, or ``scorepad:carcassonne`` for a named game)."""
        return next((g for g in self.games if g.key == key), None)


@dataclass
class _PlayerAcc:
    name: str
    plays: int = 0
    wins: int = 0
    abandoned: int = 0
    per_game: dict[str, list[tuple[float | None, bool, bool]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    """game key -> [(score, won, highest_wins)]"""


def compute(results: Iterable[SessionResult]) -> Statistics:
    """All statistics of ``results`` in one pass."""
    players: dict[str, _PlayerAcc] = {}
    game_plays: dict[str, list[SessionResult]] = defaultdict(list)
    game_other: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # abandoned, unfinished
    titles: dict[str, tuple[str, str | None]] = {}  # key -> (game, title as first seen)
    sessions = 0
    for res in results:
        sessions += 1
        key = res.game_key
        titles.setdefault(key, (res.game, res.title))
        if not res.finished:
            game_other[key][0 if res.status == "abandoned" else 1] += 1
            if res.status == "abandoned":
                for pr in res.players:
                    players.setdefault(pr.key, _PlayerAcc(pr.name)).abandoned += 1
            continue
        game_plays[key].append(res)
        for pr in res.players:
            acc = players.setdefault(pr.key, _PlayerAcc(pr.name))
            acc.plays += 1
            acc.wins += pr.winner
            acc.per_game[key].append((pr.value, pr.winner, res.highest_wins))
    player_stats = tuple(
        sorted(
            (_player_stats(acc, titles) for acc in players.values()),
            key=lambda p: (-p.plays, p.name.casefold()),
        )
    )
    names = sorted(set(game_plays) | set(game_other))
    game_stats = tuple(
        _game_stats(titles[g], game_plays.get(g, []), *game_other.get(g, [0, 0])) for g in names
    )
    plays = sum(len(v) for v in game_plays.values())
    return Statistics(sessions, plays, player_stats, game_stats)


def _player_stats(acc: _PlayerAcc, titles: dict[str, tuple[str, str | None]]) -> PlayerStats:
    games = []
    for key, rows in sorted(acc.per_game.items()):
        game, title = titles[key]
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
                title,
            )
        )
    return PlayerStats(acc.name, acc.plays, acc.wins, acc.abandoned, tuple(games))


def _game_stats(
    named: tuple[str, str | None], plays: list[SessionResult], abandoned: int, unfinished: int
) -> GameStats:
    game, title = named
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
        title,
    )


# --------------------------------------------------------------------------- head-to-head


@dataclass(frozen=True)
class HeadToHeadGame:
    game: str
    plays: int
    a_ahead: int
    b_ahead: int
    level: int
    title: str | None = None

    @property
    def key(self) -> str:
        return game_key(self.game, self.title)


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
    titles: dict[str, tuple[str, str | None]] = {}
    a_wins = b_wins = 0
    a_name, b_name = a, b
    for res in results:
        if not res.finished:
            continue
        pa, pb = res.player(a), res.player(b)
        if pa is None or pb is None or pa.pid == pb.pid:
            continue
        a_name, b_name = pa.name, pb.name
        titles.setdefault(res.game_key, (res.game, res.title))
        acc = per_game[res.game_key]
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
    return _head_to_head(a_name, b_name, per_game, titles, a_wins, b_wins)


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
    title: str | None = None


def player_plays(
    results: Iterable[SessionResult], name: str, game: str | None = None
) -> list[PlayerPlay]:
    """A player's finished plays, oldest first (for "results over time"); ``game`` is a
    game key (a game id, or ``scorepad:carcassonne`` for a named game)."""
    out = []
    for res in results:
        if not res.finished or (game and res.game_key != game):
            continue
        pr = res.player(name)
        if pr is None:
            continue
        out.append(
            PlayerPlay(
                res.id,
                res.started_at,
                res.game,
                pr.value,
                pr.rank,
                pr.winner,
                len(res.players),
                res.title,
            )
        )
    out.sort(key=lambda p: (p.started_at, p.session_id))
    return out


# --------------------------------------------------------------------------- from SQL
#
# The same numbers as ``compute`` / ``head_to_head`` / ``player_plays`` over
# ``query_results``, read from the summary tables (``companion.session.summary``)
# with SQL aggregates: no session's JSON is parsed, no ``SessionResult`` built. The
# property test holds them equal to the fold over the results.


def _scope(store: Store, flt: HistoryFilter | None, tz: tzinfo | None) -> tuple[str, list[Any]]:
    """``FROM`` and ``WHERE`` of the filtered sessions with their summary (alias m)."""
    where, args = filter_sql(store, flt or HistoryFilter(), tz)
    return "sessions s JOIN summaries m ON m.session_id = s.id" + where, args


def _and(where: str) -> str:
    return " AND " if " WHERE " in where else " WHERE "


def statistics_of(
    store: Store, flt: HistoryFilter | None = None, tz: tzinfo | None = None
) -> Statistics:
    """``compute(query_results(store, flt))``, as a handful of SQL aggregates."""
    scope, args = _scope(store, flt, tz)
    c = store.conn
    with store.snapshot():
        sessions = int(c.execute(f"SELECT count(*) FROM {scope}", args).fetchone()[0])
        # The game key's title and the player's name as the newest session spells them
        # (the history lists the newest first; ``compute`` keeps the first it meets).
        titles: dict[str, tuple[str, str | None]] = {
            key: (game, title)
            for key, game, title in c.execute(
                "SELECT game_key, game, title FROM (SELECT m.game_key, s.game, m.title, "
                "row_number() OVER (PARTITION BY m.game_key ORDER BY s.started_at DESC, s.id) "
                f"AS n FROM {scope}) WHERE n = 1",
                args,
            )
        }
        seat_scope = scope.replace(
            "JOIN summaries m ON m.session_id = s.id",
            "JOIN summaries m ON m.session_id = s.id JOIN summary_seats p ON p.session_id = s.id",
            1,
        )
        # A player counts from a play or an abandoned session (not an unfinished one).
        counted = f"{_and(seat_scope)}(m.finished OR s.status = 'abandoned')"
        # One pass over the seats, grouped by player and game: the plays per game, and
        # the player's totals summed from them (abandoned seats count apart).
        totals: dict[str, list[int]] = {}
        per_game: dict[str, list[PlayerGameStats]] = defaultdict(list)
        spellings: dict[str, set[str]] = defaultdict(set)
        for (
            key,
            gkey,
            first,
            last,
            plays,
            wins,
            abandoned,
            average,
            high,
            low,
            highest,
        ) in c.execute(
            "SELECT p.player_key, m.game_key, min(p.name), max(p.name), "
            "sum(m.finished), sum(m.finished AND p.winner), "
            "sum(NOT m.finished), avg(CASE WHEN m.finished THEN p.value END), "
            "max(CASE WHEN m.finished THEN p.value END), "
            "min(CASE WHEN m.finished THEN p.value END), "
            f"sum(m.finished AND m.highest_wins) FROM {seat_scope}{counted} "
            "GROUP BY p.player_key, m.game_key ORDER BY p.player_key, m.game_key",
            args,
        ):
            spellings[key].update((first, last))
            acc = totals.setdefault(key, [0, 0, 0])
            acc[0] += int(plays)
            acc[1] += int(wins)
            acc[2] += int(abandoned)
            if not plays:
                continue
            game, title = titles[gkey]
            best = high if int(highest) * 2 >= int(plays) else low
            per_game[key].append(PlayerGameStats(game, int(plays), int(wins), average, best, title))
        # A player's name as the newest session spells it: most have one spelling; the
        # others are looked up in date order (``compute`` keeps the first it meets).
        names = {key: next(iter(found)) for key, found in spellings.items() if len(found) == 1}
        several = sorted(set(spellings) - set(names))
        if several:
            marks = ",".join("?" * len(several))
            names.update(
                c.execute(
                    "SELECT player_key, name FROM (SELECT p.player_key, p.name, row_number() "
                    "OVER (PARTITION BY p.player_key ORDER BY s.started_at DESC, s.id, p.seat) "
                    f"AS n FROM {seat_scope}{counted} AND p.player_key IN ({marks})) WHERE n = 1",
                    [*args, *several],
                ).fetchall()
            )
        games: dict[str, list[Any]] = {
            gkey: [int(plays), int(abandoned), int(unfinished), duration]
            for gkey, plays, abandoned, unfinished, duration in c.execute(
                "SELECT m.game_key, sum(m.finished), "
                "sum(NOT m.finished AND s.status = 'abandoned'), "
                "sum(NOT m.finished AND s.status != 'abandoned'), "
                f"avg(CASE WHEN m.finished THEN m.duration_s END) FROM {scope} "
                "GROUP BY m.game_key",
                args,
            )
        }
        values: dict[str, list[float]] = defaultdict(list)
        for gkey, value in c.execute(
            f"SELECT m.game_key, p.value FROM {seat_scope}{_and(seat_scope)}"
            "m.finished AND p.value IS NOT NULL",
            args,
        ):
            values[gkey].append(float(value))
        sides: dict[str, list[SideRate]] = defaultdict(list)
        for gkey, count, side, plays, wins in c.execute(
            "SELECT m.game_key, m.players, p.side, count(DISTINCT s.id), "
            f"count(DISTINCT CASE WHEN p.winner THEN s.id END) FROM {seat_scope}"
            f"{_and(seat_scope)}m.finished AND p.side IS NOT NULL AND p.side != '' "
            "GROUP BY m.game_key, m.players, p.side ORDER BY m.game_key, m.players, p.side",
            args,
        ):
            sides[gkey].append(SideRate(int(count), str(side), int(plays), int(wins)))
    players = tuple(
        sorted(
            (
                PlayerStats(names[key], plays, wins, abandoned, tuple(per_game.get(key, ())))
                for key, (plays, wins, abandoned) in totals.items()
            ),
            key=lambda p: (-p.plays, p.name.casefold()),
        )
    )
    game_stats = tuple(
        GameStats(
            titles[gkey][0],
            plays,
            abandoned,
            unfinished,
            duration,
            distribution(values.get(gkey, [])),
            tuple(sides.get(gkey, ())),
            titles[gkey][1],
        )
        for gkey, (plays, abandoned, unfinished, duration) in sorted(games.items())
    )
    return Statistics(sessions, sum(g.plays for g in game_stats), players, game_stats)


def head_to_head_of(
    store: Store,
    a: str,
    b: str,
    flt: HistoryFilter | None = None,
    tz: tzinfo | None = None,
) -> HeadToHead:
    """``head_to_head(query_results(store, flt), a, b)``, as one SQL self-join."""
    scope, args = _scope(store, flt, tz)
    pair = scope.replace(
        "JOIN summaries m ON m.session_id = s.id",
        "JOIN summaries m ON m.session_id = s.id "
        "JOIN summary_seats pa ON pa.session_id = s.id AND pa.seat = "
        "(SELECT min(seat) FROM summary_seats x WHERE x.session_id = s.id AND x.player_key = ?) "
        "JOIN summary_seats pb ON pb.session_id = s.id AND pb.seat = "
        "(SELECT min(seat) FROM summary_seats y WHERE y.session_id = s.id AND y.player_key = ?)",
        1,
    )
    params = [player_key(a), player_key(b), *args]
    a_name, b_name = a, b
    titles: dict[str, tuple[str, str | None]] = {}
    per_game: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    a_wins = b_wins = 0
    rows = store.conn.execute(
        "SELECT m.game_key, s.game, m.title, coalesce(pa.rank, 0), coalesce(pb.rank, 0), "
        f"pa.winner, pb.winner, pa.name, pb.name FROM {pair}{_and(pair)}"
        "m.finished AND pa.pid != pb.pid ORDER BY s.started_at DESC, s.id",
        params,
    )
    for gkey, game, title, ra, rb, wa, wb, na, nb in rows:
        a_name, b_name = na, nb
        titles.setdefault(gkey, (game, title))
        acc = per_game[gkey]
        acc[0] += 1
        acc[1 if ra < rb else 2 if rb < ra else 3] += 1
        a_wins += wa
        b_wins += wb
    return _head_to_head(a_name, b_name, per_game, titles, a_wins, b_wins)


def player_plays_of(
    store: Store,
    name: str,
    game: str | None = None,
    flt: HistoryFilter | None = None,
    tz: tzinfo | None = None,
) -> list[PlayerPlay]:
    """``player_plays(query_results(store, flt), name, game)``, as one SQL query."""
    scope, args = _scope(store, flt, tz)
    one = scope.replace(
        "JOIN summaries m ON m.session_id = s.id",
        "JOIN summaries m ON m.session_id = s.id "
        "JOIN summary_seats p ON p.session_id = s.id AND p.seat = "
        "(SELECT min(seat) FROM summary_seats x WHERE x.session_id = s.id AND x.player_key = ?)",
        1,
    )
    params: list[Any] = [player_key(name), *args]
    extra = ""
    if game:
        extra = " AND m.game_key = ?"
        params.append(game)
    rows = store.conn.execute(
        "SELECT s.id, s.started_at, s.game, p.value, p.rank, p.winner, m.players, m.title "
        f"FROM {one}{_and(one)}m.finished{extra} ORDER BY s.started_at, s.id",
        params,
    )
    return [
        PlayerPlay(sid, started, g, value, rank, bool(winner), int(players), title)
        for sid, started, g, value, rank, winner, players, title in rows
    ]


def _head_to_head(
    a_name: str,
    b_name: str,
    per_game: Mapping[Any, Sequence[int]],
    titles: Mapping[Any, tuple[str, Any]],
    a_wins: int,
    b_wins: int,
) -> HeadToHead:
    """The per-game counts (plays, A ahead, B ahead, level) as the comparison, totals
    summed from them: one shape for the fold and the SQL path."""
    games = tuple(
        HeadToHeadGame(titles[k][0], c[0], c[1], c[2], c[3], titles[k][1])
        for k, c in sorted(per_game.items())
    )
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
