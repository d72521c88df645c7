"""The ring at the first reckoning follows the text (issue 21, item 2).

「首次进入清算阶段时，将戒指标记交给本轮最后一名被警长盘问的玩家」: the player the
Sheriff *actually* questioned last, as recorded — not the last of the order.
「完成盘问后，警长必须从四座建筑中选择一座」: opening a building before the
questioning is done is asked (``GUIDE.confirm``). Sessions stored before the
``ring_to_questioned`` option replay as they were played (the last in the order).
"""

from __future__ import annotations

import random
from fractions import Fraction

from meowfia_play import everyone_votes, intercept, new_game, play, started

from companion.games.meowfia.guide import GUIDE
from companion.games.meowfia.rules import (
    GAME,
    Inspect,
    MoveMarker,
    Question,
    Reveal,
    SmugglingDone,
    Start,
    Vote,
)
from companion.rules.base import action_to_json, seat_players
from companion.session.clock import ManualClock
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store


def inspection(n: int = 6) -> object:
    """Sheriff Ann (p1), Bo (p2) questioned first: order Bo, Cy, Di, Ed, Fa."""
    return play(started(n), SmugglingDone())


def test_the_ring_goes_to_the_only_player_questioned() -> None:
    """The issue's table: 6 players, only Bob questioned, contraband."""
    state = play(inspection(), Question("p2"), Inspect("N", "contraband"))
    assert state.current_round.order[-1] == "p6"  # Fa is last in the order …
    assert state.ring == "p2"  # … but Bo was the last one questioned
    assert state.ballot.weight("p2") == Fraction(3, 2)
    assert state.ballot.weight("p6") == 1


def test_the_ring_goes_to_the_last_of_several_questioned() -> None:
    state = play(inspection(), Question("p2"), Question("p3", "E"), Question("p4"))
    state = play(state, Inspect("W", "contraband"))
    assert state.ring == "p4"


def test_everyone_questioned_gives_the_last_in_the_order() -> None:
    state = intercept(started())
    assert state.ring == "p6"


def test_nobody_questioned_gives_the_ring_to_nobody() -> None:
    state = play(inspection(), Inspect("N", "contraband"))
    assert state.ring is None
    assert all(state.ballot.weight(v) == 1 for v in state.ballot.voters)


def test_nobody_questioned_keeps_a_ring_placed_by_hand() -> None:
    state = play(inspection(), MoveMarker("ring", "p3", "role ability"))
    state = play(state, Inspect("N", "contraband"))
    assert state.ring == "p3"


def test_someone_questioned_takes_the_ring_from_a_hand_placed_one() -> None:
    """The rule is explicit at the first reckoning (as before): the questioned takes it."""
    state = play(inspection(), MoveMarker("ring", "p3", "role ability"), Question("p2"))
    state = play(state, Inspect("N", "contraband"))
    assert state.ring == "p2"


def test_later_reckonings_keep_the_ring_with_the_accused() -> None:
    state = play(inspection(), Question("p2"), Inspect("N", "contraband"))
    state = everyone_votes(state, "p4", fallback="p3")
    state = play(state, Reveal("p4", "meowfia"))
    assert state.ring == "p4"
    state = play(state, SmugglingDone(), Question(state.current_round.order[0]))
    state = play(state, Inspect("S", "contraband"))
    assert state.ring == "p4"


def test_the_option_off_gives_the_last_in_the_order() -> None:
    state = play(new_game(ring_to_questioned=False), Start("p1", "p2"), SmugglingDone())
    assert play(state, Inspect("N", "contraband")).ring == "p6"
    assert play(state, Question("p2"), Inspect("N", "contraband")).ring == "p6"


def test_new_sessions_follow_the_text_stored_ones_without_the_option_do_not() -> None:
    assert GAME.check_options({})["ring_to_questioned"] is True
    assert GAME.stored_options({})["ring_to_questioned"] is False
    assert GAME.stored_options({"ring_to_questioned": True})["ring_to_questioned"] is True


def test_an_old_log_replays_as_it_was_played(tmp_path) -> None:
    """A session stored before the option (no key in its options), nobody questioned:
    the ring went to the last in the order (Fa, 1.5), which decided the ballot. It
    still replays to the same outcome, and resumes with the same state."""
    players = seat_players(["Ann", "Bo", "Cy", "Di", "Ed", "Fa"])
    old_options = {"revote_tied_only": False, "smuggling_seconds": 0, "discussion_seconds": 0}
    with Store.open(tmp_path / "db.sqlite3") as store:
        sid = store.create_session(
            "meowfia", old_options, players, started_at="2026-01-01T00:00:00Z"
        )
        actions = [
            Start("p1", "p2"),
            SmugglingDone(),
            Inspect("N", "contraband"),
            Vote("p2", "p3"),
            Vote("p3", "p2"),
            Vote("p4", "p2"),
            Vote("p5", "p4"),
            Vote("p6", "p3"),  # Fa holds the ring: Cy 1 + 1.5 = 2.5 against Bo's 2
            Reveal("p3", "meowfia"),  # without the ring it was a tie: this would not replay
        ]
        for i, action in enumerate(actions, start=1):
            store.append(sid, i, "action", action_to_json(action), i)
        state, _outcome = replay(GAME, players, store.session(sid).options, store.entries(sid))
        assert state.ballots[0].ring == "p6" and state.ballots[0].accused == "p3"
        assert state.ring == "p3" and state.round_number == 2
        live = LiveSession.resume(store, sid, clock=ManualClock(), rng=random.Random(1))
        assert live.state == state
        fresh = LiveSession.start(store, "meowfia", players, {}, clock=ManualClock())
        assert fresh.state.ring_to_questioned is True


def test_opening_before_the_questioning_is_done_is_asked() -> None:
    state = inspection()
    assert GUIDE.confirm(state, "inspect").render() == (
        "Nobody has been questioned yet; open a building now?\n"
        "If it holds the contraband, nobody takes the ring (give it by hand)."
    )
    state = play(state, Question("p2"))
    assert GUIDE.confirm(state, "inspect").render() == (
        "Only Bo has been questioned; open a building now?\n"
        "If it holds the contraband, Bo takes the ring."
    )
    state = play(state, Question("p3"))
    assert (
        GUIDE.confirm(state, "inspect")
        .render()
        .startswith("Only Bo, Cy have been questioned; open a building now?")
    )
    for pid in ("p4", "p5", "p6"):
        state = play(state, Question(pid))
    assert GUIDE.confirm(state, "inspect") is None  # 完成盘问: nothing to ask
    assert GUIDE.confirm(state, "question") is None


def test_after_the_first_reckoning_the_question_has_no_ring_note() -> None:
    state = intercept(started())
    state = everyone_votes(state, "p3", fallback="p2")
    state = play(state, Reveal("p3", "meowfia"), SmugglingDone())
    assert GUIDE.confirm(state, "inspect").render() == (
        "Nobody has been questioned yet; open a building now?"
    )
