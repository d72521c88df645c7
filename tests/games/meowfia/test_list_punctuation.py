"""Several names in one Chinese sentence are listed with the enumeration comma (、), as
every other game's lists are; an ASCII ", " between Chinese words was a language leak
(seen in the open-early question: 「只有 小明, Bo, 阿花 被盘问过」)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from meowfia_play import ballot, intercept, play, started

from companion.games.meowfia import vote_grid
from companion.games.meowfia.guide import GUIDE
from companion.games.meowfia.rules import Question, SmugglingDone, Vote
from companion.games.meowfia.view import tally
from companion.i18n import catalog, game_domain, set_language


@pytest.fixture
def zh() -> Iterator[None]:
    set_language("zh")
    with game_domain("meowfia"):
        yield
    set_language("en")


def test_the_open_early_question_lists_the_questioned_with_the_enumeration_comma(zh: None) -> None:
    state = play(started(), SmugglingDone())
    for _ in range(3):
        assert state.current_round is not None
        nxt = state.current_round.next_to_question
        assert nxt is not None
        state = play(state, Question(nxt))
    question = GUIDE.confirm(state, "inspect")
    assert question is not None
    text = question.render(catalog("zh", "meowfia").gettext)
    assert "Bo、Cy、Di" in text, text
    assert ", " not in text


def test_a_tie_names_its_players_with_the_enumeration_comma(zh: None) -> None:
    before = ballot(intercept(started()), {"p2": "p3", "p3": "p4", "p4": "p3", "p5": "p4"})
    assert before.ballot is not None
    assert [v for v in before.voters if before.ballot.cast_of(v) is None] == ["p6"]
    tied_vote = Vote("p6", "p5")
    closed = play(before, tied_vote)
    assert closed.ballot is not None and closed.ballot.result == "tie"
    gettext = catalog("zh", "meowfia").gettext
    sentences = [
        GUIDE.describe(tied_vote, before, closed).render(gettext),
        vote_grid.grid_status(tally(closed, closed.ballot)),
        tally(closed, closed.ballot).tied_names.render(gettext),
    ]
    for text in sentences:
        assert "Cy、" in text and "Di" in text, text
        assert ", " not in text, text
