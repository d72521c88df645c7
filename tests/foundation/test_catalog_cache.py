"""The parsed-catalog cache never serves a stale translation."""

from __future__ import annotations

import shutil
from pathlib import Path

from companion import i18n


def test_a_changed_po_file_is_parsed_again(tmp_path: Path, monkeypatch) -> None:
    locale = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, locale)
    monkeypatch.setattr(i18n, "LOCALE_DIR", locale)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    i18n.clear_caches()
    try:
        assert i18n.catalog("zh").gettext("Help") == "帮助"
        assert list((tmp_path / "cache" / "companion").glob("catalog-zh-*.json"))
        i18n.clear_caches()
        assert i18n.catalog("zh").gettext("Help") == "帮助"  # from the cache
        po = locale / "zh_CN" / "LC_MESSAGES" / "core.po"
        po.write_text(
            po.read_text(encoding="utf-8").replace('msgstr "帮助"', 'msgstr "说明"'),
            encoding="utf-8",
        )
        i18n.clear_caches()
        assert i18n.catalog("zh").gettext("Help") == "说明"
    finally:
        i18n.clear_caches()


def test_an_unwritable_cache_only_costs_the_parse(tmp_path: Path, monkeypatch) -> None:
    blocker = tmp_path / "cache"
    blocker.write_text("not a folder")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    i18n.clear_caches()
    try:
        assert i18n.catalog("zh").gettext("Help") == "帮助"
    finally:
        i18n.clear_caches()
