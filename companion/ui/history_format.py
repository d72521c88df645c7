"""How the history's numbers read in both languages (shared by screens and the CLI).

Plain functions with no Textual import, so ``companion stats`` can use them
without paying for Textual's start-up.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import tzinfo

from companion.i18n import N_, _
from companion.rules import find_game
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
}
_PROGRESS = re.compile(r"^([A-Za-z]+) (\d+)$")


def game_name(game_id: str, lang: str) -> str:
    try:
        return find_game(game_id).name(lang)
    except RuleError:  # a game this version does not know: show its id
        return game_id


def status_label(status: str) -> str:
    return _(STATUS_LABELS.get(status, status))


def progress_label(label: str) -> str:
    """``"act 2"`` → ``"第 2 幕"`` in Chinese; unknown labels through ``_`` as they are."""
    match = _PROGRESS.match(label.strip())
    if match and match.group(1).lower() in PROGRESS_WORDS:
        return _(PROGRESS_WORDS[match.group(1).lower()]).format(n=match.group(2))
    return _(label) if label else ""


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
    return " · ".join(sides)


def side_label(side: str) -> str:
    return _(side) if side else ""
