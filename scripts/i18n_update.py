"""Write the English catalog from the source: every marked string, in order of use.

    python scripts/i18n_update.py

English is the source language, so each new entry's translation is its msgid; an
entry already edited in ``companion/locale/en/LC_MESSAGES/companion.po`` keeps its
wording (that is how the English text is reworded without touching code). Strings no
longer used are dropped. A test fails while the catalog is behind the source.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from companion.i18n_check import extracted  # noqa: E402

EN_PO = ROOT / "companion" / "locale" / "en" / "LC_MESSAGES" / "companion.po"


def main() -> int:
    old: dict[str, str] = {}
    if EN_PO.exists():
        with EN_PO.open("rb") as fh:
            for message in read_po(fh):
                if message.id and isinstance(message.id, str) and isinstance(message.string, str):
                    old[message.id] = message.string
    catalog = Catalog(locale="en", domain="companion", project="companion", charset="utf-8")
    for item in extracted():
        if item.msgid not in catalog:
            catalog.add(
                item.msgid, old.get(item.msgid) or item.msgid, locations=[(item.path, item.line)]
            )
    EN_PO.parent.mkdir(parents=True, exist_ok=True)
    with EN_PO.open("wb") as fh:
        write_po(fh, catalog, width=0, sort_output=True, omit_header=False, no_location=True)
    print(f"{EN_PO.relative_to(ROOT)}: {len(catalog)} strings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
