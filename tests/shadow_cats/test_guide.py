"""The host guide: ``allowed`` agrees with ``apply`` in every reached state; sentences."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from shadow_helpers import placed, players
from shadow_play import Table, junk_action

from companion.games.shadow_cats import PLUGIN, prepare
from companion.games.shadow_cats.guide import GUIDE
from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import (
    ALL_ACTIONS,
    Attack,
    Destination,
    Move,
    MoveDice,
    PickCharacter,
    SetCounts,
    SetFirstPlayer,
)
from companion.games.shadow_cats.rules.termination import Termination
from companion.rules.base import Action, RuleError


def candidates(state, table: Table, rng: random.Random) -> list[Action]:
    """Actions of every type for this state: the table's next one, plausible draft
    edits and a destination, and junk of each type."""
    out: list[Action] = [table.next_action(state)]
    if state.draft is not None:
        free = [c.id for c in state.draft.roster.characters if c.id not in state.draft.characters]
        out += [
            PickCharacter(rng.choice(state.players).id, rng.choice(free)),
            SetCounts(2, 2, len(state.players) - 4),
            SetFirstPlayer(rng.choice(state.players).id),
        ]
    if state.turn is not None:
        out.append(Destination(state.turn, "forest"))
        out.append(MoveDice(state.turn, (7,)))
    for cls in ALL_ACTIONS:
        out += [junk_action(state, rng, cls) for _ in range(2)]
    return out


def walk(seed: int, count: int, steps: int = 160):
    """States from a fresh session through the draft and play; yields (state, rng, table)."""
    rng = random.Random(seed)
    table = Table(players(count), rng)
    state = GAME.setup(table.players, GAME.check_options({}))
    yield state
    state = GAME.apply(state, prepare.deal(prepare.default_roster(), table.players, rng))
    yield state
    for _ in range(rng.randint(0, 3)):
        state = GAME.apply(state, SetFirstPlayer(rng.choice(table.players).id))
    yield state
    state = GAME.apply(state, prepare.begin(state.draft, rng))
    for _ in range(steps):
        yield state
        if state.phase == "over":
            return
        action = table.next_action(state)
        if isinstance(action, Move) and action.rolls[-1] == 7 and rng.random() < 0.5:
            state = GAME.apply(state, MoveDice(action.player, action.rolls))
            yield state
            action = Destination(action.player, action.destination)
        try:
            state = GAME.apply(state, action)
        except RuleError:
            continue


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(4, 10))
def test_apply_accepts_exactly_the_allowed_types(seed, count):
    rng = random.Random(seed ^ 0x5EED)
    table = Table(players(count), random.Random(seed))
    seen: set[str] = set()
    for state in walk(seed, count):
        allowed = GUIDE.allowed(state)
        for action in candidates(state, table, rng):
            try:
                GAME.apply(state, action)
            except RuleError:
                continue
            assert action.type in allowed, (state.phase, state.step, action)
            seen.add(action.type)
        for cls in ALL_ACTIONS:
            if cls.type in allowed:
                continue
            for _ in range(3):
                action = junk_action(state, rng, cls)
                try:
                    GAME.apply(state, action)
                except RuleError:
                    continue
                raise AssertionError(f"{action} accepted but not allowed in {state.phase}")
        assert GUIDE.why_not(state, "attack").render()
        assert GUIDE.prompt(state).render()


def test_the_plugin_record_names_guide_and_termination():
    assert PLUGIN.guide is GUIDE and PLUGIN.termination is Termination
    assert {t.value for t in Termination} == {"team-wipe", "neutral-win"}
    assert all(member.__doc__ for member in Termination)


def test_sentences_use_names_and_translate_their_words():
    state = placed(["shop", "warp", "warp", "warp"], counts=(2, 2, 0))
    after = GAME.apply(state, MoveDice("p1", (8, 7)))
    assert GUIDE.describe(MoveDice("p1", (8, 7)), state, after).render() == (
        "Ann rolls 8, 7: a 7, any other location."
    )
    moved = GAME.apply(after, Destination("p1", "warp"))
    text = GUIDE.describe(Destination("p1", "warp"), after, moved)
    assert text.render() == "Ann chooses Warp Stone."
    zh = {"Warp Stone": "传送石", "{player} chooses {location}.": "{player} 选择 {location}。"}
    assert text.render(lambda s: zh.get(s, s)) == "Ann 选择 传送石。"
    attack = Attack("p1", "p2", 100)
    hit = GAME.apply(moved, attack)
    report = hit.last_attack
    assert GUIDE.describe(attack, moved, hit).render() == (
        f"Ann attacks Bo: d100 100 → {report.damage} damage, "
        f"HP {report.hp_before} → {report.hp_after}."
    )
    assert GUIDE.start_player(hit) == "p1" and GUIDE.turn(hit) == "p2"
    assert GUIDE.why_not(hit, "attack").render() == "Bo moves first: roll 2d6."
