"""Score pad rules: every outcome and every bad input (docs/games/scorepad.md)."""

from __future__ import annotations

import pytest

from companion.games import find_game
from companion.games.scorepad.rules import GAME, CloseRound, EndGame, Score
from companion.rules.base import (
    BadActionError,
    GameOverError,
    IllegalActionError,
    SetupError,
    seat_players,
)


def start(names=("Ann", "Bo", "Cy"), **options):
    return GAME.setup(seat_players(list(names)), GAME.check_options(options))


def play(state, *actions):
    for action in actions:
        state = GAME.apply(state, action)
    return state


def test_the_registry_lists_the_score_pad_last_in_both_languages():
    from companion.games import GAMES

    ids = [g.id for g in GAMES]
    assert ids[-1] == "scorepad" and len(set(ids)) == len(ids)
    assert {"meeple-circus", "meowfia", "shadow-cats", "cat-box"} <= set(ids)
    assert find_game("scorepad").name("zh") == "计分板"
    assert find_game("MEOWFIA").name("zh") == "喵喵咪呀"
    assert find_game("scorepad").load() is find_game("pad").rules


def test_unknown_game_id_is_a_clear_error():
    with pytest.raises(SetupError, match="Unknown game 'chess'"):
        find_game("chess")


@pytest.mark.parametrize("count", [0, 13])
def test_player_count_outside_1_to_12_is_refused(count):
    with pytest.raises(SetupError, match=f"1 to 12 players, not {count}"):
        start([f"P{i}" for i in range(count)])


@pytest.mark.parametrize("count", [1, 12])
def test_player_count_edges_are_accepted(count):
    assert len(start([f"P{i}" for i in range(count)]).players) == count


def test_duplicate_names_are_refused_case_insensitively():
    with pytest.raises(SetupError, match="Two players are called bo"):
        start(["Ann", "Bo", "bo"])


def test_blank_name_is_refused():
    with pytest.raises(SetupError, match="needs a name"):
        start(["Ann", "  "])


def test_non_number_score_is_refused_by_the_codec():
    with pytest.raises(BadActionError, match=r"score\.points: expected a whole number"):
        GAME.parse_action({"type": "score", "player": "p1", "points": "ten"})
    with pytest.raises(BadActionError, match="expected a whole number"):
        GAME.parse_action({"type": "score", "player": "p1", "points": True})


def test_unknown_player_and_unknown_action_are_refused():
    state = start()
    with pytest.raises(BadActionError, match="no player p9"):
        GAME.apply(state, Score("p9", 3))
    with pytest.raises(BadActionError, match="Unknown action type 'jump'"):
        GAME.parse_action({"type": "jump"})
    with pytest.raises(BadActionError, match="unknown field 'bonus'"):
        GAME.parse_action({"type": "score", "player": "p1", "points": 1, "bonus": 2})
    with pytest.raises(BadActionError, match="missing field 'points'"):
        GAME.parse_action({"type": "score", "player": "p1"})


def test_bad_options_are_refused():
    with pytest.raises(SetupError, match="Unknown option 'speed'"):
        start(speed=3)
    with pytest.raises(SetupError, match="target must be at least 0"):
        start(target=-5)
    with pytest.raises(SetupError, match="highest_wins must be true or false"):
        start(highest_wins="yes")


def test_scores_add_up_per_round_and_in_total():
    state = play(
        start(), Score("p1", 5), Score("p2", 3), Score("p1", -2), CloseRound(), Score("p3", 7)
    )
    assert state.round_points(0) == {"p1": 3, "p2": 3, "p3": 0}
    assert state.round_points(1) == {"p1": 0, "p2": 0, "p3": 7}
    assert state.totals() == {"p1": 3, "p2": 3, "p3": 7}
    assert state.round_number == 2
    assert GAME.outcome(state) is None


def test_closing_an_empty_round_is_refused():
    with pytest.raises(IllegalActionError, match="Round 1 has no scores yet"):
        GAME.apply(start(), CloseRound())


def test_absurd_points_are_refused():
    with pytest.raises(IllegalActionError, match="more than a score pad takes"):
        GAME.apply(start(), Score("p1", 10**9))


def test_target_ends_the_game_when_the_round_closes_not_before():
    state = play(start(target=10), Score("p1", 12))
    assert GAME.outcome(state) is None  # everyone finishes the round
    state = play(state, Score("p2", 11), CloseRound())
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination == "target-reached"
    assert outcome.winners == ("p1",)
    assert dict(outcome.scores) == {"p1": 12, "p2": 11, "p3": 0}
    assert outcome.ranks() == {"p1": 1, "p2": 2, "p3": 3}
    assert outcome.render() == "Ann wins with 12."


def test_lowest_wins_with_target():
    state = play(
        start(highest_wins=False, target=20),
        Score("p1", 25),
        Score("p2", 4),
        Score("p3", 9),
        CloseRound(),
    )
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.winners == ("p2",)
    assert outcome.ranks() == {"p2": 1, "p3": 2, "p1": 3}


def test_tie_shares_the_win():
    state = play(start(), Score("p1", 5), Score("p2", 5), Score("p3", 1), EndGame())
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination == "host-ended"
    assert outcome.winners == ("p1", "p2")
    assert outcome.ranks() == {"p1": 1, "p2": 1, "p3": 3}
    assert outcome.render() == "Ann, Bo win with 5."


def test_end_by_hand_closes_the_open_round():
    state = play(start(), Score("p1", 2), EndGame())
    assert state.rounds == ((("p1", 2),),)
    assert state.current == ()


def test_no_action_after_the_end():
    state = play(start(), EndGame())
    for action in (Score("p1", 1), CloseRound(), EndGame()):
        with pytest.raises(GameOverError, match="The game is over"):
            GAME.apply(state, action)


def test_rule_errors_render_translated_templates():
    from companion.i18n import catalog

    with pytest.raises(IllegalActionError) as info:
        GAME.apply(start(), CloseRound())
    assert info.value.render(catalog("zh").gettext) == "第 1 轮还没有记分。"


def test_a_named_score_pad_is_called_by_its_name_in_history(tmp_path) -> None:
    from companion.session.live import LiveSession
    from companion.session.results import query_results, session_title
    from companion.session.store import Store

    store = Store.open(tmp_path / "db.sqlite3")
    players = seat_players(["Ann", "Bo"])
    LiveSession.start(store, "scorepad", players, {"game_name": "Carcassonne"})
    LiveSession.start(store, "scorepad", players, {})
    titles = sorted(str(r.title) for r in query_results(store))
    assert titles == ["Carcassonne", "None"]
    assert session_title("scorepad", {"game_name": "  "}) is None
    with pytest.raises(SetupError):
        find_game("pad").rules.setup(players, {"game_name": "x" * 61})


def test_an_ended_pad_says_its_last_round_not_the_next_one():
    """Issue 22: History's final state said "round 6" after five closed rounds."""
    actions = []
    for _round in range(5):
        actions += [Score("p1", 1), CloseRound()]
    state = play(start(), *actions, EndGame())
    assert GAME.progress_label(state) == "round 5"
    running = play(start(), *actions)
    assert GAME.progress_label(running) == "round 6"  # the open sixth round
    open_points = play(start(), *actions, Score("p2", 4), EndGame())
    assert GAME.progress_label(open_points) == "round 6"  # its points count
