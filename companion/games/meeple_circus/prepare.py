"""Meeple Circus draws, with the session's randomness, returned as actions to record.

It also checks, for the new-session form, what only this machine can: that each act's
music file exists and decodes (``check_options``), before anything is written.

The only draw in the game is act 1's first player when the host leaves it to
chance (``r``). It runs on the writer thread (``LiveSession.rng``) and goes straight
into a ``choose-first-player`` action with ``random: true``, committed before the
screen shows it: a kill right after ``r`` resumes to the same first player.

The host's music pick (``m``) is checked here too, on the writer thread, before it is
recorded (``music_choice``): the file must read, the built-in track must exist. A
pick that cannot play is refused with the reason and nothing is written.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.games.meeple_circus.rules.actions import ChooseFirstPlayer, ChooseMusic
from companion.games.meeple_circus.rules.game import check_music_choice
from companion.games.meeple_circus.rules.state import CircusState
from companion.rules.base import N_, BadActionError


def random_first_player(rng: random.Random, state: CircusState) -> ChooseFirstPlayer:
    """Draw act 1's first player among every seat."""
    return ChooseFirstPlayer(rng.choice(state.player_ids()), random=True)


def music_choice(music: str) -> ChooseMusic:
    """The ``choose-music`` action for a pick, once this machine can play it.

    Raises ``BadActionError`` with the reason (a missing or undecodable file, a cut
    longer than the song, an unknown track); the rules check the pick's form.
    """
    from companion.audio.choice import parse_music_choice
    from companion.audio.errors import AudioFileError
    from companion.audio.tracks import track

    text = music.strip()
    if check_music_choice(text) == "track":
        try:
            track(text.removeprefix("track:"))
        except KeyError:
            raise BadActionError(
                N_("There is no built-in track {track!r}."), track=text.removeprefix("track:")
            ) from None
    else:
        try:  # on the writer thread: the file is decoded whole to measure it
            parse_music_choice(text, measure=True)
        except AudioFileError as exc:
            raise BadActionError(exc.template, **exc.params) from exc
    return ChooseMusic(text)


def check_options(options: Mapping[str, Any]) -> dict[str, str]:
    """Each act's music problem, by option name (empty: fine): a missing or undecodable
    file, a countdown written another way, a cut longer than the song."""
    from companion.audio.choice import parse_music_choice
    from companion.audio.errors import AudioFileError

    problems: dict[str, str] = {}
    for act in (1, 2, 3):
        name = f"music_act{act}"
        try:  # on the writer thread (the form's start): each file decoded whole
            parse_music_choice(str(options.get(name) or ""), measure=True)
        except AudioFileError as exc:
            problems[name] = str(exc)
    return problems
