"""Meeple Circus draws, with the session's randomness, returned as actions to record.

It also checks, for the new-session form, what only this machine can: that each act's
music file exists and decodes (``check_options``), before anything is written.

The only draw in the game is act 1's first player when the host leaves it to
chance (``r``). It runs on the writer thread (``LiveSession.rng``) and goes straight
into a ``choose-first-player`` action with ``random: true``, committed before the
screen shows it: a kill right after ``r`` resumes to the same first player.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer
from companion.games.meeple_circus.rules.state import CircusState


def random_first_player(rng: random.Random, state: CircusState) -> ChooseFirstPlayer:
    """Draw act 1's first player among every seat."""
    return ChooseFirstPlayer(rng.choice(state.player_ids()), random=True)


def check_options(options: Mapping[str, Any]) -> dict[str, str]:
    """Each act's music problem, by option name (empty: fine): a missing or undecodable
    file, a countdown written another way, a cut longer than the song."""
    from companion.audio.choice import parse_music_choice
    from companion.audio.errors import AudioFileError

    problems: dict[str, str] = {}
    for act in (1, 2, 3):
        name = f"music_act{act}"
        try:
            parse_music_choice(str(options.get(name) or ""))
        except AudioFileError as exc:
            problems[name] = str(exc)
    return problems
