"""Builders for Shadow Cats tests: a small test roster, quick setups and placements."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.shadow_cats.prepare import default_roster
from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import Place, Relocate, Setup
from companion.games.shadow_cats.rules.board import SUMS
from companion.games.shadow_cats.rules.state import ShadowState
from companion.rules.base import Player, seat_players

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo"]
# centre Library; slots 1-6: Kingdom, Village (red), Warp, Shop (green), Demon, Forest (blue)
LAYOUT = ("library", "kingdom", "village", "warp", "shop", "demon", "forest")
PLAIN_TABLE = [
    {"from": 1, "to": 10, "damage": "miss"},
    {"from": 11, "to": 50, "damage": 10},
    {"from": 51, "to": 90, "damage": 20},
    {"from": 91, "to": 100, "damage": 30},
]
SUM_FOR = {loc: min(s for s, x in SUMS.items() if x == loc) for loc in set(SUMS.values())}


def toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f'"{k}" = {toml_value(v)}' for k, v in value.items()) + " }"
    raise TypeError(value)


def character(
    cid: str,
    element: str = "none",
    *,
    hp: int = 50,
    reach: int = 1,
    nation: str = "kingdom",
    **extra: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": cid,
        "name": cid.upper(),
        "nation": nation,
        "element": element,
        "max_hp": hp,
        "range": reach,
        "damage": PLAIN_TABLE,
    }
    data.update(extra)
    return data


def sample_characters() -> list[dict[str, Any]]:
    return [
        character("metal", "metal"),
        character("wood", "wood"),
        character("water", "water"),
        character("fire", "fire"),
        character("earth", "earth"),
        character("mimic", "none", copies=True),
        character("sniper", "none", reach=3),
        character("mid", "none", reach=2),
        character("n1"),
        character("n2"),
    ]


def sample_items() -> list[dict[str, Any]]:
    return [
        {
            "id": "metal-sword",
            "name": "Sword",
            "kind": "weapon",
            "owner": "metal",
            "owner_bonus": 10,
            "other_bonus": 4,
        },
        {
            "id": "metal-mail",
            "name": "Mail",
            "kind": "armour",
            "owner": "metal",
            "owner_bonus": 8,
            "other_bonus": 3,
        },
        {
            "id": "wood-bow",
            "name": "Bow",
            "kind": "weapon",
            "owner": "wood",
            "owner_bonus": 6,
            "other_bonus": 2,
        },
    ]


def roster_text(
    characters: Sequence[Mapping[str, Any]] | None = None,
    items: Sequence[Mapping[str, Any]] | None = None,
    board: Mapping[str, Any] | None = None,
    identities: Mapping[str, Mapping[str, int]] | None = None,
    head: Mapping[str, Any] | None = None,
) -> str:
    lines: list[str] = []
    lines.append("[roster]")
    for k, v in (head or {"title": "test roster"}).items():
        lines.append(f"{k} = {toml_value(v)}")
    if board is not None:
        lines.append("[board]")
        for k, v in board.items():
            lines.append(f"{k} = {toml_value(v)}")
    lines.append("[identities]")
    for k, v in (
        identities
        if identities is not None
        else {"4": {"red": 2, "blue": 2, "neutral": 0}, "5": {"red": 2, "blue": 2, "neutral": 1}}
    ).items():
        lines.append(f'"{k}" = {toml_value(v)}')
    for c in characters if characters is not None else sample_characters():
        lines.append("[[character]]")
        for k, v in c.items():
            lines.append(f"{k} = {toml_value(v)}")
    for i in items if items is not None else sample_items():
        lines.append("[[equipment]]")
        for k, v in i.items():
            lines.append(f"{k} = {toml_value(v)}")
    return "\n".join(lines) + "\n"


def players(n: int) -> tuple[Player, ...]:
    return seat_players(NAMES[:n])


def setup_action(
    n: int = 5,
    characters: Sequence[str] | None = None,
    counts: tuple[int, int, int] = (2, 2, 1),
    *,
    text: str | None = None,
    layout: Sequence[str] = LAYOUT,
    first: str = "p1",
    deck: Sequence[str] | None = None,
) -> Setup:
    chars = tuple(
        characters
        or ["metal", "wood", "water", "fire", "earth", "mimic", "sniper", "mid", "n1", "n2"][:n]
    )
    return Setup(
        roster_file="test.toml",
        roster=text if text is not None else roster_text(),
        characters=chars,
        layout=tuple(layout),
        red=counts[0],
        blue=counts[1],
        neutral=counts[2],
        first_player=first,
        equipment_deck=tuple(deck)
        if deck is not None
        else ("metal-sword", "wood-bow", "metal-mail"),
    )


def started(n: int = 5, **kwargs: Any) -> ShadowState:
    """Set up (phase ``start``)."""
    state = GAME.setup(players(n), GAME.check_options({}))
    return GAME.apply(state, setup_action(n, **kwargs))


def placed(locations: Sequence[str], **kwargs: Any) -> ShadowState:
    """Set up and place each player (turn order from p1) on ``locations``; phase play."""
    state = started(len(locations), **kwargs)
    for loc in locations:
        state = GAME.apply(state, Place(state.next_to_place, (SUM_FOR[loc],)))
    assert state.phase == "play"
    return state


def put(state: ShadowState, pid: str, location: str) -> ShadowState:
    """Move a piece by a manual relocate (no effect), unless it is there already."""
    if state.seat(pid).location == location:
        return state
    return GAME.apply(state, Relocate(pid, location, "test"))


def default_text() -> str:
    return default_roster().text
