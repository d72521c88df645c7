"""``companion import FILE…``: merge JSON exports into the history.

Each file is all or nothing: every session in it is checked (strict types and
ranges, bounded nesting and numbers) and replayed with the current rules first; if
one does not pass, the message names it, the place and the reason, and nothing of
that file is written. ``--skip-bad`` imports a file's good sessions instead and
lists the refused ones. A session already present (same uuid) is skipped, or
extended with the new entries of a newer export of it; one whose stored log
disagrees with the file's is refused.

Exit status: 0 everything imported; 2 a file is not a usable export (unreadable,
not JSON, wrong types or ranges); 3 a session does not replay or conflicts with
the stored one (with ``--skip-bad``: some sessions were left out).
"""

from __future__ import annotations

import argparse
import sys

from companion.cli.common import check_store, fail, open_store, setup_language
from companion.i18n import _
from companion.session.export import (
    ExportError,
    ExportFile,
    ImportRefused,
    ImportReport,
    import_sessions,
    read_export_file,
)
from companion.session.store import ImportConflict, StoreError

EXIT_BAD_FILE = 2
EXIT_REFUSED = 3


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "import",
        help="merge JSON exports into the history (no duplicates)",
        description="Import files written by 'companion export --format json'. A file whose "
        "sessions do not all pass and replay under the current rules is refused whole "
        "(exit 2: not a usable export; 3: a session does not replay or conflicts).",
    )
    parser.add_argument("files", metavar="FILE", nargs="+")
    parser.add_argument(
        "--skip-bad",
        action="store_true",
        help="import the good sessions of a file and list the refused ones",
    )
    parser.set_defaults(command=run)


def _print_report(name: str, report: ImportReport) -> int:
    """Say what a file brought; EXIT_REFUSED if sessions of it were left out."""
    counts = {
        "file": name,
        "added": len(report.added),
        "extended": len(report.extended),
        "skipped": len(report.skipped),
    }
    if report.extended:
        line = _(
            "{file}: {added} imported, {extended} extended with new entries, "
            "{skipped} already present."
        )
    else:
        line = _("{file}: {added} imported, {skipped} already present.")
    print(line.format(**counts))
    for left in report.refused:
        print(
            "companion: " + _("left out: {reason}").format(reason=left.render(_)),
            file=sys.stderr,
        )
    return EXIT_REFUSED if report.refused else 0


def _code(exc: Exception) -> int:
    return EXIT_REFUSED if isinstance(exc, ImportRefused | ImportConflict) else EXIT_BAD_FILE


def run(args: argparse.Namespace) -> int:
    setup_language(args)
    check_store(args)  # a database that cannot be used is said first, whatever the files
    # Every file is read and checked, then the database opened: a file that is not a
    # usable export is refused without it (none is created, no lock is taken).
    readable: list[tuple[str, ExportFile]] = []
    code = 0
    refused = 0
    for name in args.files:
        try:
            readable.append((name, read_export_file(name, skip_bad=args.skip_bad)))
        except ExportError as exc:
            refused += 1
            code = max(code, _code(exc))
            print(f"companion: {exc.render(_)}", file=sys.stderr)
    if readable:
        store = open_store(args)
        try:
            for name, export in readable:
                try:
                    report = import_sessions(
                        store, export.sessions, skip_bad=args.skip_bad, refused=export.refused
                    )
                except (ExportError, StoreError) as exc:
                    refused += 1
                    code = max(code, _code(exc))
                    print(f"companion: {exc.render(_)}", file=sys.stderr)
                    continue
                code = max(code, _print_report(name, report))
        finally:
            store.close()
    if refused:
        fail(
            _("{n} of {total} files were refused; nothing of them was imported.").format(
                n=refused, total=len(args.files)
            ),
            code=code,
        )
    return code
