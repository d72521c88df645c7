"""The score pad's words and cells, for the host screen and the board alike.

Both draw :func:`companion.games.scorepad.view.pad_view`; what a column is called, how
the open round's points read and what the banner says are written here once.
"""

from __future__ import annotations

from companion.games.scorepad.view import PadRow, PadView
from companion.i18n import _


def banner_parts(view: PadView) -> list[str]:
    """``Round 3 · highest wins · target 50`` (``Final`` once the game has ended)."""
    return [
        _("Final") if view.ended else _("Round {n}").format(n=view.round_number),
        _("highest wins") if view.highest_wins else _("lowest wins"),
        _("target {n}").format(n=view.target) if view.target else _("no target"),
    ]


def banner(view: PadView) -> str:
    return "  ·  ".join(banner_parts(view))


def round_headers(view: PadView) -> list[str]:
    """A column per shown closed round, then the open round's while the game runs."""
    headers = [_("R{n}").format(n=n) for n in view.shown_rounds]
    if view.open_round is not None:
        headers.append(_("R{n} (open)").format(n=view.open_round))
    return headers


def round_cells(view: PadView, row: PadRow) -> list[str]:
    """The row's points under :func:`round_headers`: ``12`` per closed round, ``+5 -2`` open."""
    cells = [str(points) for points in row.rounds]
    if view.open_round is not None:
        cells.append(" ".join(f"{p:+d}" for p in row.open_points))
    return cells
