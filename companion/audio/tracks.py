"""The music and cue catalogue: which WAV in ``companion/audio/sounds/`` plays for which act.

A host may also pick their own file (:func:`load_track`): MP3, FLAC, OGG or WAV.

Design decisions:

* The catalogue is data here; ``sounds/render.py`` reads the same table to know
  what files to write, so the names cannot drift apart.
* A track's length comes from its WAV header (frames / rate), never from playback:
  the countdown is the track's length from the moment ``play`` returns.
* Titles are ``N_`` templates, translated when :func:`catalogue` is called (after
  the app has chosen its language).
* The WAVs are package data (``companion/audio/sounds/{tracks,cues}``), found with
  :mod:`importlib.resources`, so every kind of install carries its music.
* ``COMPANION_SOUNDS`` may point at another folder laid out the same way (tests,
  or an install that keeps the sounds elsewhere).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from companion.audio.decode import read_music_info
from companion.i18n import N_, _
from companion.resources import package_path

__all__ = [
    "ACTS",
    "CUES",
    "TRACK_TABLE",
    "Track",
    "builtin_sounds_dir",
    "catalogue",
    "cue",
    "load_track",
    "sounds_dir",
    "track",
    "tracks_for_act",
    "wav_duration",
]

ACTS = (1, 2, 3)


@dataclass(frozen=True)
class TrackSpec:
    """One row of the catalogue: what ``render.py`` writes and which act uses it."""

    id: str
    act: int
    title: str  # N_ template


TRACK_TABLE: tuple[TrackSpec, ...] = (
    TrackSpec("big-top-march", 1, N_("Big Top March")),
    TrackSpec("jugglers-galop", 2, N_("The Jugglers' Galop")),
    TrackSpec("tightrope-waltz", 3, N_("Tightrope Waltz")),
    TrackSpec("clown-car-polka", 3, N_("Clown Car Polka")),
    TrackSpec("grand-finale", 3, N_("Grand Finale March")),
)

#: Cue name → what it is for.
CUES: dict[str, str] = {
    "start": N_("performance starts"),
    "warning": N_("10 seconds left"),
    "end": N_("time is up"),
    "tadaa": N_("Tadaa!"),
    "tie": N_("tie: the host decides"),
}


@dataclass(frozen=True)
class Track:
    """A playable WAV with its length read from the header."""

    id: str
    title: str
    path: Path
    duration_s: float


def builtin_sounds_dir() -> Path:
    """The sounds the package carries (what ``sounds/render.py`` writes)."""
    return package_path("audio", "sounds")


def sounds_dir() -> Path:
    """``$COMPANION_SOUNDS`` if set, else the package's own sounds."""
    override = os.environ.get("COMPANION_SOUNDS")
    if override:
        return Path(override)
    return builtin_sounds_dir()


def track_path(track_id: str, root: Path | None = None) -> Path:
    return (root or sounds_dir()) / "tracks" / f"{track_id}.wav"


def cue_path(name: str, root: Path | None = None) -> Path:
    return (root or sounds_dir()) / "cues" / f"{name}.wav"


def wav_duration(path: Path) -> float:
    """A built-in sound's length in seconds, from its header (the decoder's count)."""
    return read_music_info(path).duration_s


def _track(spec: TrackSpec) -> Track:
    path = track_path(spec.id)
    return Track(spec.id, _(spec.title), path, wav_duration(path))


def catalogue() -> list[Track]:
    """Every built-in track, act 1 first."""
    return [_track(spec) for spec in TRACK_TABLE]


def tracks_for_act(act: int) -> list[Track]:
    """The built-in tracks for ``act``; the first one is the act's default."""
    if act not in ACTS:
        raise ValueError(f"no act {act!r}: acts are 1, 2 and 3")
    return [_track(spec) for spec in TRACK_TABLE if spec.act == act]


def track(track_id: str) -> Track:
    """A built-in track by id."""
    for spec in TRACK_TABLE:
        if spec.id == track_id:
            return _track(spec)
    raise KeyError(track_id)


def cue(name: str) -> Path:
    """The WAV of a cue: 'start', 'warning' (10 s left), 'end', 'tadaa', 'tie'."""
    if name not in CUES:
        raise ValueError(f"no cue {name!r}: cues are {', '.join(CUES)}")
    return cue_path(name)


def load_track(path: Path, title: str | None = None) -> Track:
    """A host-chosen music file (MP3, FLAC, OGG or WAV) as a :class:`Track`, checked first.

    The length is the decoder's. Raises :class:`~companion.audio.errors.AudioFileError`
    (missing, or a file the decoder cannot read, with its reason) — the caller keeps
    its previous choice.
    """
    path = Path(path).expanduser()
    info = read_music_info(path)
    return Track(f"file:{path}", title or path.stem, path, info.duration_s)
