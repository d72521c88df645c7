"""Two languages through gettext: Simplified Chinese (``zh``) and English (``en``).

Design decisions:

* Source strings are English. Catalogs are gettext ``.po`` files. The shared ones
  (the app shell, history, board, hardware, storage…) live under
  ``companion/locale/<locale>/LC_MESSAGES/<domain>.po``; **each game's catalog lives in
  its own folder**, ``companion/games/<domain>/locale/<locale>/LC_MESSAGES/<domain>.po``
  (its domain is the folder's name, ``GameInfo.domain``).
* One namespace per game, looked up game first, then shared (issue 25). Merging every
  catalog into one table let a label of one game take another's translation: a
  sixth game's key "Place" read Meeple Circus's 名次 ("ranking"). Chosen over gettext
  contexts (``pgettext``) because a context would have to be written at every one of
  the ~2,000 call sites and into every template a rules module passes up, while a
  folder per game needs nothing at the call site: the screen of a game, the history
  of its session and its board select the game's domain (``set_game_domain``,
  ``game_domain``) and every ``_`` there reads the game's catalog first. A game's
  strings must be in its own catalog (``i18n_check`` counts them per game), so the
  shared catalog can never answer for them with another meaning. Where no game is
  selected (Home lists every game) the lookup is shared, then every game's catalog.
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
from collections.abc import Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).parent / "locale"
GAMES_DIR = Path(__file__).parent / "games"
LANGUAGES = ("en", "zh")
_LOCALE_OF = {"en": "en", "zh": "zh_CN"}
EN_DOMAIN = "companion"

_current = "en"
_domain: str | None = None


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
    def __init__(
        self,
        messages: dict[str, str],
        plurals: dict[tuple[str, int], str],
        fallback: _Catalog | None = None,
    ) -> None:
        super().__init__()
        self._messages = messages
        self._plurals = plurals
        self._next = fallback

    def find(self, message: str) -> str | None:
        """The translation from this catalog or the ones below it, else ``None``."""
        found = self._messages.get(message)
        if found or self._next is None:
            return found
        return self._next.find(message)

    def find_plural(self, singular: str) -> str | None:
        found = self._plurals.get((singular, 0))
        if found or self._next is None:
            return found
        return self._next.find_plural(singular)

    def gettext(self, message: str) -> str:
        return self.find(message) or message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        # Chinese has one plural form; English falls through to the source strings.
        found = self.find_plural(singular)
        if found:
            return found
        return singular if n == 1 else plural


def game_domains() -> tuple[str, ...]:
    """The domains of the games that have a catalog folder (their folder names)."""
    return tuple(sorted(p.parent.name for p in GAMES_DIR.glob("*/locale") if p.is_dir()))


def catalog_files(lang: str, domain: str | None) -> list[Path]:
    """The ``.po`` files of one domain: a game's (``domain``) or the shared ones (``None``)."""
    root = LOCALE_DIR if domain is None else GAMES_DIR / domain / "locale"
    return sorted((root / _LOCALE_OF[lang] / "LC_MESSAGES").glob("*.po"))


@cache
def own_catalog(lang: str, domain: str | None) -> _Catalog:
    """Only the entries of one domain (a game's, or the shared ones for ``None``)."""
    _loaded.append((lang, domain))
    return _load(lang, catalog_files(lang, domain))


@cache
def catalog(lang: str, domain: str | None = None) -> _gettext.NullTranslations:
    """What ``_`` reads: the game's catalog, then the shared one (English: the
    reworded entries). With no game (``None``): the shared catalog, then every game's.
    """
    shared = own_catalog(lang, None)
    if domain is not None:
        own = own_catalog(lang, domain)
        return _Catalog(own._messages, own._plurals, shared)
    games: _Catalog | None = None
    for name in reversed(game_domains()):
        games = _GameCatalog(lang, name, games)
    return _Catalog(shared._messages, shared._plurals, games)


class _GameCatalog(_Catalog):
    """One game's entries in the chain read where no game is selected (Home), parsed
    the first time a look-up gets this far: a string the shared catalog has (all of
    Home's, in Chinese) never opens the games' catalogs, so a start-up reads and
    hashes one catalog instead of seven (issue 26)."""

    def __init__(self, lang: str, domain: str, fallback: _Catalog | None) -> None:
        super().__init__({}, {}, fallback)
        self._lang, self._domain, self._loaded = lang, domain, False

    def _load_once(self) -> None:
        if not self._loaded:
            own = own_catalog(self._lang, self._domain)
            self._messages, self._plurals, self._loaded = own._messages, own._plurals, True

    def find(self, message: str) -> str | None:
        self._load_once()
        return super().find(message)

    def find_plural(self, singular: str) -> str | None:
        self._load_once()
        return super().find_plural(singular)


def loaded_domains(lang: str) -> list[str | None]:
    """The domains whose catalog was parsed (or read from the cache) for ``lang``, so
    far (a test keeps the games' ones closed at start-up)."""
    return [domain for key_lang, domain in _loaded if key_lang == lang]


_loaded: list[tuple[str, str | None]] = []


def clear_caches() -> None:
    """Forget every parsed catalog (tests that change a .po file)."""
    catalog.cache_clear()
    own_catalog.cache_clear()
    _loaded.clear()


def _load(lang: str, files: list[Path]) -> _Catalog:
    """Parse ``files`` (one domain), through the cache.

    Parsing the .po files with Babel takes about 0.1 s, a sixth of the start-up; the
    parsed result is kept in the user cache folder under the SHA-256 of the .po files'
    bytes, so a changed catalog is always parsed again (nothing compiled can go stale)
    and an unwritable cache only costs the parse.
    """
    digest = hashlib.sha256()
    for po in files:
        digest.update(po.parent.parent.parent.parent.name.encode() + b"/")
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


def set_game_domain(domain: str | None) -> None:
    """Select the game whose catalog ``_`` reads first (``None``: no game, e.g. Home)."""
    global _domain
    if domain is not None and not (GAMES_DIR / domain).is_dir():
        raise ValueError(f"no game folder {domain!r}")
    _domain = domain


def current_game_domain() -> str | None:
    return _domain


@contextlib.contextmanager
def game_domain(domain: str | None) -> Iterator[None]:
    """Translate in one game's domain for the block (history rows, exports, the board)."""
    global _domain
    before = _domain
    set_game_domain(domain)
    try:
        yield
    finally:
        _domain = before


def _(message: str) -> str:
    """Translate ``message`` into the current language (the selected game's catalog first)."""
    return catalog(_current, _domain).gettext(message)


def paren(text: object) -> str:
    """``text`` in parentheses of the current language, to put after a word: `` (a pair)``
    with its space in English, ``（对子）`` without one in Chinese."""
    return _(" ({text})").format(text=text)


def listing(items: Iterable[object]) -> str:
    """Items as a list in the current language's punctuation: ``a, b`` / ``a、b``."""
    out = ""
    for number, item in enumerate(items):
        out = str(item) if number == 0 else _("{first}, {then}").format(first=out, then=item)
    return out


def labelled(label: object, value: object) -> str:
    """A name and what it has, in the current language's punctuation: ``Lili: Maple`` /
    ``丽丽：枫`` (code that joined them with ``": "`` put ASCII inside Chinese)."""
    return _("{label}: {value}").format(label=label, value=value)


def ngettext(singular: str, plural: str, n: int) -> str:
    return catalog(_current, _domain).ngettext(singular, plural, n)
