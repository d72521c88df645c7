"""How long measuring a music file by decoding it costs (issue 21, item 3).

Makes a 5-minute 44.1 kHz stereo tone, encodes it with ``lame -b 128`` (and FLAC,
OGG Vorbis), then times, in one run, alternated: the header read the UI thread
does (``read_music_info``, the baseline) and the full streamed decode the writer
thread does (``measure_music``, cache cleared each time). Prints the median of
``--runs`` rounds per format. Needs ``lame``, ``flac`` and ``oggenc``.

    .venv/bin/python benchmarks/music_measure.py --runs 5
"""

from __future__ import annotations

import argparse
import array
import math
import statistics
import subprocess
import tempfile
import time
import wave
from pathlib import Path

from companion.audio import decode


def make(d: Path, seconds: int) -> dict[str, Path]:
    wav = d / "five.wav"
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(44100)
        one = array.array("h", (int(8000 * math.sin(i * 0.05)) for i in range(44100)))
        stereo = array.array("h", (v for v in one for _ in range(2)))
        for _ in range(seconds):
            w.writeframes(stereo)
    out = {"wav": wav}
    for name, cmd in {
        "mp3": ["lame", "--quiet", "-b", "128", str(wav), str(d / "five.mp3")],
        "flac": ["flac", "-s", "-f", str(wav), "-o", str(d / "five.flac")],
        "ogg": ["oggenc", "-Q", str(wav), "-o", str(d / "five.ogg")],
    }.items():
        subprocess.run(cmd, check=True)
        out[name] = Path(cmd[-1])
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seconds", type=int, default=300)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        files = make(Path(tmp), args.seconds)
        print(f"{args.seconds} s of music; median of {args.runs} alternated rounds")
        print(f"{'format':6} {'size':>9} {'header read':>12} {'measured':>10}")
        for name, path in files.items():
            header, full = [], []
            for _ in range(args.runs):
                t = time.perf_counter()
                decode.read_music_info(path)
                header.append(time.perf_counter() - t)
                with decode._measured_lock:
                    decode._measured.clear()
                t = time.perf_counter()
                decode.measure_music(path)
                full.append(time.perf_counter() - t)
            size = path.stat().st_size / 1e6
            print(
                f"{name:6} {size:7.1f}MB {statistics.median(header) * 1e3:10.2f}ms "
                f"{statistics.median(full):9.3f}s"
            )


if __name__ == "__main__":
    main()
