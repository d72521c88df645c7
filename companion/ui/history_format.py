"""How the history's numbers read in both languages (shared by screens and the CLI).

Plain functions with no Textual import, so ``companion stats`` can use them
without paying for Textual's start-up.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import tzinfo
from typing import Any

from companion.games import GAMES, find_game
from companion.i18n import N_, _, game_domain, listing
from companion.rules.base import RuleError
from companion.rules.names import fit_name
from companion.session.results import SessionResult, local_time

STATUS_LABELS: Mapping[str, str] = {
    "active": N_("unfinished"),
    "finished": N_("finished"),
    "abandoned": N_("abandoned"),
}

# The round/act words that games put in their progress labels ("act 2", "round 3").
PROGRESS_WORDS: Mapping[str, str] = {
    "round": N_("round {n}"),
    "act": N_("act {n}"),
    "day": N_("day {n}"),
    "night": N_("night {n}"),
    "turn": N_("turn {n}"),
    "game": N_("game {n}"),
    "deck": N_("deck {n}"),
}
_PROGRESS = re.compile(r"^([A-Za-z]+) (\d+)$")


def game_name(game_id: str, lang: str, title: str | None = None) -> str:
    """The game's name in ``lang``, or the host's own name for it (``title``)."""
    if title:
        return title
    try:
        return find_game(game_id).name(lang)
    except RuleError:  # a game from a newer version: show its id
        return game_id


def options_text(game_id: str, options: Mapping[str, Any]) -> str:
    """A session's options as the new-session form labels them ("Smuggling timer in
    seconds (0 = none): 20"; yes/no, a translated choice), in the host's language, not
    ``target=10, highest_wins=true`` (internal names, English inside the Chinese
    history). An option left empty on the form (a built-in default) is not listed; an
    option the game no longer has (or a game this version lacks) is shown as stored
    (``name=value``)."""
    try:
        info = find_game(game_id)
        specs = {spec.name: spec for spec in info.load().options}
    except (RuleError, ImportError):  # a game from a newer version, or its module missing
        return "; ".join(f"{k}={json.dumps(v, ensure_ascii=False)}" for k, v in options.items())
    with game_domain(info.domain):  # the labels in the game's own words
        return _options_text(specs, options)


def _options_text(specs: Mapping[str, Any], options: Mapping[str, Any]) -> str:
    parts = []
    for name, value in options.items():
        spec = specs.get(name)
        if spec is None:
            parts.append(f"{name}={json.dumps(value, ensure_ascii=False)}")
        elif value is None or value == "":
            continue  # left empty on the form: nothing to say
        elif isinstance(value, bool):
            parts.append(f"{_(spec.label)}: {_('Yes') if value else _('No')}")
        else:
            shown = _(value) if isinstance(value, str) and value in spec.choices else value
            parts.append(f"{_(spec.label)}: {shown}")
    return "; ".join(parts)


def status_label(status: str) -> str:
    return _(STATUS_LABELS.get(status, status))


def progress_label(label: str) -> str:
    """``"act 2, evaluation"`` → ``"第2幕, evaluation"`` in Chinese.

    The round/act part is translated from its pattern; any other part goes through
    ``_`` as it is (a game may add its phase words to its own catalog).
    """
    parts = [part.strip() for part in label.split(",")] if label else []
    out = []
    for part in parts:
        match = _PROGRESS.match(part)
        if match and match.group(1).lower() in PROGRESS_WORDS:
            out.append(_(PROGRESS_WORDS[match.group(1).lower()]).format(n=match.group(2)))
        else:
            out.append(_(part))
    return listing(out)


def when(iso: str, tz: tzinfo | None = None) -> str:
    """Local date and time to the minute."""
    return local_time(iso, tz).strftime("%Y-%m-%d %H:%M")


def clock(iso: str, tz: tzinfo | None = None) -> str:
    return local_time(iso, tz).strftime("%H:%M:%S")


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "–"
    minutes = round(seconds / 60)
    if minutes < 60:
        return _("{m} min").format(m=minutes)
    return _("{h} h {m:02d} min").format(h=minutes // 60, m=minutes % 60)


def number(value: float | None, digits: int = 1, *, sign: bool = False) -> str:
    """``value`` for a table (``–`` for none); ``sign``: always with its sign (``+3``)."""
    if value is None:
        return "–"
    plus = "+" if sign else ""
    if float(value).is_integer():
        return f"{int(value):{plus}d}"
    return f"{value:{plus}.{digits}f}"


def percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def winners_text(res: SessionResult) -> str:
    if res.status == "abandoned":
        return _("abandoned")
    if not res.finished:
        return _("unfinished")
    return listing(fit_name(p.name) for p in res.winners)


def scores_text(res: SessionResult) -> str:
    """``Ann 12 · Bo 9`` (finished sessions with points; sides otherwise)."""
    if not res.finished:
        return ""
    if res.has_scores:
        return " · ".join(f"{fit_name(p.name)} {number(p.value)}" for p in res.players)
    sides = sorted({p.side for p in res.players if p.winner and p.side})
    return " · ".join(side_label(side, res.game) for side in sides)


SOURCE_LABELS: Mapping[str, str] = {
    "keyboard": N_("keyboard"),
    "button-box": N_("button box"),
    "phone": N_("phone"),
}


def source_label(source: str) -> str:
    """Where a Tadaa! press came from."""
    return _(SOURCE_LABELS[source]) if source in SOURCE_LABELS else source


def side_label(side: str, game_id: str | None = None) -> str:
    """A side/role as stored in an outcome, in the host's language where its game's
    record labels it (``GameInfo.side_labels``, in the game's own words); unknown
    sides as stored. Without ``game_id`` the first record that knows the side."""
    if not side:
        return ""
    try:
        records = [find_game(game_id)] if game_id is not None else list(GAMES)
    except RuleError:  # a game from a newer version
        return side
    for info in records:
        label = info.side_labels.get(side)
        if label is not None:
            with game_domain(info.domain):
                return _(label)
    return side
