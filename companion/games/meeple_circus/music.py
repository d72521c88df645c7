"""What times a Meeple Circus performance, and the one thread that talks to the sound device.

Design decisions:

* ``Music`` is what the next performance plays: a track file, or a plain countdown
  (``path`` None). The act's session option decides it (``music_from_setting``); ``m``
  picks another for one performance (``ask_music``), recorded as a ``choose-music``
  entry, so the state always says what plays next and a resumed game plays the same.
  ``MusicShelf`` reads each setting's file once. An unreadable file falls back to a
  2-minute countdown with the reason on screen.
* ``SoundDesk`` runs every audio call on one worker thread, one after the other: a
  cue can never start after (and so cut off) music the host started later, and the
  UI thread never waits for a device. One sound at a time: while music plays, the
  music is the cue, so cues are skipped then. It also keeps which attempt our music
  plays for (``start``, ``started``), stops it when that attempt no longer runs
  (``reconcile``: an undo, an abort) and sounds the 10-second warning once per
  attempt (``warn``), so the screen keeps only keys and time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.meeple_circus import view
from companion.games.meeple_circus.rules.state import CircusState
from companion.games.meeple_circus.units import NS_PER_S
from companion.i18n import _
from companion.session.live import Change
from companion.widgets.countdown import format_remaining
from companion.widgets.dialogs import ChoiceDialog, PromptDialog

FALLBACK_LENGTH_S = 120
"""A plain countdown's length when no track can be read (the official tracks' ~2 min)."""


@dataclass(frozen=True)
class Music:
    """What times a performance: a WAV file, or a plain countdown (``path`` None)."""

    title: str
    length_ns: int
    path: Path | None
    track_id: str
    note: str = ""
    """Why this was chosen when it is a fallback (shown on screen)."""
    cut_s: float | None = None
    """Play only this long (fading out): ``song.mp3 @ 2:00``; ``length_ns`` is the cut."""


def countdown_music(seconds: int, note: str = "") -> Music:
    return Music(
        _("Plain countdown"),  # its length is shown beside it: "Plain countdown (0:15)"
        seconds * NS_PER_S,
        None,
        f"countdown:{seconds}",
        note,
    )


def music_from_setting(setting: str, act: int, performance: int = 0) -> Music:
    """The music an act's session option asks for, falling back to a countdown.

    With the default setting, act 3's performers take the act's built-in tracks in
    turn (each performs to their own track); acts 1–2 use the act's first track.
    """
    from companion.audio.choice import parse_music_choice
    from companion.audio.errors import AudioFileError
    from companion.audio.tracks import track as builtin
    from companion.audio.tracks import tracks_for_act

    try:
        if setting.strip().startswith("track:"):
            chosen = builtin(setting.strip().removeprefix("track:"))
            return Music(chosen.title, round(chosen.duration_s * NS_PER_S), chosen.path, chosen.id)
        choice = parse_music_choice(setting)
        if choice.kind == "file":
            return file_music(choice)
        if choice.kind == "countdown" and choice.length_s is not None:
            return countdown_music(round(choice.length_s))
        tracks = tracks_for_act(act)
        track = tracks[performance % len(tracks)]
    except (AudioFileError, OSError, ValueError, IndexError, KeyError) as exc:
        note = _("Music unavailable ({problem}); plain countdown instead.").format(problem=exc)
        return countdown_music(FALLBACK_LENGTH_S, note)
    return Music(track.title, round(track.duration_s * NS_PER_S), track.path, track.id)


def file_music(choice: Any) -> Music:
    """The music of a checked file choice (``companion.audio.choice.MusicChoice``)."""
    assert choice.path is not None and choice.length_s is not None
    track_id = f"file:{choice.path}" + (f"@{choice.cut_s}" if choice.cut_s is not None else "")
    return Music(
        choice.title, round(choice.length_s * NS_PER_S), choice.path, track_id, cut_s=choice.cut_s
    )


class MusicShelf:
    """The ``Music`` of each (setting, act, performance), read once: a file's header is
    read the first time it is asked for, not on every tick."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, int, int], Music] = {}

    def next_for(self, state: CircusState) -> Music:
        """What times the performance that plays next (the host's pick or the act's option)."""
        key = (state.music_setting(), state.act_number, state.music_slot())
        music = self._known.get(key)
        if music is None:
            music = self._known[key] = music_from_setting(*key)
        return music

    def titles(self) -> dict[str, str]:
        """Track id → title of every music read so far (what a started attempt shows)."""
        return {m.track_id: m.title for m in self._known.values()}


async def ask_music(ask: Callable[[Any], Any], act: int) -> str | None:
    """The ``m`` dialogs: a built-in track of the act, another music file, or a countdown.

    Returns the pick as ``choose-music`` records it (``track:ID``, the file as typed,
    ``countdown:SECONDS``), or None if the host cancelled.
    """
    from companion.audio.choice import parse_music_choice, parse_music_file
    from companion.audio.errors import AudioFileError
    from companion.audio.tracks import tracks_for_act

    choices: list[tuple[str, str]] = []
    with contextlib.suppress(OSError, ValueError):
        for t in tracks_for_act(act):
            length = format_remaining(round(t.duration_s * NS_PER_S))
            choices.append((f"track:{t.id}", f"♪ {t.title} ({length})"))
    choices.append(("file", _("Another music file…")))
    choices.append(("countdown", _("A plain countdown…")))
    choice = await ask(ChoiceDialog(_("Music for this performance"), choices))
    if choice is None:
        return None
    if choice.startswith("track:"):
        return str(choice)

    def check(parse: Callable[[str], Any], text: str) -> str | None:
        try:
            parse(text)
        except AudioFileError as exc:
            return str(exc)
        return None

    if choice == "file":
        text = await ask(
            PromptDialog(
                _("Music file (MP3, FLAC, OGG or WAV); “@ 2:00” after it cuts the song"),
                check=lambda text: check(parse_music_file, text),
                placeholder="~/music/circus.mp3 @ 2:00",
            )
        )
        return str(text).strip() if text else None
    seconds = await ask(
        PromptDialog(
            _("Countdown length in seconds"),
            value="120",
            check=lambda text: check(parse_music_choice, f"countdown:{text.strip()}"),
        )
    )
    return f"countdown:{int(seconds.strip())}" if seconds else None


class SoundDesk:
    """Every call to the audio backend, in order, on one thread."""

    def __init__(self, audio: Callable[[], Any]) -> None:
        self._audio = audio
        self._jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mc-audio")
        self.playing_for: tuple[int, int, int] | None = None
        """The attempt our music plays for: (act, performance index, attempt index)."""
        self.starting = False
        """A start is on its way (the music may be opening on the audio thread)."""
        self._tie_alerted: tuple[str, ...] = ()
        self._warned: tuple[int, int, int] | None = None

    @property
    def quiet(self) -> bool:
        """No music plays or is starting: a cue may sound."""
        return self.playing_for is None and not self.starting

    def do(self, job: Callable[[], None]) -> Future[None]:
        return self._jobs.submit(job)

    def start(
        self,
        music: Music,
        clock_ns: Callable[[], int],
        started: Callable[[int, str | None], None],
        call_from_thread: Callable[..., Any],
    ) -> None:
        """Start ``music`` (a plain countdown: the start cue), then ``started(ns, error)``
        on the UI thread with the time playback started and why it failed, if it did."""
        if music.path is None:
            self.cue("start")
            self.starting = True
            started(clock_ns(), None)
            return
        self.starting = True
        path, audio = music.path, self._audio()

        def play() -> None:
            error: str | None = None
            try:
                if music.cut_s is None:
                    audio.play(path)
                else:
                    audio.play(path, cut_s=music.cut_s)
            except Exception as exc:  # a bad file: the countdown still runs
                error = str(exc)
            # The music's time starts when play() returns (playback has started).
            call_from_thread(started, clock_ns(), error)

        self.do(play)

    def cue(self, name: str) -> None:
        """Play a short cue if no music plays; a missing cue file is skipped."""
        if not self.quiet:
            return
        from companion.audio.errors import AudioFileError
        from companion.audio.tracks import cue

        audio = self._audio()
        path = cue(name)

        def job() -> None:
            with contextlib.suppress(AudioFileError, OSError, ValueError):
                audio.play(path)

        self.do(job)

    def started(
        self, music: Music, error: str | None, committed: bool, attempt: tuple[int, int, int] | None
    ) -> None:
        """The writer answered the start of ``music``: it now plays for ``attempt``, or,
        when the start was refused, it is stopped again (a countdown has nothing to stop)."""
        self.starting = False
        if music.path is None or error:
            return
        if committed:
            self.playing_for = attempt
        else:
            self.do(self._audio().stop)

    def stop(self) -> None:
        """Stop our music, if it plays."""
        if self.playing_for is not None:
            self.playing_for = None
            self.do(self._audio().stop)

    def reconcile(self, state: CircusState) -> None:
        """Stop our music when the attempt it plays for is no longer running (undo too)."""
        if self.playing_for is None or self.starting:
            return
        perf = state.performance
        running = perf is not None and perf.current is not None and perf.current.running
        if not running or view.attempt_key(state) != self.playing_for:
            self.stop()

    def warn(self, attempt: tuple[int, int, int] | None) -> None:
        """The 10-second warning cue: once per attempt, and only when no music plays."""
        if self._warned != attempt and self.quiet:
            self._warned = attempt
            self.cue("warning")

    def after(self, change: Change) -> None:
        """The cues a committed entry calls for (end, Tadaa!, tie), and stopping music."""
        kind = change.entry.payload.get("type") if change.entry.kind == "action" else None
        state: CircusState = change.state
        if kind in ("end-performance", "abort-performance"):
            self.stop()
            if kind == "end-performance":
                self.cue("end")
        elif kind == "press":
            perf = state.performance
            attempt = perf.current if perf is not None else None
            verdict = state.verdict()
            last = verdict.presses[-1] if verdict and verdict.presses else None
            if (
                attempt is not None
                and attempt.end_reason == "tadaa"
                and attempt.stop_ns == change.entry.payload.get("host_ns")
            ):
                self.stop()  # act 3: the performer's Tadaa! stops the music
                self.cue("tadaa")
            elif last is not None and last.status == "counted":
                self.cue("tadaa")
        verdict = state.verdict()
        ties = tuple(u for u in (verdict.undecided if verdict else ()) if u.startswith("tie"))
        if ties and ties != self._tie_alerted:
            self._tie_alerted = ties
            self.cue("tie")

    async def settled(self) -> None:
        """Wait until every queued audio call has run (tests)."""
        await asyncio.wrap_future(self.do(lambda: None))

    def close(self) -> None:
        self.stop()
        self._jobs.shutdown(wait=False)
