"""``companion board``: options, and the command each browser tab runs."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from companion.cli import build_parser
from companion.cli.board import board_command


def test_options_before_and_after_the_subcommand(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    args = build_parser().parse_args(
        [
            "--db",
            str(db),
            "board",
            "--lang",
            "zh",
            "--web",
            "--host",
            "0.0.0.0",
            "--port",
            "9001",
            "--session",
            "abc",
        ]
    )
    assert (args.db, args.lang, args.web, args.host, args.port, args.session) == (
        str(db),
        "zh",
        True,
        "0.0.0.0",
        9001,
        "abc",
    )
    defaults = build_parser().parse_args(["board"])
    assert (defaults.web, defaults.host, defaults.port, defaults.session) == (
        False,
        "127.0.0.1",
        8765,
        None,
    )


def test_each_browser_tab_runs_the_terminal_board(tmp_path: Path) -> None:
    db = tmp_path / "with space" / "c.db"
    args = build_parser().parse_args(["--db", str(db), "board", "--web", "--session", "s1"])
    command = board_command(args, "zh")
    assert command == [
        sys.executable,
        "-m",
        "companion",
        "--db",
        str(db.resolve()),
        "--lang",
        "zh",
        "board",
        "--session",
        "s1",
    ]
    assert shlex.split(shlex.join(command)) == command  # safe through the shell
