"""The core runs without the TUI, and rules modules stay pure (checked, not hoped)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import companion

PACKAGE = Path(companion.__file__).parent
# Rules know no clock, no randomness, no files, no threads, no database.
FORBIDDEN_IN_RULES = {
    "random",
    "time",
    "sqlite3",
    "socket",
    "threading",
    "subprocess",
    "secrets",
    "uuid",
    "os",
    "asyncio",
    "io",
    "shutil",
    "pathlib",
}


def test_session_layer_imports_without_textual():
    code = (
        "import sys, companion.session.live, companion.session.store, "
        "companion.session.log, companion.rules, companion.games; "
        "bad = [m for m in ('textual', 'serial', 'simpleaudio', 'companion.ui') "
        "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def pure_modules() -> list[Path]:
    """The shared pure types and every game's rules, guide and view-model."""
    paths = list((PACKAGE / "rules").rglob("*.py"))
    for game in sorted((PACKAGE / "games").iterdir()):
        for part in ("rules", "guide", "view"):
            paths += list(game.glob(f"{part}.py")) + list((game / part).rglob("*.py"))
    return sorted(paths)


def test_rules_modules_import_nothing_impure():
    offenders = []
    assert len(pure_modules()) > 20
    for path in pure_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in FORBIDDEN_IN_RULES:
                    offenders.append(f"{path.relative_to(PACKAGE)}: import {name}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in {"now", "today", "utcnow", "monotonic"}
            ):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}: reads a clock")
    assert not offenders, "\n".join(offenders)
