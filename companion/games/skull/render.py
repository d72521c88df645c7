"""Skull's words and table, shared by the host screen and the board (Rich, translated)."""

from __future__ import annotations

from rich.table import Table

from companion.games.skull.view import Row, SkullView
from companion.i18n import N_, _

PHASES = {
    "opening": N_("opening: everyone places a disc"),
    "play": N_("placing"),
    "bidding": N_("bidding"),
    "reveal": N_("challenge"),
    "lose": N_("challenge lost"),
    "over": N_("game over"),
}


def banner(view: SkullView) -> str:
    text = _("Round {n} · {phase}").format(n=view.round, phase=_(PHASES[view.phase]))
    if view.bidder is not None:
        text += " · " + _("bid {bid} by {name}, {flowers} flowers turned").format(
            bid=view.bid, name=view.bidder, flowers=view.flowers
        )
    return text


def status(row: Row) -> str:
    if row.out:
        return _("out")
    if row.challenger:
        return _("challenger")
    if row.passed:
        return _("passed")
    if row.acting:
        return _("to play")
    return ""


def table(view: SkullView) -> Table:
    grid = Table(expand=False)
    for title in (_("Player"), _("Discs"), _("On the mat"), _("Turned"), _("Wins"), _("Status")):
        grid.add_column(title)
    for row in view.rows:
        grid.add_row(
            row.name,
            str(row.discs),
            "▮" * (row.on_mat - row.turned) + "✿" * row.turned,
            str(row.turned),
            "★" * row.wins,
            status(row),
            style="bold" if row.acting or row.challenger else None,
        )
    return grid
