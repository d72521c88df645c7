"""Statistics on a hand-built history whose answers were worked out by hand."""

from __future__ import annotations

import itertools
from datetime import date, timedelta

import pytest
from history_builders import T0, outcome_session, scorepad_session

from companion.session.results import HistoryFilter, query_results
from companion.session.stats import compute, distribution, head_to_head, player_plays
from companion.session.store import Store


@pytest.fixture
def history() -> Store:
    store = Store.memory()
    # 1 (day 1): Ann 10, Bo 5, Cy 5 -> Ann wins; ranks Ann 1, Bo 2, Cy 2.  45 min.
    scorepad_session(
        store, ["Ann", "Bo", "Cy"], [{"Ann": 6, "Bo": 5}, {"Ann": 4, "Cy": 5}], start=T0, minutes=45
    )
    # 2 (day 2): Ann 3, Bo 8 -> Bo wins.  15 min.
    scorepad_session(
        store, ["Ann", "Bo"], [{"Ann": 3, "Bo": 8}], start=T0 + timedelta(days=1), minutes=15
    )
    # 3 (day 3): lowest wins, Ann 2, Bo 2 -> both win (shared).  30 min.
    scorepad_session(
        store,
        ["Ann", "Bo"],
        [{"Ann": 2, "Bo": 2}],
        highest_wins=False,
        start=T0 + timedelta(days=2),
        minutes=30,
    )
    # 4 (day 4): abandoned, Ann and Bo.
    scorepad_session(
        store, ["Ann", "Bo"], [{"Ann": 1}], end="abandon", start=T0 + timedelta(days=3)
    )
    # 5 (day 5): unfinished, Cy and Dee.
    scorepad_session(store, ["Cy", "Dee"], [{"Cy": 1}], end="open", start=T0 + timedelta(days=4))
    # Meowfia-like hidden roles (no points), six players: police win once, meowfia twice.
    six = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay"]
    police6 = {
        "Ann": "police",
        "Bo": "police",
        "Cy": "meowfia",
        "Dee": "meowfia",
        "Eve": "meowfia",
        "Fay": "meowfia",
    }
    outcome_session(
        store,
        "meowfia",
        six,
        winners=["Ann", "Bo"],
        sides=police6,
        start=T0 + timedelta(days=5),
        minutes=20,
    )
    outcome_session(
        store,
        "meowfia",
        six,
        winners=["Cy", "Dee", "Eve", "Fay"],
        sides=police6,
        start=T0 + timedelta(days=6),
        minutes=40,
    )
    outcome_session(
        store,
        "meowfia",
        six,
        winners=["Cy", "Dee", "Eve", "Fay"],
        sides=police6,
        start=T0 + timedelta(days=7),
        minutes=30,
    )
    # Seven players: police win the only play.
    seven = [*six, "Gus"]
    police7 = {**police6, "Gus": "meowfia"}
    outcome_session(
        store,
        "meowfia",
        seven,
        winners=["Ann", "Bo"],
        sides=police7,
        start=T0 + timedelta(days=8),
        minutes=25,
    )
    return store


def test_player_statistics(history: Store) -> None:
    stats = compute(query_results(history))
    assert stats.sessions == 9
    assert stats.plays == 7  # abandoned and unfinished are not plays
    ann = stats.player("ann")  # names match case-insensitively
    assert ann is not None
    assert (ann.plays, ann.wins, ann.abandoned) == (7, 4, 1)  # pad 1, 3; meowfia 1, 4
    assert ann.win_rate == pytest.approx(4 / 7)
    pad = ann.game("scorepad")
    assert pad is not None
    assert (pad.plays, pad.wins) == (3, 2)
    assert pad.average == pytest.approx((10 + 3 + 2) / 3)
    assert pad.best == 10  # two of three plays were "highest wins"
    meow = ann.game("meowfia")
    assert meow is not None
    assert (meow.plays, meow.wins, meow.average, meow.best) == (4, 2, None, None)
    bo = stats.player("Bo")
    assert bo is not None
    assert (bo.plays, bo.wins) == (7, 4)  # pad 2, 3; meowfia 1, 4
    dee = stats.player("Dee")
    assert dee is not None
    assert (dee.plays, dee.wins, dee.abandoned) == (4, 2, 0)  # the open pad is not a play
    gus = stats.player("Gus")
    assert gus is not None and (gus.plays, gus.wins, gus.win_rate) == (1, 0, 0.0)


def test_game_statistics(history: Store) -> None:
    stats = compute(query_results(history))
    pad = stats.game("scorepad")
    assert pad is not None
    assert (pad.plays, pad.abandoned, pad.unfinished) == (3, 1, 1)
    assert pad.average_duration_s == pytest.approx(30 * 60)  # (45 + 15 + 30) / 3 minutes
    assert pad.scores is not None
    assert pad.scores.count == 7  # 3 + 2 + 2 final scores
    assert (pad.scores.minimum, pad.scores.maximum) == (2, 10)
    assert pad.scores.median == 5
    assert pad.scores.mean == pytest.approx((10 + 5 + 5 + 3 + 8 + 2 + 2) / 7)
    assert sum(c for *_b, c in pad.scores.buckets) == 7
    meow = stats.game("meowfia")
    assert meow is not None
    assert meow.plays == 4 and meow.scores is None
    assert meow.average_duration_s == pytest.approx((20 + 40 + 30 + 25) / 4 * 60)
    police6, meowfia6 = meow.side(6, "police"), meow.side(6, "meowfia")
    assert police6 is not None and meowfia6 is not None
    assert (police6.plays, police6.wins) == (3, 1)
    assert police6.win_rate == pytest.approx(1 / 3)
    assert (meowfia6.plays, meowfia6.wins) == (3, 2)
    police7 = meow.side(7, "police")
    assert police7 is not None and police7.win_rate == 1.0
    assert meow.side(5, "police") is None


def test_head_to_head(history: Store) -> None:
    h2h = head_to_head(query_results(history), "ann", "BO")
    # Pad 1: Ann 1st, Bo 2nd. Pad 2: Bo ahead. Pad 3: level (shared win).
    # Meowfia: all four level (same side both times).
    assert (h2h.a, h2h.b) == ("Ann", "Bo")
    assert (h2h.plays, h2h.a_ahead, h2h.b_ahead, h2h.level) == (7, 1, 1, 5)
    assert (h2h.a_wins, h2h.b_wins) == (4, 4)
    pad = next(g for g in h2h.games if g.game == "scorepad")
    assert (pad.plays, pad.a_ahead, pad.b_ahead, pad.level) == (3, 1, 1, 1)
    cy = head_to_head(query_results(history), "Cy", "Dee")
    assert cy.plays == 4 and cy.level == 4  # the unfinished pad does not count


def test_filters(history: Store) -> None:
    assert len(query_results(history, HistoryFilter(game="pad"))) == 5  # alias of scorepad
    assert len(query_results(history, HistoryFilter(player="gus"))) == 1
    assert len(query_results(history, HistoryFilter(player="Dee"))) == 5
    first_days = HistoryFilter(since=date(2026, 3, 2), until=date(2026, 3, 3))
    assert len(query_results(history, first_days)) == 2
    assert len(query_results(history, HistoryFilter(status="abandoned"))) == 1
    newest = query_results(history)
    assert [r.started_at for r in newest] == sorted((r.started_at for r in newest), reverse=True)


def test_player_plays_over_time(history: Store) -> None:
    plays = player_plays(query_results(history), "Ann", game="scorepad")
    assert [p.score for p in plays] == [10, 3, 2]
    assert [p.winner for p in plays] == [True, False, True]
    assert [p.rank for p in plays] == [1, 2, 1]


def test_results_rows(history: Store) -> None:
    first = query_results(history, HistoryFilter(until=date(2026, 3, 1)))
    assert len(first) == 1
    res = first[0]
    assert [(p.name, p.score, p.rank, p.winner) for p in res.players] == [
        ("Ann", 10, 1, True),
        ("Bo", 5, 2, False),
        ("Cy", 5, 2, False),
    ]
    assert res.duration_s == pytest.approx(45 * 60)
    meow = query_results(history, HistoryFilter(game="meowfia", player="Gus"))[0]
    ranks = {p.name: p.rank for p in meow.players}
    assert ranks["Ann"] == 1 and ranks["Gus"] == 2  # two winners share 1st; the rest 2nd


def test_distribution_edges() -> None:
    assert distribution([]) is None
    same = distribution([4.0, 4.0])
    assert same is not None and same.buckets == ((4.0, 4.0, 2),)
    spread = distribution([0.0, 1.0, 100.0], bins=4)
    assert spread is not None
    assert [c for *_b, c in spread.buckets] == [2, 0, 0, 1]


def test_the_score_histogram_counts_in_whole_plays() -> None:
    """Issue 22: the histogram's y axis read 0.0, 0.2 … for counts of plays."""
    from companion.ui.history_stats import count_ticks

    for top in range(0, 40):
        ticks = count_ticks(top)
        assert all(isinstance(t, int) for t in ticks)
        assert ticks[0] == 0 and ticks[-1] >= top and len(ticks) <= 7, (top, ticks)
        assert len(set(b - a for a, b in itertools.pairwise(ticks))) <= 1, ticks
