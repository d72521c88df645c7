"""One of two processes writing the same session: random actions, undos, hardware entries.

Prints a JSON report: how many entries it committed, how many writes it was refused
as stale (another process had written first).
"""

from __future__ import annotations

import json
import random
import sys

from companion.rules.base import IllegalActionError
from companion.session.live import LiveSession, StaleSessionError
from companion.session.store import Store


def main() -> None:
    db, sid, seed, steps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    store = Store.open(db)
    live = LiveSession.resume(store, sid)
    committed = stale = 0
    for _ in range(steps):
        op = rng.choice(("act", "act", "undo", "redo", "hw", "hw"))
        try:
            if op == "act":
                live.act(
                    {
                        "type": "score",
                        "player": rng.choice(("p1", "p2")),
                        "points": rng.randint(-3, 9),
                    }
                )
            elif op == "undo":
                live.undo()
            elif op == "redo":
                live.redo()
            else:
                live.record_hardware({"button": rng.randint(1, 4)})
            committed += 1
        except StaleSessionError:
            stale += 1
        except IllegalActionError:
            pass
    store.close()
    print(json.dumps({"committed": committed, "stale": stale}))


if __name__ == "__main__":
    main()
