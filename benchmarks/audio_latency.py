"""Measure what the Meeple Circus timer depends on, through a real audio server.

    benchmarks/audio_latency.py            # both players: tones, cues, full tracks (~10 min)
    benchmarks/audio_latency.py --quick    # without the full tracks (~2 min)
    benchmarks/audio_latency.py --backends miniaudio
    benchmarks/audio_latency.py --decode-only   # how long choosing and decoding a song take

It starts a private PulseAudio with a null sink, routes ALSA's ``default`` into
it (``pcm.!default { type pulse }`` in a temporary asoundrc), plays through each of
the companion's own players (``simpleaudio`` and ``miniaudio``, side by side in one
run, same server) and records the sink's monitor with ``parec``. From the recording:

* **start delay**: from the return of ``play()`` (when the countdown starts) to
  the first audible sample;
* **audible length** against the WAV's length (the countdown's length), and the
  **played length of an MP3** against its decoded length (what the countdown uses);
* **stop to silence**: from ``stop()`` to the last audible sample, and how long
  ``stop()`` and ``play()`` hold the caller (the UI thread).

Needs (it installs nothing itself), on Debian/Ubuntu:
``apt-get install -y pulseaudio pulseaudio-utils libasound2-plugins lame`` (``lame``
for the MP3 runs; they are left out without it), and the ``companion[simpleaudio]``
extra for the simpleaudio column.

Timing: ``parec`` runs with ``--latency-msec=5``; each chunk it delivers is stamped
with ``time.monotonic_ns()`` when read, and sample n is placed at
``min_k(stamp_k - n_k / rate) + n / rate``. Samples are thus placed no earlier
than they were captured: delays below are upper bounds, by the monitor's own
latency (a few ms).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

RATE = 22050
THRESHOLD = 0.02 * 32768  # "audible": above -34 dBFS
PULSE_PLUGIN_GLOB = "/usr/lib/*/alsa-lib/libasound_module_pcm_pulse.so"


def missing_tools() -> list[str]:
    missing = [t for t in ("pulseaudio", "parec", "pactl") if shutil.which(t) is None]
    if not list(Path("/").glob(PULSE_PLUGIN_GLOB.lstrip("/"))):
        missing.append("libasound2-plugins (ALSA's pulse plugin)")
    return missing


class Pulse:
    """A private PulseAudio daemon with one null sink, owned by this process."""

    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.env = dict(os.environ)
        runtime = tmp / "runtime"
        runtime.mkdir(mode=0o700)
        home = tmp / "home"
        home.mkdir()
        xdg = tmp / "xdg"
        (xdg / "alsa").mkdir(parents=True)
        (xdg / "alsa" / "asoundrc").write_text(
            "pcm.!default { type pulse }\nctl.!default { type pulse }\n"
        )
        self.env.update(XDG_RUNTIME_DIR=str(runtime), HOME=str(home), XDG_CONFIG_HOME=str(xdg))
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                "pulseaudio",
                "-n",
                "--daemonize=no",
                "--exit-idle-time=-1",
                "--disallow-exit",
                "--log-target=stderr",
                "--load=module-native-protocol-unix",
                "--load=module-null-sink sink_name=bench",
            ],
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=(self.tmp / "pulse.log").open("wb"),
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            ok = subprocess.run(["pactl", "info"], env=self.env, capture_output=True)
            if ok.returncode == 0:
                subprocess.run(["pactl", "set-default-sink", "bench"], env=self.env, check=True)
                return
            time.sleep(0.1)
        raise RuntimeError(f"PulseAudio did not start; see {self.tmp / 'pulse.log'}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Recorder:
    """``parec`` on the null sink's monitor, each chunk stamped on arrival."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [
                "parec",
                "-d",
                "bench.monitor",
                "--raw",
                "--format=s16le",
                f"--rate={RATE}",
                "--channels=1",
                "--latency-msec=5",
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.chunks: list[bytes] = []
        self.stamps: list[tuple[int, int]] = []  # (samples so far, monotonic ns)
        self._samples = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while True:
            data = os.read(fd, 2048)
            now = time.monotonic_ns()
            if not data:
                return
            with self._lock:
                self.chunks.append(data)
                self._samples += len(data) // 2
                self.stamps.append((self._samples, now))

    def wait_samples(self, n: int) -> None:
        while True:
            with self._lock:
                if self._samples >= n:
                    return
            time.sleep(0.01)

    def lag_ms(self) -> tuple[float, float]:
        """How late chunks arrived relative to the earliest one: median and max, ms."""
        with self._lock:
            offsets = [ns / 1e9 - n / RATE for n, ns in self.stamps]
        base = min(offsets)
        lags = [(o - base) * 1000 for o in offsets]
        return statistics.median(lags), max(lags)

    def snapshot(self) -> np.ndarray:
        """All samples so far."""
        with self._lock:
            raw = b"".join(self.chunks)
        return np.frombuffer(raw[: len(raw) // 2 * 2], "<i2").astype(np.float64)

    def time_of(self, sample: int) -> float:
        """Monotonic time (s) of a sample, from the chunks within 3 s of it.

        Local, so that a slow drift between the server's sample clock and the
        monotonic clock over a long run does not shift the estimate.
        """
        with self._lock:
            near = [(n, ns) for n, ns in self.stamps if abs(n - sample) < 3 * RATE]
        return min(ns / 1e9 - n / RATE for n, ns in near) + sample / RATE

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(5)


def audible_span(x: np.ndarray, start: int = 0) -> tuple[int, int] | None:
    idx = np.flatnonzero(np.abs(x[start:]) > THRESHOLD)
    if len(idx) == 0:
        return None
    return start + int(idx[0]), start + int(idx[-1])


def tone_wav(path: Path, seconds: float, hz: float = 1000.0) -> Path:
    k = np.arange(int(seconds * RATE))
    x = np.round(0.5 * 32767 * np.sin(2 * np.pi * hz * k / RATE)).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(x.tobytes())
    return path


def read_mono(path: Path) -> np.ndarray:
    """The decoded samples of a 22.05 kHz mono file (WAV or MP3): what the players get."""
    from companion.audio.decode import decode_music

    pcm = decode_music(path)
    assert pcm.sample_rate == RATE and pcm.channels == 1, "use 22.05 kHz mono files"
    return np.frombuffer(pcm.frames, "<i2").astype(np.float64)


def mp3_excerpt(track: Path, seconds: float, out: Path) -> Path | None:
    """The first ``seconds`` of ``track`` (with a 1 s fade-out) encoded by lame, or None."""
    if shutil.which("lame") is None:
        return None
    with wave.open(str(track)) as w:
        x = np.frombuffer(w.readframes(int(seconds * RATE)), "<i2").astype(np.float64)
    x[-RATE:] *= np.linspace(1.0, 0.0, RATE)
    wav = out.with_suffix(".wav")
    with wave.open(str(wav), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(np.round(x).astype("<i2").tobytes())
    subprocess.run(["lame", "--quiet", "-b", "128", str(wav), str(out)], check=True)
    return out


def source_span(path: Path) -> float:
    """Audible length of the WAV itself, with the same threshold (tones only)."""
    span = audible_span(read_mono(path))
    assert span is not None
    return (span[1] - span[0] + 1) / RATE


def locate(hay: np.ndarray, needle: np.ndarray) -> int:
    """Where ``needle`` best matches inside ``hay`` (normalised cross-correlation)."""
    c = np.correlate(hay, needle, mode="valid")
    energy = np.sqrt(np.convolve(hay * hay, np.ones(len(needle)), mode="valid")) + 1e-9
    return int(np.argmax(c / energy))


def anchored_length(
    rec: np.ndarray, first: int, last: int, src: np.ndarray
) -> tuple[float, float, float]:
    """Played and written length between two anchors found by correlation.

    Threshold crossings depend on the level (a decaying tail crosses -34 dBFS
    earlier if the server attenuates); matching the waveform does not. Anchor A is
    0.5 s from the start of the music, anchor B 0.5 s ending 2 s before the end.
    """
    src_span = audible_span(src)
    assert src_span is not None
    s0 = src_span[0]
    w = RATE // 2
    e0 = len(src) - 2 * RATE - w
    lo = max(0, first - RATE // 4)
    a = lo + locate(rec[lo : first + RATE], src[s0 : s0 + w])
    expect_b = a + (e0 - s0)
    lo_b = max(0, expect_b - RATE // 2)
    b = lo_b + locate(rec[lo_b : expect_b + RATE // 2 + w], src[e0 : e0 + w])
    # Where the source's last audible sample should land, from anchor B.
    end_expected = b + (src_span[1] - e0)
    return (b - a) / RATE, (e0 - s0) / RATE, (last - end_expected) / RATE * 1000


@dataclass
class Run:
    label: str
    play_call_ms: float
    start_delay_ms: float
    audible_s: float | None = None
    expected_s: float | None = None
    stop_call_ms: float | None = None
    stop_to_silence_ms: float | None = None
    stop_to_not_playing_ms: float | None = None
    level_db: float | None = None  # recorded level of a tone against the WAV
    end_diff_ms: float | None = None  # last audible sample: recording minus source


def measure(
    backend: Any, rec: Recorder, path: Path, label: str, stop_after: float | None = None
) -> Run:
    mark = len(rec.snapshot())
    t_call = time.monotonic()
    backend.play(path)
    t_started = time.monotonic()  # the countdown starts here
    run = Run(label, (t_started - t_call) * 1000, float("nan"))
    t_stop = None
    if stop_after is not None:
        time.sleep(stop_after)
        t_stop = time.monotonic()
        backend.stop()
        run.stop_call_ms = (time.monotonic() - t_stop) * 1000
    while backend.is_playing():
        time.sleep(0.002)
    if t_stop is not None:
        run.stop_to_not_playing_ms = (time.monotonic() - t_stop) * 1000
    time.sleep(0.5)  # let the tail reach the monitor
    rec.wait_samples(len(rec.snapshot()) + RATE // 10)
    x = rec.snapshot()
    span = audible_span(x, mark)
    if span is None:
        raise RuntimeError(f"{label}: nothing audible was recorded")
    first, last = span
    run.start_delay_ms = (rec.time_of(first) - t_started) * 1000
    src = read_mono(path)
    if t_stop is None and (path.name.startswith("tone") or len(src) < 6 * RATE):
        # Tones have square edges; short cues are compared by threshold as well.
        run.audible_s = (last - first + 1) / RATE
        run.expected_s = source_span(path)
        if path.name.startswith("tone"):
            mid = x[first + RATE // 4 : last - RATE // 4]
            run.level_db = 20 * float(
                np.log10(np.sqrt(np.mean(mid * mid)) / np.sqrt(np.mean(src * src)))
            )
    elif t_stop is None:
        run.audible_s, run.expected_s, run.end_diff_ms = anchored_length(x, first, last, src)
    else:
        run.stop_to_silence_ms = (rec.time_of(last) - t_stop) * 1000
    return run


def fmt(values: list[float], unit: str = "ms") -> str:
    if not values:
        return "-"
    if len(values) == 1:
        return f"{values[0]:.1f} {unit}"
    return (
        f"median {statistics.median(values):.1f} {unit} "
        f"(min {min(values):.1f}, max {max(values):.1f}, n={len(values)})"
    )


def suite(backend: Any, rec: Recorder, tmp: Path, args: argparse.Namespace) -> list[Run]:
    from companion.audio.tracks import cue, tracks_for_act

    tone2 = tone_wav(tmp / "tone2.wav", 2.0)
    tone10 = tone_wav(tmp / "tone10.wav", 10.0)
    runs: list[Run] = [measure(backend, rec, tone2, "first 2 s tone")]
    for i in range(args.repeat):
        runs.append(measure(backend, rec, tone2, f"2 s tone #{i + 1}"))
    for i in range(args.repeat):
        runs.append(measure(backend, rec, tone10, f"stop at 2 s #{i + 1}", stop_after=2.0))
    for name in ("tadaa", "start"):
        runs.append(measure(backend, rec, cue(name), f"cue {name}"))
    track = tracks_for_act(1)[0]
    excerpt = mp3_excerpt(track.path, 15.0, tmp / "excerpt.mp3")
    if excerpt is not None:
        runs.append(measure(backend, rec, excerpt, "mp3, 15 s excerpt"))
    if not args.quick:
        runs.append(measure(backend, rec, track.path, f"track {track.id}"))
        full = mp3_excerpt(track.path, track.duration_s, tmp / "full.mp3")
        if full is not None:
            runs.append(measure(backend, rec, full, f"mp3 of {track.id}"))
    return runs


def report(name: str, runs: list[Run]) -> dict[str, str]:
    """Print one player's table; return its summary lines for the side-by-side table."""
    print()
    print(f"== {name}")
    print(
        f"{'run':<24}{'play()':>9}{'start':>9}{'audible':>10}{'source':>9}"
        f"{'stop()':>9}{'->silent':>10}{'->!playing':>12}"
    )

    def opt(v: float | None, f: str = "{:.1f}") -> str:
        return f.format(v) if v is not None else "-"

    for r in runs:
        print(
            f"{r.label:<24}{r.play_call_ms:>9.1f}{r.start_delay_ms:>9.1f}"
            f"{opt(r.audible_s, '{:.3f}'):>10}{opt(r.expected_s, '{:.3f}'):>9}"
            f"{opt(r.stop_call_ms):>9}{opt(r.stop_to_silence_ms):>10}"
            f"{opt(r.stop_to_not_playing_ms):>12}"
        )
    warm = runs[1:]
    stops = [r for r in runs if r.stop_to_silence_ms is not None]
    tones = [
        (r.audible_s - r.expected_s) * 1000
        for r in warm
        if r.label.startswith("2 s tone") and r.audible_s is not None and r.expected_s
    ]
    summary = {
        "start delay after play() (warm)": fmt([r.start_delay_ms for r in warm]),
        "start delay, first stream": fmt([runs[0].start_delay_ms]),
        "play() holds the caller": fmt([r.play_call_ms for r in warm]),
        "2 s tone: audible minus WAV length": fmt(tones),
        "stop() holds the caller": fmt([r.stop_call_ms or 0.0 for r in stops]),
        "stop() to silence": fmt([r.stop_to_silence_ms or 0.0 for r in stops]),
        "stop() to is_playing() False": fmt([r.stop_to_not_playing_ms or 0.0 for r in stops]),
        "tone level against the WAV": fmt(
            [r.level_db for r in runs if r.level_db is not None], "dB"
        ),
    }
    for r in runs:
        if r.end_diff_ms is not None and r.audible_s is not None and r.expected_s is not None:
            summary[f"{r.label}: played vs decoded, anchored"] = (
                f"{r.audible_s:.3f} s vs {r.expected_s:.3f} s "
                f"({(r.audible_s - r.expected_s) * RATE:+.0f} samples); "
                f"end {r.end_diff_ms:+.1f} ms"
            )
    for key, value in summary.items():
        print(f"{key}: {value}")
    return summary


def decode_times(tmp: Path) -> None:
    """How long choosing (header/frame count) and decoding a 2-minute song take, uncached."""
    from companion.audio import decode
    from companion.audio.tracks import tracks_for_act

    track = tracks_for_act(1)[0]
    files = {"wav": track.path}
    for fmt, cmd in (
        ("mp3", ["lame", "--quiet", "-b", "128"]),
        ("flac", ["flac", "--silent", "--force", "-o"]),
        ("ogg", ["oggenc", "--quiet", "-o"]),
    ):
        out = tmp / f"song.{fmt}"
        if shutil.which(cmd[0]) is None:
            continue
        args = (
            [*cmd, str(track.path), str(out)] if fmt == "mp3" else [*cmd, str(out), str(track.path)]
        )
        subprocess.run(args, check=True)
        files[fmt] = out
    for fmt, path in files.items():
        info_ms, decode_ms = [], []
        for _ in range(5):
            decode._cache.clear()
            t0 = time.perf_counter()
            decode.read_music_info(path)
            t1 = time.perf_counter()
            decode.decode_music(path)
            t2 = time.perf_counter()
            info_ms.append((t1 - t0) * 1000)
            decode_ms.append((t2 - t1) * 1000)
        print(
            f"{fmt:>4} {track.duration_s:.0f} s song: read_music_info {fmt_short(info_ms)}, "
            f"decode_music {fmt_short(decode_ms)}"
        )


def fmt_short(values: list[float]) -> str:
    return f"median {statistics.median(values):.1f} ms (max {max(values):.1f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the full 2-minute tracks")
    parser.add_argument("--repeat", type=int, default=5, help="runs per measurement")
    parser.add_argument(
        "--backends", default="simpleaudio,miniaudio", help="players to measure, in order"
    )
    parser.add_argument("--decode-only", action="store_true", help="only the decode times")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="audio-decode-") as tmpdir:
        decode_times(Path(tmpdir))
    if args.decode_only:
        return 0

    missing = missing_tools()
    if missing:
        print("This benchmark needs: " + ", ".join(missing), file=sys.stderr)
        print(
            "  apt-get install -y pulseaudio pulseaudio-utils libasound2-plugins", file=sys.stderr
        )
        return 2

    results: dict[str, dict[str, str]] = {}
    with tempfile.TemporaryDirectory(prefix="audio-bench-") as tmpdir:
        tmp = Path(tmpdir)
        pulse = Pulse(tmp)
        pulse.start()
        rec = None
        try:
            # ALSA reads its configuration at the first open: set the env first.
            os.environ.update(pulse.env)
            from companion.audio.backend import open_backend

            rec = Recorder(pulse.env)
            rec.wait_samples(RATE // 2)
            for name in args.backends.split(","):
                t = time.monotonic()
                backend = open_backend(name)
                open_ms = (time.monotonic() - t) * 1000
                if not backend.available or backend.name != name:
                    print(f"{name}: not measured ({backend.reason})", file=sys.stderr)
                    continue
                print(
                    f"open_backend({name!r}): {open_ms:.0f} ms (includes the probe); "
                    f"its latency estimate: {(backend.latency_s or 0) * 1000:.0f} ms"
                )
                runs = suite(backend, rec, tmp, args)
                results[name] = report(name, runs)
                results[name]["open_backend() (the probe)"] = f"{open_ms:.0f} ms"
                results[name]["latency_s estimate"] = f"{(backend.latency_s or 0) * 1000:.0f} ms"
            lag_median, lag_max = rec.lag_ms()
        finally:
            if rec is not None:
                rec.close()
            pulse.stop()

    print()
    print(
        f"capture timing: parec chunks arrived {lag_median:.1f} ms (median), "
        f"{lag_max:.1f} ms (max) after the earliest-arriving one"
    )
    names = list(results)
    keys = list(dict.fromkeys(k for r in results.values() for k in r))
    print()
    print("| what | " + " | ".join(names) + " |")
    print("| --- |" + " --- |" * len(names))
    for key in keys:
        print(f"| {key} | " + " | ".join(results[n].get(key, "-") for n in names) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
