"""Game words that appear inside messages (identities, item kinds, locations, elements).

Rules messages are English templates that the UI translates; a parameter such as
``{identity}`` would stay English inside a Chinese sentence. The errors here map
the stable ids (``"red"``, ``"armour"``, ``"forest"``) to ``N_``-marked words and
translate those too when the UI renders the message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games.shadow_cats.rules.board import LOCATION_NAMES
from companion.rules.base import N_, BadActionError, IllegalActionError, NotYourTurnError

IDENTITY_WORDS = {"red": N_("Red"), "blue": N_("Blue"), "neutral": N_("Neutral")}
KIND_WORDS = {"weapon": N_("weapon"), "armour": N_("armour")}
ELEMENT_WORDS = {
    "metal": N_("metal"),
    "wood": N_("wood"),
    "water": N_("water"),
    "fire": N_("fire"),
    "earth": N_("earth"),
    "none": N_("no element"),
}
NATION_WORDS = {"kingdom": N_("Kingdom"), "sakura": N_("Sakura"), "demon": N_("Demon realm")}
LOCATION_WORDS = {key: names[0] for key, names in LOCATION_NAMES.items()}
_BY_KEY = {
    "identity": IDENTITY_WORDS,
    "kind": KIND_WORDS,
    "location": LOCATION_WORDS,
    "element": ELEMENT_WORDS,
}


def word(key: str, value: Any, gettext: Callable[[str], str] | None = None) -> Any:
    """The display word for a parameter ``key`` holding an id; a sentence (a guide's
    ``Say``, e.g. a ``listing`` of names) rendered in the same language; else ``value``
    unchanged."""
    if callable(getattr(value, "render", None)):
        return value.render(gettext)
    table = _BY_KEY.get(key)
    if table is None or not isinstance(value, str) or value not in table:
        return value
    english = table[value]
    return gettext(english) if gettext is not None else english


def render_params(
    template: str, params: dict[str, Any], gettext: Callable[[str], str] | None = None
) -> str:
    text = gettext(template) if gettext is not None else template
    shown = {k: word(k, v, gettext) for k, v in params.items()}
    try:
        return text.format(**shown)
    except (KeyError, IndexError, ValueError):
        return template.format(**shown)


class _Words:
    template: str
    params: dict[str, Any]

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        return render_params(self.template, self.params, gettext)


class Illegal(_Words, IllegalActionError):
    """``IllegalActionError`` whose game words are translated too."""


class Bad(_Words, BadActionError):
    """``BadActionError`` whose game words are translated too."""


class NotYourTurn(_Words, NotYourTurnError):
    """``NotYourTurnError`` whose game words are translated too."""
