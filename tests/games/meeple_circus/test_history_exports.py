"""History and exports of a Meeple Circus game: start player and termination.

The start player is act 1's first player (the guide's ``start_player``); the
termination is ``Termination.GRAND_SHOW_ENDED`` ("grand-show-ended", the stored value).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mc_helpers import SECOND, TRACK, key

from companion.cli import main
from companion.games.meeple_circus.guide import GUIDE
from companion.games.meeple_circus.rules import Termination
from companion.games.meeple_circus.rules.actions import (
    ChooseFirstPlayer,
    ChooseMusic,
    EndAct,
    EndPerformance,
    FinishPerformance,
    HostPick,
    Prepare,
    ScorePlayer,
    StartPerformance,
)
from companion.rules.base import Player
from companion.session import export as ex
from companion.session.export import dumps_document, load_sessions, sessions_document
from companion.session.live import LiveSession
from companion.session.results import session_results
from companion.session.store import Store

PLAYERS = (
    Player("p1", "Ann", None, "2010-01-01"),
    Player("p2", "Bo", None, "2011-01-01"),
)


def play(store: Store, *, change_first_player: bool = False, music: bool = False) -> LiveSession:
    """A whole game; Bo starts act 1 (after the host first keyed Ann, if asked).

    ``music``: the host picks the music with ``m`` in every preparation and for every
    act-3 performer (``choose-music`` entries)."""
    live = LiveSession.start(store, "meeple-circus", PLAYERS, {})
    if change_first_player:
        live.act(ChooseFirstPlayer("p1"))
        live.undo()
    live.act(ChooseFirstPlayer("p2"))
    t = 0
    while live.outcome is None:
        state = live.state
        if state.phase == "preparation":
            if music and not state.act.prepared:
                live.act(ChooseMusic(f"countdown:{30 + state.act_number}"))
            live.act(Prepare(state.next_to_prepare()))
        elif state.phase == "performance":
            performer = state.performer or "p1"
            if music and state.performer is not None:
                live.act(ChooseMusic("track:grand-finale"))
            live.act(StartPerformance(t, TRACK, "t"))
            live.act(key(performer, t + SECOND))
            if state.performer is None:
                live.act(EndPerformance(t + TRACK))
            live.act(FinishPerformance())
            t += 2 * TRACK
        elif state.phase == "evaluation":
            pid = state.unscored()[0]
            live.act(ScorePlayer(pid, blue=5 if pid == "p2" else 1))
        elif state.phase == "end":
            if state.pending_pick is not None:
                live.act(HostPick(state.pending_pick.candidates[0]))
            live.act(EndAct())
    return live


def test_start_player_and_termination_in_history_and_exports() -> None:
    with Store.memory() as store:
        live = play(store)
        assert GUIDE.start_player(live.state) == "p2"
        assert live.outcome is not None
        assert live.outcome.termination is Termination.GRAND_SHOW_ENDED
        (result,) = session_results(store, [live.id])
        assert [p.name for p in result.players if p.start_player] == ["Bo"]
        assert result.termination == "grand-show-ended"
        bgstats = ex.bgstats_play(result)
        assert [p["name"] for p in bgstats["players"] if p["startPlayer"]] == ["Bo"]
        document = json.loads(dumps_document(sessions_document(load_sessions(store, [live.id]))))
        assert document["sessions"][0]["outcome"]["termination"] == "grand-show-ended"
        csv_rows = ex.csv_text([result]).splitlines()
        assert len(csv_rows) == 1 + len(PLAYERS) and "Meeple Circus" in csv_rows[1]


def test_an_undone_first_choice_is_not_the_start_player() -> None:
    """It was, while results.py read the first logged action (a strict xfail until the
    history asked the guide's ``start_player_entry``)."""
    with Store.memory() as store:
        live = play(store, change_first_player=True)
        assert GUIDE.start_player(live.state) == "p2"
        (result,) = session_results(store, [live.id])
        assert [p.name for p in result.players if p.start_player] == ["Bo"]


@pytest.mark.parametrize("music", [False, True])
def test_an_export_with_or_without_music_picks_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], music: bool
) -> None:
    """``companion replay`` of a game with ``choose-music`` entries, and of one from
    before them (no pick: the session format did not change, it only gained a type)."""
    with Store.memory() as store:
        live = play(store, music=music)
        path = tmp_path / "mc.json"
        path.write_text(ex.export_text(store, [live.id], "json"), encoding="utf-8")
        row = store.session(live.id)
        picks = [e for e in store.entries(live.id) if e.payload.get("type") == "choose-music"]
    assert len(picks) == (5 if music else 0)  # three preparations, two act-3 performers
    capsys.readouterr()
    assert main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == row.outcome


def test_the_last_act_row_of_the_history_holds_the_final_scores() -> None:
    """The evaluation that closes act 3 also ends the game: its points belong to act 3's
    row, and the history has no separate "game over" row (the tour found act 3's row
    taken before that evaluation, Bo's last points only on a "game over" row)."""
    from companion.session.detail import session_detail

    with Store.memory() as store:
        live = play(store)
        assert live.outcome is not None
        detail = session_detail(store, live.id)
        assert [r.label for r in detail.rounds] == ["act 1", "act 2", "act 3"]
        assert dict(detail.rounds[-1].scores) == {
            pid: float(v) for pid, v in live.outcome.scores.items()
        }
