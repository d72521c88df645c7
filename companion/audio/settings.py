"""What times each act: a built-in track, a WAV file the host chose, or a plain countdown.

Design decisions:

* A :class:`MusicPlan` is a value: every change returns a new plan, and a change
  that fails (not a WAV, a format we cannot play, a silly countdown) raises
  :class:`~companion.audio.errors.AudioFileError` and leaves the old plan as it was.
  The file is checked when chosen, so a bad file is found at the settings screen,
  not in the middle of a performance.
* The plan stores only what the host chose (track id, file path, seconds); lengths
  are read from the WAV header when a timer is asked for, so a file replaced on
  disk between games is measured again.
* JSON form (for the settings file): ``{"acts": {"1": {"track": "big-top-march"},
  "2": {"file": "/home/me/galop.wav"}, "3": {"countdown": 120}}}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.audio.errors import AudioFileError
from companion.audio.tracks import ACTS, TRACK_TABLE, Track, load_track, track
from companion.i18n import N_

COUNTDOWN_MIN_S = 15
COUNTDOWN_MAX_S = 900


@dataclass(frozen=True)
class ActMusic:
    """One act's timer: exactly one of ``track_id``, ``path``, ``seconds`` is set."""

    track_id: str | None = None
    path: str | None = None
    seconds: int | None = None

    def to_json(self) -> dict[str, Any]:
        if self.track_id is not None:
            return {"track": self.track_id}
        if self.path is not None:
            return {"file": self.path}
        return {"countdown": self.seconds}


@dataclass(frozen=True)
class MusicPlan:
    acts: tuple[ActMusic, ActMusic, ActMusic]

    @classmethod
    def default(cls) -> MusicPlan:
        first = [_default_id(a) for a in ACTS]
        return cls((ActMusic(first[0]), ActMusic(first[1]), ActMusic(first[2])))

    def get(self, act: int) -> ActMusic:
        _check_act(act)
        return self.acts[act - 1]

    def with_track(self, act: int, track_id: str) -> MusicPlan:
        if track_id not in {s.id for s in TRACK_TABLE}:
            raise AudioFileError(N_("There is no built-in track {track}."), track=track_id)
        return self._set(act, ActMusic(track_id=track_id))

    def with_file(self, act: int, path: str | Path) -> MusicPlan:
        chosen = Path(path).expanduser()
        load_track(chosen)  # raises AudioFileError with the reason; self is unchanged
        return self._set(act, ActMusic(path=str(chosen.resolve())))

    def with_countdown(self, act: int, seconds: int) -> MusicPlan:
        if not isinstance(seconds, int) or not COUNTDOWN_MIN_S <= seconds <= COUNTDOWN_MAX_S:
            raise AudioFileError(
                N_("A countdown must be a whole number of seconds from {low} to {high}."),
                low=COUNTDOWN_MIN_S,
                high=COUNTDOWN_MAX_S,
            )
        return self._set(act, ActMusic(seconds=seconds))

    def timer(self, act: int) -> tuple[Track | None, float]:
        """The track to play (None: a plain countdown) and the countdown's length."""
        music = self.get(act)
        if music.track_id is not None:
            t = track(music.track_id)
            return t, t.duration_s
        if music.path is not None:
            t = load_track(Path(music.path))
            return t, t.duration_s
        assert music.seconds is not None
        return None, float(music.seconds)

    def to_json(self) -> dict[str, Any]:
        return {"acts": {str(a): self.acts[a - 1].to_json() for a in ACTS}}

    @classmethod
    def from_json(cls, data: Any) -> MusicPlan:
        """Read a saved plan; anything unreadable falls back to the act's default."""
        plan = cls.default()
        acts = data.get("acts", {}) if isinstance(data, dict) else {}
        for act in ACTS:
            entry = acts.get(str(act)) if isinstance(acts, dict) else None
            if not isinstance(entry, dict):
                continue
            try:
                if "track" in entry:
                    plan = plan.with_track(act, str(entry["track"]))
                elif "file" in entry:
                    plan = plan.with_file(act, str(entry["file"]))
                elif "countdown" in entry:
                    plan = plan.with_countdown(act, entry["countdown"])
            except AudioFileError:
                continue
        return plan

    def _set(self, act: int, music: ActMusic) -> MusicPlan:
        _check_act(act)
        acts = list(self.acts)
        acts[act - 1] = music
        return MusicPlan((acts[0], acts[1], acts[2]))


def _default_id(act: int) -> str:
    return next(s.id for s in TRACK_TABLE if s.act == act)


def _check_act(act: int) -> None:
    if act not in ACTS:
        raise ValueError(f"no act {act!r}: acts are 1, 2 and 3")
