"""``companion`` without a subcommand: open the database and run the Textual app.

The app owns its database: it takes the owner lock (``companion.session.owner``)
for the life of the process. If another window holds it, this one opens the
database read-only and offers the history or the board instead of writing beside
the other window.
"""

from __future__ import annotations

import argparse
import time

from companion.cli.common import fail, setup_language
from companion.i18n import _
from companion.session.locations import default_db_path
from companion.session.owner import DatabaseInUse, OwnerLock
from companion.session.store import StoreError, inspect_file


def run_app(args: argparse.Namespace) -> int:
    lang = setup_language(args)
    from companion.ui.app import make_app

    path = default_db_path(args.db)
    in_use: DatabaseInUse | None = None
    lock = OwnerLock(path)
    try:
        inspect_file(path)  # a foreign file is refused before a lock file is put beside it
        lock.acquire()
    except StoreError as exc:
        fail(exc.render(_))
    except DatabaseInUse as busy:
        in_use = busy
    except OSError as exc:
        fail(_("Cannot use {path}: {problem}.").format(path=path, problem=exc.strerror or exc))
    if in_use is not None:
        # The other window may be creating the file this very moment (both started
        # together on a new database): give it a moment to appear.
        deadline = time.monotonic() + 3
        while not (path.is_file() and path.stat().st_size) and time.monotonic() < deadline:
            time.sleep(0.05)
    try:
        app = make_app(path, lang=lang, in_use=in_use)
    except StoreError as exc:
        lock.release()
        fail(exc.render(_))
        return 2
    choice = app.run()
    lock.release()
    if app.return_code:  # the app crashed (Textual printed why): never exit 0 then
        return int(app.return_code)
    if choice == "board":
        from companion.ui.board import make_board  # deferred: Textual is slow to import

        make_board(path, None, lang).run()
    return 0
