"""Meeple Circus rules, case by case from the rules page (docs/rules/meeple-circus.md)."""

from __future__ import annotations

import pytest
from mc_helpers import MS, SECOND, TRACK, Table, box, key

from companion.games.meeple_circus.rules import GAME
from companion.games.meeple_circus.rules.actions import (
    AbortPerformance,
    ChooseFirstPlayer,
    EndAct,
    EndPerformance,
    FinishPerformance,
    HostPick,
    Prepare,
    Press,
    ScorePlayer,
    SettlePress,
    SettleTie,
    StartPerformance,
    VoidPress,
)
from companion.rules.base import (
    BadActionError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    Player,
    SetupError,
    action_to_json,
    seat_players,
)

# --------------------------------------------------------------------------- setup


@pytest.mark.parametrize("count", [1, 6])
def test_one_or_six_players_are_refused(count: int) -> None:
    with pytest.raises(SetupError, match="2 to 5 players"):
        GAME.setup(seat_players([f"P{i}" for i in range(count)]), GAME.check_options({}))


@pytest.mark.parametrize("count", [2, 3, 4, 5])
def test_two_to_five_players_start_choosing_the_first_player(count: int) -> None:
    state = GAME.setup(seat_players([f"P{i}" for i in range(count)]), GAME.check_options({}))
    assert state.phase == "first-player"
    assert state.max_height == 7
    assert GAME.outcome(state) is None


def test_ring_colours_must_differ() -> None:
    players = seat_players(["A", "B"], colours=["red", "Red"])
    with pytest.raises(SetupError, match="ring colour"):
        GAME.setup(players, GAME.check_options({}))


def test_birth_date_must_be_a_date() -> None:
    players = (Player("p1", "A", birth_date="yesterday"), Player("p2", "B"))
    with pytest.raises(SetupError, match="not a date"):
        GAME.setup(players, GAME.check_options({}))


@pytest.mark.parametrize("setting", ["countdown:abc", "countdown:2", "countdown:99999"])
def test_bad_countdown_setting_is_refused(setting: str) -> None:
    with pytest.raises(SetupError, match="countdown"):
        GAME.setup(seat_players(["A", "B"]), GAME.check_options({"music_act1": setting}))


def test_measuring_stick_option_is_bounded() -> None:
    with pytest.raises(SetupError):
        GAME.check_options({"max_height": 0})


def test_first_player_chosen_at_random_is_recorded() -> None:
    t = Table.of("A", "B", "C")
    t.do(ChooseFirstPlayer("p3", random=True))
    assert t.state.first_player_random
    assert t.state.preparation_order() == ("p3", "p1", "p2")
    with pytest.raises(IllegalActionError, match="already been chosen"):
        t.do(ChooseFirstPlayer("p1"))


def test_unknown_first_player_is_refused() -> None:
    t = Table.of("A", "B")
    with pytest.raises(BadActionError, match="no player p9"):
        t.do(ChooseFirstPlayer("p9"))


# --------------------------------------------------------------------------- preparation


def test_preparation_goes_clockwise_from_the_first_player() -> None:
    t = Table.of("A", "B", "C")
    t.do(ChooseFirstPlayer("p2"))
    assert t.state.next_to_prepare() == "p2"
    with pytest.raises(NotYourTurnError, match="B's turn"):
        t.do(Prepare("p1"))
    t.do(Prepare("p2"))
    with pytest.raises(IllegalActionError, match="already prepared"):
        t.do(Prepare("p2"))
    t.do(Prepare("p3"))
    assert t.state.phase == "preparation"
    t.do(Prepare("p1"))
    assert t.state.phase == "performance"


def test_starting_a_performance_before_preparation_is_done_is_refused() -> None:
    t = Table.of("A", "B")
    t.do(ChooseFirstPlayer("p1"), Prepare("p1"))
    before = t.state
    with pytest.raises(IllegalActionError, match="B still has to prepare"):
        t.do(StartPerformance(0, TRACK))
    assert t.state is before


def test_a_press_outside_the_performance_phase_is_refused() -> None:
    t = Table.of("A", "B")
    t.do(ChooseFirstPlayer("p1"))
    with pytest.raises(IllegalActionError, match="only in a performance"):
        t.do(key("p1", 5))


# --------------------------------------------------------------------------- presses


def _performing(*names: str) -> Table:
    t = Table.of(*(names or ("A", "B", "C")))
    t.start_game()
    return t


def _statuses(t: Table) -> list[str]:
    verdict = t.state.verdict()
    assert verdict is not None
    return [j.status for j in verdict.presses]


def test_a_press_before_the_start_is_a_false_start() -> None:
    t = _performing()
    t.do(key("p1", 50 * MS))  # before the music was even started
    t.do(StartPerformance(100 * MS, TRACK))
    t.do(key("p2", 90 * MS))  # reported late, but stamped before the start
    t.do(key("p1", 10 * SECOND))
    assert _statuses(t) == ["false-start", "false-start", "counted"]
    t.do(EndPerformance(100 * MS + TRACK), FinishPerformance())
    assert dict(t.state.act.speed_tokens) == {"p1": 2}


def test_a_press_stamped_after_start_counts_even_if_recorded_before_it() -> None:
    t = _performing()
    t.do(key("p1", 150 * MS))
    t.do(StartPerformance(100 * MS, TRACK))
    assert _statuses(t) == ["counted"]


def test_two_presses_by_one_player_count_once() -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK), key("p1", 1 * SECOND), key("p1", 2 * SECOND))
    t.do(key("p2", 3 * SECOND))
    assert _statuses(t) == ["counted", "repeat", "counted"]
    verdict = t.state.verdict()
    assert verdict.tokens == {"p1": 2, "p2": 1}


def test_a_press_after_the_end_is_too_late() -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK), key("p1", 5 * SECOND))
    t.do(key("p2", TRACK + 1))  # after the track's end, music not yet marked ended
    t.do(EndPerformance(TRACK + 5 * SECOND))  # a late stop does not stretch the music
    t.do(key("p3", TRACK + 3 * SECOND))
    assert _statuses(t) == ["counted", "too-late", "too-late"]
    t.do(FinishPerformance())
    assert dict(t.state.act.speed_tokens) == {"p1": 2}


def test_a_void_moves_the_next_press_up() -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK))
    t.do(key("p2", 1 * SECOND), key("p1", 2 * SECOND), key("p3", 3 * SECOND))
    assert t.state.verdict().tokens == {"p2": 2, "p1": 1}
    t.do(VoidPress(0))
    assert _statuses(t) == ["voided", "counted", "counted"]
    assert t.state.verdict().tokens == {"p1": 2, "p3": 1}
    # The voided player's later, real Tadaa counts again.
    t.do(key("p2", 4 * SECOND))
    assert t.state.verdict().order == (("p1",), ("p3",), ("p2",))
    with pytest.raises(IllegalActionError, match="already void"):
        t.do(VoidPress(0))
    with pytest.raises(BadActionError, match="no press number 9"):
        t.do(VoidPress(8))


def test_tadaa_order_shows_the_gap_to_the_previous_press() -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK), key("p3", 1000 * MS), key("p1", 1250 * MS))
    counted = [j for j in t.state.verdict().presses if j.status == "counted"]
    assert [(j.rank, j.gap_ns, j.elapsed_ns) for j in counted] == [
        (1, None, 1000 * MS),
        (2, 250 * MS, 1250 * MS),
    ]


def test_a_tie_within_resolution_is_shown_and_settled_by_the_host() -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK))
    t.do(key("p1", 1000 * MS, 8 * MS), key("p2", 1010 * MS, 8 * MS), key("p3", 5 * SECOND))
    verdict = t.state.verdict()
    assert verdict.order == (("p1", "p2"), ("p3",))
    assert verdict.tokens is None and verdict.undecided == ("tie:p1,p2",)
    tied = [j for j in verdict.presses if j.tied_with]
    assert [(j.press.player, j.tied_with) for j in tied] == [("p1", ("p2",)), ("p2", ("p1",))]
    t.do(EndPerformance(TRACK))
    with pytest.raises(IllegalActionError, match="settle A, B first"):
        t.do(FinishPerformance())
    with pytest.raises(IllegalActionError, match="exactly the tied players"):
        t.do(SettleTie(("p1", "p3")))
    with pytest.raises(BadActionError, match="twice"):
        t.do(SettleTie(("p1", "p1")))
    t.do(SettleTie(("p2", "p1")))
    assert t.state.verdict().tokens == {"p2": 2, "p1": 1}
    t.do(FinishPerformance())
    assert dict(t.state.act.speed_tokens) == {"p1": 1, "p2": 2}


def test_a_tie_for_third_place_needs_no_settling() -> None:
    t = _performing("A", "B", "C", "D")
    t.do(StartPerformance(0, TRACK), key("p1", 1 * SECOND), key("p2", 2 * SECOND))
    t.do(key("p3", 3 * SECOND, 5 * MS), key("p4", 3 * SECOND + 1 * MS, 5 * MS))
    verdict = t.state.verdict()
    assert verdict.order[-1] == ("p3", "p4")
    assert verdict.tokens == {"p1": 2, "p2": 1}
    with pytest.raises(IllegalActionError, match="no tie"):
        Table.of("A", "B").do(
            ChooseFirstPlayer("p1"), Prepare("p1"), Prepare("p2"), SettleTie(("p1", "p2"))
        )


def test_one_device_orders_its_presses_by_its_own_clock() -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK))
    # Host times overlap (and are even inverted), but the box's clock says p2 first.
    t.do(box("p1", 1000 * MS, device_us=1_000_400, uncertainty=2 * MS))
    t.do(box("p2", 999 * MS, device_us=1_000_100, uncertainty=2 * MS))
    assert t.state.verdict().tokens == {"p2": 2, "p1": 1}
    # Two boxes with overlapping intervals: too close to call.
    t2 = _performing()
    t2.do(StartPerformance(0, TRACK))
    t2.do(box("p1", 1000 * MS, 5, uncertainty=2 * MS, device="A"))
    t2.do(box("p2", 1001 * MS, 1, uncertainty=2 * MS, device="B"))
    assert t2.state.verdict().undecided == ("tie:p1,p2",)


def test_one_physical_press_is_recorded_once() -> None:
    """A box's or a phone's press is one event: its device, device time and button.
    Delivered twice (the live message and the restart's redelivery racing, CI's
    kill -9 test), the second copy is refused and changes nothing; a keyboard press
    has no such identity, so two equal keyboard presses both land."""
    t = _performing()
    t.do(StartPerformance(0, TRACK))
    press = Press("p1", 1000 * MS, 2 * MS, "button-box", device="A", device_us=5, button=1)
    t.do(press)
    before = t.state
    with pytest.raises(IllegalActionError, match="already recorded"):
        t.do(press)
    with pytest.raises(IllegalActionError, match="already recorded"):
        t.do(Press("p1", 1001 * MS, 3 * MS, "button-box", device="A", device_us=5, button=1))
    assert t.state is before
    t.do(Press("p1", 1000 * MS, 2 * MS, "button-box", device="B", device_us=5, button=1))
    t.do(Press("p2", 1000 * MS, 2 * MS, "button-box", device="A", device_us=5, button=2))
    t.do(key("p3", 2 * SECOND), key("p3", 2 * SECOND))
    assert len(t.state.performance.presses) == 5


def test_presses_at_the_music_edges_are_flagged_for_the_host() -> None:
    t = _performing()
    t.do(StartPerformance(1 * SECOND, TRACK))
    t.do(key("p1", 1 * SECOND + 3 * MS, 5 * MS))  # start lies in its interval
    t.do(key("p2", 30 * SECOND))
    t.do(key("p3", 1 * SECOND + TRACK - 2 * MS, 5 * MS))  # end lies in its interval
    assert _statuses(t) == ["uncertain-start", "counted", "uncertain-end"]
    t.do(EndPerformance(1 * SECOND + TRACK))
    verdict = t.state.verdict()
    assert verdict.tokens is None
    # p3's verdict matters only if p1's press does not count: both are asked for.
    assert verdict.undecided == ("press:0", "press:2")
    with pytest.raises(IllegalActionError, match="#1; #3"):
        t.do(FinishPerformance())
    t.do(SettlePress(0, counted=True))
    # Now p1 and p2 hold both tokens whatever p3's press was: nothing blocks.
    assert t.state.verdict().tokens == {"p1": 2, "p2": 1}
    assert t.state.verdict().undecided == ()
    with pytest.raises(IllegalActionError, match="already settled"):
        t.do(SettlePress(0, counted=False))
    with pytest.raises(IllegalActionError, match="nothing to settle"):
        t.do(SettlePress(1, counted=True))
    t.do(SettlePress(2, counted=False))
    assert _statuses(t) == ["counted", "counted", "too-late"]
    t.do(FinishPerformance())


def test_stopping_early_needs_every_player_to_have_pressed() -> None:
    t = _performing("A", "B")
    t.do(StartPerformance(0, TRACK), key("p1", 10 * SECOND))
    with pytest.raises(IllegalActionError, match="still building: B"):
        t.do(EndPerformance(20 * SECOND))
    t.do(key("p2", 30 * SECOND), EndPerformance(31 * SECOND))
    attempt = t.state.performance.current
    assert attempt.end_reason == "stopped" and attempt.end_ns == 31 * SECOND
    t.do(key("p1", 32 * SECOND))
    assert _statuses(t)[-1] == "too-late"


def test_abort_discards_the_attempt_and_the_performance_restarts() -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK), key("p1", 5 * SECOND))
    with pytest.raises(IllegalActionError, match="already playing"):
        t.do(StartPerformance(1, TRACK))
    t.do(AbortPerformance(6 * SECOND, "table knocked"))
    t.do(box("p2", 5500 * MS, 7))  # a late report from the aborted attempt
    t.do(key("p3", 7 * SECOND))  # before the restart: a false start
    with pytest.raises(BadActionError, match="before the aborted attempt stopped"):
        t.do(StartPerformance(1 * SECOND, TRACK))
    t.do(StartPerformance(10 * SECOND, TRACK), key("p3", 20 * SECOND))
    assert _statuses(t) == ["discarded", "discarded", "false-start", "counted"]
    assert len(t.state.performance.attempts) == 2
    t.do(EndPerformance(10 * SECOND + TRACK))
    with pytest.raises(IllegalActionError, match="has ended"):
        t.do(StartPerformance(300 * SECOND, TRACK))
    t.do(FinishPerformance())
    assert dict(t.state.act.speed_tokens) == {"p3": 2}


def test_performance_lifecycle_refusals() -> None:
    t = _performing()
    with pytest.raises(IllegalActionError, match="not playing"):
        t.do(EndPerformance(5))
    with pytest.raises(IllegalActionError, match="nothing to abort"):
        t.do(AbortPerformance(5))
    with pytest.raises(IllegalActionError, match="not started"):
        t.do(FinishPerformance())
    with pytest.raises(BadActionError, match="between 1 ns and an hour"):
        t.do(StartPerformance(0, 0))
    t.do(StartPerformance(10, TRACK))
    with pytest.raises(IllegalActionError, match="still playing"):
        t.do(FinishPerformance())
    with pytest.raises(BadActionError, match="before it started"):
        t.do(EndPerformance(5))


@pytest.mark.parametrize(
    ("press", "message"),
    [
        (Press("p1", 5, -1, "keyboard"), "negative"),
        (Press("p1", 5, 0, "button-box"), "device"),
        (Press("p1", 5, 0, "keyboard", device="X", device_us=3), "keyboard press"),
        (Press("p7", 5, 0, "keyboard"), "no player p7"),
    ],
)
def test_malformed_presses_are_refused(press: Press, message: str) -> None:
    t = _performing()
    t.do(StartPerformance(0, TRACK))
    before = t.state
    with pytest.raises(BadActionError, match=message):
        t.do(press)
    assert t.state is before


# --------------------------------------------------------------------------- evaluation


def _evaluating(act: int = 1) -> Table:
    t = _performing()
    t.rehearsal(key("p2", 1 * SECOND), key("p3", 2 * SECOND))
    for number in range(1, act):
        t.score_all({})
        t.end_act()
        t.prepare_all()
        if number == 1:
            t.rehearsal()
        else:
            t.grand_show()
    assert t.state.phase == "evaluation" and t.state.act_number == act
    return t


def test_evaluation_adds_all_sources_and_the_speed_token() -> None:
    t = _evaluating()
    t.do(ScorePlayer("p2", demands=(3, 3, 2), blue=2, yellow=1, red_heights=(4, 2)))
    score = t.state.act.score_of("p2")
    assert score.breakdown() == {
        "demands": 8,
        "blue": 2,
        "yellow": 1,
        "red": 6,
        "speed": 2,
        "guest_stars": 0,
        "challenges": 0,
    }
    assert score.total == 19
    assert t.state.totals()["p2"] == 19


def test_scoring_a_player_twice_is_refused() -> None:
    t = _evaluating()
    t.do(ScorePlayer("p1", blue=1))
    with pytest.raises(IllegalActionError, match="already scored"):
        t.do(ScorePlayer("p1", blue=2))


def test_guest_stars_in_act_1_and_challenges_before_act_3_are_refused() -> None:
    t = _evaluating(1)
    with pytest.raises(IllegalActionError, match="act 2"):
        t.do(ScorePlayer("p1", guest_stars=(3,)))
    with pytest.raises(IllegalActionError, match="act 3 only"):
        t.do(ScorePlayer("p1", challenges=(3,)))
    t2 = _evaluating(2)
    t2.do(ScorePlayer("p1", guest_stars=(3,)))
    assert t2.state.act.score_of("p1").breakdown()["guest_stars"] == 3
    with pytest.raises(IllegalActionError, match="act 3 only"):
        t2.do(ScorePlayer("p2", challenges=(3,)))


def test_guest_stars_double_in_act_3_and_no_speed_tokens() -> None:
    t = _evaluating(3)
    assert t.state.act.speed_tokens == ()
    t.do(ScorePlayer("p1", guest_stars=(3, 2), challenges=(4,)))
    breakdown = t.state.act.score_of("p1").breakdown()
    assert breakdown["guest_stars"] == 10
    assert breakdown["challenges"] == 4
    assert breakdown["speed"] == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"blue": -1}, "blue acrobat count"),
        ({"yellow": -2}, "yellow acrobat count"),
        ({"blue": 100}, "blue acrobat count"),
        ({"red_heights": (0,)}, "measuring stick"),
        ({"red_heights": (8,)}, "measuring stick"),
        ({"demands": (0,)}, "public demand"),
        ({"demands": (21,)}, "public demand"),
    ],
)
def test_bad_counts_are_refused(fields: dict[str, object], message: str) -> None:
    t = _evaluating()
    before = t.state
    with pytest.raises(BadActionError, match=message):
        t.do(ScorePlayer("p1", **fields))  # type: ignore[arg-type]
    assert t.state is before


def test_non_integer_counts_are_refused_when_parsed() -> None:
    for data in (
        {"type": "score", "player": "p1", "blue": 1.5},
        {"type": "score", "player": "p1", "blue": "2"},
        {"type": "score", "player": "p1", "red_heights": [2, True]},
        {"type": "score", "player": "p1", "demands": 3},
    ):
        with pytest.raises(BadActionError):
            GAME.parse_action(data)


def test_measuring_stick_is_configurable() -> None:
    t = Table.of("A", "B", max_height=9)
    t.start_game()
    t.rehearsal()
    t.do(ScorePlayer("p1", red_heights=(9, 8)))
    with pytest.raises(BadActionError, match="1 to 9"):
        t.do(ScorePlayer("p2", red_heights=(10,)))


def test_scoring_outside_evaluation_is_refused() -> None:
    t = _performing()
    with pytest.raises(IllegalActionError, match="evaluation"):
        t.do(ScorePlayer("p1", blue=1))


# --------------------------------------------------------------------------- end of act


def test_fewest_points_becomes_first_player() -> None:
    t = _evaluating()
    t.score_all({"p1": 5, "p2": 1, "p3": 4})  # p2 +2 token, p3 +1 token: 5, 3, 5
    assert t.state.phase == "end"
    assert t.state.act.next_first_player == "p2"
    t.end_act()
    assert t.state.act_number == 2 and t.state.phase == "preparation"
    assert t.state.preparation_order() == ("p2", "p3", "p1")


def test_first_player_tie_goes_to_the_youngest() -> None:
    t = Table.of("A", "B", "C", birth_dates=["2001-01-01", "2010-06-30", "2012-02-02"])
    t.start_game()
    t.rehearsal()
    t.score_all({"p1": 1, "p2": 1, "p3": 5})
    assert t.state.act.next_first_player == "p2"
    assert t.state.pending_pick is None


def test_first_player_tie_without_ages_goes_to_the_host() -> None:
    t = Table.of("A", "B", "C", birth_dates=["2001-01-01", None, "2012-02-02"])
    t.start_game()
    t.rehearsal()
    t.score_all({"p1": 1, "p2": 1, "p3": 1})
    pending = t.state.pending_pick
    assert pending.candidates == ("p1", "p2", "p3") and pending.reason == "no-birth-dates"
    with pytest.raises(IllegalActionError, match="pick the next first player"):
        t.do(EndAct())
    t.do(HostPick("p3"))
    t.end_act()
    assert t.state.act.first_player == "p3"


def test_first_player_tie_with_same_birth_date_goes_to_the_host() -> None:
    t = Table.of("A", "B", "C", birth_dates=["2012-01-01", "2012-01-01", "2000-02-02"])
    t.start_game()
    t.rehearsal()
    t.score_all({})
    pending = t.state.pending_pick
    assert pending.candidates == ("p1", "p2") and pending.reason == "same-birth-date"
    with pytest.raises(IllegalActionError, match="not among the tied players"):
        t.do(HostPick("p3"))
    t.do(HostPick("p2"))
    with pytest.raises(IllegalActionError, match="no tie"):
        t.do(HostPick("p1"))
    assert t.state.act.next_first_player == "p2"


def test_end_act_only_at_the_end() -> None:
    t = _evaluating()
    with pytest.raises(IllegalActionError, match="not at its end"):
        t.do(EndAct())


# --------------------------------------------------------------------------- act 3


def test_act_3_runs_player_by_player_from_the_fewest_points() -> None:
    t = _evaluating(2)
    t.score_all({"p1": 9, "p2": 9, "p3": 0})
    t.end_act()  # p3 has fewest: first player of act 3
    t.prepare_all()
    assert t.state.performance_order() == ("p3", "p1", "p2")
    assert t.state.performer == "p3"
    t.do(StartPerformance(0, TRACK, "show-2"))
    t.do(key("p1", 5 * SECOND))  # not the performer: no effect
    t.do(key("p3", 70 * SECOND))  # the performer's Tadaa ends the show
    verdict = t.state.verdict()
    assert [j.status for j in verdict.presses] == ["not-performer", "counted"]
    assert verdict.tokens == {}
    attempt = t.state.performance.current
    assert attempt.end_reason == "tadaa" and attempt.end_ns == 70 * SECOND
    t.do(key("p3", 71 * SECOND))
    assert t.state.verdict().presses[-1].status == "too-late"
    with pytest.raises(IllegalActionError, match="not playing"):
        t.do(EndPerformance(72 * SECOND))
    t.do(FinishPerformance())
    assert t.state.performer == "p1"
    t.do(key("p1", 200 * SECOND))  # before p1's music: a false start
    t.do(StartPerformance(300 * SECOND, TRACK), EndPerformance(310 * SECOND))  # host stops
    assert t.state.performance.current.end_reason == "stopped"
    assert t.state.verdict().presses[0].status == "false-start"
    t.do(FinishPerformance())
    t.do(StartPerformance(500 * SECOND, TRACK), EndPerformance(500 * SECOND + TRACK))
    t.do(FinishPerformance())
    assert t.state.phase == "evaluation"
    assert [p.performer for p in t.state.act.performances] == ["p3", "p1", "p2"]


def test_act_3_ties_on_the_edges_need_no_settling() -> None:
    t = _evaluating(2)
    t.score_all({})
    t.end_act()
    t.prepare_all()
    first = t.state.performer
    t.do(StartPerformance(1000, TRACK), key(first, 1001, 5))  # flagged, but no tokens
    assert t.state.verdict().presses[0].status == "uncertain-start"
    t.do(EndPerformance(1000 + TRACK), FinishPerformance())


# --------------------------------------------------------------------------- game end


def _play_to_the_end(points3: dict[str, int]) -> Table:
    t = _evaluating(3)
    t.score_all(points3)
    return t


def test_highest_total_wins() -> None:
    t = _play_to_the_end({"p1": 10, "p2": 1, "p3": 1})
    outcome = GAME.outcome(t.state)
    totals = t.state.totals()
    assert t.state.phase == "over"
    assert outcome.winners == ("p1",)
    assert outcome.scores == totals
    assert outcome.render() == f"A wins with {totals['p1']} points."


def test_ties_share_the_victory() -> None:
    # After act 1: p2 has 2 (token), p3 has 1 (token). Level them in act 3.
    t = _play_to_the_end({"p1": 4, "p2": 2, "p3": 3})
    assert t.state.totals() == {"p1": 4, "p2": 4, "p3": 4}
    outcome = GAME.outcome(t.state)
    assert outcome.winners == ("p1", "p2", "p3")
    assert outcome.render() == "A, B, C share the victory with 4 points."
    assert outcome.ranks() == {"p1": 1, "p2": 1, "p3": 1}


def test_any_action_after_the_game_ended_is_refused() -> None:
    t = _play_to_the_end({})
    for action in (ScorePlayer("p1"), EndAct(), key("p1", 1), StartPerformance(0, TRACK)):
        with pytest.raises(GameOverError):
            t.do(action)


def test_progress_label_and_scores() -> None:
    t = Table.of("A", "B")
    assert GAME.progress_label(t.state) == "act 1, choosing the first player"
    t.start_game()
    assert GAME.progress_label(t.state) == "act 1, performance"
    assert GAME.scores(t.state) == {"p1": 0, "p2": 0}


def test_every_action_round_trips_through_json() -> None:
    t = _play_to_the_end({"p1": 3})
    for action in t.actions:
        assert GAME.parse_action(action_to_json(action)) == action


def test_every_action_in_the_docs_parses_and_every_action_is_documented() -> None:
    import json
    import re
    from pathlib import Path

    doc = Path(__file__).parents[3] / "docs" / "games" / "meeple-circus.md"
    section = doc.read_text(encoding="utf-8").split("## Actions", 1)[1]
    examples = [json.loads(m) for m in re.findall(r'`(\{"type"[^`]*\})`', section)]
    for data in examples:
        GAME.parse_action(data)
    assert {d["type"] for d in examples} == set(GAME.action_types)


def test_a_refusal_lists_names_in_the_shown_language_s_punctuation() -> None:
    """The stop-early refusal named the players still building with an ASCII ', ' in
    Chinese (「还在搭建：Bo, Eve」, the circus tour): the rules now hand the names as a
    list the refusal renders in its language (、 in Chinese)."""
    from companion.i18n import catalog

    t = _performing("安", "Bo", "Eve")
    t.do(StartPerformance(0, TRACK), key("p1", 10 * SECOND))
    with pytest.raises(IllegalActionError) as refused:
        t.do(EndPerformance(20 * SECOND))
    assert "still building: Bo, Eve." in refused.value.render()
    zh = refused.value.render(catalog("zh", "meeple_circus").gettext)
    assert "Bo、Eve" in zh and ", " not in zh, zh


def test_a_shared_win_names_both_winners_in_the_languages_list() -> None:
    """The final standings' sentence names a shared win as the shown language lists
    names (``A、B`` in Chinese; the rules join them with an ASCII comma)."""
    import io

    from rich.console import Console

    from companion.games.meeple_circus.panels import final_view
    from companion.i18n import set_language

    t = _evaluating(3)
    before = t.state.totals()
    top = max(before.values())
    t.score_all({"p1": 50 + top - before["p1"], "p2": 50 + top - before["p2"]})
    outcome = GAME.outcome(t.state)
    assert outcome is not None and outcome.winners == ("p1", "p2")
    try:
        set_language("zh")
        console = Console(width=100, record=True, file=io.StringIO())
        console.print(final_view(t.state, outcome))
        assert "A、B" in console.export_text()
    finally:
        set_language("en")


def test_the_guides_lists_of_players_read_as_chinese_lists() -> None:
    """The host pick's "Tie for the fewest points between {names}" and the speed
    tokens' "settle {what} first" list players with 、 and items with ； in Chinese."""
    from companion.games.meeple_circus.guide import names, names_of_undecided
    from companion.i18n import _, set_language

    state = Table.of("A", "B", "C").state
    try:
        set_language("zh")
        assert names(state, ("p1", "p2")).render(_) == "A、B"
        assert names_of_undecided(state, ("press:3", "tie:p1,p2")).render(_) == "#4；A、B"
        set_language("en")
        assert names_of_undecided(state, ("press:3", "tie:p1,p2")).render(_) == "#4; A, B"
    finally:
        set_language("en")
