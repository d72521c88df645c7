"""Every registered game has every part, found through its record (no guessing)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.games import GAMES, find_game
from companion.rules.base import Game
from companion.widgets.board_view import BoardView
from companion.widgets.game_screen import GameScreen


@pytest.mark.parametrize("info", GAMES, ids=lambda g: g.id)
def test_every_game_has_every_part(info) -> None:
    assert isinstance(info.rules, Game) and info.rules.id == info.id
    screen = info.screen.load()
    assert isinstance(screen, type) and issubclass(screen, GameScreen)
    board = info.board.load()
    assert isinstance(board, type) and issubclass(board, BoardView)
    if info.prepare is not None:
        assert info.prepare.load() is not None
    if info.guide_part is not None:
        from companion.rules.guide import Guide, Termination, member_docs

        assert isinstance(info.guide, Guide)
        assert info.termination is not None and issubclass(info.termination, Termination)
        docs = member_docs(info.termination)
        for member in info.termination:
            assert docs.get(member.name), f"{member!r} has no docstring"
    assert info.name_en and info.name_zh and info.name("zh") == info.name_zh
    assert find_game(info.id) is info
    for alias in info.aliases:
        assert find_game(alias.upper()) is info


def test_a_part_that_does_not_exist_fails_loudly() -> None:
    from companion.rules.plugin import Part

    with pytest.raises(ModuleNotFoundError):
        Part("companion.games.no_such_game.screen", "SCREEN").load()
    with pytest.raises(AttributeError):
        Part("companion.games.scorepad.screen", "NO_SUCH_SCREEN").load()


def test_the_score_pad_stays_last_whatever_is_registered_after_it() -> None:
    from dataclasses import replace

    from companion import games

    assert GAMES[-1].id == "scorepad"
    later = replace(GAMES[0], id="later-game", aliases=())
    order = sorted((*games._REGISTERED, later), key=lambda g: g.catch_all)
    assert [g.id for g in order][-2:] == ["later-game", "scorepad"]
    assert sorted(GAMES, key=lambda g: g.catch_all) == list(GAMES)


def test_ids_and_aliases_are_unique() -> None:
    names = [g.id for g in GAMES] + [a for g in GAMES for a in g.aliases]
    assert len(names) == len(set(names))


def test_reading_the_registry_imports_no_textual_and_no_game() -> None:
    """The home screen lists the games without importing them (start-up time)."""
    code = (
        "import sys, companion.games; "
        "bad = [m for m in ('textual', 'rich', 'serial') if m in sys.modules]; "
        "bad += [m for m in sys.modules if m.startswith('companion.games.') "
        "and m.count('.') > 2]; "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
