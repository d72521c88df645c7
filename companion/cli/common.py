"""Helpers shared by the subcommands: opening the store, printing errors."""

from __future__ import annotations

import argparse
import sys

from companion.i18n import resolve_language, set_language
from companion.session.locations import default_db_path
from companion.session.store import Store, StoreError


def setup_language(args: argparse.Namespace) -> str:
    lang = resolve_language(getattr(args, "lang", None))
    set_language(lang)
    return lang


def open_store(args: argparse.Namespace, *, readonly: bool = False) -> Store:
    """Open the database named by ``--db``/``COMPANION_DB``; exit 2 with a message if not."""
    path = default_db_path(getattr(args, "db", None))
    try:
        return Store.open(path, readonly=readonly)
    except StoreError as exc:
        fail(str(exc))
        raise  # unreachable


def fail(message: str, code: int = 2) -> None:
    print(f"companion: {message}", file=sys.stderr)
    raise SystemExit(code)
