"""Start player and termination of a Shadow Cats session in history, CSV and BG Stats.

The session goes the way the screen records it: ``deal`` (the first player dealt),
draft edits, ``begin``, play to the end.
"""

from __future__ import annotations

import random

from shadow_helpers import players

from companion.games.shadow_cats import PLUGIN, prepare
from companion.games.shadow_cats.rules.actions import SetFirstPlayer
from companion.games.shadow_cats.rules.termination import Termination
from companion.games.shadow_cats.testing import Table
from companion.session.clock import ManualClock
from companion.session.export import bgstats_play, csv_text, replay_session
from companion.session.live import LiveSession
from companion.session.results import session_results
from companion.session.store import Store


def finished_session(store: Store, seed: int, *, change_first: bool = False) -> LiveSession:
    """A finished game; with ``change_first`` the host picks the next seat after the dealt
    first player."""
    rng = random.Random(seed)
    live = LiveSession.start(store, "shadow-cats", players(5), {}, clock=ManualClock(), rng=rng)
    live.act(prepare.deal(prepare.default_roster(), live.players, rng))
    if change_first:
        ids = [p.id for p in live.players]
        dealt = ids.index(live.state.draft.first_player)
        live.act(SetFirstPlayer(ids[(dealt + 1) % len(ids)]))
    live.act(prepare.begin(live.state.draft, rng))
    table = Table(live.players, rng, neutral_rate=0.0)
    for _ in range(3000):
        if live.outcome is not None:
            return live
        try:
            live.act(table.next_action(live.state))
        except Exception:  # the table may try an illegal give; the host would not
            continue
    raise AssertionError("the game did not end")


def test_termination_and_start_player_from_the_guide():
    store = Store.memory()
    live = finished_session(store, 4, change_first=True)
    chosen = next(e.payload["player"] for e in live.entries if e.payload["type"] == "first-player")
    assert live.outcome.termination in set(Termination)
    assert PLUGIN.guide.start_player(live.state) == chosen
    resumed = LiveSession.resume(store, live.id)
    assert PLUGIN.guide.start_player(resumed.state) == chosen
    replayed = replay_session(store.session(live.id), store.entries(live.id))
    assert replayed.outcome == live.outcome and replayed.matches_record


def test_history_csv_and_bgstats_name_the_dealt_start_player_and_the_sides():
    store = Store.memory()
    live = finished_session(store, 6)
    starter = live.state.first_player
    [res] = session_results(store, [live.id])
    assert res.outcome["termination"] in {t.value for t in Termination}
    assert [p.start_player for p in res.players] == [p.id == starter for p in live.players]
    play = bgstats_play(res)
    assert [p["startPlayer"] for p in play["players"]] == [p.id == starter for p in live.players]
    assert {p["role"] for p in play["players"]} <= {"red", "blue", "neutral"}
    assert [p["winner"] for p in play["players"]] == [
        p.id in live.outcome.winners for p in live.players
    ]
    rows = csv_text([res]).splitlines()[1:]
    assert len(rows) == 5 and all(("red" in r or "blue" in r or "neutral" in r) for r in rows)


def test_history_names_the_start_player_chosen_after_the_deal():
    store = Store.memory()
    live = finished_session(store, 4, change_first=True)
    chosen = live.state.first_player
    [res] = session_results(store, [live.id])
    assert [p.start_player for p in res.players] == [p.id == chosen for p in live.players]
