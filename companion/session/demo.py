"""The first-run tour: a demo session of every game, to try and then throw away.

Design decisions:

* A demo is an ordinary session (same rules, same log, resumable, exportable) whose
  id starts with ``demo-``: nothing else marks it, so every screen shows it as it
  would a real game, and the id alone tells Home to label it and to offer throwing
  it away.
* Seats: four players (or the game's minimum, when larger), named so that both
  scripts appear on the screens; each game's default options.
* Throwing away deletes the demos' rows and entries in one transaction; no other
  session is touched. It is the only delete of the store, and it deletes demos only.
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING

from companion.games import GAMES
from companion.rules.base import seat_players

if TYPE_CHECKING:
    from companion.session.store import Store

DEMO_PREFIX = "demo-"
DEMO_NAMES = ("Ann", "小明", "Bo", "美美", "Cai", "Dee", "乐乐", "Eve")
DEMO_SEATS = 4


def is_demo(session_id: str) -> bool:
    return session_id.startswith(DEMO_PREFIX)


def start_demos(store: Store) -> list[str]:
    """One new demo session per registered game; their ids, in the registry's order.

    Made last game first, so Home (newest first) lists them in the registry's order.
    """
    from companion.session.live import LiveSession  # deferred: Home imports this module

    ids = []
    for info in reversed(GAMES):
        game = info.load()
        seats = min(max(DEMO_SEATS, game.min_players), game.max_players)
        live = LiveSession.start(
            store,
            info.id,
            seat_players(list(DEMO_NAMES[:seats])),
            {},
            session_id=f"{DEMO_PREFIX}{uuid.uuid4()}",
        )
        ids.append(live.id)
    return ids[::-1]


def demo_ids(store: Store) -> list[str]:
    return store.session_ids_with_prefix(DEMO_PREFIX)


def throw_away_demos(store: Store) -> int:
    """Delete every demo session and its entries (one transaction); how many went."""
    return store.delete_sessions(demo_ids(store))
