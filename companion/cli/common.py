"""Helpers shared by the subcommands: opening the store, printing errors.

Commands that only read (``stats``, ``export``, ``check``, ``backup``) open the
database read-only, beside a running app. Commands that write (``import``,
``restore``) take the owner lock first (``companion.session.owner``), so they never
write beside an app window: they are refused with the other window's process id.
"""

from __future__ import annotations

import argparse
import sys

from companion.i18n import _, resolve_language, set_language
from companion.session.locations import default_db_path
from companion.session.owner import DatabaseInUse, OwnerLock
from companion.session.store import (
    SCHEMA_VERSION,
    Store,
    StoreError,
    history_missing,
    inspect_file,
)

_HELD: list[OwnerLock] = []
"""Owner locks taken by this command, held until the process ends."""


def setup_language(args: argparse.Namespace) -> str:
    lang = resolve_language(getattr(args, "lang", None))
    set_language(lang)
    return lang


def check_store(args: argparse.Namespace) -> None:
    """Exit 2 with ``open_store``'s message if the database named by ``--db`` is not
    one this companion may open (foreign, damaged, newer); cheap: it reads the file's
    header, takes no lock and creates nothing."""
    path = default_db_path(getattr(args, "db", None))
    try:
        inspect_file(path)
    except StoreError as exc:
        fail(exc.render(_))


def open_store(
    args: argparse.Namespace, *, readonly: bool = False, accept_loss: bool = False
) -> Store:
    """Open the database named by ``--db``/``COMPANION_DB``; exit 2 with a message if not.

    ``readonly``: no write is possible, no lock is taken, and a database that does
    not exist yet reads as an empty history. Otherwise the owner lock is taken
    first (exit 2 naming the other window's process if an app holds it).
    """
    path = default_db_path(getattr(args, "db", None))
    try:
        if readonly:
            found = inspect_file(path)
            if not found.exists:
                lost = history_missing(path)
                if lost is not None:  # emptied or deleted: never an empty history in silence
                    fail(lost.render(_))
                return Store.memory()  # no history yet: nothing to read, nothing created
            if found.version < SCHEMA_VERSION:
                # Written by an older companion: upgrade it first, as the app would
                # (under the owner lock, so never beside a running app).
                with OwnerLock(path):
                    Store.open(path).close()
            store = Store.open(path, readonly=True)
            if store.missing is not None:  # read what is there, and say what is not
                lost = history_missing(path)
                if lost is not None:
                    print(f"companion: {lost.render(_)}", file=sys.stderr)
            return store
        inspect_file(path)  # refused files get no lock file beside them
        _HELD.append(OwnerLock(path).acquire())
        return Store.open(path, accept_loss=accept_loss)
    except StoreError as exc:
        fail(exc.render(_))
    except DatabaseInUse as busy:
        fail(busy.render(_))
    except OSError as exc:
        fail(_("Cannot use {path}: {problem}.").format(path=path, problem=exc.strerror or exc))
    raise AssertionError("unreachable: fail() exits")


def warn_damaged(store: Store) -> None:
    """Say on stderr which sessions a listing left out because they are damaged."""
    if store.damaged:
        print(
            "companion: "
            + _(
                "{n} damaged session(s) left out: {ids}. Run 'companion check' for details."
            ).format(n=len(store.damaged), ids=", ".join(sorted(store.damaged)[:5])),
            file=sys.stderr,
        )
    if store.unreadable:
        print("companion: " + unreadable_message(store.unreadable), file=sys.stderr)


def unreadable_message(problem: str) -> str:
    return _(
        "Part of the history could not be read ({problem}); what could be read is "
        "shown. Run 'companion check'; 'companion restore FILE' puts a backup back."
    ).format(problem=_(problem))


def release_locks() -> None:
    """Release the owner locks this command took (``main`` calls it when a command ends)."""
    while _HELD:
        _HELD.pop().release()


def fail(message: str, code: int = 2) -> None:
    print(f"companion: {message}", file=sys.stderr)
    raise SystemExit(code)
