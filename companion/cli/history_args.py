"""Options shared by ``export`` and ``stats``: which sessions of the history to take."""

from __future__ import annotations

import argparse

from companion.i18n import _
from companion.session.results import HistoryFilter, parse_day


def _day(text: str) -> object:
    try:
        return parse_day(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            _("{value} is not a date like 2026-11-29.").format(value=repr(text))
        ) from None


def add_filter_args(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("which sessions")
    group.add_argument("--game", metavar="GAME", help="only this game (id or alias)")
    group.add_argument("--player", metavar="NAME", help="only sessions this player played")
    group.add_argument(
        "--since",
        metavar="YYYY-MM-DD",
        type=_day,
        help="only sessions started on or after this local date",
    )
    group.add_argument(
        "--until",
        metavar="YYYY-MM-DD",
        type=_day,
        help="only sessions started on or before this local date",
    )
    group.add_argument(
        "--status",
        choices=("active", "finished", "abandoned"),
        help="only sessions with this status",
    )


def filter_from_args(args: argparse.Namespace) -> HistoryFilter:
    return HistoryFilter(
        game=args.game, player=args.player, since=args.since, until=args.until, status=args.status
    )
