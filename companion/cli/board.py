"""``companion board``: the read-only table board, in this terminal or a browser.

``--web`` serves it through textual-serve: every browser tab runs this same command
(without ``--web``) as a child process, so the terminal board and the web board
are one program.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from companion.cli.common import fail, setup_language
from companion.session.locations import default_db_path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "board",
        help="read-only big display of the running session (for the players)",
        description="Follow the active session (or --session ID) read-only, in large "
        "type for the players; --web serves it to a browser (a TV).",
    )
    parser.add_argument(
        "--session",
        metavar="ID",
        help="follow this session (default: the active one, then the next)",
    )
    parser.add_argument(
        "--web", action="store_true", help="serve the board to browsers instead of showing it here"
    )
    parser.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to serve on (0.0.0.0: the local network; default 127.0.0.1)",
    )
    parser.add_argument("--port", type=int, default=8765, help="port (default 8765)")
    parser.add_argument(
        "--font-size",
        type=int,
        default=None,
        metavar="PX",
        help="browser font size in pixels (default 22; or ?fontsize= in the URL)",
    )
    # Also accepted after the subcommand: `companion board --lang zh`.
    parser.add_argument("--db", metavar="PATH", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    parser.add_argument(
        "--lang", choices=("zh", "en"), default=argparse.SUPPRESS, help=argparse.SUPPRESS
    )
    parser.set_defaults(command=run)


def board_command(args: argparse.Namespace, lang: str) -> list[str]:
    """The command line a browser tab's board process runs."""
    command = [
        sys.executable,
        "-m",
        "companion",
        "--db",
        str(default_db_path(args.db).resolve()),
        "--lang",
        lang,
        "board",
    ]
    if args.session:
        command += ["--session", args.session]
    return command


def run(args: argparse.Namespace) -> int:
    lang = setup_language(args)
    if args.web:
        return serve(args, lang)
    from companion.ui.board import make_board  # deferred: Textual is slow to import

    path = default_db_path(args.db)
    if path.is_dir():
        fail(f"{path} is a folder, not a database file.")
    make_board(path, args.session, lang).run()
    return 0


def serve(args: argparse.Namespace, lang: str) -> int:
    if not 0 < args.port < 65536:
        fail(f"--port {args.port} is not a port number (1–65535).")
    from companion.ui.board.web import DEFAULT_FONT_SIZE, BoardServer

    def announce(url: str) -> None:
        print(url, flush=True)

    print("companion board: open this address in a browser (Ctrl+C stops):", flush=True)
    server = BoardServer(
        shlex.join(board_command(args, lang)),
        host=args.host,
        port=args.port,
        font_size=args.font_size or DEFAULT_FONT_SIZE,
        announce=announce,
    )
    try:
        server.serve()
    except OSError as exc:
        fail(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}")
    return 0
