"""The command line: help, language, a bad database gets a message (not a trace)."""

from __future__ import annotations

import os
import subprocess
import sys


def run(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=60,
    )


def test_help_lists_the_options():
    result = run("--help")
    assert result.returncode == 0
    assert "--db" in result.stdout and "--lang" in result.stdout


def test_a_database_that_is_not_sqlite_is_refused_with_a_message(tmp_path):
    bad = tmp_path / "notes.sqlite3"
    bad.write_text("not a database at all, just some text that is long enough\n")
    result = run("--db", str(bad))
    assert result.returncode == 2
    assert "is not a SQLite database" in result.stderr
    assert "Traceback" not in result.stderr
    assert bad.read_text().startswith("not a database")


def test_companion_db_environment_variable_is_honoured(tmp_path):
    bad = tmp_path / "env.sqlite3"
    bad.write_text("plain text here, definitely not sqlite format\n")
    result = run(env={"COMPANION_DB": str(bad)})
    assert result.returncode == 2 and str(bad) in result.stderr


def test_version_is_printed() -> None:
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "companion", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0
    assert out.stdout.startswith("companion ") and out.stdout.split()[1][0].isdigit()
