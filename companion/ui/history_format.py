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

from companion.games import find_game
from companion.i18n import N_, _
from companion.rules.base import RuleError
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
        specs = {spec.name: spec for spec in find_game(game_id).load().options}
    except (RuleError, ImportError):  # a game from a newer version, or its module missing
        specs = {}
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
    return ", ".join(out)


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


def number(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "–"
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.{digits}f}"


def percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def winners_text(res: SessionResult) -> str:
    if res.status == "abandoned":
        return _("abandoned")
    if not res.finished:
        return _("unfinished")
    return ", ".join(p.name for p in res.winners)


def scores_text(res: SessionResult) -> str:
    """``Ann 12 · Bo 9`` (finished sessions with points; sides otherwise)."""
    if not res.finished:
        return ""
    if res.has_scores:
        return " · ".join(f"{p.name} {number(p.value)}" for p in res.players)
    sides = sorted({p.side for p in res.players if p.winner and p.side})
    return " · ".join(side_label(side) for side in sides)


SIDE_LABELS: Mapping[str, str] = {
    # 喵喵咪呀: the Sheriff and the Undercover against the Meowfia members.
    "police": N_("police"),
    "meowfia": N_("meowfia"),
    # 喵窩暗影: the two teams and the neutrals.
    "red": N_("red"),
    "blue": N_("blue"),
    "neutral": N_("neutral"),
}


SOURCE_LABELS: Mapping[str, str] = {
    "keyboard": N_("keyboard"),
    "button-box": N_("button box"),
}


def source_label(source: str) -> str:
    """Where a Tadaa! press came from."""
    return _(SOURCE_LABELS[source]) if source in SOURCE_LABELS else source


def side_label(side: str) -> str:
    """A side/role as stored in an outcome, in the host's language where we know it."""
    if not side:
        return ""
    return _(SIDE_LABELS[side]) if side in SIDE_LABELS else _(side)
