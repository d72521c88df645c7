"""``companion replay FILE``: re-apply an export with the current rules.

Prints the resulting outcome as JSON (``null`` for an unfinished session; for a
many-session file, an object mapping each session id to its outcome).

Exit status: 0 replayed and agrees with the recorded outcome; 1 replayed but the
outcome differs from the one recorded in the file (the rules changed since: the
message names the session); 2 the file is unreadable, not JSON or not this format;
3 an entry breaks the rules (the message names the session, the entry index and
the rule's message). Nothing is written anywhere.
"""

from __future__ import annotations

import argparse
import json
import sys

from companion.cli.common import setup_language
from companion.i18n import _
from companion.session.export import ExportError, ReplayFailed, read_export_file, replay_session
from companion.session.log import ReplayError

EXIT_MISMATCH = 1
EXIT_BAD_FILE = 2
EXIT_BROKEN_RULE = 3


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="re-apply an exported session with the current rules",
        description="Re-apply the log of an export file (docs/formats/session-json.md) with "
        "the current rules and print the outcome as JSON. Exit 0: replays and "
        "agrees with the recorded outcome; 1: the outcome differs; 2: not a "
        "valid export file; 3: an entry breaks the rules.",
    )
    parser.add_argument("file", metavar="FILE", help="a file written by companion export")
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    setup_language(args)
    try:
        export = read_export_file(args.file)
    except ExportError as exc:
        print(f"companion: {exc.render(_)}", file=sys.stderr)
        return EXIT_BAD_FILE
    items = export.sessions
    outcomes: dict[str, object] = {}
    mismatched: list[str] = []
    for row, entries in items:
        try:
            replayed = replay_session(row, entries)
        except ReplayError as err:
            failed = ReplayFailed(row.id, err.index, err.seq, err.error)
            print(f"companion: {failed.render(_)}", file=sys.stderr)
            return EXIT_BROKEN_RULE
        outcomes[row.id] = replayed.outcome_json
        if not replayed.matches_record:
            mismatched.append(row.id)
    result = outcomes if export.multi else outcomes[items[0][0].id]
    print(json.dumps(result, ensure_ascii=False, indent=1))
    for sid in mismatched:
        print(
            "companion: "
            + _(
                "Session {session} replays to a different outcome than the one "
                "recorded in the file."
            ).format(session=sid),
            file=sys.stderr,
        )
    return EXIT_MISMATCH if mismatched else 0
