"""A host-app stand-in for the board tests: a separate process that writes a session.

    python tests/board/writer.py DB GAME NAMES_JSON OPTIONS_JSON [SESSION_ID]

Starts (or, with SESSION_ID, resumes) a session, prints one JSON line
``{"session", "seq", "state", "error"}`` and then one more after each command read
from stdin: an action as JSON, ``undo``, ``redo``, ``abandon`` or ``quit``.
``state`` is ``repr`` of the state, which the board's own fold must reproduce.
"""

from __future__ import annotations

import json
import sys

from companion.rules.base import RuleError, seat_players
from companion.session.live import LiveSession
from companion.session.store import Store


def main() -> int:
    db, game, names, options = sys.argv[1:5]
    store = Store.open(db)
    if len(sys.argv) > 5:
        live = LiveSession.resume(store, sys.argv[5])
    else:
        live = LiveSession.start(store, game, seat_players(json.loads(names)), json.loads(options))

    def report(error: str | None = None) -> None:
        seq = live.entries[-1].seq if live.entries else 0
        print(
            json.dumps({"session": live.id, "seq": seq, "state": repr(live.state), "error": error}),
            flush=True,
        )

    report()
    for line in sys.stdin:
        command = line.strip()
        if command == "quit":
            break
        try:
            if command == "undo":
                live.undo()
            elif command == "redo":
                live.redo()
            elif command == "abandon":
                live.abandon()
            else:
                live.act(json.loads(command))
        except RuleError as exc:
            report(str(exc))
            continue
        report()
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
