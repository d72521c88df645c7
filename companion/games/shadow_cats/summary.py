"""喵窩暗影's rules in brief, for the ``?`` help of every screen (both languages).

Kept apart from ``guide.py``: it is reading matter for the help screen, not a sentence
the message line shows.
"""

from __future__ import annotations

from companion.rules.base import N_

SUMMARY = N_(
    "Shadow Cats: Red against Blue with hidden identities; Neutrals win by their own "
    "card's condition.\n"
    "A turn: roll 2d6 to move (a roll that lands where you are is rolled again; a 7 "
    "lets you choose any other location), use the location (the Cat Forest: 20 damage "
    "to another character or 10 healing to anyone), then attack a character in range "
    "with a d100 on your damage table (+5 when your element beats theirs, weapon "
    "added, armour taken off) or end the turn.\n"
    "At 0 HP a character dies and turns their identity card. When every Red (or Blue) "
    "character is dead the other team wins; then every hidden identity is entered."
)
