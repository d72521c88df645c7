"""A roster text is parsed once, however often a log's setup is applied again (every
resume, export and history replay applies it; parsing the shipped roster took ~40 ms
each time, most of a replay's time). A refused text is still refused every time."""

from __future__ import annotations

import random
import tomllib

import pytest

from companion.games.shadow_cats.prepare import default_roster, random_setup
from companion.games.shadow_cats.rules import roster as roster_module
from companion.games.shadow_cats.rules.game import ShadowCats
from companion.rules.base import DataFileError, seat_players


def test_applying_the_same_setup_again_parses_its_roster_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    roster_module.parse_roster.cache_clear()
    loads: list[str] = []
    real = tomllib.loads

    def counting(text: str, **kwargs: object) -> dict[str, object]:
        loads.append(text)
        return real(text, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tomllib, "loads", counting)
    game = ShadowCats()
    players = seat_players(["Ann", "Bo", "Cy", "Di", "Ed"])
    setup = random_setup(default_roster(), players, random.Random(1))
    assert len(loads) == 1
    states = [game.apply(game.setup(players, game.check_options({})), setup) for _ in range(5)]
    assert len(loads) == 1
    assert all(s == states[0] for s in states)
    assert states[0].roster == default_roster().parse()

    bad = "[roster\n"
    for _ in range(3):
        with pytest.raises(DataFileError):
            roster_module.parse_roster(bad, "mine.toml")
    assert loads.count(bad) == 3
