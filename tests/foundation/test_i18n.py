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


def test_the_english_catalogs_are_up_to_date():
    """Each domain's English catalog holds its strings (regenerate: scripts/i18n_update.py):
    a game's in its folder, the rest in companion/locale/en."""
    from babel.messages.pofile import read_po

    from companion.i18n import catalog_files

    items = extracted()
    for domain in {m.domain for m in items}:
        english: set[str] = set()
        for po in catalog_files("en", domain):
            with po.open("rb") as fh:
                english |= {str(m.id) for m in read_po(fh) if m.id and isinstance(m.id, str)}
        missing = sorted({m.msgid for m in items if m.domain == domain} - english)
        assert not missing, f"run scripts/i18n_update.py; {domain or 'shared'} lacks {missing[:10]}"


def test_every_game_has_its_own_catalogs_in_its_folder():
    from companion.games import GAMES
    from companion.i18n import catalog_files

    for info in GAMES:
        for lang in ("en", "zh"):
            files = catalog_files(lang, info.domain)
            assert files, f"{info.id}: no {lang} catalog in companion/games/{info.domain}/locale"


def test_a_label_of_one_game_never_takes_another_games_translation(tmp_path, monkeypatch):
    """Issue 25: "Place" (a key of a new game) read Meeple Circus's 名次 ("ranking")
    because every catalog was one table. In a game's domain, a string its catalog does
    not translate falls back to the shared catalog only, never to another game's."""
    import shutil

    from companion import i18n

    games = tmp_path / "games"
    for name in ("alpha", "beta"):
        po = games / name / "locale" / "zh_CN" / "LC_MESSAGES" / f"{name}.po"
        po.parent.mkdir(parents=True)
        (games / name / "__init__.py").write_text("")
    (games / "alpha" / "locale/zh_CN/LC_MESSAGES/alpha.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Place"\nmsgstr "名次"\n',
        encoding="utf-8",
    )
    (games / "beta" / "locale/zh_CN/LC_MESSAGES/beta.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n',
        encoding="utf-8",
    )
    shutil.copytree(i18n.LOCALE_DIR, tmp_path / "locale")
    monkeypatch.setattr(i18n, "GAMES_DIR", games)
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path / "locale")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    i18n.clear_caches()
    i18n.set_language("zh")
    before = i18n.current_game_domain()
    try:
        with i18n.game_domain("alpha"):
            assert i18n._("Place") == "名次"
        with i18n.game_domain("beta"):
            assert i18n._("Place") == "Place"  # untranslated here, not alpha's word
            assert i18n._("Help") == "帮助"  # the shared catalog still answers
        assert i18n.current_game_domain() == before
    finally:
        i18n.set_language("en")
        i18n.clear_caches()


def test_a_games_string_counts_as_translated_only_in_its_own_catalog():
    """The missing-translation check counts per domain: a game string that only another
    catalog translates (the shared 胜局 of History for a game's "Wins") is missing."""
    from companion.i18n_check import domain_of, translated_in

    assert domain_of("companion/games/meowfia/screen.py") == "meowfia"
    assert domain_of("companion/games/__init__.py") is None
    assert domain_of("companion/ui/history.py") is None
    assert translated_in("zh", None, "Help")
    assert not translated_in("zh", "scorepad", "Help")  # the score pad never marks it
    assert translated_in("zh", "scorepad", "Close round")


def test_the_extractor_finds_the_core_strings():
    ids = {m.msgid for m in extracted()}
    assert {"New session", "Nothing to undo.", "Undo"} <= ids


def test_translations_keep_their_placeholders():
    """A translation that drops or renames a {placeholder} would fail at display."""
    import re

    zh = catalog("zh")
    for item in extracted():
        translated = zh.gettext(item.msgid)
        dropped = DROPPED_ON_PURPOSE.get(item.msgid, set())
        wanted = sorted(p for p in re.findall(r"\{[^}]*\}", item.msgid) if p not in dropped)
        assert sorted(re.findall(r"\{[^}]*\}", translated)) == wanted, item.msgid


DROPPED_ON_PURPOSE = {"{chinese} ({english})": {"{english}"}}
"""Placeholders a translation leaves out by design (a dropped one is no display error:
``str.format`` ignores unused fields): a Shadow Cats card name's romanization is for the
English screens only (issue 22, a language leak in the zh log)."""


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
