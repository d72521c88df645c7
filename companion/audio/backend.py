"""Audio backends: a real ALSA device through ``simpleaudio``, or silence.

Design decisions:

* :func:`open_backend` decides once, at start-up, by *opening the device*: it plays a
  few milliseconds of silence. Listing cards says nothing about whether ``default``
  opens (PulseAudio, PipeWire, an ``asoundrc`` or a busy card all change that).
  When it does not open, the app gets a :class:`SilentBackend` whose ``reason`` says
  why; the countdown works the same, only without music.
* libasound's error printer is replaced (see :mod:`companion.audio.alsa`) before that
  first open, so a machine without a sound card does not scribble on the screen.
* One sound at a time: :meth:`SimpleaudioBackend.play` stops whatever this backend
  is playing first. A plain ``hw:`` device cannot mix two streams anyway, and the
  timer must never depend on whether the second open succeeds.
* ``simpleaudio``'s ``stop()`` blocks while ALSA drains its buffer, so
  :meth:`SimpleaudioBackend.stop` hands it to a short-lived thread and returns at
  once. :meth:`play` waits (bounded) for such a drain before opening the device
  again, because a card without a mixer would report "busy" otherwise.
* A device that disappears during the evening (USB speaker unplugged) does not
  raise into the UI: ``play`` turns the backend's ``available`` to False with a
  ``reason`` and tries the device again on the next ``play``. Only a bad *file*
  raises (:class:`~companion.audio.errors.AudioFileError`).
* The countdown never comes from :meth:`is_playing`; it comes from the monotonic
  clock at the return of :meth:`play` and the track length in the WAV header.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from companion.audio import alsa
from companion.audio.wavfile import Pcm, read_pcm
from companion.i18n import N_, _

#: How long ``play`` waits for a previous stream to finish draining before it opens
#: the device again. ALSA drains at most the ~100 ms buffer simpleaudio asks for.
DRAIN_WAIT_S = 1.0

#: The probe: 20 ms of silence, 22.05 kHz mono 16-bit (the format of our tracks).
_PROBE_RATE = 22050
_PROBE = bytes(2 * _PROBE_RATE // 50)


@runtime_checkable
class AudioBackend(Protocol):
    """What the screens need from a sound output.

    ``name``: shown on screen ("simpleaudio", "silent"). ``available``: whether sound
    actually comes out. ``reason``: why not (translated, shown on screen), "" if
    available.
    """

    name: str

    @property
    def available(self) -> bool: ...

    @property
    def reason(self) -> str: ...

    def play(self, path: Path) -> None:
        """Start playing a WAV file; return once playback has started (non-blocking).

        Stops what this backend was playing. Raises ``AudioFileError`` for a file
        that is missing or not a playable WAV; never raises for device trouble.
        """
        ...

    def stop(self) -> None:
        """Stop playing; returns at once (the drain happens on a worker thread)."""
        ...

    def is_playing(self) -> bool:
        """Whether a stream this backend started is still sounding (draining counts)."""
        ...


class _Reason:
    """A translatable reason: an ``N_`` template with parameters, translated on read."""

    def __init__(self, template: str = "", **params: Any) -> None:
        self.template = template
        self.params = params

    def text(self) -> str:
        return _(self.template).format(**self.params) if self.template else ""


class SilentBackend:
    """No sound: every call succeeds and nothing plays. The countdown still runs.

    ``played`` lists the files that would have played, for tests and for the log.
    """

    name = "silent"
    latency_s: float | None = None  # nothing plays, nothing to measure

    def __init__(self, reason: str = "", **params: Any) -> None:
        self._reason = _Reason(reason or N_("Sound is off."), **params)
        self.played: list[Path] = []

    @property
    def available(self) -> bool:
        return False

    @property
    def reason(self) -> str:
        return self._reason.text()

    def play(self, path: Path) -> None:
        # Same file check as the real backend, so a bad file is found without speakers.
        read_pcm(path)
        self.played.append(Path(path))

    def stop(self) -> None:
        return None

    def is_playing(self) -> bool:
        return False


class SimpleaudioBackend:
    """Plays through ALSA's ``default`` PCM with ``simpleaudio``."""

    name = "simpleaudio"

    def __init__(self, module: Any) -> None:
        #: Output latency measured when the device was opened (seconds), or None.
        self.latency_s: float | None = None
        self._sa = module
        self._lock = threading.Lock()
        self._current: Any = None  # simpleaudio.PlayObject
        self._stopping: list[threading.Thread] = []
        self._draining: list[Any] = []
        self._reason = _Reason()
        self._cache: dict[tuple[Path, int, int], Pcm] = {}

    @property
    def available(self) -> bool:
        return not self._reason.template

    @property
    def reason(self) -> str:
        return self._reason.text()

    def play(self, path: Path) -> None:
        pcm = self._load(Path(path))
        self.stop()
        self._wait_for_drain(DRAIN_WAIT_S)
        try:
            obj = self._sa.play_buffer(pcm.frames, pcm.channels, pcm.sample_width, pcm.sample_rate)
        except Exception as exc:  # SimpleaudioError, or anything else from the C side
            self._reason = _Reason(
                N_("The sound device stopped working ({detail}); the countdown goes on."),
                detail=_short(exc),
            )
            return
        self._reason = _Reason()
        with self._lock:
            self._current = obj

    def stop(self) -> None:
        with self._lock:
            obj, self._current = self._current, None
        if obj is None:
            return
        worker = threading.Thread(target=_quiet(obj.stop), name="audio-stop", daemon=True)
        with self._lock:
            self._stopping = [t for t in self._stopping if t.is_alive()]
            self._stopping.append(worker)
            self._draining = [o for o in self._draining if _playing(o)]
            self._draining.append(obj)
        worker.start()

    def is_playing(self) -> bool:
        with self._lock:
            objs = [self._current, *self._draining]
        return any(o is not None and _playing(o) for o in objs)

    def wait_stopped(self, timeout: float) -> bool:
        """Block until every stop has finished draining (tests, shutdown)."""
        self._wait_for_drain(timeout)
        with self._lock:
            return not any(t.is_alive() for t in self._stopping)

    def _wait_for_drain(self, timeout: float) -> None:
        with self._lock:
            pending = list(self._stopping)
        for t in pending:
            t.join(timeout)

    def _load(self, path: Path) -> Pcm:
        try:
            st = path.stat()
        except OSError:
            return read_pcm(path)  # raises the proper AudioFileError
        key = (path.resolve(), st.st_mtime_ns, st.st_size)
        pcm = self._cache.get(key)
        if pcm is None:
            pcm = read_pcm(path)
            if len(self._cache) > 16:
                self._cache.clear()
            self._cache[key] = pcm
        return pcm


def _playing(obj: Any) -> bool:
    try:
        return bool(obj.is_playing())
    except Exception:
        return False


def _quiet(fn: Callable[[], object]) -> Callable[[], None]:
    def run() -> None:
        with contextlib.suppress(Exception):  # a stop that fails leaves nothing to stop
            fn()

    return run


def _short(exc: BaseException) -> str:
    """simpleaudio's message without its '-- CODE: ... -- MSG:' scaffolding."""
    text = str(exc).strip()
    if "-- MSG:" in text:
        text = text.split("-- MSG:", 1)[1].strip()
    return text or type(exc).__name__


def _error_code(exc: BaseException) -> int | None:
    """The errno simpleaudio puts in its message ('-- CODE: -2 -- MSG: ...')."""
    text = str(exc)
    if "-- CODE:" not in text:
        return None
    try:
        return int(text.split("-- CODE:", 1)[1].split("--", 1)[0].strip())
    except ValueError:
        return None


def _silent_for(exc: BaseException) -> SilentBackend:
    code = _error_code(exc)
    if code in (-errno.ENOENT, -errno.ENODEV):
        return SilentBackend(N_("No sound card found: no music, the countdown still runs."))
    if code == -errno.EBUSY:
        return SilentBackend(
            N_("The sound device is busy (used by another program): no music, countdown only.")
        )
    return SilentBackend(
        N_("No sound device could be opened ({detail}); the countdown still runs."),
        detail=_short(exc),
    )


def open_backend(prefer: str | None = None) -> AudioBackend:
    """``simpleaudio`` if ALSA's default PCM opens, else a :class:`SilentBackend`.

    ``prefer="silent"`` forces silence; ``"simpleaudio"`` tries the device; None
    reads ``COMPANION_AUDIO`` (same values) and otherwise tries the device.
    Never raises for a missing device and never writes to the terminal.
    """
    if prefer is None:
        prefer = os.environ.get("COMPANION_AUDIO", "").strip().lower() or None
    if prefer is not None and prefer not in ("simpleaudio", "silent"):
        raise ValueError(f"unknown audio backend {prefer!r}: use 'simpleaudio' or 'silent'")
    if prefer == "silent":
        return SilentBackend(N_("Sound is turned off; the countdown still runs."))
    if not alsa.install_error_handler():
        return SilentBackend(
            N_("ALSA (libasound) is not installed, so there is no music; the countdown still runs.")
        )
    try:
        import simpleaudio  # deferred: loads libasound, only after the handler is in
    except Exception as exc:
        return SilentBackend(
            N_("The simpleaudio module cannot be loaded ({detail}); the countdown still runs."),
            detail=_short(exc),
        )
    started = time.monotonic()
    try:
        probe = simpleaudio.play_buffer(_PROBE, 1, 2, _PROBE_RATE)
    except Exception as exc:
        return _silent_for(exc)
    # Let the 20 ms of silence finish before anyone opens the device again: a card
    # without a mixer would be "busy", and a ``file`` PCM would be truncated under it.
    deadline = started + 1.0
    while _playing(probe) and time.monotonic() < deadline:
        time.sleep(0.002)
    backend = SimpleaudioBackend(simpleaudio)
    # Open + play out 20 ms + drain: how long the output path holds a sound. An
    # upper bound of the delay between the countdown and what the table hears.
    backend.latency_s = max(0.0, time.monotonic() - started - len(_PROBE) / 2 / _PROBE_RATE)
    return backend
