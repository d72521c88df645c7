"""The host guide agrees with the rules; corrections; sentences with names.

The property: in every state a random game reaches, ``apply`` accepts a candidate
action only if its type is in ``GUIDE.allowed(state)``, and refuses every candidate
of any other type with a ``RuleError``. Candidates of every type are made in each
state (plausible players, times near the music, indices in range).
"""

from __future__ import annotations

from mc_helpers import MS, SECOND, TRACK, Table, key

from companion.games.meeple_circus import PLUGIN
from companion.games.meeple_circus.guide import GUIDE
from companion.games.meeple_circus.rules import Termination
from companion.games.meeple_circus.rules.actions import (
    CorrectScore,
    Press,
    ScorePlayer,
    StartPerformance,
)
from companion.rules.base import RuleError


def test_the_plugin_names_the_guide_and_the_termination() -> None:
    assert PLUGIN.guide is GUIDE and PLUGIN.termination is Termination
    assert Termination.GRAND_SHOW_ENDED == "grand-show-ended"


def _to_evaluation(t: Table) -> None:
    t.start_game()
    t.rehearsal(key("p1", 10 * SECOND), key("p2", 11 * SECOND))


def test_a_correction_replaces_one_evaluation_and_keeps_the_later_ones() -> None:
    t = Table.of("Ann", "Bo", "Cy", birth_dates=["2010-01-01", "2011-01-01", "2012-01-01"])
    _to_evaluation(t)
    t.do(ScorePlayer("p1", blue=13), ScorePlayer("p2", blue=4))
    before = t.state
    t.do(CorrectScore("p1", blue=1, yellow=3))
    act = t.state.act
    assert act.score_of("p1").blue == 1 and act.score_of("p1").yellow == 3
    assert act.score_of("p1").speed == 2  # the token stays the performance's
    assert act.score_of("p2") == before.act.score_of("p2")
    assert [s.player for s in act.scores] == ["p1", "p2"]
    sentence = GUIDE.describe(CorrectScore("p1", blue=1, yellow=3), before, t.state).render()
    assert sentence == "Ann's act 1 evaluation corrected: 15 → 6 points (total 6)."


def test_a_correction_at_the_end_of_an_act_decides_the_first_player_again() -> None:
    t = Table.of("Ann", "Bo", "Cy", birth_dates=["2010-01-01", "2011-01-01", "2012-01-01"])
    _to_evaluation(t)
    t.do(ScorePlayer("p1", blue=1), ScorePlayer("p2", blue=1), ScorePlayer("p3", blue=9))
    assert t.state.phase == "end" and t.state.act.next_first_player == "p2"  # Bo: 2 points
    t.do(CorrectScore("p2", blue=9))
    assert t.state.act.next_first_player == "p1"  # now Ann has the fewest (1 + 2)
    assert CorrectScore.type in GUIDE.allowed(t.state)


def test_corrections_are_refused_for_an_unscored_player_and_after_the_act() -> None:
    t = Table.of("Ann", "Bo")
    _to_evaluation(t)
    assert CorrectScore.type not in GUIDE.allowed(t.state)
    try:
        t.do(CorrectScore("p1", blue=1))
    except RuleError as err:
        assert "no evaluation" in err.render()
    else:
        raise AssertionError("a correction of an unscored player was accepted")


def test_start_player_is_act_ones_first_player() -> None:
    t = Table.of("Ann", "Bo", "Cy")
    assert GUIDE.start_player(t.state) is None
    t.start_game(first="p2")
    t.rehearsal()
    t.score_all({})
    t.end_act()
    assert GUIDE.start_player(t.state) == "p2"


def test_sentences_name_players_and_times() -> None:
    t = Table.of("Ann", "Bo")
    t.start_game()
    t.do(StartPerformance(0, TRACK, "t"))
    before = t.state
    t.do(key("p2", 20_300 * MS))
    assert GUIDE.describe(key("p2", 20_300 * MS), before, t.state).render() == (
        "Bo: Tadaa! at 0:20.300 (counts)."
    )
    assert isinstance(t.actions[-1], Press)
