"""``companion check``: is the history sound? SQLite's integrity check, then every session.

Exit status: 0 sound; 1 damage found (each damaged session named, with the place, or
history missing that the record beside the file says was saved);
2 the database cannot be opened. Nothing is written (but with --accept-loss).
"""

from __future__ import annotations

import argparse

from companion.cli.common import open_store, setup_language
from companion.i18n import _, ngettext
from companion.session.backup import keep_aside
from companion.session.check import check_store
from companion.session.locations import default_db_path
from companion.session.store import history_missing


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
    parser.add_argument(
        "--accept-loss",
        action="store_true",
        help="go on with the database as it is, though it holds less than was saved there "
        "(its files are first kept aside in the backups folder)",
    )
    parser.set_defaults(command=run)


def run(args: argparse.Namespace) -> int:
    setup_language(args)
    if args.accept_loss:
        return accept_loss(args)
    store = open_store(args, readonly=True)
    try:
        report = check_store(store, full=not args.quick)
        lost = store.missing is not None
    finally:
        store.close()
    if lost:  # open_store said what is missing (on stderr)
        print(_("The database holds less than was saved there (see above)."))
    for problem in report.file_problems:
        print(_("The database file is damaged: {problem}").format(problem=_(problem)))
    for bad in report.damaged:
        print(_("Damaged: {session}: {problem}").format(session=bad.label, problem=bad.problem))
    print(
        ngettext("{n} session is sound.", "{n} sessions are sound.", report.sound).format(
            n=report.sound
        )
    )
    if report.ok and not lost:
        print(_("No damage found."))
        return 0
    print(
        _(
            "Damage found. Make a copy of the database before anything else; then "
            "restore a backup (companion restore FILE) or export the sound sessions."
        )
    )
    return 1


def accept_loss(args: argparse.Namespace) -> int:
    """Use the database as it is: keep its files aside, then count it anew."""
    path = default_db_path(getattr(args, "db", None))
    kept = keep_aside(path) if history_missing(path) is not None else None
    store = open_store(args, accept_loss=True)
    store.close()
    if kept is not None:
        print(_("The database file was kept aside, as it was, in {folder}.").format(folder=kept))
    print(_("The history is used as it is now; what it lacked is no longer expected."))
    return 0
