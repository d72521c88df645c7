"""``companion`` without a subcommand: open the database and run the Textual app."""

from __future__ import annotations

import argparse

from companion.cli.common import fail, setup_language
from companion.session.locations import default_db_path
from companion.session.store import StoreError


def run_app(args: argparse.Namespace) -> int:
    lang = setup_language(args)
    from companion.ui.app import make_app

    try:
        app = make_app(default_db_path(args.db), lang=lang)
    except StoreError as exc:
        fail(str(exc))
        return 2
    app.run()
    return 0
