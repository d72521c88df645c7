"""Decode any music file a host has (MP3, FLAC, OGG Vorbis, WAV) with ``miniaudio``.

Design decisions:

* One decoder for every file and every player: ``miniaudio`` (self-contained wheels,
  no compiler) turns the file into 16-bit PCM; the simpleaudio and miniaudio
  players both play those frames. The format is found from the file's first bytes,
  not its name, so a ``.mp3`` that is really a WAV still plays.
* The length comes from the decoder (frames / rate), read when the file is chosen
  (:func:`read_music_info`, no full decode) and again exactly when it is decoded
  for playing. A file the decoder refuses raises
  :class:`~companion.audio.errors.AudioFileError` with the decoder's own reason.
* The frames keep the file's rate and channel count when a player can take them;
  more than two channels are mixed down to stereo and a rate outside
  :data:`SAMPLE_RATES` is resampled to 48 kHz by the decoder.
* A WAV whose header promises more sound than the file holds is refused when chosen
  (the decoder would quietly play the part that is there).
* Every file is also measured by decoding it whole (:func:`measure_music`, streamed:
  no more than a chunk in memory): a header can claim any length (an MP3 cut short
  keeps its Xing/Info frame count, a FLAC its STREAMINFO total), and the act's
  countdown must be the sound's. A file whose decoded length differs from its
  header's by more than one codec frame (:data:`FRAME_TOLERANCE`) is refused with
  both numbers. Measuring costs a full decode (0.8 s for a 5-minute 128 kb/s MP3
  on the shared 2-core machine, 1.6 s under heavier load; ``benchmarks/music_measure.py``,
  ``docs/PERFORMANCE.md``), so it runs
  where the companion already waits for the disk — the new-session form's check
  and a ``choose-music`` on the writer thread, the decode before playing on the
  audio thread — never on the UI thread, and each file (path, size, mtime) is
  measured once: the UI's quick header reads then return the measured length.
* :func:`cut_pcm` shortens a song to an act's length with a short linear fade-out,
  so any song can time an act.
"""

from __future__ import annotations

import contextlib
import struct
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.audio.errors import AudioFileError
from companion.i18n import N_, _

#: Rates both players take as they are (simpleaudio's documented matrix).
SAMPLE_RATES = (8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 192000)
RESAMPLE_RATE = 48000
FADE_S = 2.0
"""The fade-out at the end of a cut song."""

FORMATS = {"wav": "WAV", "flac": "FLAC", "vorbis": "OGG Vorbis", "mp3": "MP3"}


@dataclass(frozen=True)
class MusicInfo:
    """What the decoder says about a file before decoding it."""

    format: str  # "wav", "flac", "vorbis" or "mp3"
    channels: int
    sample_rate: int
    n_frames: int

    @property
    def duration_s(self) -> float:
        return self.n_frames / self.sample_rate


@dataclass(frozen=True)
class Pcm:
    """16-bit little-endian interleaved frames, ready for either player."""

    channels: int
    sample_rate: int
    frames: bytes
    sample_width: int = 2

    @property
    def n_frames(self) -> int:
        return len(self.frames) // (self.channels * self.sample_width)

    @property
    def duration_s(self) -> float:
        return self.n_frames / self.sample_rate


def _miniaudio() -> Any:
    try:
        import miniaudio
    except Exception as exc:  # a broken install: say so instead of crashing
        raise AudioFileError(
            N_("The music decoder (miniaudio) cannot be loaded ({detail})."),
            detail=str(exc) or type(exc).__name__,
        ) from exc
    return miniaudio


def _sniff(head: bytes) -> str:
    if head[:4] in (b"RIFF", b"RIFX", b"RF64") and head[8:12] == b"WAVE":
        return "wav"
    if head[:4] == b"fLaC":
        return "flac"
    if head[:4] == b"OggS":
        return "vorbis"
    return "mp3"  # ID3 tag or a bare frame; the MP3 decoder says if it is neither


def _open(path: Path) -> bytes:
    """The first bytes of ``path``, with the file-system problems as clear messages."""
    name = str(path)
    try:
        with path.open("rb") as fh:
            return fh.read(64)
    except FileNotFoundError as exc:
        raise AudioFileError(N_("{file} does not exist."), file=name) from exc
    except IsADirectoryError as exc:
        raise AudioFileError(N_("{file} is a folder, not a music file."), file=name) from exc
    except PermissionError as exc:
        raise AudioFileError(N_("{file} cannot be read (permission denied)."), file=name) from exc
    except OSError as exc:
        raise AudioFileError(
            N_("{file} cannot be read ({detail})."), file=name, detail=exc.strerror or str(exc)
        ) from exc


def _reason(exc: BaseException) -> str:
    """The decoder's reason: its message and, when it gives one, its result code."""
    args: tuple[Any, ...] = tuple(getattr(exc, "args", ()))
    text = str(args[0]) if args else str(exc)
    if len(args) > 1 and isinstance(args[1], int):
        text += f" ({args[1]})"
    return text or type(exc).__name__


def _undecodable(path: Path, exc: BaseException) -> AudioFileError:
    return AudioFileError(
        N_(
            "{file} cannot be decoded as MP3, FLAC, OGG Vorbis or WAV (the decoder says: {detail})."
        ),
        file=str(path),
        detail=_reason(exc),
    )


def _check_wav_length(path: Path) -> None:
    """Refuse a WAV whose ``data`` chunk is longer than what the file holds."""
    size = path.stat().st_size
    with path.open("rb") as fh:
        head = fh.read(12)
        if head[:4] != b"RIFF":
            return  # RIFX/RF64: the decoder's own count is all we have
        pos = 12
        while pos + 8 <= size:
            fh.seek(pos)
            chunk = fh.read(8)
            if len(chunk) < 8:
                return
            cid, length = chunk[:4], struct.unpack("<I", chunk[4:])[0]
            if cid == b"data":
                if pos + 8 + length > size:
                    raise AudioFileError(
                        N_("{file} is cut short: its header promises more sound than it holds."),
                        file=str(path),
                    )
                return
            pos += 8 + length + (length & 1)


FRAME_TOLERANCE = {"mp3": 1152, "flac": 4608, "vorbis": 4096, "wav": 1}
"""How far (in frames) a decoded length may differ from the header's: one codec frame
(an MP3 frame; FLAC's largest common block; a Vorbis long block twice)."""

_measured_lock = threading.Lock()
_measured: dict[tuple[str, int, int], MusicInfo] = {}


def _file_key(path: Path) -> tuple[str, int, int]:
    st = path.stat()
    return (str(path.resolve()), st.st_mtime_ns, st.st_size)


def format_seconds(seconds: float) -> str:
    """A length as a host reads it: ``1.2 s`` below a minute, else ``1:30``."""
    if seconds < 60:
        return _("{seconds} s").format(seconds=f"{seconds:.1f}")
    whole = round(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


def read_music_info(path: Path, *, measure: bool = False) -> MusicInfo:
    """Format, channels, rate and length of ``path`` from the decoder.

    Without ``measure``, from the header (no full decode; quick enough for the UI
    thread), unless the file was measured already: then the measured length.
    With ``measure``, the whole file is decoded (:func:`measure_music`).

    Raises :class:`AudioFileError` with the reason: missing, unreadable, not a
    format the decoder knows, a WAV cut short, no sound at all, or (measured) a
    length that is not the header's.
    """
    path = Path(path)
    if measure:
        return measure_music(path)
    with contextlib.suppress(OSError):
        with _measured_lock:
            known = _measured.get(_file_key(path))
        if known is not None:
            return known
    return _header_info(path)


def measure_music(path: Path) -> MusicInfo:
    """The file's length counted by decoding every frame (streamed), checked against
    its header. Cached by path, size and modification time."""
    path = Path(path)
    info = _header_info(path)
    try:
        key = _file_key(path)
    except OSError as exc:
        raise AudioFileError(
            N_("{file} cannot be read ({detail})."), file=str(path), detail=exc.strerror or str(exc)
        ) from exc
    with _measured_lock:
        known = _measured.get(key)
    if known is not None:
        return known
    ma = _miniaudio()
    frames = 0
    try:
        for chunk in ma.stream_file(
            str(path), ma.SampleFormat.SIGNED16, info.channels, info.sample_rate, 65536
        ):
            frames += len(chunk) // info.channels
    except Exception as exc:  # a decoder error midway: the file is damaged there
        raise _undecodable(path, exc) from exc
    if abs(frames - info.n_frames) > FRAME_TOLERANCE[info.format]:
        raise AudioFileError(
            N_("{file} holds {actual} of sound, its header says {claimed}."),
            file=path.name,
            actual=format_seconds(frames / info.sample_rate),
            claimed=format_seconds(info.duration_s),
        )
    if not frames:
        raise AudioFileError(N_("{file} holds no sound."), file=str(path))
    measured = MusicInfo(info.format, info.channels, info.sample_rate, frames)
    with _measured_lock:
        _measured[key] = measured
    return measured


def _header_info(path: Path) -> MusicInfo:
    kind = _sniff(_open(path))
    ma = _miniaudio()
    getter = {
        "wav": ma.wav_get_file_info,
        "flac": ma.flac_get_file_info,
        "vorbis": ma.vorbis_get_file_info,
        "mp3": ma.mp3_get_file_info,
    }[kind]
    try:
        info = getter(str(path))
    except Exception as exc:  # DecodeError, or anything else from the C side
        raise _undecodable(path, exc) from exc
    if kind == "wav":
        _check_wav_length(path)
    if not info.num_frames or not info.sample_rate or not info.nchannels:
        raise AudioFileError(N_("{file} holds no sound."), file=str(path))
    return MusicInfo(kind, int(info.nchannels), int(info.sample_rate), int(info.num_frames))


def playable_format(info: MusicInfo) -> tuple[int, int]:
    """(channels, rate) the frames are decoded to for ``info``'s file."""
    channels = min(info.channels, 2)
    rate = info.sample_rate if info.sample_rate in SAMPLE_RATES else RESAMPLE_RATE
    return channels, rate


_cache_lock = threading.Lock()
_cache: OrderedDict[tuple[str, int, int], Pcm] = OrderedDict()
_CACHE_SIZE = 3  # a song per act; a four-minute stereo song is about 42 MB


def decode_music(path: Path) -> Pcm:
    """The whole file as 16-bit PCM (cached by path, size and modification time)."""
    path = Path(path)
    info = read_music_info(path)
    st = path.stat()
    key = (str(path.resolve()), st.st_mtime_ns, st.st_size)
    with _cache_lock:
        pcm = _cache.get(key)
        if pcm is not None:
            _cache.move_to_end(key)
            return pcm
    ma = _miniaudio()
    channels, rate = playable_format(info)
    try:
        decoded = ma.decode_file(str(path), ma.SampleFormat.SIGNED16, channels, rate)
    except Exception as exc:
        raise _undecodable(path, exc) from exc
    pcm = Pcm(channels, rate, decoded.samples.tobytes())
    if not pcm.n_frames:
        raise AudioFileError(N_("{file} holds no sound."), file=str(path))
    with _cache_lock:
        _cache[key] = pcm
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return pcm


def cut_pcm(pcm: Pcm, cut_s: float, fade_s: float = FADE_S) -> Pcm:
    """The first ``cut_s`` seconds of ``pcm``, fading linearly to silence over ``fade_s``.

    A song shorter than the cut is returned whole (nothing to fade).
    """
    n = min(pcm.n_frames, round(cut_s * pcm.sample_rate))
    if n >= pcm.n_frames:
        return pcm
    import array

    samples = array.array("h")
    samples.frombytes(pcm.frames[: n * pcm.channels * pcm.sample_width])
    fade = min(n, round(fade_s * pcm.sample_rate))
    start = n - fade
    ch = pcm.channels
    for i in range(fade):
        gain = (fade - 1 - i) / fade  # reaches exactly 0 on the last frame
        base = (start + i) * ch
        for c in range(ch):
            samples[base + c] = int(samples[base + c] * gain)
    return Pcm(pcm.channels, pcm.sample_rate, samples.tobytes())
