"""喵喵咪呀's preparer: the one random draw and the timer's clock stamp, turned into actions.

Design decisions:

* The rules never draw or read a clock. Round 1's first questioned player is drawn
  here with the session's ``rng`` (among the players other than the Sheriff) and goes
  into the ``start`` action, so the draw is an entry the moment it is made: a kill
  after the key resumes to the same player, never to a new draw.
* The phase timer's key is one toggle: this module reads the state and the session's
  monotonic clock and says which ``timer`` command it means (start, pause, resume).
* Both run on the session's writer thread (``GameScreen.submit(callable)``), so they
  see the state every earlier key has already committed.
"""

from __future__ import annotations

import random

from companion.games.meowfia.rules import MeowfiaState, Start, Timer
from companion.rules.base import N_, IllegalActionError, PlayerId, player_by_id


def start(state: MeowfiaState, sheriff: PlayerId, rng: random.Random) -> Start:
    """``start`` with ``sheriff`` and a first questioned player drawn with ``rng``."""
    player_by_id(state.players, sheriff)  # an unknown seat is refused before drawing
    others = [p.id for p in state.players if p.id != sheriff]
    if not others:
        raise IllegalActionError(N_("Name the Sheriff first."))
    return Start(sheriff, rng.choice(others))


def timer(state: MeowfiaState, now_ns: int) -> Timer:
    """The ``timer`` action the toggle key means now: pause a running timer, resume a
    paused one, else start (again, once it ran out)."""
    current = state.timer
    if current is not None and current.remaining_ns(now_ns) > 0:
        return Timer("pause" if current.running else "resume", now_ns)
    return Timer("start", now_ns)
