"""The live session: check-then-commit, undo/redo as entries, resume, replay."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.rules.base import IllegalActionError, SetupError, seat_players
from companion.session.clock import ManualClock
from companion.session.live import LiveSession, NothingToRedoError, NothingToUndoError
from companion.session.log import ReplayError, replay
from companion.session.store import Entry, Store


@pytest.fixture
def store(tmp_path):
    with Store.open(tmp_path / "db.sqlite3") as s:
        yield s


def new(store, names=("Ann", "Bo"), **options):
    return LiveSession.start(
        store,
        "scorepad",
        seat_players(list(names)),
        options,
        clock=ManualClock(),
        rng=random.Random(1),
    )


def score(pid, pts):
    return {"type": "score", "player": pid, "points": pts}


def test_bad_setup_writes_nothing(store):
    with pytest.raises(SetupError):
        new(store, names=())
    with pytest.raises(SetupError):
        new(store, names=("Ann", "ann"))
    with pytest.raises(SetupError):
        LiveSession.start(store, "chess", seat_players(["Ann"]), {})
    assert store.sessions() == []


def test_refused_action_changes_nothing_in_memory_or_on_disk(store):
    live = new(store)
    live.act(score("p1", 3))
    before = (live.state, len(live.entries), store.last_seq(live.id))
    with pytest.raises(IllegalActionError):
        live.act({"type": "score", "player": "p1", "points": 10**9})
    assert (live.state, len(live.entries), store.last_seq(live.id)) == before


def test_undo_redo_and_redo_after_new_action(store):
    live = new(store)
    live.act(score("p1", 1))
    live.act(score("p1", 2))
    live.undo()
    assert live.state.totals()["p1"] == 1
    live.redo()
    assert live.state.totals()["p1"] == 3
    live.undo()
    live.undo()
    assert live.state.totals()["p1"] == 0
    with pytest.raises(NothingToUndoError):
        live.undo()
    live.redo()
    assert live.state.totals()["p1"] == 1
    live.act(score("p2", 5))  # a new action clears what could be redone
    with pytest.raises(NothingToRedoError):
        live.redo()
    kinds = [e.kind for e in store.entries(live.id)]
    assert kinds == ["action", "action", "undo", "redo", "undo", "undo", "redo", "action"]
    assert live.undone == set()  # seq 2 was dropped from the redo stack, not undone-visible
    # The log is never rewritten: every entry is still there, in order.
    assert [e.seq for e in store.entries(live.id)] == list(range(1, 9))


def test_undo_and_redo_name_their_targets(store):
    live = new(store)
    live.act(score("p1", 1))
    live.undo()
    live.redo()
    entries = store.entries(live.id)
    assert entries[1].payload == {"undoes": 1}
    assert entries[2].payload == {"redoes": 1}


def test_finishing_writes_the_outcome_and_undo_reopens(store):
    live = new(store, target=5)
    live.act(score("p1", 6))
    live.act({"type": "close-round"})
    row = store.session(live.id)
    assert row.status == "finished" and row.outcome["winners"] == ["p1"]
    live.undo()
    row = store.session(live.id)
    assert row.status == "active" and row.outcome is None and row.ended_at is None


def test_resume_rebuilds_exactly(store):
    live = new(store)
    for i in range(5):
        live.act(score(f"p{i % 2 + 1}", i))
    live.undo()
    live.act({"type": "close-round"})
    live.undo()
    again = LiveSession.resume(store, live.id)
    assert again.state == live.state
    assert again.can_redo and again.undone == live.undone
    again.redo()
    assert again.state.round_number == 2


def test_hardware_entries_do_not_change_state(store):
    live = new(store)
    live.act(score("p1", 1))
    live.record_hardware({"event": "press", "device": "ABC", "button": 1})
    live.undo()  # undoes the score, not the hardware event
    assert live.state.totals()["p1"] == 0
    assert [e.kind for e in store.entries(live.id)] == ["action", "hw", "undo"]


def test_replay_names_the_first_bad_entry(store):
    live = new(store)
    entries = [
        Entry(1, "action", score("p1", 2), "t", 1),
        Entry(2, "action", {"type": "close-round"}, "t", 2),
        Entry(3, "action", {"type": "close-round"}, "t", 3),
    ]
    with pytest.raises(ReplayError) as info:
        replay(live.game, live.players, live.options, entries)
    assert info.value.index == 2
    assert "Round 2 has no scores yet" in str(info.value)
    with pytest.raises(ReplayError, match="undo with nothing to undo"):
        replay(live.game, live.players, live.options, [Entry(1, "undo", {}, "t", 1)])


ops = st.lists(
    st.one_of(
        st.tuples(st.just("score"), st.sampled_from(["p1", "p2", "p3"]), st.integers(-20, 20)),
        st.tuples(st.just("close")),
        st.tuples(st.just("undo")),
        st.tuples(st.just("redo")),
        st.tuples(st.just("end")),
        st.tuples(st.just("bad")),
    ),
    max_size=40,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(ops)
def test_log_fold_matches_a_model_and_replays(tmp_path_factory, program):
    """Whatever the host does, memory = replay of the disk = a simple stack model."""
    with Store.open(tmp_path_factory.mktemp("h") / "db.sqlite3") as store:
        live = new(store, names=("A", "B", "C"), target=30)
        done: list = []  # model: actions in effect
        undone: list = []
        for op in program:
            try:
                if op[0] == "score":
                    action = score(op[1], op[2])
                elif op[0] == "close":
                    action = {"type": "close-round"}
                elif op[0] == "end":
                    action = {"type": "end"}
                elif op[0] == "bad":
                    action = {"type": "score", "player": "p9", "points": 1}
                elif op[0] == "undo":
                    live.undo()
                    undone.append(done.pop())
                    continue
                else:
                    live.redo()
                    done.append(undone.pop())
                    continue
                live.act(action)
                done.append(action)
                undone.clear()
            except IllegalActionError:
                continue
            except Exception as exc:  # only rule errors may escape the rules
                from companion.rules.base import RuleError

                assert isinstance(exc, RuleError), exc
        state, outcome = replay(live.game, live.players, live.options, store.entries(live.id))
        assert state == live.state
        model = live.game.setup(live.players, live.game.check_options(live.options))
        for action in done:
            model = live.game.apply(model, live.game.parse_action(action))
        assert model == live.state
        assert (outcome is None) == (live.outcome is None)
