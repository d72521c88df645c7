"""The 喵喵咪呀 host guide: ``allowed`` is exactly what ``apply`` accepts; sentences, prompts."""

from __future__ import annotations

import random

from meowfia_play import ballot, intercept, next_action, play, started

from companion.games.meowfia.guide import GUIDE
from companion.games.meowfia.rules import (
    GAME,
    Abstain,
    Inspect,
    SmugglingDone,
    Vote,
)
from companion.i18n import catalog
from companion.rules.base import RuleError, seat_players

S = 1_000_000_000


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
