"""``companion export``: one session or a filtered set as JSON, CSV or BG Stats.

Zero matching sessions is not an error: the file is written (an empty list) and
the count on stderr says so, the way a spreadsheet export of an empty filter does.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from companion.cli.common import fail, open_store, setup_language, warn_damaged
from companion.cli.history_args import add_filter_args, filter_from_args
from companion.i18n import _, ngettext
from companion.rules.base import RuleError
from companion.session.export import (
    ExportError,
    bgstats_link,
    bgstats_play,
    export_file,
    export_text,
    now_stamp,
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
        options: dict[str, Any] = {
            "lang": lang,
            "exported_at": now_stamp(),
            "single": bool(args.session) and len(ids) == 1,
            # A whole history (or a filter) exports every sound session and names
            # the damaged ones; sessions asked for by id are refused if damaged.
            "skip_damaged": not args.session,
        }
        if args.out:  # streamed into the file (atomically), never held whole
            path = export_file(store, ids, args.format, args.out, **options)
            exported = len(ids) - sum(sid in store.damaged for sid in ids)
            print(
                ngettext(
                    "Exported {n} session to {path}.", "Exported {n} sessions to {path}.", len(ids)
                ).format(n=exported, path=path),
                file=sys.stderr,
            )
        else:
            text = export_text(store, ids, args.format, **options)
            sys.stdout.write(text.removeprefix("\ufeff") if sys.stdout.isatty() else text)
        if store.damaged:
            warn_damaged(store)
            return 1
        return 0
    except (ExportError, StoreError) as exc:
        fail(exc.render(_))
    except RuleError as exc:
        fail(exc.render(_))
    finally:
        store.close()
    return 2  # unreachable: fail() exits
