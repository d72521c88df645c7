"""Read and check WAV files: the header gives the length, the frames go to ALSA.

A host may pick any WAV file for an act. It is checked when chosen (and again when
played) so that a wrong file is a clear message and never a silent or garbled act:
``wave`` reads RIFF/WAVE PCM only, which is what ``simpleaudio`` plays; float or
compressed WAVs, 32-bit samples and odd rates are refused with the reason.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path

from companion.audio.errors import AudioFileError
from companion.i18n import N_

#: The sample widths and rates simpleaudio plays (its documented matrix).
SAMPLE_WIDTHS = (1, 2, 3)
SAMPLE_RATES = (8000, 11025, 16000, 22050, 32000, 44100, 48000, 88200, 96000, 192000)
CHANNELS = (1, 2)


@dataclass(frozen=True)
class WavInfo:
    """The header of a WAV file."""

    channels: int
    sample_width: int  # bytes per sample
    sample_rate: int
    n_frames: int

    @property
    def duration_s(self) -> float:
        return self.n_frames / self.sample_rate


@dataclass(frozen=True)
class Pcm:
    """A WAV file's header and its frames, ready for ``simpleaudio.play_buffer``."""

    info: WavInfo
    frames: bytes

    @property
    def channels(self) -> int:
        return self.info.channels

    @property
    def sample_width(self) -> int:
        return self.info.sample_width

    @property
    def sample_rate(self) -> int:
        return self.info.sample_rate


def read_info(path: Path) -> WavInfo:
    """The checked header of ``path``; raises :class:`AudioFileError` with the reason."""
    info, _ = _read(Path(path), frames=False)
    return info


def read_pcm(path: Path) -> Pcm:
    """Header and frames of ``path``, checked like :func:`read_info`."""
    info, frames = _read(Path(path), frames=True)
    return Pcm(info, frames)


def wav_duration(path: Path) -> float:
    """Length in seconds, from the header (frames / rate)."""
    return read_info(path).duration_s


def _read(path: Path, *, frames: bool) -> tuple[WavInfo, bytes]:
    name = str(path)
    try:
        with path.open("rb") as fh:
            magic = fh.read(12)
            if len(magic) < 12 or magic[:4] != b"RIFF" or magic[8:12] != b"WAVE":
                raise AudioFileError(N_("{file} is not a WAV file."), file=name)
            fh.seek(0)
            try:
                with wave.open(fh, "rb") as w:
                    info = WavInfo(
                        w.getnchannels(), w.getsampwidth(), w.getframerate(), w.getnframes()
                    )
                    data = w.readframes(info.n_frames) if frames else b""
            except (wave.Error, EOFError) as exc:
                raise AudioFileError(
                    N_(
                        "{file} is a WAV file this player cannot read ({detail}); "
                        "save it as plain PCM, 16-bit."
                    ),
                    file=name,
                    detail=str(exc) or type(exc).__name__,
                ) from exc
    except FileNotFoundError as exc:
        raise AudioFileError(N_("{file} does not exist."), file=name) from exc
    except IsADirectoryError as exc:
        raise AudioFileError(N_("{file} is a folder, not a WAV file."), file=name) from exc
    except PermissionError as exc:
        raise AudioFileError(N_("{file} cannot be read (permission denied)."), file=name) from exc
    _check(info, name)
    if frames and len(data) < info.n_frames * info.channels * info.sample_width:
        raise AudioFileError(
            N_("{file} is cut short: its header promises more sound than it holds."), file=name
        )
    return info, data


def _check(info: WavInfo, name: str) -> None:
    if info.channels not in CHANNELS:
        raise AudioFileError(
            N_("{file} has {n} channels; only mono or stereo can be played."),
            file=name,
            n=info.channels,
        )
    if info.sample_width not in SAMPLE_WIDTHS:
        raise AudioFileError(
            N_("{file} uses {bits}-bit samples; use 8, 16 or 24-bit PCM."),
            file=name,
            bits=info.sample_width * 8,
        )
    if info.sample_rate not in SAMPLE_RATES:
        raise AudioFileError(
            N_("{file} has a sample rate of {rate} Hz; use 22050, 44100 or 48000 Hz."),
            file=name,
            rate=info.sample_rate,
        )
    if info.n_frames == 0:
        raise AudioFileError(N_("{file} holds no sound."), file=name)
