"""Two languages through gettext: Simplified Chinese (``zh``) and English (``en``).

Design decisions:

* Source strings are English. Catalogs are gettext ``.po`` files under
  ``companion/locale/<locale>/LC_MESSAGES/<domain>.po``, one domain per area
  (``core``, ``meowfia``, ``meeple_circus``…) so that each area owns its file.
  All domains of a language are merged into one lookup table.
* The ``.po`` files are read directly with Babel at start-up: there is no compiled
  ``.mo`` that could go stale. Fuzzy entries are ignored, as ``msgfmt`` would.
* ``_()`` looks the string up in the *current* language at call time, so module-level
  code must mark strings with ``N_`` and translate them when shown.
* Rules modules do not import this module; their messages are templates that the UI
  passes through ``_`` (see ``companion.rules.base.RuleError.render``).
"""

from __future__ import annotations

import contextlib
import gettext as _gettext
import hashlib
import json
import os
from collections.abc import Mapping
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES = ("en", "zh")
_LOCALE_OF = {"en": "en", "zh": "zh_CN"}
EN_DOMAIN = "companion"

_current = "en"


def N_(message: str) -> str:
    """Mark for extraction; translate later with ``_``."""
    return message


def resolve_language(requested: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """``zh`` or ``en`` from ``--lang``, else from the locale variables (gettext's order)."""
    if requested:
        key = requested.strip().lower().replace("-", "_")
        if key.startswith("zh"):
            return "zh"
        if key.startswith("en"):
            return "en"
        raise ValueError(f"unknown language {requested!r}: use zh or en")
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            first = value.split(":")[0].lower()
            if first in ("c", "posix") or first.startswith("c."):
                continue
            return "zh" if first.startswith("zh") else "en"
    return "en"


class _Catalog(_gettext.NullTranslations):
    def __init__(self, messages: dict[str, str], plurals: dict[tuple[str, int], str]) -> None:
        super().__init__()
        self._messages = messages
        self._plurals = plurals

    def gettext(self, message: str) -> str:
        return self._messages.get(message) or message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        # Chinese has one plural form; English falls through to the source strings.
        found = self._plurals.get((singular, 0))
        if found:
            return found
        return singular if n == 1 else plural


@cache
def catalog(lang: str) -> _gettext.NullTranslations:
    """All domains of ``lang`` merged (English: the reworded entries of its catalog).

    Parsing the .po files with Babel takes about 0.1 s, a sixth of the start-up; the
    parsed result is kept in the user cache folder under the SHA-256 of the .po files'
    bytes, so a changed catalog is always parsed again (nothing compiled can go stale)
    and an unwritable cache only costs the parse.
    """
    folder = LOCALE_DIR / _LOCALE_OF[lang] / "LC_MESSAGES"
    files = sorted(folder.glob("*.po"))
    digest = hashlib.sha256()
    for po in files:
        digest.update(po.name.encode() + b"\0" + po.read_bytes())
    cached = _cache_dir() / f"catalog-{lang}-{digest.hexdigest()[:32]}.json"
    try:
        data = json.loads(cached.read_text(encoding="utf-8"))
        return _Catalog(data["messages"], {(s, int(i)): text for s, i, text in data["plurals"]})
    except (OSError, ValueError, KeyError, TypeError):
        pass
    messages, plurals = _parse(files, _LOCALE_OF[lang])
    with contextlib.suppress(OSError):
        cached.parent.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(
            json.dumps(
                {"messages": messages, "plurals": [[s, i, v] for (s, i), v in plurals.items()]},
                ensure_ascii=False,
            ),
            encoding="utf-8",
        )
        os.replace(tmp, cached)
    return _Catalog(messages, plurals)


def _cache_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_cache_dir("companion", appauthor=False))


def _parse(files: list[Path], locale: str) -> tuple[dict[str, str], dict[tuple[str, int], str]]:
    from babel.messages.pofile import read_po  # deferred: only needed without a cache

    messages: dict[str, str] = {}
    plurals: dict[tuple[str, int], str] = {}
    for po in files:
        with po.open("rb") as fh:
            cat = read_po(fh, locale=locale)
        for msg in cat:
            if not msg.id or msg.fuzzy:
                continue
            if isinstance(msg.id, tuple):
                strings = msg.string if isinstance(msg.string, tuple) else (msg.string,)
                for i, s in enumerate(strings):
                    if isinstance(s, str) and s:
                        plurals[(str(msg.id[0]), i)] = s
            elif isinstance(msg.string, str) and msg.string and msg.string != msg.id:
                messages[str(msg.id)] = msg.string
    return messages, plurals


def set_language(lang: str) -> None:
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unknown language {lang!r}")
    _current = lang


def current_language() -> str:
    return _current


def _(message: str) -> str:
    """Translate ``message`` into the current language."""
    return catalog(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(_current).ngettext(singular, plural, n)
