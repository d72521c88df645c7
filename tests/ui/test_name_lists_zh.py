"""Lists of names read as Chinese in Chinese (issue 22, "Reading"): Home, its resume
dialog, History and a game's end banner joined players with an ASCII ", " and put them
in ASCII parentheses (seen in tmux: ``安, 波, 茜`` and ``骷髅  (安, 波, 茜)``). Every
such list goes through ``companion.i18n.listing`` / ``paren``; the screens are read
whole here, as the host sees them."""

from __future__ import annotations

import random

from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text
from tests.ui.test_fullwidth_punctuation import offenders

NAMES = ["安安", "波波", "茜茜"]


def shown(app) -> str:  # type: ignore[no-untyped-def]
    """The screen without its footer (key names there, ``? 帮助``, are ASCII on purpose)."""
    return "\n".join(visible_text(app).splitlines()[:-1])


async def _play(db, finish: bool) -> None:  # type: ignore[no-untyped-def]
    app = make_app(db, lang="zh", clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        while app.screen.__class__.__name__ == "ResumeDialog":
            await pilot.press("escape")
            await pilot.pause()
        app.start_session("scorepad", NAMES, {})
        await app.settle()
        for key in ["s", "5", "enter", "c"]:
            await pilot.press(key)
            await app.settle()
        if finish:
            await pilot.press("E")
            await app.settle()
            await pilot.press("y")
            await app.settle()
            text = shown(app)
            assert "安安" in text
            assert not offenders(text), offenders(text)


async def test_home_resume_and_history_list_names_in_chinese(tmp_path) -> None:
    db = tmp_path / "db.sqlite3"
    try:
        await _play(db, finish=True)
        await _play(db, finish=False)
        app = make_app(db, lang="zh", clock=ManualClock(), rng=random.Random(1))
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await app.settle()
            assert app.screen.__class__.__name__ == "ResumeDialog"
            text = shown(app)
            assert "安安" in text and not offenders(text), offenders(text)
            await pilot.press("escape")
            await app.settle()
            text = shown(app)
            assert text.count("安安") >= 2 and not offenders(text), offenders(text)
            await pilot.press("h")
            await app.settle()
            text = shown(app)
            assert "安安" in text and not offenders(text), offenders(text)
    finally:
        set_language("en")


def test_an_outcome_names_its_winners_in_the_languages_list() -> None:
    """A game's outcome names its winners with ``{names}`` (joined by the rules with an
    ASCII comma): the banner, the board and History's detail fill it with the winners in
    the shown language's list."""
    from companion.rules.base import Outcome, seat_players
    from companion.widgets.outcome import outcome_sentence

    players = seat_players(["安安", "波波", "茜茜"])
    outcome = Outcome(
        "win",
        (players[0].id, players[2].id),
        summary="The Meowfia win with 3 smuggles: {names}.",
        params={"names": "安安, 茜茜"},
    )
    try:
        set_language("zh")
        sentence = outcome_sentence(players, outcome)
        assert "安安、茜茜" in sentence and not offenders(sentence), sentence
        set_language("en")
        assert "安安, 茜茜" in outcome_sentence(players, outcome)
    finally:
        set_language("en")
