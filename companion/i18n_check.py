"""Find user-visible strings without a Chinese translation (used by a test and a script).

Counted per domain (issue 25): a string marked in ``companion/games/<domain>/`` must be
translated in that game's own catalog (``companion/games/<domain>/locale/``), any other
in the shared one (``companion/locale/``). A translation found only in another game's
catalog, or in the shared one for a game's string, does not count: at run time the
game's screen reads its own catalog first, and "Place" must not read Meeple Circus's
名次 nor "Wins" History's 胜局.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from companion.i18n import own_catalog

PACKAGE = Path(__file__).parent
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


@dataclass(frozen=True)
class Missing:
    msgid: str
    path: str
    line: int

    @property
    def domain(self) -> str | None:
        """The game whose folder marks the string (``None``: shared code)."""
        return domain_of(self.path)

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


def domain_of(path: str) -> str | None:
    """``companion/games/<domain>/…`` → ``<domain>``; anything else → ``None`` (shared)."""
    parts = path.split("/")
    return parts[2] if len(parts) > 3 and parts[:2] == ["companion", "games"] else None


def translated_in(lang: str, domain: str | None, msgid: str) -> bool:
    """Whether the domain's *own* catalog translates ``msgid`` (plural entries too)."""
    own = own_catalog(lang, domain)
    return bool(own.find(msgid) or own.find_plural(msgid))


def missing_translations() -> list[Missing]:
    """Strings with no Chinese in their own domain's catalog, once per domain."""
    seen: set[tuple[str | None, str]] = set()
    out: list[Missing] = []
    for item in extracted():
        key = (item.domain, item.msgid)
        if key in seen:
            continue
        seen.add(key)
        if not translated_in("zh", item.domain, item.msgid) and not _is_untranslatable(item.msgid):
            out.append(item)
    return out


def _is_untranslatable(msgid: str) -> bool:
    """Strings with no letters (``"{a} / {b}"``) need no translation."""
    import re

    return not re.sub(r"[\s:/\-–—.,()\[\]0-9%+×·|#]", "", re.sub(r"\{[^}]*\}", "", msgid))
