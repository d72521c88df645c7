"""The score pad's view-model: one place computes the rounds shown, the open round's
points, ranks and who is marked, for the host's table and the players' board alike."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.games.scorepad.render import banner, round_cells, round_headers
from companion.games.scorepad.rules import GAME, CloseRound, EndGame, Score, ScorepadState
from companion.games.scorepad.view import BOARD_ROUNDS, HOST_ROUNDS, pad_view
from companion.i18n import set_language
from companion.rules.base import RuleError, seat_players


def play(state: ScorepadState, *actions: object) -> ScorepadState:
    for action in actions:
        state = GAME.apply(state, action)  # type: ignore[arg-type]
    return state


def test_a_game_by_hand_rounds_open_points_ranks_and_the_winner() -> None:
    set_language("en")
    state = GAME.setup(seat_players(["Ann", "Bo", "Cy"]), {"target": 0})
    state = play(state, Score("p1", 5), Score("p2", 5), Score("p3", 2), CloseRound())
    state = play(state, Score("p3", 3), Score("p3", -1))
    view = pad_view(state)
    assert view.shown_rounds == (1,) and view.open_round == 2 and not view.ended
    ann, _bo, cy = view.rows
    assert (ann.rounds, ann.open_points, ann.total, ann.rank) == ((5,), (), 5, 1)
    assert (cy.rounds, cy.open_points, cy.total, cy.rank) == ((2,), (3, -1), 4, 3)
    assert [r.leading for r in view.rows] == [True, True, False]  # the shared best total
    assert round_headers(view) == ["R1", "R2 (open)"]
    assert round_cells(view, cy) == ["2", "+3 -1"]
    assert banner(view) == "Round 2  ·  highest wins  ·  no target"

    ended = play(state, Score("p1", 1), EndGame())
    outcome = GAME.outcome(ended)
    assert outcome is not None and set(outcome.winners) == {"p1"}
    final = pad_view(ended, outcome.winners)
    assert final.open_round is None and final.shown_rounds == (1, 2)
    assert round_headers(final) == ["R1", "R2"]
    assert [r.winner for r in final.rows] == [True, False, False]
    assert [r.leading for r in final.rows] == [True, False, False]
    assert banner(final).startswith("Final")


def test_nobody_is_marked_before_anyone_scored_and_lowest_wins_ranks_upwards() -> None:
    state = GAME.setup(seat_players(["Ann", "Bo"]), {"highest_wins": False})
    assert not any(r.leading for r in pad_view(state).rows)
    state = play(state, Score("p1", 7), Score("p2", 3))
    view = pad_view(state)
    assert [r.rank for r in view.rows] == [2, 1]
    assert [r.leading for r in view.rows] == [False, True]


ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("score"), st.integers(0, 4), st.integers(-20, 20)),
        st.tuples(st.just("close"), st.just(0), st.just(0)),
        st.tuples(st.just("end"), st.just(0), st.just(0)),
    ),
    max_size=60,
)


@settings(max_examples=80, deadline=None)
@given(
    players=st.integers(1, 5),
    highest=st.booleans(),
    target=st.sampled_from([0, 15, 40]),
    script=ACTIONS,
)
def test_host_and_board_views_agree_and_add_up(
    players: int, highest: bool, target: int, script: list[tuple[str, int, int]]
) -> None:
    state = GAME.setup(
        seat_players([f"P{i}" for i in range(players)]), {"highest_wins": highest, "target": target}
    )
    for kind, seat, points in script:
        if kind == "score":
            action: Score | CloseRound | EndGame = Score(state.players[seat % players].id, points)
        else:
            action = CloseRound() if kind == "close" else EndGame()
        try:
            state = GAME.apply(state, action)
        except RuleError:
            continue
    outcome = GAME.outcome(state)
    winners = outcome.winners if outcome else ()
    host = pad_view(state, winners, max_rounds=HOST_ROUNDS)
    board = pad_view(state, winners, max_rounds=BOARD_ROUNDS)
    totals = state.totals()
    best = (max if highest else min)(totals.values())
    for h, b in zip(host.rows, board.rows, strict=True):
        # The board shows the newest of the host's rounds, and everything else the same.
        assert h.rounds[len(h.rounds) - len(b.rounds) :] == b.rounds
        assert (h.open_points, h.total, h.rank, h.leading, h.winner) == (
            b.open_points,
            b.total,
            b.rank,
            b.leading,
            b.winner,
        )
        # The total is every round, shown or not, plus the open one.
        assert h.total == totals[h.player]
        all_rounds = [state.round_points(i)[h.player] for i in range(len(state.rounds))]
        assert tuple(all_rounds[-HOST_ROUNDS:]) == h.rounds if all_rounds else h.rounds == ()
        assert sum(all_rounds) + sum(h.open_points) == h.total
        assert (h.rank == 1) == (h.total == best)
        if winners:
            assert h.leading == h.winner == (h.player in winners)
        else:
            assert h.leading == (h.rank == 1 and any(totals.values()))
    assert len(board.shown_rounds) <= BOARD_ROUNDS and len(host.shown_rounds) <= HOST_ROUNDS
    assert (host.open_round is None) == (state.ended is not None)
    assert len(round_headers(host)) == len(round_cells(host, host.rows[0]))
