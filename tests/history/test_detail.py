"""Session detail: per-round scores and timeline from the log; Meeple Circus photo finish."""

from __future__ import annotations

from history_builders import scorepad_session

from companion.games.meeple_circus.rules.actions import (
    ChooseFirstPlayer,
    EndPerformance,
    Prepare,
    Press,
    StartPerformance,
    VoidPress,
)
from companion.rules.base import seat_players
from companion.session.clock import ManualClock
from companion.session.detail import performances, round_key, session_detail
from companion.session.export import bgstats_play
from companion.session.live import LiveSession
from companion.session.results import session_results
from companion.session.store import Entry, Store

S = 1_000_000_000


def test_scorepad_rounds_and_timeline() -> None:
    store = Store.memory()
    sid = scorepad_session(
        store, ["Ann", "Bo"], [{"Ann": 3, "Bo": 1}, {"Bo": 5}, {"Ann": 1}], undo_last_score=True
    )
    d = session_detail(store, sid)
    assert d.error is None and d.outcome is not None
    assert [(r.label, dict(r.scores)) for r in d.rounds] == [
        ("round 1", {"p1": 3, "p2": 1}),
        ("round 2", {"p1": 3, "p2": 6}),
        ("round 3", {"p1": 4, "p2": 6}),
    ]
    # The fold is over effective actions only: the undone 99 never shows.
    assert max(max(s.scores.values()) for s in d.steps) == 6
    undone = [t for t in d.timeline if t.undone]
    assert len(undone) == 1 and undone[0].payload["points"] == 99
    undo = next(t for t in d.timeline if t.kind == "undo")
    assert undo.target == undone[0].seq
    assert d.next_step is None  # it ended: nothing left to do
    assert d.performances == ()


def test_detail_of_a_log_that_no_longer_replays() -> None:
    store = Store.memory()
    sid = scorepad_session(store, ["Ann"], [{"Ann": 1}], end="open")
    store.append(
        sid, store.last_seq(sid) + 1, "action", {"type": "score", "player": "p7", "points": 1}, 0
    )
    d = session_detail(store, sid)
    assert d.error is not None and "p7" in d.error
    assert len(d.timeline) == 3  # still shown in full


def test_an_unfinished_session_says_what_the_host_was_to_do_next() -> None:
    """The history said where a game stood by the state's internal fields
    (``highest_wins: true``, ``ended: –``); it is the guide's prompt now."""
    from companion.games.scorepad.guide import GUIDE

    store = Store.memory()
    sid = scorepad_session(store, ["Ann", "Bo"], [{"Ann": 3}], end="open")
    d = session_detail(store, sid)
    assert d.outcome is None and d.next_step == GUIDE.prompt(d.state)
    assert d.next_step.render()


def test_round_key() -> None:
    assert round_key("act 2, evaluation") == "act 2"
    assert round_key("round 3") == "round 3"


def test_meeple_circus_photo_finish() -> None:
    store = Store.memory()
    live = LiveSession.start(
        store, "meeple-circus", seat_players(["Ann", "Bo", "Cy"]), {}, clock=ManualClock()
    )
    live.act(ChooseFirstPlayer("p1"))
    for pid in live.state.preparation_order():
        live.act(Prepare(pid))
    start, length = 10 * S, 120 * S
    live.act(StartPerformance(start, length, "track-1"))
    live.act(Press("p2", start - S, 0, "keyboard"))  # false start
    live.act(Press("p2", start + 20 * S, 2_000_000, "button-box", device="BOX1", device_us=123_456))
    live.act(Press("p2", start + 25 * S, 0, "keyboard"))  # again: no effect
    live.act(Press("p1", start + 30 * S, 0, "keyboard"))
    live.act(Press("p3", start + 40 * S, 0, "keyboard"))
    live.act(VoidPress(4))  # Cy pressed by mistake
    live.record_hardware({"device": "BOX1", "button": 3, "device_us": 999}, start + 41 * S)
    live.act(EndPerformance(start + length))
    d = session_detail(store, live.id)
    assert d.error is None
    assert len(d.performances) == 1
    perf = d.performances[0]
    assert perf.label == "act 1" and perf.length_ms == 120_000 and perf.end_ms == 120_000
    got = [(p.player, p.offset_ms, p.verdict) for p in perf.presses]
    assert got == [
        ("p2", -1000.0, "false-start"),
        ("p2", 20_000.0, "counted"),
        ("p2", 25_000.0, "repeat"),
        ("p1", 30_000.0, "counted"),
        ("p3", 40_000.0, "voided"),
        (None, 41_000.0, "raw"),
    ]
    # BG Stats knows who started (the first action names the first player).
    res = session_results(store, [live.id])[0]
    assert [p.start_player for p in res.players] == [True, False, False]


def test_performances_grouping_and_host_decisions() -> None:
    from companion.session.store import SessionRow

    row = SessionRow(
        id="x",
        game="meeple-circus",
        options={},
        players=seat_players(["A", "B"]),
        started_at="2026-03-01T19:00:00.000Z",
        ended_at=None,
        outcome=None,
        status="active",
    )
    seq = iter(range(1, 100))

    def action(payload: dict, mono: int = 0) -> Entry:
        return Entry(next(seq), "action", payload, "2026-03-01T19:00:00.000Z", mono)

    def press(player: str, t: int, unc: int = 0) -> Entry:
        return action(
            {
                "type": "press",
                "player": player,
                "host_ns": t,
                "uncertainty_ns": unc,
                "source": "keyboard",
            }
        )

    entries = [
        action({"type": "start-performance", "host_ns": 0, "length_ns": 60 * S}),
        press("p1", 5 * S),
        action({"type": "abort-performance", "host_ns": 6 * S}),
        action({"type": "start-performance", "host_ns": 100 * S, "length_ns": 60 * S}),
        press("p1", 100 * S + 1_000_000, unc=5_000_000),  # within 5 ms of the start
        press("p2", 160 * S + 1_000_000, unc=5_000_000),  # within 5 ms of the end
        action({"type": "settle-press", "index": 1, "counted": True}),
        press("p2", 170 * S),
        action({"type": "end-performance", "host_ns": 160 * S}),
    ]
    perfs = performances(entries, set(), row)
    assert [p.aborted for p in perfs] == [True, False]
    assert [x.verdict for x in perfs[0].presses] == ["discarded"]
    assert [x.verdict for x in perfs[1].presses] == ["uncertain", "counted", "too-late"]
    undone = {entries[4].seq}
    assert performances(entries, undone, row)[1].presses[0].verdict == "undone"


def test_bgstats_start_player_from_meowfia_like_first_action() -> None:
    store = Store.memory()
    sid = scorepad_session(store, ["Ann", "Bo"], [{"Ann": 1}])
    assert not any(p.start_player for p in session_results(store, [sid])[0].players)
    play = bgstats_play(session_results(store, [sid])[0])
    assert [p["startPlayer"] for p in play["players"]] == [False, False]
