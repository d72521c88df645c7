"""Entry points: ``companion`` (the app) and its subcommands.

Each subcommand lives in its own module under ``companion/cli/`` with a
``register(subparsers)`` function; modules listed in ``COMMANDS`` that exist are
registered, so an area adds its command by adding its module.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Sequence

COMMANDS = ("export", "replay", "importer", "devices", "board", "stats")


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
    parser.set_defaults(command=None)
    sub = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name in COMMANDS:
        module = f"companion.cli.{name}"
        if importlib.util.find_spec(module) is not None:
            importlib.import_module(module).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is not None:
        code: int = args.command(args)
        return code
    from companion.cli.app import run_app  # deferred: Textual is slow to import

    return run_app(args)


if __name__ == "__main__":
    sys.exit(main())
