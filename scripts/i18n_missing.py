"""List the user-visible strings that have no Simplified Chinese translation yet.

Strings are found the way ``pybabel extract`` finds them: calls of ``_``, ``N_`` and
``ngettext`` with literal arguments in ``companion/``. They are counted per domain: a
string marked in ``companion/games/<game>/`` needs its translation in that game's own
catalog (``companion/games/<game>/locale/zh_CN/LC_MESSAGES/<game>.po``), any other string
in a shared one (``companion/locale/zh_CN/LC_MESSAGES/<area>.po``). Prints ``.po``
stanzas to paste (with a translation) into the file named above each one.

    python scripts/i18n_missing.py              # every missing string, by file
    python scripts/i18n_missing.py meowfia      # only files whose path has 'meowfia'
    python scripts/i18n_missing.py --adopt      # copy into each domain the translations
                                                # that another catalog already has

``--adopt`` is for a merge: a string a game uses but that was translated in a shared
catalog (or another game's) is appended, with that translation, to the game's own
catalog; review the appended entries (``git diff``): the other catalog's meaning may
not be this game's.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.i18n import (  # noqa: E402
    GAMES_DIR,
    LOCALE_DIR,
    catalog_files,
    game_domains,
    own_catalog,
)
from companion.i18n_check import Missing, missing_translations  # noqa: E402

HEADER = """# Chinese (Simplified, China) translations for companion.
# This file is distributed under the same license as the companion project.
#
msgid ""
msgstr ""
"Project-Id-Version: companion VERSION\\n"
"Language: zh_CN\\n"
"Plural-Forms: nplurals=1; plural=0;\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"""


def target(item: Missing) -> Path:
    """The catalog a missing string belongs in."""
    if item.domain is not None:
        return GAMES_DIR / item.domain / "locale" / "zh_CN" / "LC_MESSAGES" / f"{item.domain}.po"
    area = item.path.split("/")[1]
    name = {"ui": "core", "widgets": "core"}.get(area, area)
    if "board" in item.path:
        name = "board"
    elif "history" in item.path:
        name = "history"
    path = LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / f"{name}.po"
    return path if path.exists() else LOCALE_DIR / "zh_CN" / "LC_MESSAGES" / "core.po"


def known_translations() -> tuple[dict[str, str], dict[str, tuple[str, str, str]]]:
    """Every translation of every catalog (singular, and plural id → (id, plural, text))."""
    from babel.messages.pofile import read_po

    singles: dict[str, str] = {}
    plurals: dict[str, tuple[str, str, str]] = {}
    files = catalog_files("zh", None) + [f for d in game_domains() for f in catalog_files("zh", d)]
    for po in files:
        with po.open("rb") as fh:
            for m in read_po(fh, locale="zh_CN"):
                if not m.id or m.fuzzy:
                    continue
                if isinstance(m.id, tuple):
                    text = m.string[0] if isinstance(m.string, tuple) else m.string
                    if text:
                        plurals.setdefault(str(m.id[0]), (str(m.id[0]), str(m.id[1]), str(text)))
                elif isinstance(m.string, str) and m.string and m.string != m.id:
                    singles.setdefault(str(m.id), m.string)
    return singles, plurals


def _q(text: str) -> str:
    import json

    return json.dumps(text, ensure_ascii=False)


def adopt(missing: list[Missing]) -> int:
    singles, plurals = known_translations()
    done = 0
    for item in missing:
        po = target(item)
        if item.msgid in singles:
            stanza = f"msgid {_q(item.msgid)}\nmsgstr {_q(singles[item.msgid])}\n"
        elif item.msgid in plurals:
            one, many, text = plurals[item.msgid]
            stanza = f"msgid {_q(one)}\nmsgid_plural {_q(many)}\nmsgstr[0] {_q(text)}\n"
        else:
            continue
        if not po.exists():
            po.parent.mkdir(parents=True, exist_ok=True)
            po.write_text(HEADER, encoding="utf-8")
        flag = "#, python-brace-format\n" if "{" in item.msgid else ""
        with po.open("a", encoding="utf-8") as fh:
            fh.write(f"\n#: {item.path}:{item.line}\n{flag}{stanza}")
        print(f"{po.relative_to(ROOT)}: {item.msgid!r}")
        done += 1
    return done


def main() -> int:
    args = sys.argv[1:]
    if args and args[0] == "--adopt":
        n = adopt(missing_translations())
        own_catalog.cache_clear()
        print(f"# {n} adopted", file=sys.stderr)
        args = args[1:]
    needle = args[0] if args else ""
    missing = [m for m in missing_translations() if needle in m.path]
    for m in missing:
        print(f"#: {m.path}:{m.line}  ->  {target(m).relative_to(ROOT)}")
        print(f"msgid {m.quoted()}")
        print('msgstr ""\n')
    print(f"# {len(missing)} missing", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
