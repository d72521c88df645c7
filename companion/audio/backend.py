"""Audio backends: ``simpleaudio`` or ``miniaudio`` on ALSA's default device, or silence.

Design decisions:

* Two players, one interface (:class:`AudioBackend`). ``simpleaudio`` plays wherever
  it is installed (an extra, ``companion[simpleaudio]``: it needs the ALSA headers
  and a C compiler to build); ``miniaudio`` (a core dependency with self-contained
  wheels) plays where simpleaudio is not installed. Both play the same 16-bit frames,
  which ``miniaudio`` decodes from any MP3, FLAC, OGG or WAV file
  (:mod:`companion.audio.decode`). The silent backend comes last.
* :func:`open_backend` decides once, at start-up, by *opening the device*: it plays a
  few milliseconds of silence. Listing cards says nothing about whether ``default``
  opens (PulseAudio, PipeWire, an ``asoundrc`` or a busy card all change that).
  When it does not open, the app gets a :class:`SilentBackend` whose ``reason`` says
  why; the countdown works the same, only without music. The probe can take up to a
  second, so the app opens it off the UI thread with :class:`BackgroundBackend`.
* libasound's error printer is replaced (see :mod:`companion.audio.alsa`) before that
  first open, so a machine without a sound card does not scribble on the screen.
  miniaudio loads the same ``libasound.so.2``, so the handler covers it too.
* One sound at a time: :meth:`play` stops whatever this backend is playing first.
  A plain ``hw:`` device cannot mix two streams anyway, and the timer must never
  depend on whether the second open succeeds.
* A stream's ``stop()`` blocks while ALSA drains or closes, so :meth:`stop` hands it
  to a short-lived thread and returns at once. :meth:`play` waits (bounded) for such
  a drain before opening the device again, because a card without a mixer would
  report "busy" otherwise.
* A device that disappears during the evening (USB speaker unplugged) does not
  raise into the UI: ``play`` turns the backend's ``available`` to False with a
  ``reason`` and tries the device again on the next ``play``. Only a bad *file*
  raises (:class:`~companion.audio.errors.AudioFileError`).
* ``play(path, cut_s=...)`` plays only the first ``cut_s`` seconds, fading out.
* The countdown never comes from :meth:`is_playing`; it comes from the monotonic
  clock at the return of :meth:`play` and the length the decoder reports.
"""

from __future__ import annotations

import contextlib
import errno
import os
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from companion.audio import alsa
from companion.audio.decode import Pcm, cut_pcm, decode_music
from companion.i18n import N_, _

#: How long ``play`` waits for a previous stream to finish draining before it opens
#: the device again. ALSA drains at most the ~100 ms buffer the players ask for.
DRAIN_WAIT_S = 1.0

#: The probe: 20 ms of silence, 22.05 kHz mono 16-bit (the format of our tracks).
_PROBE_RATE = 22050
_PROBE = bytes(2 * _PROBE_RATE // 50)

#: miniaudio's period; the device holds three of them (150 ms, like simpleaudio's
#: buffer): the frames come from Python, so the buffer must outlast a busy GIL.
MINIAUDIO_PERIOD_MS = 50
MINIAUDIO_PERIODS = 3
#: Silence played after the last frame before the device is closed: closing drops
#: what the ALSA buffer and a sound server (PulseAudio, PipeWire) still hold.
MINIAUDIO_TAIL_S = 0.3

BACKENDS = ("simpleaudio", "miniaudio", "silent")


@runtime_checkable
class AudioBackend(Protocol):
    """What the screens need from a sound output.

    ``name``: shown on screen ("simpleaudio", "miniaudio", "silent"). ``available``:
    whether sound actually comes out. ``reason``: why not (translated, shown on
    screen), "" if available.
    """

    name: str

    @property
    def available(self) -> bool: ...

    @property
    def reason(self) -> str: ...

    def play(self, path: Path, cut_s: float | None = None) -> None:
        """Start playing a music file; return once playback has started (non-blocking).

        ``cut_s``: play only that many seconds, with a short fade-out. Stops what this
        backend was playing. Raises ``AudioFileError`` for a file that is missing or
        cannot be decoded; never raises for device trouble.
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


def load_pcm(path: Path, cut_s: float | None = None) -> Pcm:
    """The frames a backend plays for ``path`` (cut and faded when ``cut_s`` is given)."""
    pcm = decode_music(Path(path).expanduser())
    return pcm if cut_s is None else cut_pcm(pcm, cut_s)


class SilentBackend:
    """No sound: every call succeeds and nothing plays. The countdown still runs.

    ``played`` lists the files that would have played and ``cuts`` their cuts (None
    for a whole file), for tests and for the log.
    """

    name = "silent"
    latency_s: float | None = None  # nothing plays, nothing to measure

    def __init__(self, reason: str = "", **params: Any) -> None:
        self._reason = _Reason(reason or N_("Sound is off."), **params)
        self.played: list[Path] = []
        self.cuts: list[float | None] = []
        #: The length of what would have played, seconds (decoded, after the cut).
        self.lengths: list[float] = []

    @property
    def available(self) -> bool:
        return False

    @property
    def reason(self) -> str:
        return self._reason.text()

    def play(self, path: Path, cut_s: float | None = None) -> None:
        # Same decode as the real backends, so a bad file is found without speakers.
        pcm = load_pcm(path, cut_s)
        self.played.append(Path(path))
        self.cuts.append(cut_s)
        self.lengths.append(pcm.duration_s)

    def stop(self) -> None:
        return None

    def is_playing(self) -> bool:
        return False


class _StreamBackend(ABC):
    """What both players share: one stream at a time, stops on a thread, lost devices."""

    name = "stream"

    def __init__(self) -> None:
        #: Output latency measured when the device was opened (seconds), or None.
        self.latency_s: float | None = None
        self._lock = threading.Lock()
        self._current: Any = None  # an object with stop() and is_playing()
        self._stopping: list[threading.Thread] = []
        self._draining: list[Any] = []
        self._reason = _Reason()

    @property
    def available(self) -> bool:
        return not self._reason.template

    @property
    def reason(self) -> str:
        return self._reason.text()

    @abstractmethod
    def _start(self, pcm: Pcm) -> Any:
        """Start playing ``pcm``; return an object with ``stop()`` and ``is_playing()``."""

    def play(self, path: Path, cut_s: float | None = None) -> None:
        pcm = load_pcm(path, cut_s)
        self.stop()
        self._wait_for_drain(DRAIN_WAIT_S)
        try:
            obj = self._start(pcm)
        except Exception as exc:  # SimpleaudioError, MiniaudioError, anything from C
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


class SimpleaudioBackend(_StreamBackend):
    """Plays through ALSA's ``default`` PCM with ``simpleaudio``."""

    name = "simpleaudio"

    def __init__(self, module: Any) -> None:
        super().__init__()
        self._sa = module

    def _start(self, pcm: Pcm) -> Any:
        return self._sa.play_buffer(pcm.frames, pcm.channels, pcm.sample_width, pcm.sample_rate)


class MiniaudioStream:
    """One miniaudio playback device playing one buffer, closed when it has played.

    The device pulls frames from a generator on its own thread. After the last frame
    the generator hands over :data:`MINIAUDIO_TAIL_S` of silence, so the end of the
    music has left every buffer when a small thread closes the device; ``stop``
    closes it at once.
    """

    def __init__(
        self,
        ma: Any,
        pcm: Pcm,
        period_ms: int = MINIAUDIO_PERIOD_MS,
        tail_s: float = MINIAUDIO_TAIL_S,
    ) -> None:
        self._tail_s = tail_s
        self._fed = threading.Event()  # the last frame is in the device
        self._closed = threading.Event()
        self._stopped = False
        self._close_lock = threading.Lock()
        self._device = ma.PlaybackDevice(
            ma.SampleFormat.SIGNED16,
            pcm.channels,
            pcm.sample_rate,
            buffersize_msec=period_ms,
            callback_periods=MINIAUDIO_PERIODS,
            backends=[ma.Backend.ALSA],
            app_name="companion",
        )
        gen = self._frames(pcm)
        next(gen)
        try:
            self._device.start(gen)
        except Exception:
            self._close()
            raise
        threading.Thread(target=self._close_when_played, name="miniaudio-end", daemon=True).start()

    def _frames(self, pcm: Pcm) -> Any:
        data = memoryview(pcm.frames)
        step = pcm.channels * pcm.sample_width
        pos = 0
        wanted = yield b""
        while pos < len(data) and not self._stopped:
            chunk = data[pos : pos + wanted * step]
            pos += len(chunk)
            wanted = yield chunk
        pad = round(self._tail_s * pcm.sample_rate)
        while pad > 0 and not self._stopped:
            n = min(wanted, pad)
            pad -= n
            wanted = yield bytes(n * step)
        self._fed.set()

    def _close_when_played(self) -> None:
        self._fed.wait()
        self._close()

    def _close(self) -> None:
        with self._close_lock:
            if self._closed.is_set():
                return
            with contextlib.suppress(Exception):
                self._device.close()
            self._closed.set()

    def stop(self) -> None:
        self._stopped = True
        self._fed.set()
        self._close()

    def is_playing(self) -> bool:
        return not self._closed.is_set()

    def wait_done(self, timeout: float) -> bool:
        return self._closed.wait(timeout)


class MiniaudioBackend(_StreamBackend):
    """Plays through ALSA's ``default`` PCM with ``miniaudio`` (no compiler needed)."""

    name = "miniaudio"

    def __init__(self, module: Any) -> None:
        super().__init__()
        self._ma = module

    def _start(self, pcm: Pcm) -> Any:
        return MiniaudioStream(self._ma, pcm)


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
    """The player's message without simpleaudio's '-- CODE: ... -- MSG:' scaffolding."""
    args: tuple[Any, ...] = tuple(getattr(exc, "args", ()))
    if len(args) == 2 and isinstance(args[0], str) and isinstance(args[1], int):
        return f"{args[0]} ({args[1]})"  # miniaudio: (message, ma_result)
    text = str(exc).strip()
    if "-- MSG:" in text:
        text = text.split("-- MSG:", 1)[1].strip()
    return text or type(exc).__name__


def _error_code(exc: BaseException) -> int | None:
    """The errno of a failed open: simpleaudio's '-- CODE: -2 --', or ALSA's last message."""
    text = str(exc)
    if "-- CODE:" in text:
        try:
            return int(text.split("-- CODE:", 1)[1].split("--", 1)[0].strip())
        except ValueError:
            return None
    # miniaudio says only "failed to init device"; libasound told our handler why.
    last = " ".join(alsa.messages()[-8:]).lower()
    if "cannot find card" in last or "unknown pcm" in last or "no such file" in last:
        return -errno.ENOENT
    if f"(error {-errno.EBUSY})" in last or "busy" in last:
        return -errno.EBUSY
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


def _open_simpleaudio(module: Any) -> AudioBackend:
    started = time.monotonic()
    try:
        probe = module.play_buffer(_PROBE, 1, 2, _PROBE_RATE)
    except Exception as exc:
        return _silent_for(exc)
    # Let the 20 ms of silence finish before anyone opens the device again: a card
    # without a mixer would be "busy", and a ``file`` PCM would be truncated under it.
    deadline = started + 1.0
    while _playing(probe) and time.monotonic() < deadline:
        time.sleep(0.002)
    backend = SimpleaudioBackend(module)
    # Open + play out 20 ms + drain: how long the output path holds a sound. An
    # upper bound of the delay between the countdown and what the table hears.
    backend.latency_s = max(0.0, time.monotonic() - started - len(_PROBE) / 2 / _PROBE_RATE)
    return backend


def _open_miniaudio(module: Any) -> AudioBackend:
    try:
        probe = MiniaudioStream(module, Pcm(1, _PROBE_RATE, _PROBE), tail_s=0.0)
    except Exception as exc:
        return _silent_for(exc)
    probe.wait_done(1.0)
    backend = MiniaudioBackend(module)
    # miniaudio closes without draining, so the probe's time says nothing about the
    # output path; the device's buffer bounds how late a frame can sound.
    backend.latency_s = MINIAUDIO_PERIODS * MINIAUDIO_PERIOD_MS / 1000
    return backend


def _load(name: str) -> tuple[Any, str]:
    """Import a player module; (module, "") or (None, why not)."""
    try:
        if name == "simpleaudio":
            import simpleaudio as module  # deferred: loads libasound, after the handler
        else:
            import miniaudio as module
    except Exception as exc:
        return None, _short(exc)
    return module, ""


def open_backend(prefer: str | None = None) -> AudioBackend:
    """The first player whose device opens, else a :class:`SilentBackend` with the reason.

    ``prefer``: ``"simpleaudio"``, ``"miniaudio"`` or ``"silent"``; None reads
    ``COMPANION_AUDIO`` (same values) and otherwise takes simpleaudio where it is
    installed, miniaudio where it is not. Never raises for a missing device and
    never writes to the terminal.
    """
    if prefer is None:
        prefer = os.environ.get("COMPANION_AUDIO", "").strip().lower() or None
    if prefer is not None and prefer not in BACKENDS:
        raise ValueError(
            f"unknown audio backend {prefer!r}: use 'simpleaudio', 'miniaudio' or 'silent'"
        )
    if prefer == "silent":
        return SilentBackend(N_("Sound is turned off; the countdown still runs."))
    if not alsa.install_error_handler():
        return SilentBackend(
            N_("ALSA (libasound) is not installed, so there is no music; the countdown still runs.")
        )
    if prefer != "miniaudio":
        module, why = _load("simpleaudio")
        if module is not None:
            return _open_simpleaudio(module)
        if prefer == "simpleaudio":
            return SilentBackend(
                N_("The simpleaudio module cannot be loaded ({detail}); the countdown still runs."),
                detail=why,
            )
    module, why = _load("miniaudio")
    if module is None:
        return SilentBackend(
            N_("The miniaudio module cannot be loaded ({detail}); the countdown still runs."),
            detail=why,
        )
    return _open_miniaudio(module)


class BackgroundBackend:
    """An :class:`AudioBackend` whose device is probed on a thread.

    Until the probe has finished, it reads as silent with a "checking" reason (so a
    screen can render at once); ``play``/``stop`` wait for the probe (they run on the
    screens' audio threads). ``on_ready`` runs on the probe thread when it is done.
    """

    def __init__(
        self,
        prefer: str | None = None,
        on_ready: Callable[[], None] | None = None,
        opener: Callable[[str | None], AudioBackend] | None = None,
    ) -> None:
        self._ready = threading.Event()
        self._backend: AudioBackend | None = None
        self._error: BaseException | None = None
        self._on_ready = on_ready
        self._thread = threading.Thread(
            target=self._probe, args=(prefer, opener), name="audio-probe", daemon=True
        )
        self._thread.start()

    def _probe(
        self, prefer: str | None, opener: Callable[[str | None], AudioBackend] | None
    ) -> None:
        try:
            self._backend = (opener or open_backend)(prefer)
        except BaseException as exc:  # an unknown COMPANION_AUDIO: silent, with the reason
            self._error = exc
            self._backend = SilentBackend(
                N_("Sound is off ({detail}); the countdown still runs."), detail=str(exc)
            )
        finally:
            self._ready.set()
        if self._on_ready is not None:
            with contextlib.suppress(Exception):
                self._on_ready()

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def wait_ready(self, timeout: float | None = None) -> AudioBackend | None:
        """The opened backend, or None if the probe is still running after ``timeout``."""
        self._ready.wait(timeout)
        return self._backend

    def _get(self) -> AudioBackend:
        self._ready.wait()
        assert self._backend is not None
        return self._backend

    @property
    def name(self) -> str:
        return self._backend.name if self._backend is not None else "…"

    @property
    def latency_s(self) -> float | None:
        return getattr(self._backend, "latency_s", None)

    @property
    def available(self) -> bool:
        return self._backend is not None and self._backend.available

    @property
    def reason(self) -> str:
        if self._backend is None:
            return _("Checking the sound device…")
        return self._backend.reason

    @property
    def backend(self) -> AudioBackend | None:
        return self._backend

    def play(self, path: Path, cut_s: float | None = None) -> None:
        backend = self._get()
        if cut_s is None:
            backend.play(path)
        else:
            backend.play(path, cut_s=cut_s)

    def stop(self) -> None:
        self._get().stop()

    def is_playing(self) -> bool:
        return self._backend is not None and self._backend.is_playing()
