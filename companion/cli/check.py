"""``companion check``: is the history sound? SQLite's integrity check, then every session.

Exit status: 0 sound; 1 damage found (each damaged session named, with the place);
2 the database cannot be opened. Nothing is written.
"""

from __future__ import annotations

import argparse

from companion.cli.common import open_store, setup_language
from companion.i18n import _, ngettext
from companion.session.check import check_store


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "check",
        help="check the database for damage (integrity check, every session replayed)",
        description="Run SQLite's integrity check and read and replay every session. "
        "Exit 0: sound; 1: damage found (named); 2: cannot be opened.",
    )
    parser.add_argument(
        "--quick", action="store_true", help="quick_check instead of the full integrity_check"
    )
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    setup_language(args)
    store = open_store(args, readonly=True)
    try:
        report = check_store(store, full=not args.quick)
    finally:
        store.close()
    for problem in report.file_problems:
        print(_("The database file is damaged: {problem}").format(problem=problem))
    for bad in report.damaged:
        print(_("Damaged: {session}: {problem}").format(session=bad.label, problem=bad.problem))
    print(
        ngettext("{n} session is sound.", "{n} sessions are sound.", report.sound).format(
            n=report.sound
        )
    )
    if report.ok:
        print(_("No damage found."))
        return 0
    print(
        _(
            "Damage found. Make a copy of the database before anything else; then "
            "restore a backup (companion restore FILE) or export the sound sessions."
        )
    )
    return 1
