"""History and exports of a Meeple Circus game: start player and termination.

The start player is act 1's first player (the guide's ``start_player``); the
termination is ``Termination.GRAND_SHOW_ENDED`` ("grand-show-ended", the stored value).
"""

from __future__ import annotations

import json

from mc_helpers import SECOND, TRACK, key

from companion.games.meeple_circus.guide import GUIDE
from companion.games.meeple_circus.rules import Termination
from companion.games.meeple_circus.rules.actions import (
    ChooseFirstPlayer,
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


def play(store: Store, *, change_first_player: bool = False) -> LiveSession:
    """A whole game; Bo starts act 1 (after the host first keyed Ann, if asked)."""
    live = LiveSession.start(store, "meeple-circus", PLAYERS, {})
    if change_first_player:
        live.act(ChooseFirstPlayer("p1"))
        live.undo()
    live.act(ChooseFirstPlayer("p2"))
    t = 0
    while live.outcome is None:
        state = live.state
        if state.phase == "preparation":
            live.act(Prepare(state.next_to_prepare()))
        elif state.phase == "performance":
            performer = state.performer or "p1"
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
    with Store.memory() as store:
        live = play(store, change_first_player=True)
        assert GUIDE.start_player(live.state) == "p2"
        (result,) = session_results(store, [live.id])
        assert [p.name for p in result.players if p.start_player] == ["Bo"]
