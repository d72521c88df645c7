"""The end banner names each winner once, in seat order, in both languages.

Before the fix a game's summary named its winners and the banner added "Winners: …"
after it, so every winner was named twice ("The Meowfia win with 3 smuggles: Bo, Cy.
·  Winners: Bo, Cy"), and the 喵喵咪呀 win box below listed them a third time.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.meowfia.rules import (
    BUILDINGS,
    GAME,
    Identify,
    Inspect,
    MeowfiaState,
    Reveal,
    SmugglingDone,
    Start,
    Vote,
)
from companion.games.meowfia.screen import MeowfiaScreen
from companion.i18n import set_language
from companion.rules.base import Action, seat_players
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.game_screen import end_banner
from tests.games.meowfia.meowfia_play import progress_actions
from tests.screen_text import missing_characters, visible_text

# Names that are no substring of each other nor of any sentence around them.
NAMES = {
    "en": ["Ann", "Bob", "Cyd", "Dot", "Eve", "Fay"],
    "zh": ["阿安", "波波", "小西", "大伟", "伊娃", "菲菲"],
}


def smuggles(state: MeowfiaState, undercover: str) -> Action:
    """Three empty boxes, then who the Undercover was."""
    if state.phase == "setup":
        return Start("p1", "p2")
    if state.phase == "smuggling":
        return SmugglingDone()
    if state.phase == "inspection":
        return Inspect(BUILDINGS[state.smuggles], "empty")
    return Identify(undercover)


def accuse(state: MeowfiaState, target: str) -> Action:
    """Everyone still voting points at ``target`` (who points at someone else)."""
    ballot = state.ballot
    assert ballot is not None
    if ballot.result == "accused":
        return Reveal(target, "undercover" if target == "p5" else "meowfia")
    voter = next(v for v in ballot.voters if ballot.cast_of(v) is None)
    other = next(c for c in ballot.candidates if c not in (voter, target))
    return Vote(voter, other if voter == target else target)


def caught(state: MeowfiaState, undercover: str) -> Action:
    """One intercept; the reckoning accuses the Undercover."""
    if state.phase == "setup":
        return Start("p1", "p2")
    if state.phase == "smuggling":
        return SmugglingDone()
    if state.phase == "inspection":
        return Inspect("E", "contraband")
    return accuse(state, undercover)


def intercepts(state: MeowfiaState, undercover: str) -> Action:
    """Three intercepts, three innocent members accused; then who the Undercover was."""
    if state.phase == "setup":
        return Start("p1", "p2")
    if state.phase == "smuggling":
        return SmugglingDone()
    if state.phase == "inspection":
        return Inspect("E", "contraband")
    if state.phase == "over":
        return Identify(undercover)
    return accuse(state, ("p2", "p3", "p4")[state.intercepts - 1])


def named(text: str, names: list[str]) -> list[str]:
    """The names in ``text`` in the order they appear, each time it appears."""
    found = [(m.start(), name) for name in names for m in re.finditer(re.escape(name), text)]
    return [name for _at, name in sorted(found)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("ending", [smuggles, caught, intercepts])
async def test_the_banner_names_each_winner_once_in_seat_order(tmp_path, lang, ending):
    names = NAMES[lang]
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meowfia", names, {})
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MeowfiaScreen)
        for _step in range(60):
            state = screen.session.state
            if state.ended is not None and state.undercover is not None:
                break
            screen.submit(ending(state, "p5"))
            await app.settle()
        outcome = screen.session.outcome
        assert outcome is not None and outcome.winners
        winners = [names[int(pid[1:]) - 1] for pid in outcome.winners]
        banner = str(screen.query_one("#outcome-banner").render())
        everyone = named(banner, names)
        assert [n for n in everyone if n in winners] == winners, banner
        box = str(screen.query_one("#mf-win").render())
        assert named(box, winners) == [], box  # the win box below does not list them again
        assert missing_characters(banner, visible_text(app)) == ""  # nothing cut at 80x24


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(5, 9), lang=st.sampled_from(["en", "zh"]))
def test_every_ending_of_random_games_names_each_winner_once(seed, n, lang):
    set_language(lang)
    try:
        rnd = random.Random(seed)
        players = seat_players([f"Q{i}" for i in range(n)])
        state = GAME.setup(players, GAME.check_options({}))
        for _step in range(400):
            outcome = GAME.outcome(state)
            if outcome is not None and outcome.winners:
                text = end_banner(players, outcome)
                wanted = [p.name for p in players if p.id in outcome.winners]
                said = [q for q in re.findall(r"Q\d", text) if q in wanted]
                assert said == wanted, text  # others (the caught Undercover) may be named
            moves = progress_actions(state, rnd)
            if not moves:
                break
            state = GAME.apply(state, rnd.choice(moves))
    finally:
        set_language("en")
