"""The 喵喵咪呀 host guide: ``allowed`` is exactly what ``apply`` accepts; sentences, prompts."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from meowfia_play import ballot, intercept, next_action, play, started

from companion.games.meowfia.guide import GUIDE
from companion.games.meowfia.rules import (
    BUILDINGS,
    GAME,
    Abstain,
    Identify,
    Inspect,
    MeowfiaState,
    MoveMarker,
    Question,
    Retract,
    Reveal,
    RevealTile,
    Revote,
    SetCounter,
    SetWeight,
    SmugglingDone,
    Start,
    Timer,
    Vote,
)
from companion.games.meowfia.rules.actions import ALL_ACTIONS
from companion.i18n import catalog
from companion.rules.base import Action, RuleError, seat_players

S = 1_000_000_000


def candidates(state: MeowfiaState) -> list[Action]:
    """Every action of every type worth trying here (each type at least once)."""
    ids = [p.id for p in state.players]
    out: list[Action] = [SmugglingDone(), Revote()]
    for a in ids:
        out += [Question(a), Question(a, "N"), Abstain(a), Retract(a), Identify(a)]
        out += [SetWeight(a, Fraction(2), "ability")]
        for tile in ("undercover", "meowfia"):
            out += [Reveal(a, tile), RevealTile(a, tile, "ability")]
        for b in ids:
            out += [Start(a, b), Vote(a, b)]
    for building in BUILDINGS:
        out += [Inspect(building, "contraband"), Inspect(building, "empty")]
    for marker in ("ring", "message", "rose"):
        out += [MoveMarker(marker, to, "ability") for to in (*ids, None)]
    for counter in ("smuggles", "intercepts"):
        out += [SetCounter(counter, value, "mistake") for value in range(4)]
    since = state.timer.since_ns if state.timer else 0
    for command in ("start", "pause", "resume"):
        out += [Timer(command, since), Timer(command, since + 10_000 * S)]
    assert {type(a) for a in out} == set(ALL_ACTIONS)
    return out


def check_allowed(state: MeowfiaState) -> None:
    allowed = GUIDE.allowed(state)
    accepted: set[str] = set()
    for action in candidates(state):
        try:
            GAME.apply(state, action)
        except RuleError:
            continue
        assert action.type in allowed, (action, state.phase)
        accepted.add(action.type)
    # Exact: every allowed type has an accepted action among the candidates.
    assert accepted == allowed, (allowed - accepted, state.phase)
    for tag in set(GAME.action_types) - allowed:
        assert GUIDE.why_not(state, tag).render()  # a reason, never silence


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(5, 10),
    tied_only=st.booleans(),
    seconds=st.sampled_from([0, 30]),
)
def test_apply_accepts_exactly_the_allowed_types(
    seed: int, n: int, tied_only: bool, seconds: int
) -> None:
    rnd = random.Random(seed)
    options = {
        "revote_tied_only": tied_only,
        "smuggling_seconds": seconds,
        "discussion_seconds": 60 - seconds,
    }
    state = GAME.setup(seat_players([f"P{i}" for i in range(n)]), GAME.check_options(options))
    for _ in range(80):
        check_allowed(state)
        action = next_action(state, rnd)
        if action is None:
            break
        try:
            state = GAME.apply(state, action)
        except RuleError:
            continue


def test_describe_names_players_and_says_the_result() -> None:
    state = started()
    after = play(state, SmugglingDone())
    assert GUIDE.describe(SmugglingDone(), state, after).render() == (
        "Round 1: the smuggling is done; the inspection begins."
    )
    reckoning = intercept(started())
    before = ballot(reckoning, {v: "p3" for v in ("p2", "p4", "p5")})
    vote = Vote("p6", "p3")
    before = play(before, Abstain("p3"))
    closed = play(before, vote)
    text = GUIDE.describe(vote, before, closed).render()
    assert text.startswith("Fa points at Cy (")
    assert "Cy is accused with" in text
    zh = GUIDE.describe(vote, before, closed).render(catalog("zh").gettext)
    assert "Fa" in zh and "Cy" in zh and "指" in zh


def test_describe_every_action_of_a_game_in_both_languages() -> None:
    """Every sentence renders in English and Chinese, and no player id leaks into it."""
    rnd = random.Random(3)
    options = GAME.check_options({"smuggling_seconds": 30, "discussion_seconds": 30})
    state = GAME.setup(seat_players(["Ann", "Bo", "Cy", "Di", "Ed", "Fa"]), options)
    zh = catalog("zh").gettext
    seen: set[str] = set()
    for _ in range(400):
        action = next_action(state, rnd)
        if action is None:
            break
        try:
            after = GAME.apply(state, action)
        except RuleError:
            continue
        sentence = GUIDE.describe(action, state, after)
        english, chinese = sentence.render(), sentence.render(zh)
        assert english and chinese
        for pid in ("p1", "p2", "p3", "p4", "p5", "p6"):
            assert pid not in english and pid not in chinese
        assert chinese != english or action.type == "timer", english
        seen.add(action.type)
        state = after
    assert {"start", "vote", "inspect"} <= seen


def test_start_player_is_the_sheriff() -> None:
    state = started(sheriff="p3", first="p5")
    assert GUIDE.start_player(state) == "p3"
    assert GUIDE.start_player(GAME.setup(state.players, {})) is None


def test_prompts_say_what_to_do_in_every_phase() -> None:
    zh = catalog("zh").gettext
    state = GAME.setup(started().players, {})
    assert "Sheriff" in GUIDE.prompt(state).render()
    state = started()
    assert "contraband" in GUIDE.prompt(state).render()
    state = play(state, SmugglingDone())
    assert "questions Bo next" in GUIDE.prompt(state).render()
    state = play(state, Inspect("N", "contraband"))
    assert "enter each vote (0 of 5" in GUIDE.prompt(state).render()
    for text in (GUIDE.prompt(s).render(zh) for s in (state, started())):
        names_out = text.replace("Fa", "").replace("Bo", "")
        assert text and not any(c.isascii() and c.isalpha() for c in names_out), text
