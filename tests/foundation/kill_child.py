"""Child process of the kill test: applies a deterministic program, reports commits."""

from __future__ import annotations

import sys

from companion.rules.base import seat_players
from companion.session.live import LiveSession
from companion.session.store import Store


def op_for(seq: int) -> str | dict:
    """The program, a function of the entry's seq so every restart continues it."""
    if seq > 1 and seq % 5 == 0:
        return "undo"
    if seq > 1 and seq % 5 == 1:
        return "redo"
    return {"type": "score", "player": f"p{seq % 3 + 1}", "points": seq % 13 - 6}


def main() -> None:
    db = sys.argv[1]
    store = Store.open(db)
    existing = store.sessions()
    if existing:
        live = LiveSession.resume(store, existing[0].id)
    else:
        live = LiveSession.start(store, "scorepad", seat_players(["A", "B", "C"]), {})
    print(f"session {live.id}", flush=True)
    while True:
        seq = store.last_seq(live.id) + 1
        op = op_for(seq)
        if op == "undo":
            change = live.undo()
        elif op == "redo":
            change = live.redo()
        else:
            change = live.act(op)
        print(f"committed {change.entry.seq}", flush=True)


if __name__ == "__main__":
    main()
