"""What an act's music setting says, checked once, for the form and the ``m`` dialog.

The setting is one line a host types:

* ``""``: the act's built-in track;
* ``countdown:SECONDS``: a plain countdown of 15 s to 15 min, no music;
* a path to an MP3, FLAC, OGG or WAV file: the song times the act;
* ``PATH @ M:SS`` (or ``PATH @ SECONDS``): the song cut to that length, with a
  short fade-out; the countdown is the cut.

:func:`parse_music_choice` is the one place that reads it. It refuses with a
translatable :class:`MusicChoiceError` what would otherwise be accepted on the form
and fail at the table: a missing file, a file the decoder cannot read, a countdown
written another way (``倒计时:20``, ``countdown: 2:00``), a cut longer than the song.
It touches the file system only to read the chosen file's header.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.audio.decode import MusicInfo, read_music_info
from companion.audio.errors import AudioFileError
from companion.i18n import N_

COUNTDOWN_PREFIX = "countdown:"
COUNTDOWN_MIN_S = 15
COUNTDOWN_MAX_S = 900
"""A countdown's and a cut's bounds (the Meeple Circus rules' bounds: 15 s to 15 min)."""

_COUNTDOWNISH = re.compile(r"^\s*[^\s/\\:：.]+\s*[:：][\d\s:：]*$")
_CUT = re.compile(r"^(?P<path>.*?)\s+@\s*(?P<cut>[^@]*)$")
_LENGTH = re.compile(r"^(?:(?P<m>\d{1,2})[:：](?P<s>\d{2})|(?P<secs>\d{1,4}))$")


class MusicChoiceError(AudioFileError):
    """An act's music setting that cannot be used; the message says why and how."""


@dataclass(frozen=True)
class MusicChoice:
    """A checked music setting.

    ``kind`` is ``"default"``, ``"countdown"`` or ``"file"``. For a countdown,
    ``length_s`` is its length; for a file it is the time the act lasts: the cut
    when there is one, else the decoded song's length.
    """

    kind: str
    text: str
    length_s: float | None = None
    path: Path | None = None
    cut_s: int | None = None
    info: MusicInfo | None = None

    @property
    def title(self) -> str:
        return self.path.stem if self.path is not None else ""


def format_length(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


_LENGTH_MESSAGES = {
    "countdown": (
        N_("A countdown {value!r} is not a length: write seconds, e.g. countdown:120."),
        N_("A countdown lasts {low} to {high} seconds (0:15 to 15:00), not {value!r}."),
    ),
    "cut": (
        N_("The cut {value!r} is not a length: write minutes:seconds (@ 2:00) or seconds (@ 120)."),
        N_("A cut lasts {low} to {high} seconds (0:15 to 15:00), not {value!r}."),
    ),
}


def _length(text: str, what: str) -> int:
    """Seconds from ``120`` or ``2:00``, within the bounds; ``what`` is countdown or cut."""
    not_a_length, out_of_bounds = _LENGTH_MESSAGES[what]
    value = text.strip()
    match = _LENGTH.match(value)
    if match is None or (match["s"] is not None and int(match["s"]) >= 60):
        raise MusicChoiceError(not_a_length, value=value)
    if match["secs"] is not None:
        seconds = int(match["secs"])
    else:
        seconds = int(match["m"]) * 60 + int(match["s"])
    if not COUNTDOWN_MIN_S <= seconds <= COUNTDOWN_MAX_S:
        raise MusicChoiceError(
            out_of_bounds, low=COUNTDOWN_MIN_S, high=COUNTDOWN_MAX_S, value=value
        )
    return seconds


def parse_music_choice(text: str, *, measure: bool = False) -> MusicChoice:
    """Read and check an act's music setting (see the module docstring).

    ``measure``: decode the whole file to check its length (``decode.measure_music``:
    a full decode, so never on the UI thread); else its header's (or the length
    measured before).

    Raises :class:`MusicChoiceError` with a message for the host.
    """
    raw = text.strip()
    if not raw:
        return MusicChoice("default", raw)
    if raw.startswith(COUNTDOWN_PREFIX):
        value = raw.removeprefix(COUNTDOWN_PREFIX).strip()
        if not value.isdigit():
            raise MusicChoiceError(
                N_("A countdown is written countdown:SECONDS, e.g. countdown:120, not {value!r}."),
                value=raw,
            )
        seconds = _length(value, "countdown")
        return MusicChoice("countdown", f"{COUNTDOWN_PREFIX}{seconds}", float(seconds))
    cut_s: int | None = None
    path_text = raw
    cut = None if Path(raw).expanduser().exists() else _CUT.match(raw)
    if cut is not None:
        path_text = cut["path"].strip()
        cut_s = _length(cut["cut"], "cut")
    path = Path(path_text).expanduser()
    countdownish = _COUNTDOWNISH.match(raw)
    if countdownish is not None and cut is None and not path.exists():
        # "倒计时:20", "Countdown: 90", "timer:2:00": a countdown in other words.
        raise MusicChoiceError(
            N_(
                "{value!r} is neither a music file nor a countdown: write a countdown "
                "as countdown:SECONDS, e.g. countdown:120."
            ),
            value=raw,
        )
    try:
        info = read_music_info(path, measure=measure)
    except MusicChoiceError:
        raise
    except AudioFileError as exc:
        raise MusicChoiceError(exc.template, **exc.params) from exc
    if cut_s is not None and cut_s > info.duration_s:
        raise MusicChoiceError(
            N_("{file} lasts only {length}; a cut of {cut} is longer than the song."),
            file=str(path),
            length=format_length(info.duration_s),
            cut=format_length(cut_s),
        )
    length = float(cut_s) if cut_s is not None else info.duration_s
    return MusicChoice("file", raw, length, path, cut_s, info)


def parse_music_file(text: str) -> MusicChoice:
    """:func:`parse_music_choice` for a prompt that asks for a file (the ``m`` dialog)."""
    choice = parse_music_choice(text)
    if choice.kind != "file":
        raise MusicChoiceError(
            N_("Type the path of a music file (MP3, FLAC, OGG or WAV), e.g. {example}."),
            example="~/music/circus.mp3 @ 2:00",
        )
    return choice


def check_act_music(settings: list[str]) -> list[MusicChoice]:
    """Every act's setting checked, act 1 first; the error names the act."""
    choices = []
    for act, text in enumerate(settings, start=1):
        try:
            choices.append(parse_music_choice(text))
        except MusicChoiceError as exc:
            raise MusicChoiceError(
                N_("Act {act} music: {problem}"), act=act, problem=str(exc)
            ) from exc
    return choices
