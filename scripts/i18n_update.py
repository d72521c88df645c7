"""Write the English catalogs from the source: every marked string, in order of use.

    python scripts/i18n_update.py

One English catalog per domain, like the Chinese ones: the strings marked in
``companion/games/<game>/`` go to ``companion/games/<game>/locale/en/LC_MESSAGES/<game>.po``,
all others to ``companion/locale/en/LC_MESSAGES/companion.po`` (so a new game never
touches the shared file). English is the source language, so each new entry's
translation is its msgid; an entry already edited in one of these catalogs keeps its
wording (that is how the English text is reworded without touching code). Strings no
longer used are dropped. A test fails while a catalog is behind the source.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from babel.messages.catalog import Catalog  # noqa: E402
from babel.messages.pofile import read_po, write_po  # noqa: E402

from companion.i18n import EN_DOMAIN, GAMES_DIR, LOCALE_DIR  # noqa: E402
from companion.i18n_check import extracted  # noqa: E402

EN_PO = LOCALE_DIR / "en" / "LC_MESSAGES" / f"{EN_DOMAIN}.po"


def en_po(domain: str | None) -> Path:
    """The English catalog of a game's domain, or the shared one (``None``)."""
    if domain is None:
        return EN_PO
    return GAMES_DIR / domain / "locale" / "en" / "LC_MESSAGES" / f"{domain}.po"


def _undated(data: bytes) -> bytes:
    return re.sub(rb'"POT-Creation-Date: [^"]*"', b"", data)


def main() -> int:
    items = extracted()
    domains = sorted({item.domain for item in items}, key=lambda d: d or "")
    old: dict[str, str] = {}
    for domain in domains:  # a reworded entry keeps its wording wherever it stood
        path = en_po(domain)
        if path.exists():
            with path.open("rb") as fh:
                for message in read_po(fh):
                    if (
                        message.id
                        and isinstance(message.id, str)
                        and isinstance(message.string, str)
                        and message.string != message.id
                    ):
                        old.setdefault(message.id, message.string)
    for domain in domains:
        path = en_po(domain)
        catalog = Catalog(
            locale="en", domain=domain or EN_DOMAIN, project="companion", charset="utf-8"
        )
        for item in items:
            if item.domain == domain and item.msgid not in catalog:
                catalog.add(
                    item.msgid,
                    old.get(item.msgid) or item.msgid,
                    locations=[(item.path, item.line)],
                )
        out = io.BytesIO()
        write_po(out, catalog, width=0, sort_output=True, omit_header=False, no_location=True)
        if not path.exists() or _undated(path.read_bytes()) != _undated(out.getvalue()):
            # Only a changed catalog is written: a new game touches no other game's file.
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(out.getvalue())
            print(f"{path.relative_to(ROOT)}: {len(catalog)} strings")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
