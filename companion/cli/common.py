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
from companion.session.store import SCHEMA_VERSION, Store, StoreError, inspect_file

_HELD: list[OwnerLock] = []
"""Owner locks taken by this command, held until the process ends."""


def setup_language(args: argparse.Namespace) -> str:
    lang = resolve_language(getattr(args, "lang", None))
    set_language(lang)
    return lang


def open_store(args: argparse.Namespace, *, readonly: bool = False) -> Store:
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
                return Store.memory()  # no history yet: nothing to read, nothing created
            if found.version < SCHEMA_VERSION:
                # Written by an older companion: upgrade it first, as the app would
                # (under the owner lock, so never beside a running app).
                with OwnerLock(path):
                    Store.open(path).close()
            return Store.open(path, readonly=True)
        inspect_file(path)  # refused files get no lock file beside them
        _HELD.append(OwnerLock(path).acquire())
        return Store.open(path)
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


def release_locks() -> None:
    """Release the owner locks this command took (``main`` calls it when a command ends)."""
    while _HELD:
        _HELD.pop().release()


def fail(message: str, code: int = 2) -> None:
    print(f"companion: {message}", file=sys.stderr)
    raise SystemExit(code)
