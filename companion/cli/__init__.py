"""Entry points: ``companion`` (the app) and its subcommands.

Each subcommand lives in its own module under ``companion/cli/`` with a
``register(subparsers)`` function; modules listed in ``COMMANDS`` that exist are
registered, so an area adds its command by adding its module.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sqlite3
import sys
from collections.abc import Sequence

from companion.session.store import StoreError

COMMANDS = (
    "export",
    "replay",
    "importer",
    "devices",
    "board",
    "stats",
    "check",
    "backup",
    "doctor",
    "paths",
)


def version() -> str:
    """The release: ``companion.__version__``, the one place the wheel's version comes from."""
    from companion import __version__

    return __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="A board-game host's companion: scores, phases, music, Tadaa buttons.",
    )
    parser.add_argument(
        "--db",
        metavar="PATH",
        help="database file (default: $COMPANION_DB or the user data folder)",
    )
    parser.add_argument(
        "--lang", choices=("zh", "en"), help="language of the screens (default: from the locale)"
    )
    parser.add_argument("--version", action="version", version=f"companion {version()}")
    parser.set_defaults(command=None)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in COMMANDS:
        module = f"companion.cli.{name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module).register(sub)
    return parser


def main(argv: Sequence[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    """Run ``companion`` with ``argv``. ``parser``: one ``build_parser()`` made before,
    for callers that run many commands in one process (building it is most of a short
    command's time: argparse looks its own translations up for every subcommand)."""
    args = (parser or build_parser()).parse_args(argv)
    if args.command is not None:
        from companion.cli.common import release_locks

        try:
            code: int = args.command(args)
        except sqlite3.DatabaseError as exc:
            # A damaged page read by a query: a message, never a traceback.
            from companion.cli.common import fail
            from companion.i18n import _
            from companion.session.store import db_problem

            fail(
                _(
                    "The database cannot be read: {problem}. Run 'companion check' to "
                    "see what is damaged; 'companion restore FILE' puts a backup back."
                ).format(problem=_(db_problem(exc)))
            )
            raise  # unreachable: fail() exits
        except StoreError as exc:
            from companion.cli.common import fail
            from companion.i18n import _

            fail(exc.render(_))
            raise  # unreachable
        finally:
            release_locks()
        return code
    from companion.cli.app import run_app  # deferred: Textual is slow to import

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
