"""Player names that fit: one width limit at seating, one way to shorten a name on screen.

Design decisions:

* A name is measured in **terminal cells**, not characters: a Chinese (or other
  East Asian wide) character takes two cells, a Latin letter one. ``MAX_NAME_CELLS``
  (16) is what the seating form accepts — 16 Latin letters or 8 Chinese characters —
  and what every table, list and board cell leaves room for.
* Sessions stored before the limit (or imported) may hold longer names. They are
  kept whole in the store, the log and the exports; a table or a board cell shows
  them through ``fit_name``, cut with ``…``, so a name never pushes a seat number,
  a vote, a total or an HP off screen.
* Pure standard library (``unicodedata``), so the pure view-models use it too and
  the host screen and the board shorten a name the same way. Widths agree with
  Rich's ``cell_len`` for the characters names are made of (wide and full-width
  characters 2, combining marks and zero-width characters 0, the rest 1).

>>> fit_name("Annabelle", 6)
'Annab…'
>>> fit_name("喵喵大王陛下", 7)
'喵喵大…'
>>> name_cells("小明Bo")
6
"""

from __future__ import annotations

import unicodedata

MAX_NAME_CELLS = 16
"""The widest name the seating form accepts, in terminal cells (8 Chinese characters)."""

ELLIPSIS = "…"


def char_cells(char: str) -> int:
    """The cells one character takes on a terminal."""
    if unicodedata.combining(char) or unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def name_cells(name: str) -> int:
    """The cells ``name`` takes on a terminal."""
    return sum(char_cells(c) for c in name)


def fit_name(name: str, cells: int = MAX_NAME_CELLS) -> str:
    """``name`` if it fits in ``cells`` cells, else its start and ``…`` within them."""
    if name_cells(name) <= cells:
        return name
    room = max(0, cells - 1)  # the ellipsis takes one cell
    out: list[str] = []
    used = 0
    for char in name:
        width = char_cells(char)
        if used + width > room:
            break
        out.append(char)
        used += width
    return "".join(out).rstrip() + ELLIPSIS
