"""喵喵咪呀 rules, line by line from docs/rules/meowfia.md."""

from __future__ import annotations

from fractions import Fraction

import pytest
from meowfia_play import (
    ballot,
    empty_round,
    everyone_votes,
    intercept,
    new_game,
    play,
    started,
)

from companion.games import find_game
from companion.games.meowfia.rules import (
    GAME,
    Abstain,
    Identify,
    Inspect,
    MoveMarker,
    Question,
    Retract,
    Reveal,
    RevealTile,
    Revote,
    SetCounter,
    SetWeight,
    SmugglingDone,
    Start,
    Vote,
    format_weight,
)
from companion.rules.base import (
    BadActionError,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    RuleError,
    SetupError,
    action_to_json,
    seat_players,
)

# ----------------------------------------------------------------------------- setup


def test_registry_finds_the_game() -> None:
    info = find_game("miaomiao")
    assert info.rules is GAME
    assert info.load() is GAME


@pytest.mark.parametrize("n", [4, 11])
def test_wrong_player_counts_are_refused(n: int) -> None:
    with pytest.raises(SetupError, match="5 to 10 players"):
        new_game(n)


@pytest.mark.parametrize("n", [5, 10])
def test_five_to_ten_players(n: int) -> None:
    state = new_game(n)
    assert state.phase == "setup"
    assert len(state.players) == n


def test_unknown_option_is_refused() -> None:
    with pytest.raises(SetupError):
        GAME.setup(seat_players(list("ABCDE")), GAME.check_options({"nope": True}))


def test_nothing_before_the_sheriff_is_named() -> None:
    with pytest.raises(IllegalActionError, match="Sheriff first"):
        GAME.apply(new_game(), SmugglingDone())


def test_two_sheriffs_are_refused() -> None:
    state = started()
    with pytest.raises(IllegalActionError, match="already the Sheriff"):
        GAME.apply(state, Start("p2", "p3"))


def test_the_sheriff_is_not_questioned_first() -> None:
    with pytest.raises(IllegalActionError, match="cannot be questioned first"):
        GAME.apply(new_game(), Start("p3", "p3"))


def test_unknown_player_is_a_bad_action() -> None:
    with pytest.raises(BadActionError, match="no player p9"):
        GAME.apply(new_game(), Start("p9", "p2"))


# ----------------------------------------------------------------------------- questioning


def test_questioning_order_is_clockwise_skipping_the_sheriff() -> None:
    state = started(sheriff="p3", first="p5")
    assert state.current_round is not None
    assert state.current_round.order == ("p5", "p6", "p1", "p2", "p4")
    assert state.current_round.last_in_order == "p4"
    state = empty_round(state)
    # The next round starts one seat further clockwise, still skipping the Sheriff.
    assert state.current_round is not None
    assert state.current_round.order == ("p6", "p1", "p2", "p4", "p5")
    state = empty_round(state)
    assert state.current_round.order == ("p1", "p2", "p4", "p5", "p6")


def test_questions_follow_the_order() -> None:
    state = play(started(), SmugglingDone())
    state = play(state, Question("p2", "N"), Question("p3"))
    assert state.current_round is not None
    assert state.current_round.next_to_question == "p4"
    assert state.current_round.questioned[0].claim == "N"
    with pytest.raises(NotYourTurnError, match="Di is questioned next, not Fa"):
        GAME.apply(state, Question("p6"))
    with pytest.raises(IllegalActionError, match="asks the questions"):
        GAME.apply(state, Question("p1"))
    state = play(state, Question("p4"), Question("p5"), Question("p6"))
    with pytest.raises(IllegalActionError, match="Everyone has been questioned"):
        GAME.apply(state, Question("p2"))


def test_no_questions_while_smuggling() -> None:
    with pytest.raises(IllegalActionError, match="during the inspection"):
        GAME.apply(started(), Question("p2"))


def test_smuggling_is_confirmed_once() -> None:
    state = play(started(), SmugglingDone())
    with pytest.raises(IllegalActionError, match="already done"):
        GAME.apply(state, SmugglingDone())


def test_inspection_result_needs_the_smuggling_done() -> None:
    with pytest.raises(IllegalActionError, match="smuggling is done"):
        GAME.apply(started(), Inspect("N", "empty"))


def test_inspection_result_twice_in_a_round() -> None:
    state = intercept(started())
    with pytest.raises(IllegalActionError, match="already entered"):
        GAME.apply(state, Inspect("W", "empty"))


def test_inspection_can_be_entered_without_recording_questions() -> None:
    state = empty_round(started())
    assert state.smuggles == 1
    assert state.round_number == 2
    assert state.rounds[0].result == "empty"
    assert state.rounds[0].building == "N"


# ----------------------------------------------------------------------------- win paths


def test_three_smuggles_win_for_the_meowfia() -> None:
    state = empty_round(empty_round(started()))
    assert GAME.outcome(state) is None
    state = empty_round(state)
    assert state.phase == "over"
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination == "smuggles"
    # The Undercover is not known yet: only the Sheriff's side is.
    assert outcome.sides == {"p1": "police"}
    assert outcome.winners == ()
    state = GAME.apply(state, Identify("p4"))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.sides == {
        "p1": "police",
        "p2": "meowfia",
        "p3": "meowfia",
        "p4": "police",
        "p5": "meowfia",
        "p6": "meowfia",
    }
    assert outcome.winners == ("p2", "p3", "p5", "p6")
    assert "Bo, Cy, Ed, Fa" in outcome.render()


def test_no_reckoning_after_an_empty_box() -> None:
    state = empty_round(started())
    assert state.phase == "smuggling"
    assert state.ballots == ()
    assert state.ring is None


@pytest.mark.parametrize("smuggles_first", [0, 2])
def test_undercover_caught_at_the_first_intercept(smuggles_first: int) -> None:
    state = started()
    for _ in range(smuggles_first):
        state = empty_round(state)
    state = intercept(state)
    assert state.intercepts == 1
    state = everyone_votes(state, "p4", fallback="p2")
    assert state.ballot is not None and state.ballot.accused == "p4"
    state = GAME.apply(state, Reveal("p4", "undercover"))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination == "undercover-caught"
    assert outcome.winners == ("p2", "p3", "p5", "p6")
    assert outcome.sides["p4"] == "police"
    assert len(outcome.sides) == 6


def test_undercover_caught_at_the_second_intercept() -> None:
    state = intercept(started())
    state = everyone_votes(state, "p3", fallback="p2")
    state = play(state, Reveal("p3", "meowfia", "Tabby"))
    assert state.phase == "smuggling"
    state = intercept(state)
    state = everyone_votes(state, "p5", fallback="p2")
    state = play(state, Reveal("p5", "undercover"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == "undercover-caught"
    assert state.intercepts == 2
    assert state.revealed[0].role == "Tabby"


def test_catching_the_undercover_beats_the_third_intercept() -> None:
    state = started()
    for target in ("p2", "p3"):
        state = intercept(state)
        state = everyone_votes(state, target, fallback="p6")
        state = play(state, Reveal(target, "meowfia"))
    state = intercept(state)
    assert state.intercepts == 3
    assert state.phase == "reckoning"  # a reckoning follows even on the 3rd intercept
    state = everyone_votes(state, "p6", fallback="p4")
    state = play(state, Reveal("p6", "undercover"))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination == "undercover-caught"
    assert set(outcome.winners) == {"p2", "p3", "p4", "p5"}


def test_third_intercept_without_the_undercover_is_a_police_win() -> None:
    state = started()
    for target in ("p2", "p3", "p4"):
        state = intercept(state)
        state = everyone_votes(state, target, fallback="p6")
        state = play(state, Reveal(target, "meowfia"))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.termination == "intercepts"
    assert outcome.winners == ("p1",)
    assert "Undercover (enter who it was)" in outcome.render()
    state = GAME.apply(state, Identify("p5"))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.winners == ("p1", "p5")
    assert outcome.sides == {
        "p1": "police",
        "p2": "meowfia",
        "p3": "meowfia",
        "p4": "meowfia",
        "p5": "police",
        "p6": "meowfia",
    }
    assert outcome.params["rounds"] == 3
    assert outcome.params["intercepts"] == 3


def test_the_only_hidden_player_left_is_the_undercover() -> None:
    state = started(n=5)  # Sheriff p1; p2..p5 hidden
    state = play(state, RevealTile("p2", "meowfia", "role ability"))
    for target in ("p3", "p4"):
        state = intercept(state)
        state = everyone_votes(state, target, fallback="p5")
        state = play(state, Reveal(target, "meowfia"))
    state = intercept(state)
    state = everyone_votes(state, "p5", fallback="p2", abstain=["p5"])
    # p5 is the last hidden tile: it cannot show a Meowfia member.
    with pytest.raises(IllegalActionError, match="last hidden player"):
        GAME.apply(state, Reveal("p5", "meowfia"))
    state = GAME.apply(state, Reveal("p5", "undercover"))
    assert state.undercover == "p5"


def test_police_win_deduces_the_last_hidden_undercover() -> None:
    state = started(n=5)
    for target in ("p2", "p3", "p4"):
        state = intercept(state)
        state = everyone_votes(state, target, fallback="p5")
        state = play(state, Reveal(target, "meowfia"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == "intercepts"
    assert outcome.winners == ("p1", "p5")
    assert len(outcome.sides) == 5


# ----------------------------------------------------------------------------- the ring


def test_ring_goes_to_the_last_questioned_at_the_first_reckoning() -> None:
    state = started()
    assert state.ring is None
    state = empty_round(state)  # round 2 order p3..p6, p2: p2 is questioned last
    state = intercept(state)
    assert state.ring == "p2"
    assert state.ballot is not None and state.ballot.ring == "p2"
    assert state.ballot.weight("p2") == Fraction(3, 2)


def test_ring_goes_to_the_accused_afterwards() -> None:
    state = intercept(started())
    assert state.ring == "p6"
    state = everyone_votes(state, "p3", fallback="p2")
    state = play(state, Reveal("p3", "meowfia"))
    assert state.ring == "p3"
    state = intercept(state)  # round 2's last questioned is p2, but the ring stays
    assert state.ring == "p3"
    assert state.ballot is not None and state.ballot.weight("p3") == Fraction(3, 2)
    assert state.ballot.weight("p6") == 1


def test_ring_moved_by_hand_stays_at_the_next_reckoning() -> None:
    state = intercept(started())
    state = everyone_votes(state, "p3", fallback="p2")
    state = play(
        state, Reveal("p3", "meowfia"), MoveMarker("ring", "p5", "role ability of the Tabby")
    )
    state = intercept(state)
    assert state.ring == "p5"
    assert state.adjustments[-1].reason == "role ability of the Tabby"


def test_moving_the_ring_during_a_ballot_changes_its_weights() -> None:
    state = intercept(started())
    state = play(state, Vote("p6", "p2"))
    assert state.ballot is not None and state.ballot.totals()["p2"] == Fraction(3, 2)
    state = play(state, MoveMarker("ring", None, "ring taken away"))
    assert state.ballot is not None and state.ballot.totals()["p2"] == 1


def test_message_and_rose_markers_never_count() -> None:
    state = play(
        started(), MoveMarker("message", "p3", "ability"), MoveMarker("rose", "p4", "ability")
    )
    assert (state.message, state.rose) == ("p3", "p4")
    assert (state.smuggles, state.intercepts) == (0, 0)
    state = play(state, MoveMarker("rose", None, "taken back"))
    assert state.rose is None


# ----------------------------------------------------------------------------- weights


def test_two_votes_lose_to_one_plus_the_ring() -> None:
    state = intercept(started())  # ring: p6
    state = ballot(state, {"p2": "p3", "p4": "p3", "p5": "p2", "p6": "p2", "p3": None})
    b = state.ballot
    assert b is not None
    assert b.totals() == {"p2": Fraction(5, 2), "p3": 2, "p4": 0, "p5": 0, "p6": 0}
    assert b.accused == "p2"
    assert format_weight(b.totals()["p2"]) == "2.5"


def test_ring_alone_beats_one_vote_with_abstentions() -> None:
    state = intercept(started())  # ring: p6 (1.5)
    state = ballot(state, {"p6": "p2", "p3": "p4", "p2": None, "p4": None, "p5": None})
    assert state.ballot is not None and state.ballot.accused == "p2"


def test_ring_loses_to_two_votes_and_a_half_weight_ties() -> None:
    state = intercept(started())
    state = play(state, SetWeight("p3", Fraction(1, 2), "role halves the vote"))
    # 1.5 (ring p6 -> p2) vs 1 + 0.5 (p4, p3 -> p5): a tie at 1.5.
    state = ballot(state, {"p6": "p2", "p4": "p5", "p3": "p5", "p2": None, "p5": None})
    b = state.ballot
    assert b is not None
    assert b.result == "tie"
    assert b.tied == ("p2", "p5")
    assert format_weight(b.totals()["p5"]) == "1.5"


def test_a_weight_change_lasts_one_ballot() -> None:
    state = intercept(started())
    state = play(state, SetWeight("p3", Fraction(2), "double vote"))
    assert state.ballot is not None and state.ballot.weight("p3") == 2
    state = ballot(state, {"p3": "p2", "p2": "p5", "p4": "p5", "p5": None, "p6": None})
    assert state.ballot is not None and state.ballot.tied == ("p2", "p5")  # 2 against 1 + 1
    state = play(state, Revote())
    assert state.ballot is not None and state.ballot.weight("p3") == 1


def test_set_weight_is_refused_outside_an_open_ballot_and_out_of_range() -> None:
    with pytest.raises(IllegalActionError, match="open ballot"):
        GAME.apply(started(), SetWeight("p2", Fraction(2), "x"))
    state = intercept(started())
    with pytest.raises(IllegalActionError, match="between 0 and 10"):
        GAME.apply(state, SetWeight("p2", Fraction(-1), "x"))
    with pytest.raises(IllegalActionError, match="does not vote"):
        GAME.apply(state, SetWeight("p1", Fraction(2), "x"))


# ----------------------------------------------------------------------------- ties


def test_tie_opens_a_full_revote_and_repeats_until_one_leads() -> None:
    state = intercept(started())  # ring p6
    tie = {"p6": "p2", "p2": "p3", "p3": "p4", "p4": "p5", "p5": None}
    state = play(state, MoveMarker("ring", None, "ability: no ring this time"))
    state = ballot(state, tie)  # p2, p3, p4, p5 each 1: a four-way tie
    b = state.ballot
    assert b is not None and b.result == "tie" and b.tied == ("p2", "p3", "p4", "p5")
    with pytest.raises(IllegalActionError, match="revote first"):
        GAME.apply(state, Vote("p2", "p3"))
    with pytest.raises(IllegalActionError, match="Nobody is accused"):
        GAME.apply(state, Reveal("p2", "meowfia"))
    state = play(state, Revote())
    b = state.ballot
    assert b is not None and b.number == 2 and b.result == "open"
    assert b.candidates == ("p2", "p3", "p4", "p5", "p6")  # full revote
    state = ballot(state, {"p2": "p3", "p3": "p2", "p4": None, "p5": None, "p6": None})
    assert state.ballot is not None and state.ballot.result == "tie"
    state = play(state, Revote())
    state = ballot(state, {"p2": "p6", "p3": "p6", "p4": None, "p5": None, "p6": "p2"})
    b = state.ballot
    assert b is not None and b.number == 3 and b.accused == "p6"
    assert [x.result for x in state.ballots] == ["tie", "tie", "accused"]


def test_tied_only_revote_drops_a_tied_player_revealed_meanwhile() -> None:
    state = intercept(started(revote_tied_only=True))
    state = play(state, MoveMarker("ring", None, "no ring"))
    state = ballot(state, {"p2": "p3", "p3": "p2", "p4": "p5", "p5": None, "p6": None})
    assert state.ballot is not None and state.ballot.tied == ("p2", "p3", "p5")
    state = play(state, RevealTile("p5", "meowfia", "role ability"), Revote())
    assert state.ballot is not None and state.ballot.candidates == ("p2", "p3")


def test_tied_only_revote_refuses_other_candidates() -> None:
    state = intercept(started(revote_tied_only=True))
    state = play(state, MoveMarker("ring", None, "no ring"))
    state = ballot(state, {"p2": "p3", "p3": "p2", "p4": None, "p5": None, "p6": None})
    state = play(state, Revote())
    b = state.ballot
    assert b is not None and b.candidates == ("p2", "p3")
    with pytest.raises(IllegalActionError, match="among Bo, Cy only"):
        GAME.apply(state, Vote("p4", "p5"))
    # The tied players vote too (not for themselves).
    state = ballot(state, {"p2": "p3", "p3": None, "p4": "p3", "p5": "p2", "p6": None})
    assert state.ballot is not None and state.ballot.accused == "p3"


def test_retract_a_vote_on_the_open_ballot() -> None:
    state = intercept(started())
    state = play(state, Vote("p2", "p3"), Retract("p2"), Vote("p2", "p4"))
    assert state.ballot is not None
    assert state.ballot.cast_of("p2") is not None
    assert state.ballot.totals()["p4"] == 1
    with pytest.raises(IllegalActionError, match="has not voted"):
        GAME.apply(state, Retract("p3"))


def test_ballot_closes_only_when_everyone_entered() -> None:
    state = intercept(started())
    state = ballot(state, {"p2": "p3", "p3": "p2", "p4": "p3", "p5": "p3"})
    assert state.ballot is not None and state.ballot.result == "open"
    state = play(state, Abstain("p6"))
    assert state.ballot is not None and state.ballot.accused == "p3"
    with pytest.raises(IllegalActionError, match="Cy is accused"):
        GAME.apply(state, Vote("p6", "p2"))
    with pytest.raises(IllegalActionError, match="Cy is accused, not Bo"):
        GAME.apply(state, Reveal("p2", "meowfia"))


# ----------------------------------------------------------------------------- bad votes


def test_bad_votes() -> None:
    with pytest.raises(IllegalActionError, match="No vote is open"):
        GAME.apply(started(), Vote("p2", "p3"))
    state = intercept(started())
    with pytest.raises(IllegalActionError, match="Sheriff does not vote"):
        GAME.apply(state, Vote("p1", "p3"))
    with pytest.raises(IllegalActionError, match="cannot be voted for"):
        GAME.apply(state, Vote("p2", "p1"))
    with pytest.raises(IllegalActionError, match="cannot vote for themself"):
        GAME.apply(state, Vote("p2", "p2"))
    with pytest.raises(BadActionError):
        GAME.apply(state, Vote("p2", "p42"))
    voted = GAME.apply(state, Vote("p2", "p3"))
    with pytest.raises(IllegalActionError, match="Bo already voted on this ballot"):
        GAME.apply(voted, Vote("p2", "p4"))
    with pytest.raises(IllegalActionError, match="Bo already voted"):
        GAME.apply(voted, Abstain("p2"))


def test_revealed_players_vote_but_cannot_be_voted_for() -> None:
    state = intercept(started())
    state = everyone_votes(state, "p3", fallback="p2")
    state = play(state, Reveal("p3", "meowfia"))
    state = intercept(state)
    assert state.ballot is not None
    assert "p3" in state.ballot.voters
    assert "p3" not in state.ballot.candidates
    with pytest.raises(IllegalActionError, match="Cy is already revealed"):
        GAME.apply(state, Vote("p2", "p3"))
    state = GAME.apply(state, Vote("p3", "p2"))
    assert state.ballot is not None and state.ballot.totals()["p2"] == Fraction(3, 2)


def test_revote_needs_a_tie() -> None:
    with pytest.raises(IllegalActionError, match="only a tied ballot"):
        GAME.apply(intercept(started()), Revote())


# ----------------------------------------------------------------------------- manual actions


def test_manual_actions_need_a_reason() -> None:
    state = started()
    with pytest.raises(BadActionError, match="needs a short reason"):
        GAME.apply(state, MoveMarker("ring", "p2", "   "))
    with pytest.raises(BadActionError, match="at most 200"):
        GAME.apply(state, SetCounter("smuggles", 1, "x" * 201))


def test_reveal_a_tile_outside_a_vote() -> None:
    state = play(started(), RevealTile("p4", "meowfia", "ability", role="Calico"))
    assert state.revealed_tile("p4") is not None
    with pytest.raises(IllegalActionError, match="already revealed"):
        GAME.apply(state, RevealTile("p4", "meowfia", "again"))
    with pytest.raises(IllegalActionError, match="public already"):
        GAME.apply(state, RevealTile("p1", "meowfia", "x"))
    with pytest.raises(IllegalActionError, match="Not during a vote"):
        GAME.apply(intercept(state), RevealTile("p5", "meowfia", "x"))


def test_a_revealed_undercover_outside_a_vote_ends_the_game() -> None:
    state = play(started(), RevealTile("p4", "undercover", "tile shown by mistake"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == "undercover-revealed"
    assert outcome.winners == ("p2", "p3", "p5", "p6")


def test_correct_a_counter() -> None:
    state = play(started(), SetCounter("smuggles", 2, "forgot one"))
    assert state.smuggles == 2
    with pytest.raises(IllegalActionError, match="from 0 to 3, not 4"):
        GAME.apply(state, SetCounter("smuggles", 4, "x"))
    with pytest.raises(IllegalActionError, match="3rd intercept"):
        GAME.apply(state, SetCounter("intercepts", 3, "x"))
    state = play(state, SetCounter("smuggles", 3, "it was three"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == "smuggles"


def test_third_intercept_by_correction_during_a_reckoning() -> None:
    state = intercept(started())
    state = play(state, SetCounter("intercepts", 3, "two were not counted"))
    state = everyone_votes(state, "p2", fallback="p3")
    state = play(state, Reveal("p2", "meowfia"))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.termination == "intercepts"


def test_role_names() -> None:
    state = intercept(started())
    state = everyone_votes(state, "p2", fallback="p3")
    with pytest.raises(BadActionError, match="no role name"):
        GAME.apply(state, Reveal("p2", "undercover", "Boss"))
    with pytest.raises(BadActionError, match="at most 40"):
        GAME.apply(state, Reveal("p2", "meowfia", "x" * 41))
    state = GAME.apply(state, Reveal("p2", "meowfia", "  "))
    assert state.revealed[0].role is None


# ----------------------------------------------------------------------------- after the end


def test_after_the_end_only_identify() -> None:
    state = empty_round(empty_round(empty_round(started())))
    for action in (
        SmugglingDone(),
        Vote("p2", "p3"),
        MoveMarker("ring", "p2", "x"),
        SetCounter("smuggles", 0, "x"),
        Start("p1", "p2"),
    ):
        with pytest.raises(GameOverError, match="game is over"):
            GAME.apply(state, action)
    with pytest.raises(IllegalActionError, match="Sheriff, not the Undercover"):
        GAME.apply(state, Identify("p1"))
    state = GAME.apply(state, Identify("p3"))
    with pytest.raises(IllegalActionError, match="already known: Cy"):
        GAME.apply(state, Identify("p4"))


def test_identify_only_after_the_end_and_not_a_revealed_member() -> None:
    with pytest.raises(IllegalActionError, match="only after the game is over"):
        GAME.apply(started(), Identify("p3"))
    state = started()
    for target in ("p2", "p3", "p4"):
        state = intercept(state)
        state = everyone_votes(state, target, fallback="p6")
        state = play(state, Reveal(target, "meowfia"))
    with pytest.raises(IllegalActionError, match="showed a Meowfia member"):
        GAME.apply(state, Identify("p2"))


# ----------------------------------------------------------------------------- JSON and labels


ALL_EXAMPLES = [
    Start("p1", "p2"),
    SmugglingDone(),
    Question("p2", "S"),
    Question("p3"),
    Inspect("W", "contraband"),
    Vote("p2", "p3"),
    Abstain("p4"),
    Retract("p2"),
    Revote(),
    Reveal("p3", "meowfia", "Tabby"),
    Reveal("p3", "undercover"),
    Identify("p5"),
    MoveMarker("ring", None, "r"),
    SetWeight("p2", Fraction(3, 2), "r"),
    RevealTile("p2", "meowfia", "r", "Calico"),
    SetCounter("intercepts", 2, "r"),
]


@pytest.mark.parametrize("action", ALL_EXAMPLES, ids=lambda a: a.type)
def test_json_round_trip(action: object) -> None:
    data = action_to_json(action)  # type: ignore[arg-type]
    assert GAME.parse_action(data) == action


def test_json_forms_are_as_documented() -> None:
    assert action_to_json(SetWeight("p2", Fraction(3, 2), "ring")) == {
        "type": "set-weight",
        "voter": "p2",
        "weight": "3/2",
        "reason": "ring",
    }
    assert action_to_json(MoveMarker("rose", None, "r")) == {
        "type": "move-marker",
        "marker": "rose",
        "to": None,
        "reason": "r",
    }
    with pytest.raises(BadActionError):
        GAME.parse_action({"type": "inspect", "building": "X", "result": "empty"})
    with pytest.raises(BadActionError):
        GAME.parse_action({"type": "vote", "voter": "p2"})


def test_every_refusal_is_a_rule_error_and_changes_nothing() -> None:
    state = intercept(started())
    before = state
    with pytest.raises(RuleError):
        GAME.apply(state, Vote("p1", "p2"))
    assert state == before


def test_format_weight() -> None:
    assert [format_weight(Fraction(n, 2)) for n in range(6)] == ["0", "0.5", "1", "1.5", "2", "2.5"]
    assert format_weight(Fraction(7, 4)) == "1.75"


def test_progress_label() -> None:
    assert GAME.progress_label(new_game()) == "setup"
    assert GAME.progress_label(empty_round(started())) == "round 2, smuggling"
    assert GAME.progress_label(intercept(started())) == "round 1, reckoning"
    assert GAME.scores(started()) == {}
