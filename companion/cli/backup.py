"""``companion backup [FILE]`` and ``companion restore FILE``.

``backup`` reads the database read-only (it runs beside the app) and writes one
self-contained, checked file (default: ``backups/`` in the data folder).
``restore`` takes the database's owner lock (so no app window is writing),
refuses a damaged or foreign file, backs the current history up first, then puts
the backup in its place.
"""

from __future__ import annotations

import argparse

from companion.cli.common import fail, open_store, setup_language
from companion.i18n import _
from companion.session.backup import backup, default_backup_path, keep_aside, restore
from companion.session.locations import default_db_path
from companion.session.store import StoreError, history_missing


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "backup",
        help="write a checked copy of the whole history (works while the app runs)",
        description="Copy the whole history, including commits still in the -wal, into one "
        "checked file (default: the backups folder beside the database).",
    )
    parser.add_argument("file", metavar="FILE", nargs="?", help="where to write the backup")
    parser.set_defaults(command=run_backup)
    parser = subparsers.add_parser(
        "restore",
        help="replace the history by a backup (the current one is backed up first)",
        description="Replace the history by FILE, a backup written by 'companion backup' (or "
        "an automatic one). A damaged or foreign file is refused; close the app first.",
    )
    parser.add_argument(
        "file",
        metavar="FILE",
        nargs="?",
        help="the backup to restore (default: the newest backup that has the history "
        "missing from the database, when some is)",
    )
    parser.set_defaults(command=run_restore)


def run_backup(args: argparse.Namespace) -> int:
    setup_language(args)
    path = default_db_path(getattr(args, "db", None))
    store = open_store(args, readonly=True)
    try:
        if store.path is None:
            fail(_("There is no history at {path} yet; nothing to back up.").format(path=path))
        made = backup(store, args.file or default_backup_path(path))
    except StoreError as exc:
        fail(exc.render(_))
        raise  # unreachable
    finally:
        store.close()
    print(_("Backed up the history to {path}.").format(path=made))
    return 0


def run_restore(args: argparse.Namespace) -> int:
    setup_language(args)
    path = default_db_path(getattr(args, "db", None))
    lost = history_missing(path)
    source = args.file
    if source is None:
        offer = lost.offer if lost is not None else None
        if offer is None:
            fail(_("Name the backup to restore: companion restore FILE."))
        source = str(offer)
    kept = keep_aside(path) if lost is not None else None  # the damaged file, as it is
    store = open_store(args, accept_loss=True)
    try:
        safety = restore(store, source)
    except StoreError as exc:
        fail(exc.render(_))
        raise  # unreachable
    finally:
        store.close()
    print(
        _("Restored the history from {file}. The history before it was kept in {safety}.").format(
            file=source, safety=safety
        )
    )
    if kept is not None:
        print(
            _("The damaged database file was kept aside, as it was, in {folder}.").format(
                folder=kept
            )
        )
    return 0
