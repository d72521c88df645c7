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
* :func:`cut_pcm` shortens a song to an act's length with a short linear fade-out,
  so any song can time an act.
"""

from __future__ import annotations

import struct
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.audio.errors import AudioFileError
from companion.i18n import N_

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


def read_music_info(path: Path) -> MusicInfo:
    """Format, channels, rate and length of ``path`` from the decoder (no full decode).

    Raises :class:`AudioFileError` with the reason: missing, unreadable, not a
    format the decoder knows, a WAV cut short, or no sound at all.
    """
    path = Path(path)
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
