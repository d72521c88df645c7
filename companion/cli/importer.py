"""``companion import FILE…``: merge JSON exports into the history.

Each file is all or nothing: every session in it is replayed with the current
rules first; if one does not replay, the message names it, the entry and the
reason, and nothing of that file is written. Sessions already present (same
uuid) are skipped, so importing the same file twice changes nothing.
"""

from __future__ import annotations

import argparse
import sys

from companion.cli.common import fail, open_store, setup_language
from companion.i18n import _
from companion.session.export import ExportError, import_file


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "import",
        help="merge JSON exports into the history (no duplicates)",
        description="Import files written by 'companion export --format json'. A file whose "
        "sessions do not all replay under the current rules is refused whole.",
    )
    parser.add_argument("files", metavar="FILE", nargs="+")
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    setup_language(args)
    store = open_store(args)
    refused = 0
    try:
        for name in args.files:
            try:
                report = import_file(store, name)
            except ExportError as exc:
                refused += 1
                print(f"companion: {exc.render(_)}", file=sys.stderr)
                continue
            print(
                _("{file}: {added} imported, {skipped} already present.").format(
                    file=name, added=len(report.added), skipped=len(report.skipped)
                )
            )
    finally:
        store.close()
    if refused:
        fail(
            _("{n} of {total} files were refused; nothing of them was imported.").format(
                n=refused, total=len(args.files)
            ),
            code=3,
        )
    return 0
