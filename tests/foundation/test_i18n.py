"""Two languages: every marked string has Chinese; language choice; CJK alignment."""

from __future__ import annotations

import io

import pytest
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table

from companion.i18n import catalog, resolve_language
from companion.i18n_check import extracted, missing_translations


def test_every_user_visible_string_has_a_chinese_translation():
    missing = missing_translations()
    listing = "\n".join(f"{m.path}:{m.line}: {m.msgid!r}" for m in missing)
    assert not missing, f"untranslated (run scripts/i18n_missing.py):\n{listing}"


def test_the_english_catalog_is_up_to_date():
    """companion/locale/en holds every string (regenerate: scripts/i18n_update.py)."""
    from babel.messages.pofile import read_po

    from companion.i18n import LOCALE_DIR

    with (LOCALE_DIR / "en" / "LC_MESSAGES" / "companion.po").open("rb") as fh:
        english = {m.id for m in read_po(fh) if m.id}
    missing = sorted({m.msgid for m in extracted()} - english)
    assert not missing, f"run scripts/i18n_update.py; missing: {missing[:10]}"


def test_the_extractor_finds_the_core_strings():
    ids = {m.msgid for m in extracted()}
    assert {"New session", "Nothing to undo.", "Undo"} <= ids


def test_translations_keep_their_placeholders():
    """A translation that drops or renames a {placeholder} would fail at display."""
    import re

    zh = catalog("zh")
    for item in extracted():
        translated = zh.gettext(item.msgid)
        wanted = sorted(re.findall(r"\{[^}]*\}", item.msgid))
        assert sorted(re.findall(r"\{[^}]*\}", translated)) == wanted, item.msgid


@pytest.mark.parametrize(
    ("requested", "env", "expected"),
    [
        ("zh", {}, "zh"),
        ("en", {"LANG": "zh_CN.UTF-8"}, "en"),
        ("zh-Hans", {}, "zh"),
        (None, {"LANG": "zh_CN.UTF-8"}, "zh"),
        (None, {"LANGUAGE": "zh_TW:en"}, "zh"),
        (None, {"LANG": "de_DE.UTF-8"}, "en"),
        (None, {"LC_ALL": "C", "LANG": "zh_CN"}, "zh"),
        (None, {}, "en"),
    ],
)
def test_language_resolution(requested, env, expected):
    assert resolve_language(requested, env) == expected


def test_unknown_language_is_refused():
    with pytest.raises(ValueError, match="use zh or en"):
        resolve_language("fr")


def test_cjk_names_line_up_in_tables():
    """Rich measures wide characters: each column starts at the same cell on every row."""
    table = Table("玩家", "总分")
    for name, score in [("小明", "12"), ("Ann", "7"), ("欧阳娜娜", "100")]:
        table.add_row(name, score)
    out = io.StringIO()
    Console(file=out, width=60, color_system=None, legacy_windows=False).print(table)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    widths = {cell_len(line) for line in lines}
    assert len(widths) == 1, lines
    # The column separator sits at the same display column on every row.
    positions = set()
    for line in lines:
        if "│" in line[1:]:
            prefix = line[: line.index("│", 1)]
            positions.add(cell_len(prefix))
    assert len(positions) == 1, lines
