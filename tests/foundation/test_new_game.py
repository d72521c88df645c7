"""``scripts/new_game.py`` writes a folder that passes the conformance suite (issue 25)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_scaffold_writes_a_game_that_passes_the_conformance_suite(tmp_path: Path) -> None:
    tree = tmp_path / "tree"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "companion", tree / "companion", ignore=ignore)
    shutil.copytree(ROOT / "scripts", tree / "scripts", ignore=ignore)
    shutil.copytree(ROOT / "tests" / "conformance", tree / "tests" / "conformance", ignore=ignore)
    shutil.copy(ROOT / "tests" / "__init__.py", tree / "tests" / "__init__.py")
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    env = {**os.environ, "PYTHONPATH": str(tree), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    made = subprocess.run(
        [sys.executable, "scripts/new_game.py", "tiny-test", "--en", "Tiny", "--zh", "小"],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    folder = tree / "companion" / "games" / "tiny_test"
    assert (folder / "README.md").exists() and (folder / "testing.py").exists()
    assert (tree / "tests" / "games" / "tiny_test" / "test_tiny_test.py").exists()
    registry = (tree / "companion" / "games" / "__init__.py").read_text(encoding="utf-8")
    assert "PLUGIN as TINY_TEST" in registry and "    TINY_TEST,\n" in registry
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-k",
            "tiny-test",
            "tests/conformance",
            "tests/games/tiny_test",
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert " passed" in run.stdout and "failed" not in run.stdout
