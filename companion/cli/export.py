"""``companion export``: one session or a filtered set as JSON, CSV or BG Stats.

Zero matching sessions is not an error: the file is written (an empty list) and
the count on stderr says so, the way a spreadsheet export of an empty filter does.
"""

from __future__ import annotations

import argparse
import sys

from companion.cli.common import fail, open_store, setup_language
from companion.cli.history_args import add_filter_args, filter_from_args
from companion.i18n import _, ngettext
from companion.rules.base import RuleError
from companion.session.export import (
    ExportError,
    bgstats_link,
    bgstats_play,
    export_text,
    now_stamp,
    write_atomic,
)
from companion.session.results import query_results, session_results
from companion.session.store import StoreError


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "export",
        help="export sessions as JSON (replayable), CSV or BG Stats",
        description="Export one session (--session) or a filtered set of the history. "
        "JSON is the replayable format of docs/formats/session-json.md; CSV has "
        "one row per player per session (UTF-8 with BOM); bgstats is the BG "
        "Stats push-play payload.",
    )
    parser.add_argument(
        "--session",
        metavar="ID",
        action="append",
        help="a session id (or a unique prefix); repeat for several",
    )
    parser.add_argument("--all", action="store_true", help="every session in the history")
    add_filter_args(parser)
    parser.add_argument("--format", choices=("json", "csv", "bgstats"), default="json")
    parser.add_argument(
        "--out", metavar="FILE", help="write here (atomically) instead of standard output"
    )
    parser.add_argument(
        "--link",
        action="store_true",
        help="with --format bgstats: print bgstats:// links, one per play",
    )
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    lang = setup_language(args)
    flt = filter_from_args(args)
    if not args.session and not args.all and flt.is_empty():
        fail(
            _(
                "Say which sessions to export: --session ID, a filter (--game, --player, "
                "--since, --until, --status) or --all."
            )
        )
    store = open_store(args, readonly=True)
    try:
        if args.session:
            ids = [r.id for r in session_results(store, args.session)]
        else:
            ids = [r.id for r in query_results(store, flt)]
        if args.link:
            if args.format != "bgstats":
                fail(_("--link goes with --format bgstats."))
            for res in session_results(store, ids):
                if res.finished:
                    print(bgstats_link(bgstats_play(res)))
            return 0
        text = export_text(
            store,
            ids,
            args.format,
            lang=lang,
            exported_at=now_stamp(),
            single=bool(args.session) and len(ids) == 1,
        )
        if args.out:
            path = write_atomic(args.out, text)
            print(
                ngettext(
                    "Exported {n} session to {path}.", "Exported {n} sessions to {path}.", len(ids)
                ).format(n=len(ids), path=path),
                file=sys.stderr,
            )
        else:
            sys.stdout.write(text.removeprefix("\ufeff") if sys.stdout.isatty() else text)
        return 0
    except (ExportError, StoreError) as exc:
        fail(exc.render(_))
    except RuleError as exc:
        fail(exc.render(_))
    finally:
        store.close()
    return 2  # unreachable: fail() exits
