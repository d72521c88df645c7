"""喵喵咪呀's rules on one screen, for ``?`` / F1 (the guide's ``summary``).

Kept apart from the guide's sentences: it is a page of help, not a message for the
screen's one-line message area.
"""

from __future__ import annotations

from companion.rules.base import N_

RULES_SUMMARY = N_(
    "Sides: the public Sheriff and the hidden Undercover (Police) against everyone "
    "else (the Meowfia). Each round: Smuggling — the Sheriff closes their eyes; the "
    "others put the real contraband and 3 empty boxes in the four buildings. "
    "Inspection — the Sheriff questions the players in order, then opens one "
    "building. An empty box is a smuggle (the 3rd wins for the Meowfia at once). The "
    "contraband is an intercept and a reckoning follows: after a discussion everyone "
    "but the Sheriff points at once; each hand counts 1, the ring holder's 1.5 (at "
    "the first reckoning the ring goes to the player questioned last, then to each "
    "accused). The strictly highest total is accused; a tie means a revote. The "
    "accused's tile is turned: the Undercover wins for the Meowfia; a Meowfia member "
    "stays in and keeps voting; after the 3rd intercept the Police win. Role "
    "abilities are applied by hand (m), each with a reason."
)
