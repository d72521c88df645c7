"""Find user-visible strings without a Chinese translation (used by a test and a script)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import catalog

PACKAGE = Path(__file__).parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


@dataclass(frozen=True)
class Missing:
    msgid: str
    path: str
    line: int

    def quoted(self) -> str:
        return json.dumps(self.msgid, ensure_ascii=False)


def extracted() -> list[Missing]:
    """Every marked string in the package, with where it stands."""
    from babel.messages.extract import extract_from_dir

    out: list[Missing] = []
    for filename, lineno, message, _comments, _context in extract_from_dir(
        str(PACKAGE),
        method_map=[("**.py", "python")],
        keywords=KEYWORDS,
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        if msgid:
            out.append(Missing(msgid, f"companion/{filename}", lineno))
    return out


def missing_translations() -> list[Missing]:
    zh = catalog("zh")
    seen: set[str] = set()
    out: list[Missing] = []
    for item in extracted():
        if item.msgid in seen:
            continue
        seen.add(item.msgid)
        translated = (
            zh.gettext(item.msgid) != item.msgid
            or zh.ngettext(item.msgid, item.msgid, 1) != item.msgid
        )  # plural entries
        if not translated and not _is_untranslatable(item.msgid):
            out.append(item)
    return out


def _is_untranslatable(msgid: str) -> bool:
    """Strings with no letters (``"{a} / {b}"``) need no translation."""
    import re

    return not re.sub(r"[\s:/\-–—.,()\[\]0-9%+×·|#]", "", re.sub(r"\{[^}]*\}", "", msgid))
