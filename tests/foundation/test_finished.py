"""One rule for every game: a session is finished exactly when its guide allows nothing more.

Random legal play of every registered game (each game's testing hook, as the conformance
suite plays it); in every state reached, ``is_finished`` (what the store, Home, resume,
import and exports go by) holds exactly when ``allowed(state)`` is empty, and a state
whose guide allows nothing has an outcome (no game can get stuck unfinished).
"""

from __future__ import annotations

import dataclasses
import functools
import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games import GAMES, find_game
from companion.rules.base import seat_players
from companion.rules.testing import GameTesting
from companion.session.log import is_finished


def _walk(game_id: str, seed: int) -> Iterator[Any]:
    """Random legal play of one game, from its testing hook (the conformance suite's):
    a table size and options drawn from the hook's, then legal steps until nothing is
    left to play (or a long game's worth of steps)."""
    info = find_game(game_id)
    game, testing = info.rules, info.testing
    assert isinstance(testing, GameTesting), game_id
    rng = random.Random(seed)
    count = rng.choice(testing.tables)
    options = dict(rng.choice(testing.options))
    state = game.setup(seat_players([f"P{i}" for i in range(count)]), game.check_options(options))
    for _ in range(STEPS):
        yield state
        action = testing.random_step(game, state, rng)
        if action is None:
            return
        state = game.apply(state, action)
    yield state


STEPS = 800
"""Steps of one walk at the most: enough for random play to end every game."""

WALKS: dict[str, Callable[[int], Iterator[Any]]] = {
    info.id: functools.partial(_walk, info.id) for info in GAMES
}


def test_every_registered_game_has_a_walk() -> None:
    assert set(WALKS) == {info.id for info in GAMES}


def _check(game_id: str, seed: int) -> tuple[bool, bool]:
    """Walk one game; returns (reached finished, reached over-but-waiting)."""
    info = find_game(game_id)
    game, guide = info.rules, info.guide
    assert guide is not None
    finished = waiting = False
    for state in WALKS[game_id](seed):
        allowed = guide.allowed(state)
        done = is_finished(game, guide, state)
        assert done == (not allowed), (game_id, guide.phase(state), allowed)
        if not allowed:
            assert game.outcome(state) is not None, (game_id, guide.phase(state))
        finished |= done
        waiting |= game.outcome(state) is not None and not done
    return finished, waiting


@pytest.mark.parametrize("game_id", sorted(WALKS))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_finished_exactly_when_the_guide_allows_nothing(game_id: str, seed: int) -> None:
    _check(game_id, seed)


@pytest.mark.parametrize("game_id", sorted(WALKS))
def test_the_walks_reach_the_end(game_id: str) -> None:
    """The property above is not empty: random play reaches finished sessions (and, in
    喵喵咪呀, game overs that still wait for an entry)."""
    results = [_check(game_id, seed) for seed in range(12)]
    assert any(f for f, _w in results), game_id
    if game_id == "meowfia":  # a Police win before the Undercover is entered
        assert any(w for _f, w in results), game_id


# ----------------------------------------------------------------------------- dialogs

TYPED = {"reason": "table mistake", "amount": -1}
"""Fields the host types after picking an item (a reason, an HP change)."""


def _action_from(game: Any, action_type: str, item: Mapping[str, Any]) -> Any:
    cls = game.action_types[action_type]
    data: dict[str, Any] = {"type": action_type}
    for f in dataclasses.fields(cls):
        if f.name in item:
            value = item[f.name]
            data[f.name] = list(value) if isinstance(value, tuple) else value
        elif f.name in TYPED:
            data[f.name] = TYPED[f.name]
    return game.parse_action(data)


def _check_choices(game_id: str, seed: int) -> int:
    """Every item a dialog may offer (``guide.choices``) is accepted by ``apply``."""
    info = find_game(game_id)
    game, guide = info.rules, info.guide
    assert guide is not None
    offered = 0
    for state in WALKS[game_id](seed):
        allowed = guide.allowed(state)
        for action_type in game.action_types:
            items = guide.choices(state, action_type)
            if action_type not in allowed:
                assert items == (), (game_id, action_type)
            for item in items:
                game.apply(state, _action_from(game, action_type, item))  # no RuleError
                offered += 1
    return offered


@pytest.mark.parametrize("game_id", sorted(WALKS))
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_item_a_dialog_offers_is_accepted(game_id: str, seed: int) -> None:
    _check_choices(game_id, seed)


DIALOG_GAMES = ("cat-box", "meeple-circus", "meowfia", "shadow-cats", "skull")
"""The games whose screens pick from lists (the score pad only takes typed numbers)."""


@pytest.mark.parametrize("game_id", DIALOG_GAMES)
def test_the_dialog_lists_are_not_empty(game_id: str) -> None:
    """The property above is not empty: random play reaches states where the game's
    dialogs offer items, and each is accepted."""
    assert sum(_check_choices(game_id, seed) for seed in range(3)) > 0, game_id


def test_the_score_pad_offers_no_list() -> None:
    info = find_game("scorepad")
    assert info.guide is not None
    assert sum(_check_choices("scorepad", seed) for seed in range(2)) == 0
