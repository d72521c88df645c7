"""Should the built-in tracks ship as FLAC or OGG instead of WAV? (issue 23)

Encodes every built-in track with Debian's ``flac`` (-8) and ``oggenc`` (-q 4),
then, side by side in one run, reports per format: total bytes (what a wheel and a
clone carry) and the median time of the decode an act start pays
(``miniaudio.decode_file`` of the whole file to 16-bit PCM at the file's rate, as
``companion.audio.decode.decode_music`` does before ``play`` returns). The budget
is one frame of a 60 Hz screen, 16.7 ms.

    python benchmarks/sound_formats.py [--repeat 7]

Needs ``flac`` and ``vorbis-tools`` (both in .ci/run's PACKAGES).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import miniaudio

from companion.audio.tracks import TRACK_TABLE, builtin_sounds_dir

FRAME_MS = 1000 / 60


def decode_ms(path: Path, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        miniaudio.decode_file(str(path), miniaudio.SampleFormat.SIGNED16, 1, 22050)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    missing = [tool for tool in ("flac", "oggenc") if shutil.which(tool) is None]
    if missing:
        print(f"needs {', '.join(missing)}: apt-get install flac vorbis-tools")
        return 2
    tracks = builtin_sounds_dir() / "tracks"
    rows: dict[str, tuple[int, list[float]]] = {"wav": (0, []), "flac": (0, []), "ogg": (0, [])}
    with tempfile.TemporaryDirectory() as tmp:
        for spec in TRACK_TABLE:
            wav = tracks / f"{spec.id}.wav"
            flac = Path(tmp) / f"{spec.id}.flac"
            ogg = Path(tmp) / f"{spec.id}.ogg"
            subprocess.run(["flac", "-s", "-8", "-f", "-o", str(flac), str(wav)], check=True)
            subprocess.run(["oggenc", "-Q", "-q", "4", "-o", str(ogg), str(wav)], check=True)
            for kind, path in (("wav", wav), ("flac", flac), ("ogg", ogg)):
                size, times = rows[kind]
                times.append(decode_ms(path, args.repeat))
                rows[kind] = (size + path.stat().st_size, times)
    print(f"{len(TRACK_TABLE)} tracks, median of {args.repeat} decodes each")
    print(f"{'format':<6} {'bytes':>11} {'decode ms (min..max)':>22}  within one frame?")
    for kind, (size, times) in rows.items():
        worst = max(times)
        print(
            f"{kind:<6} {size:>11,} {min(times):>9.1f} .. {worst:<9.1f}  "
            f"{'yes' if worst < FRAME_MS else 'no'} ({FRAME_MS:.1f} ms)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
