"""``companion stats``: the history's statistics as tables (or JSON with ``--json``).

Same numbers as the statistics screen, computed on demand from the history.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from typing import Any

from companion.cli.common import open_store, setup_language, warn_damaged
from companion.cli.history_args import add_filter_args, filter_from_args
from companion.i18n import _
from companion.session.results import query_results
from companion.session.stats import Statistics, compute, head_to_head


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "stats",
        help="statistics of the history: players, games, sides, head-to-head",
        description="Per player, per game and per side statistics of the (filtered) history.",
    )
    add_filter_args(parser)
    parser.add_argument("--vs", nargs=2, metavar=("A", "B"), help="head-to-head of two players")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    lang = setup_language(args)
    store = open_store(args, readonly=True)
    try:
        with store.snapshot():  # one read transaction, however many queries
            results = query_results(store, filter_from_args(args))
        warn_damaged(store)
    finally:
        store.close()
    stats = compute(results)
    h2h = head_to_head(results, *args.vs) if args.vs else None
    if args.json:
        out: dict[str, Any] = dataclasses.asdict(stats)
        if h2h is not None:
            out["head_to_head"] = dataclasses.asdict(h2h)
        print(json.dumps(out, ensure_ascii=False, indent=1))
        return 0
    from rich.console import Console  # deferred: only the table output needs Rich

    console = Console()
    for table in tables(stats, lang):
        console.print(table)
    if h2h is not None:
        console.print(
            _(
                "{a} and {b} played {n} times together: {a} ahead {x}, {b} ahead {y}, "
                "level {z}. Wins: {a} {wa}, {b} {wb}."
            ).format(
                a=h2h.a,
                b=h2h.b,
                n=h2h.plays,
                x=h2h.a_ahead,
                y=h2h.b_ahead,
                z=h2h.level,
                wa=h2h.a_wins,
                wb=h2h.b_wins,
            )
        )
    return 0


def tables(stats: Statistics, lang: str) -> list[Any]:
    from rich.table import Table

    from companion.ui.history_format import duration, game_name, number, percent, side_label

    players = Table(title=_("Players"))
    for col in (
        _("Player"),
        _("Game"),
        _("Plays"),
        _("Wins"),
        _("Win rate"),
        _("Average score"),
        _("Best score"),
    ):
        players.add_column(col)
    for p in stats.players:
        players.add_row(
            p.name, _("all games"), str(p.plays), str(p.wins), percent(p.win_rate), "", ""
        )
        for pg in p.games:
            players.add_row(
                "",
                game_name(pg.game, lang, pg.title),
                str(pg.plays),
                str(pg.wins),
                percent(pg.win_rate),
                number(pg.average),
                number(pg.best),
            )
    games = Table(title=_("Games"))
    for col in (
        _("Game"),
        _("Plays"),
        _("Abandoned"),
        _("Average length"),
        _("Lowest"),
        _("Median"),
        _("Mean"),
        _("Highest"),
    ):
        games.add_column(col)
    sides = Table(title=_("Sides (hidden-role games), by player count"))
    for col in (_("Game"), _("Players"), _("Side"), _("Plays"), _("Wins"), _("Win rate")):
        sides.add_column(col)
    for g in stats.games:
        d = g.scores
        games.add_row(
            game_name(g.game, lang, g.title),
            str(g.plays),
            str(g.abandoned),
            duration(g.average_duration_s),
            number(d.minimum if d else None),
            number(d.median if d else None),
            number(d.mean if d else None),
            number(d.maximum if d else None),
        )
        for s in g.sides:
            sides.add_row(
                game_name(g.game, lang, g.title),
                str(s.players),
                side_label(s.side, g.game),
                str(s.plays),
                str(s.wins),
                percent(s.win_rate),
            )
    return [players, games, sides] if sides.row_count else [players, games]
