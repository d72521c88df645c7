"""Everything the app reads at run time is package data, found with importlib.resources;
the version comes from one place; the distribution has a name of its own."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

import companion
from companion.audio.tracks import CUES, TRACK_TABLE, builtin_sounds_dir, cue_path, track_path
from companion.resources import DEVICE_FILES, device_file, package_path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(companion.__file__).parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def shipped(path: Path) -> bool:
    """Whether pyproject's package-data globs put ``path`` (inside the package) in a wheel."""
    data = PYPROJECT["tool"]["setuptools"]["package-data"]
    excluded = PYPROJECT["tool"]["setuptools"].get("exclude-package-data", {})
    rel = path.relative_to(PACKAGE)
    for package, patterns in data.items():
        base = PACKAGE if package in ("*", "companion") else PACKAGE / package.split(".", 1)[1]
        if package == "*":
            # "*" applies to every package: a file beside an __init__.py
            if (path.parent / "__init__.py").exists() and any(
                fnmatch(path.name, p) for p in patterns
            ):
                return True
            continue
        try:
            inside = path.relative_to(base).as_posix()
        except ValueError:
            continue
        if any(fnmatch(inside, p) for p in patterns) and not any(
            fnmatch(rel.as_posix(), p) for p in excluded.get("companion", [])
        ):
            return True
    return False


def test_the_built_in_sounds_are_inside_the_package_not_the_source_tree() -> None:
    root = builtin_sounds_dir()
    assert root == PACKAGE / "audio" / "sounds"
    assert ROOT / "sounds" not in [root, *root.parents]
    for spec in TRACK_TABLE:
        assert track_path(spec.id, root).is_file()
        assert shipped(track_path(spec.id, root)), spec.id
    for name in CUES:
        assert cue_path(name, root).is_file()
        assert shipped(cue_path(name, root)), name


def test_the_sounds_override_stays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.audio.tracks import sounds_dir

    monkeypatch.setenv("COMPANION_SOUNDS", str(tmp_path))
    assert sounds_dir() == tmp_path
    monkeypatch.delenv("COMPANION_SOUNDS")
    assert sounds_dir() == builtin_sounds_dir()


@pytest.mark.parametrize("name", sorted(DEVICE_FILES))
def test_firmware_and_udev_rules_are_package_data(name: str) -> None:
    path = device_file(name)
    assert path.exists(), path
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    flashable = [p for p in files if "tests" not in p.relative_to(PACKAGE).parts]
    assert flashable
    for file in flashable:
        if file.name != ".gitignore" and not {"build", "__pycache__"} & set(file.parts):
            assert shipped(file), file


def test_every_data_file_the_app_reads_is_shipped() -> None:
    """Catalogs, stylesheets, card and roster data: every non-Python file under the
    package (outside the firmware's own test harness) is in the wheel."""
    missing = []
    for file in PACKAGE.rglob("*"):
        rel = file.relative_to(PACKAGE)
        if (
            not file.is_file()
            or file.suffix in (".py", ".pyc")
            or "__pycache__" in rel.parts
            or rel.parts[:3] == ("devices", "tadaa-box", "tests")
            or "build" in rel.parts
            or file.name == ".gitignore"
        ):
            continue
        if not shipped(file):
            missing.append(str(rel))
    assert missing == []


def test_package_path_is_inside_the_installed_package() -> None:
    assert package_path("locale") == PACKAGE / "locale"
    from companion.i18n import LOCALE_DIR

    assert LOCALE_DIR == PACKAGE / "locale"


def test_a_name_of_its_own_and_the_version_from_one_place() -> None:
    project = PYPROJECT["project"]
    assert project["name"] == "tabletop-companion"
    assert "version" in project["dynamic"] and "version" not in project
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "companion.__version__"
    }
    assert project["scripts"] == {"companion": "companion.cli:main"}
    assert (ROOT / "LICENSE").is_file() and (ROOT / "CHANGELOG.md").is_file()
    assert f"## {companion.__version__}" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    out = subprocess.run(
        [sys.executable, "-m", "companion", "--version"], capture_output=True, text=True
    )
    assert out.stdout.strip() == f"companion {companion.__version__}"


def test_exports_say_which_release_wrote_them(tmp_path: Path) -> None:
    from companion.rules.base import seat_players
    from companion.session.export import session_document, sessions_document, sessions_json_text
    from companion.session.live import LiveSession
    from companion.session.store import Store

    with Store.open(tmp_path / "db.sqlite3") as store:
        live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo"]), {})
        live.act({"type": "score", "player": "p1", "points": 2})
        row, entries = store.session(live.id), store.entries(live.id)
        assert session_document(row, entries)["app_version"] == companion.__version__
        many = json.loads(sessions_json_text(store, [live.id]))
        assert many["app_version"] == companion.__version__
        assert many["sessions"][0]["app_version"] == companion.__version__
        assert many == sessions_document([(row, entries)])
