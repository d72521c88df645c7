"""Render the Meeple Circus music and cues from the note data in ``scores.py``.

    python sounds/render.py                  # every track and cue, into companion/audio/sounds/
    python sounds/render.py --out /tmp/x     # somewhere else (the byte-identity test)
    python sounds/render.py --only tadaa     # one file (a track id or a cue name)

Design decisions:

* Original music, written for this project as note data (melody, chord symbols,
  form) and played by a small band synthesiser: a cornet-like lead over an oom-pah
  tuba and horn stabs, bass drum, snare and cymbal, a glockenspiel. Free to ship.
* **Byte-identical on every machine.** The committed WAVs must equal a fresh render,
  so the signal path uses only IEEE basic arithmetic (+, -, *, /), integer phase
  accumulators and lookup tables. Transcendental functions (sin, exp, pow) differ
  in the last bit between libm builds and SIMD paths (NumPy dispatches ``np.sin``
  to AVX-512 code on some CPUs); they are used only to build the tables, and every
  table value is rounded to a multiple of 2**-24, so a last-bit difference cannot
  reach the output. Noise is a counter hash (SplitMix64), not a random generator.
* Each file is normalised to a peak of 0.89 of full scale (about -1 dBFS): no clip.
* 22.05 kHz mono 16-bit, as the catalogue in ``companion/audio/tracks.py`` expects;
  the file names come from that catalogue.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import scores  # noqa: E402  (note data beside this file)
from scores import Piece, Section  # noqa: E402

from companion.audio.tracks import (  # noqa: E402
    CUES,
    TRACK_TABLE,
    builtin_sounds_dir,
    cue_path,
    track_path,
)

SR = 22050
PEAK = 0.89
TAIL_S = 0.6  # silence-ish after the last note's release (the reverb dies away)

# ---------------------------------------------------------------------------------
# Tables: the only place transcendental functions run, rounded to 2**-24.

_Q = float(1 << 24)
TABLE_BITS = 11
TABLE_N = 1 << TABLE_BITS
FRAC_BITS = 32 - TABLE_BITS
FRAC_SCALE = 1.0 / (1 << FRAC_BITS)
MASK32 = np.uint64(0xFFFFFFFF)


def _q(x: float) -> float:
    return round(x * _Q) / _Q


SINE = np.array([_q(math.sin(2.0 * math.pi * i / TABLE_N)) for i in range(TABLE_N)])
EXP_STEPS = 64  # table entries per time constant
EXP_TABLE = np.array([_q(math.exp(-i / EXP_STEPS)) for i in range(EXP_STEPS * 14)] + [0.0])


Timbre = tuple[float, ...]  # harmonic amplitudes, fundamental first

_TABLES: dict[tuple[Timbre, int], np.ndarray] = {}


def harmonic_table(amps: Timbre, keep: int | None = None) -> np.ndarray:
    """One cycle of sum(a_n sin(n x)) over the first ``keep`` harmonics, plus a guard
    sample for interpolation. Scaled by the full timbre's peak, so that dropping the
    top harmonics of a high note does not make it louder.
    """
    keep = len(amps) if keep is None else keep
    key = (amps, keep)
    cached = _TABLES.get(key)
    if cached is not None:
        return cached
    idx = np.arange(TABLE_N)

    def cycle(count: int) -> np.ndarray:
        table = np.zeros(TABLE_N)
        for n, a in enumerate(amps[:count], start=1):
            if a:
                table += a * SINE[(idx * n) % TABLE_N]
        return table

    table = cycle(keep) / np.abs(cycle(len(amps))).max()
    _TABLES[key] = out = np.append(table, table[0])
    return out


def band_limited(amps: Timbre, top_hz: float) -> np.ndarray:
    """The timbre without the harmonics that would fold back above 0.45 x the rate."""
    keep = max(1, min(len(amps), int(0.45 * SR / top_hz)))
    return harmonic_table(amps, keep)


SINE_T = np.append(SINE, SINE[0])
BRIGHT_BRASS: Timbre = (1, 0.9, 0.8, 0.66, 0.52, 0.4, 0.3, 0.22, 0.15, 0.1, 0.06)
MELLOW_BRASS: Timbre = (1, 0.55, 0.3, 0.15, 0.07, 0.03)
TUBA: Timbre = (1, 0.75, 0.45, 0.28, 0.16, 0.08, 0.04)
CLARINET: Timbre = (1, 0.04, 0.5, 0.03, 0.3, 0.02, 0.16, 0.01, 0.08)
REED: Timbre = (1, 0.35, 0.55, 0.25, 0.3, 0.12, 0.15, 0.06)


def midi_inc(midi: float) -> int:
    """Phase increment (32-bit turn) of an equal-tempered MIDI pitch, A4 = 440 Hz."""
    return hz_inc(440.0 * 2.0 ** ((midi - 69) / 12.0))


def hz_inc(hz: float) -> int:
    return round(hz * 4294967296.0 / SR)


def lookup(table: np.ndarray, phase: np.ndarray) -> np.ndarray:
    """Linear-interpolated table read at 32-bit phases (uint64 holding 0..2**32-1)."""
    i = (phase >> np.uint64(FRAC_BITS)).astype(np.intp)
    f = (phase & np.uint64((1 << FRAC_BITS) - 1)).astype(np.float64) * FRAC_SCALE
    a = table[i]
    return a + (table[i + 1] - a) * f


def phases(n: int, inc: int | np.ndarray, start: int = 0) -> np.ndarray:
    """Phases of an oscillator: a fixed increment, or one increment per sample."""
    if isinstance(inc, np.ndarray):
        acc = np.cumsum(inc.astype(np.int64)) - inc[0] + start
        return acc.astype(np.uint64) & MASK32
    return (np.arange(n, dtype=np.uint64) * np.uint64(inc) + np.uint64(start)) & MASK32


def exp_decay(n: int, tau_s: float) -> np.ndarray:
    """exp(-t / tau) from the table, linear between entries, 0 after 14 tau."""
    x = np.arange(n, dtype=np.float64) * (EXP_STEPS / (tau_s * SR))
    x = np.minimum(x, float(len(EXP_TABLE) - 1))
    i = x.astype(np.intp)
    f = x - i
    j = np.minimum(i + 1, len(EXP_TABLE) - 1)
    return EXP_TABLE[i] + (EXP_TABLE[j] - EXP_TABLE[i]) * f


def noise(n: int, seed: int) -> np.ndarray:
    """White noise in [-1, 1) from SplitMix64 over a counter: the same everywhere."""
    with np.errstate(over="ignore"):
        x = (np.arange(n, dtype=np.uint64) + np.uint64(seed)) * np.uint64(0x9E3779B97F4A7C15)
        x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        x = x ^ (x >> np.uint64(31))
    return (x >> np.uint64(11)).astype(np.float64) * (2.0 / 9007199254740992.0) - 1.0


def fade_out(sig: np.ndarray, fade_s: float = 0.03) -> np.ndarray:
    """A linear fade over the last ``fade_s``: a decay cut short must not click."""
    k = min(len(sig), int(fade_s * SR))
    sig[len(sig) - k :] *= ramp(1.0, 0.0, k)
    return sig


def envelope(n: int, points: list[tuple[float, float]]) -> np.ndarray:
    """Piecewise-linear envelope through (seconds, level) points."""
    t = np.arange(n, dtype=np.float64) * (1.0 / SR)
    xs = np.array([p[0] for p in points])
    ys = np.array([p[1] for p in points])
    # Not np.interp: its C loop computes slope * (x - xp) + fp, which a compiler may
    # fuse into one FMA on some architectures; separate ufuncs are never fused.
    slopes = (ys[1:] - ys[:-1]) / (xs[1:] - xs[:-1])
    j = np.clip(np.searchsorted(xs, t, side="right") - 1, 0, len(xs) - 2)
    return slopes[j] * (t - xs[j]) + ys[j]


def ramp(start: float, stop: float, n: int) -> np.ndarray:
    """``n`` evenly spaced values from ``start`` to ``stop`` inclusive (np.linspace's
    arithmetic, written out so that a NumPy release cannot change the bytes)."""
    if n <= 1:
        return np.array([start][:n])
    y = np.arange(n, dtype=np.float64) * ((stop - start) / (n - 1)) + start
    y[-1] = stop
    return y


# ---------------------------------------------------------------------------------
# Instruments: each renders one note into a fresh array (the caller mixes it in).


def vibrato_incs(n: int, inc: int, delay_s: float, depth: float, rate_hz: float) -> np.ndarray:
    lfo = lookup(SINE_T, phases(n, hz_inc(rate_hz)))
    ramp = envelope(n, [(0.0, 0.0), (delay_s, 0.0), (delay_s + 0.25, 1.0), (1e9, 1.0)])
    return inc + np.round(lfo * ramp * (inc * depth)).astype(np.int64)


def glide_incs(n: int, inc_a: int, inc_b: int, glide_frac: float = 0.7) -> np.ndarray:
    g = max(1, int(n * glide_frac))
    shape = np.concatenate([ramp(0.0, 1.0, g), np.ones(n - g)])
    return np.round(inc_a + (inc_b - inc_a) * shape).astype(np.int64)


@dataclass(frozen=True)
class Brass:
    """A brass voice: bright attack fading to a mellower sustain, vibrato on long notes."""

    bright: Timbre
    mellow: Timbre
    attack_s: float = 0.025
    sustain: float = 0.72
    release_s: float = 0.07
    brightness: float = 0.55  # share of the bright table after the attack
    vibrato: float = 0.004

    def _points(self, gate: float) -> list[tuple[float, float]]:
        """Attack to 1, decay towards the sustain level, release to 0 after the gate."""
        a, sus = self.attack_s, self.sustain
        pts = [(0.0, 0.0), (a, 1.0)]
        decay_end = a + 0.09
        if gate > decay_end:
            pts += [(decay_end, sus), (gate, sus * 0.92)]
        else:
            pts.append((gate, 1.0 - (1.0 - sus) * (gate - a) / 0.09))
        return [*pts, (gate + self.release_s, 0.0), (1e9, 0.0)]

    def render(self, midi: float, gate_s: float, glide_to: float | None = None) -> np.ndarray:
        gate = max(gate_s, self.attack_s + 0.01)
        n = int((gate + self.release_s) * SR)
        inc = midi_inc(midi)
        incs: int | np.ndarray
        if glide_to is not None:
            incs = glide_incs(n, inc, midi_inc(glide_to))
        elif gate > 0.35 and self.vibrato:
            incs = vibrato_incs(n, inc, 0.18, self.vibrato, 5.5)
        else:
            incs = inc
        ph = phases(n, incs)
        top = max(midi, glide_to if glide_to is not None else midi)
        top_hz = 440.0 * 2.0 ** ((top - 69) / 12.0) * (1.0 + 2 * self.vibrato)
        bright = lookup(band_limited(self.bright, top_hz), ph)
        mellow = lookup(band_limited(self.mellow, top_hz), ph)
        a = self.attack_s
        w = envelope(
            n, [(0.0, 0.95), (a, 1.0), (a + 0.18, self.brightness), (1e9, self.brightness)]
        )
        env = envelope(n, self._points(gate))
        return env * (w * bright + (1.0 - w) * mellow)


@dataclass(frozen=True)
class Glock:
    """Glockenspiel: three inharmonic partials, each with its own decay."""

    partials: tuple[tuple[float, float, float], ...] = (
        (1.0, 1.0, 0.45),
        (2.756, 0.3, 0.14),
        (5.404, 0.1, 0.05),
    )
    length_s: float = 1.1

    def render(self, midi: float, gate_s: float, glide_to: float | None = None) -> np.ndarray:
        n = int(self.length_s * SR)
        out = np.zeros(n)
        base = 440.0 * 2.0 ** ((midi - 69) / 12.0)
        for ratio, amp, tau in self.partials:
            hz = base * ratio
            if hz > 0.45 * SR:
                continue
            out += amp * lookup(SINE_T, phases(n, hz_inc(hz))) * exp_decay(n, tau)
        click = envelope(n, [(0.0, 0.0), (0.002, 1.0), (1e9, 1.0)])
        return fade_out(out * click, 0.1)


CORNET = Brass(BRIGHT_BRASS, MELLOW_BRASS)
HORN = Brass(MELLOW_BRASS, MELLOW_BRASS, attack_s=0.03, sustain=0.8, vibrato=0.0)
TROMBONE = Brass(BRIGHT_BRASS, TUBA, attack_s=0.03, brightness=0.35, vibrato=0.003)
TUBA_V = Brass(TUBA, TUBA, attack_s=0.02, sustain=0.6, release_s=0.06, vibrato=0.0)
CLARINET_V = Brass(CLARINET, CLARINET, attack_s=0.03, sustain=0.85, vibrato=0.003)
STAB = Brass(REED, MELLOW_BRASS, attack_s=0.008, sustain=0.5, release_s=0.05, vibrato=0.0)
GLOCK = Glock()

LEADS: dict[str, Brass] = {"cornet": CORNET, "clarinet": CLARINET_V, "trombone": TROMBONE}


def kick(seed: int) -> np.ndarray:
    n = int(0.35 * SR)
    incs = glide_incs(n, hz_inc(115.0), hz_inc(46.0), glide_frac=0.25)
    body = lookup(SINE_T, phases(n, incs)) * exp_decay(n, 0.11)
    thump = noise(n, seed) * exp_decay(n, 0.006) * 0.3
    return fade_out(body + thump)


def snare(seed: int, tau: float = 0.075) -> np.ndarray:
    n = int(0.28 * SR)
    raw = noise(n + 1, seed)
    hiss = 0.55 * raw[1:] + 0.45 * (raw[1:] - raw[:-1])
    tone = lookup(SINE_T, phases(n, hz_inc(185.0))) * exp_decay(n, 0.04)
    return fade_out((hiss * exp_decay(n, tau) + 0.6 * tone) * 0.8)


def crash(seed: int) -> np.ndarray:
    n = int(2.2 * SR)
    raw = noise(n + 2, seed)
    bright = raw[2:] - 2.0 * raw[1:-1] + raw[:-2]  # second difference: a high-pass
    env = exp_decay(n, 0.55) * envelope(n, [(0.0, 0.0), (0.003, 1.0), (1e9, 1.0)])
    return fade_out(bright * env * 0.33, 0.2)


# ---------------------------------------------------------------------------------
# Score: melodies in a small text notation, chords as symbols, a form per piece.

NOTE_RE = re.compile(
    r"^(?P<pitch>r|[a-g](?:#|b)?-?\d)(?:>(?P<glide>[a-g](?:#|b)?\d))?"
    r"(?::(?P<dur>\d*\.?\d+))?(?P<stacc>')?$"
)
PC = {"c": 0, "d": 2, "e": 4, "f": 5, "g": 7, "a": 9, "b": 11}
CHORD_RE = re.compile(
    r"^(?P<root>[A-G](?:#|b)?)(?P<q>maj7|m7|dim7|dim|aug|m6|m|7|6)?"
    r"(?:/(?P<bass>[A-G](?:#|b)?))?(?P<mod>[!^~]*)$"
)
QUALITY = {
    None: (0, 4, 7),
    "m": (0, 3, 7),
    "7": (0, 4, 7, 10),
    "m7": (0, 3, 7, 10),
    "maj7": (0, 4, 7, 11),
    "6": (0, 4, 7, 9),
    "m6": (0, 3, 7, 9),
    "dim": (0, 3, 6),
    "dim7": (0, 3, 6, 9),
    "aug": (0, 4, 8),
}
METERS = {"2/4": 2.0, "3/4": 3.0, "6/8": 3.0}  # beats (quarter notes) per bar
MAJOR = (0, 2, 4, 5, 7, 9, 11)


def pitch_class(name: str) -> int:
    base = PC[name[0].lower()]
    if len(name) > 1 and name[1] == "#":
        return (base + 1) % 12
    if len(name) > 1 and name[1] == "b":
        return (base - 1) % 12
    return base


def note_midi(name: str) -> int:
    m = re.fullmatch(r"([a-g](?:#|b)?)(-?\d)", name)
    if not m:
        raise ValueError(f"bad pitch {name!r}")
    pc = PC[m.group(1)[0]] + (1 if "#" in m.group(1) else -1 if m.group(1)[1:] == "b" else 0)
    return 12 * (int(m.group(2)) + 1) + pc


@dataclass(frozen=True)
class Note:
    beat: float  # from the start of the strain
    beats: float
    midi: int | None  # None: rest
    glide_to: int | None = None
    staccato: bool = False


@dataclass(frozen=True)
class Chord:
    beat: float
    beats: float
    root: int | None  # pitch class; None: no chord ("-")
    tones: tuple[int, ...] = ()
    bass: int | None = None
    held: bool = False  # "!": sustained tutti chord with a cymbal crash
    hit: bool = False  # "^": short tutti hit
    roll: bool = False  # "~": snare roll over the span
    cont: bool = False  # "_": the previous chord goes on


def parse_melody(text: str, bar_beats: float, where: str) -> list[Note]:
    notes: list[Note] = []
    beat = 0.0
    dur = 1.0
    for tok in text.split():
        if tok == "|":
            if abs(beat / bar_beats - round(beat / bar_beats)) > 1e-9:
                raise ValueError(f"{where}: bar check failed at beat {beat}")
            continue
        m = NOTE_RE.match(tok)
        if not m:
            raise ValueError(f"{where}: bad note {tok!r}")
        if m.group("dur"):
            dur = float(m.group("dur"))
        pitch = m.group("pitch")
        glide = m.group("glide")
        notes.append(
            Note(
                beat,
                dur,
                None if pitch == "r" else note_midi(pitch),
                note_midi(glide) if glide else None,
                bool(m.group("stacc")),
            )
        )
        beat += dur
    return notes


def parse_chords(text: str, bar_beats: float, where: str) -> list[Chord]:
    chords: list[Chord] = []
    for b, bar in enumerate(text.split("|")):
        toks = bar.split()
        if not toks:
            raise ValueError(f"{where}: empty bar {b + 1} in chords")
        each = bar_beats / len(toks)
        for k, tok in enumerate(toks):
            beat = b * bar_beats + k * each
            if tok == "-":
                chords.append(Chord(beat, each, None))
                continue
            if tok == "_":
                chords.append(Chord(beat, each, None, cont=True))
                continue
            m = CHORD_RE.match(tok)
            if not m:
                raise ValueError(f"{where}: bad chord {tok!r}")
            root = pitch_class(m.group("root"))
            tones = tuple((root + i) % 12 for i in QUALITY[m.group("q")])
            bass = pitch_class(m.group("bass")) if m.group("bass") else root
            mod = m.group("mod")
            chords.append(Chord(beat, each, root, tones, bass, "!" in mod, "^" in mod, "~" in mod))
    return chords


@dataclass
class Mixer:
    n: int
    buses: dict[str, np.ndarray] = field(default_factory=dict)

    def add(self, bus: str, start_s: float, sig: np.ndarray, gain: float) -> None:
        buf = self.buses.get(bus)
        if buf is None:
            buf = self.buses[bus] = np.zeros(self.n)
        i = round(start_s * SR)
        j = min(self.n, i + len(sig))
        if j > i:
            buf[i:j] += sig[: j - i] * gain


# Accompaniment patterns, in beats within the bar: (position, what, length in beats).
PATTERNS: dict[str, list[tuple[float, str, float]]] = {
    "2/4": [(0.0, "bass", 0.5), (0.5, "stab", 0.25), (1.0, "bass", 0.5), (1.5, "stab", 0.25)],
    "3/4": [(0.0, "bass", 0.75), (1.0, "stab", 0.4), (2.0, "stab", 0.4)],
    "6/8": [(0.0, "bass", 0.75), (1.0, "stab", 0.35), (1.5, "bass", 0.75), (2.5, "stab", 0.35)],
}
DRUMS: dict[str, list[tuple[float, str, float]]] = {
    "2/4": [(0.0, "kick", 1.0), (1.0, "kick", 0.8), (0.5, "snare", 0.45), (1.5, "snare", 0.45)],
    "3/4": [(0.0, "kick", 1.0), (1.0, "snare", 0.3), (2.0, "snare", 0.3)],
    "6/8": [(0.0, "kick", 1.0), (1.5, "kick", 0.8), (1.0, "snare", 0.4), (2.5, "snare", 0.4)],
}


def bass_note(pc: int) -> int:
    """The tuba's register: C2 (36) up to B2 (47)."""
    return 36 + pc


def voicing(tones: tuple[int, ...], centre: int = 62) -> list[int]:
    """Close position around ``centre``: each chord tone in the octave nearest to it."""
    out = []
    for pc in tones[:4]:
        m = centre - 6 + ((pc - (centre - 6)) % 12)
        out.append(m)
    return sorted(out)


def harmony_below(note: Note, chord: Chord | None, key_pc: int) -> int:
    """A band's second part: a chord tone a third-ish below, else the diatonic third."""
    assert note.midi is not None
    mel = note.midi
    if chord is not None and chord.tones and note.beats >= 0.75 and mel % 12 in chord.tones:
        for d in range(3, 6):
            if (mel - d) % 12 in chord.tones:
                return mel - d
    scale = {(key_pc + s) % 12 for s in MAJOR}
    for d in (3, 4):
        if (mel - d) % 12 in scale:
            return mel - d
    return mel - 3


def chord_at(chords: list[Chord], beat: float) -> Chord | None:
    found: Chord | None = None
    for c in chords:
        if c.beat <= beat + 1e-9:
            if not c.cont:
                found = c
        else:
            break
    return found if found is not None and found.root is not None else None


def gate(note_s: float, staccato: bool) -> float:
    if staccato:
        return min(note_s * 0.5, 0.11)
    return max(0.04, min(note_s * 0.9, note_s - 0.03))


def render_piece(piece: Piece) -> np.ndarray:
    bar_beats = METERS[piece.meter]
    spb = 60.0 / piece.tempo  # seconds per beat
    parsed: dict[str, tuple[list[Note], list[Chord]]] = {}
    for name, strain in piece.strains.items():
        where = f"{piece.id}/{name}"
        notes = parse_melody(strain.melody, bar_beats, where)
        chords = parse_chords(strain.chords, bar_beats, where)
        mel_beats = sum(n.beats for n in notes)
        bars = len(strain.chords.split("|"))
        if abs(mel_beats - bars * bar_beats) > 1e-9:
            raise ValueError(f"{where}: melody has {mel_beats} beats, chords {bars} bars")
        parsed[name] = (notes, chords)
    total_beats = sum(
        len(piece.strains[s.strain].chords.split("|")) * bar_beats for s in piece.form
    )
    n = int((total_beats * spb + 2.5 + TAIL_S) * SR)
    mix = Mixer(n)
    seed = 1
    start = 0.0
    for section in piece.form:
        notes, chords = parsed[section.strain]
        key_pc = pitch_class(piece.strains[section.strain].key)
        bars = len(piece.strains[section.strain].chords.split("|"))
        g = section.gain
        lead = LEADS[section.lead]
        for note in notes:
            if note.midi is None:
                continue
            t = start + note.beat * spb
            dur_s = note.beats * spb
            gs = gate(dur_s, note.staccato)
            mix.add("lead", t, lead.render(note.midi, gs, note.glide_to), 0.5 * g)
            if section.tutti:
                low = TROMBONE.render(
                    note.midi - 12, gs, None if note.glide_to is None else note.glide_to - 12
                )
                mix.add("brass", t, low, 0.3 * g)
            if section.harmony and note.glide_to is None:
                h = harmony_below(note, chord_at(chords, note.beat), key_pc)
                mix.add("brass", t, HORN.render(h, gs), 0.28 * g)
            if section.glock and note.midi + 12 <= 100 and note.beats >= 0.5:
                mix.add("glock", t, GLOCK.render(note.midi + 12, gs), 0.22 * g)
        _accompany(mix, piece.meter, chords, bars, bar_beats, start, spb, g, section)
        if section.drums:
            seed = _drums(mix, piece.meter, chords, bars, bar_beats, start, spb, g, seed)
        if section.crash:
            mix.add("drums", start, crash(seed), 0.55 * g)
            seed += 1
        start += bars * bar_beats * spb
    last = max((int(np.flatnonzero(b)[-1]) for b in mix.buses.values() if np.any(b)), default=0)
    out = np.zeros(n)
    for bus, buf in mix.buses.items():
        out += buf * BUS_GAIN[bus]
    out = room(out)
    end = min(n, last + int(TAIL_S * SR))
    return out[:end]


BUS_GAIN = {"lead": 1.0, "brass": 1.0, "bass": 0.9, "stab": 0.5, "drums": 0.55, "glock": 1.0}


def _accompany(
    mix: Mixer,
    meter: str,
    chords: list[Chord],
    bars: int,
    bar_beats: float,
    start: float,
    spb: float,
    g: float,
    section: Section,
) -> None:
    pattern = PATTERNS[meter]
    # Held and hit chords, and the spans they cover (no oom-pah under them).
    special: list[tuple[float, float]] = []
    for k, c in enumerate(chords):
        if c.root is None or not (c.held or c.hit):
            continue
        length = c.beats
        for nxt in chords[k + 1 :]:
            if not nxt.cont:
                break
            length += nxt.beats
        t = start + c.beat * spb
        if c.held:
            gs = length * spb
            low = bass_note(c.bass if c.bass is not None else c.root)
            mix.add("bass", t, TUBA_V.render(low, gs), 0.55 * g)
            mix.add("bass", t, TUBA_V.render(low + 12, gs), 0.3 * g)
            for m in voicing(c.tones, 64):
                mix.add("brass", t, HORN.render(m, gs), 0.22 * g)
                mix.add("brass", t, TROMBONE.render(m - 12, gs), 0.14 * g)
        else:
            gs = min(0.12, c.beats * spb * 0.5)
            low = bass_note(c.bass if c.bass is not None else c.root)
            mix.add("bass", t, TUBA_V.render(low, gs), 0.55 * g)
            for m in voicing(c.tones, 64):
                mix.add("brass", t, STAB.render(m, gs), 0.3 * g)
        special.append((c.beat, c.beat + length))
    previous_bass: tuple[int, int] | None = None  # (chord index, times played)
    for bar in range(bars):
        for pos, what, length in pattern:
            beat = bar * bar_beats + pos
            if any(a - 1e-9 <= beat < b - 1e-9 for a, b in special):
                continue
            chord = chord_at(chords, beat)
            if chord is None:
                continue
            t = start + beat * spb
            gs = length * spb * 0.85
            if what == "bass":
                idx = chords.index(chord)
                count = previous_bass[1] + 1 if previous_bass and previous_bass[0] == idx else 0
                previous_bass = (idx, count)
                root = bass_note(chord.bass if chord.bass is not None else chord.root or 0)
                if count % 2 == 1:  # the alternating bass: the fifth, below if it fits
                    fifth = bass_note(((chord.root or 0) + 7) % 12)
                    root = fifth - 12 if fifth > root and fifth - 12 >= 33 else fifth
                mix.add("bass", t, TUBA_V.render(root, min(gs, 0.32)), 0.55 * g)
            else:
                for m in voicing(chord.tones):
                    mix.add("stab", t, STAB.render(m, min(gs, 0.12)), 0.22 * g)


def _drums(
    mix: Mixer,
    meter: str,
    chords: list[Chord],
    bars: int,
    bar_beats: float,
    start: float,
    spb: float,
    g: float,
    seed: int,
) -> int:
    special = [c for c in chords if c.held or c.hit]
    quiet_from = min((c.beat for c in special), default=bars * bar_beats)
    for bar in range(bars):
        for pos, what, level in DRUMS[meter]:
            beat = bar * bar_beats + pos
            if beat >= quiet_from - 1e-9:
                continue
            t = start + beat * spb
            if what == "kick":
                mix.add("drums", t, kick(seed), 0.7 * level * g)
            else:
                mix.add("drums", t, snare(seed), 0.5 * level * g)
            seed += 1
    for c in chords:
        t = start + c.beat * spb
        if c.roll:
            steps = round(c.beats * 8)
            for k in range(steps):
                level = 0.25 + 0.55 * k / max(1, steps - 1)
                mix.add("drums", t + k * spb / 8, snare(seed, tau=0.05), level * g)
                seed += 1
        if c.held:
            mix.add("drums", t, crash(seed), 0.75 * g)
            mix.add("drums", t, kick(seed + 1), 0.9 * g)
            seed += 2
        elif c.hit:
            mix.add("drums", t, kick(seed), 0.8 * g)
            mix.add("drums", t, snare(seed + 1), 0.6 * g)
            seed += 2
    return seed


ROOM_TAPS = ((0.023, 0.2), (0.041, 0.15), (0.067, 0.11), (0.097, 0.08), (0.131, 0.05))


def room(x: np.ndarray) -> np.ndarray:
    """A few early reflections: the band in a tent rather than in a box."""
    out = x.copy()
    for delay_s, gain in ROOM_TAPS:
        d = int(delay_s * SR)
        out[d:] += x[:-d] * gain
    return out


# ---------------------------------------------------------------------------------
# Cues: short sounds made directly from the instruments.


def render_cue(name: str) -> np.ndarray:
    parts: list[tuple[float, np.ndarray, float]] = []

    def brass(t: float, midi: int, dur: float, gain: float = 0.5) -> None:
        parts.append((t, CORNET.render(midi, dur), gain))

    def horn(t: float, midi: int, dur: float, gain: float = 0.3) -> None:
        parts.append((t, HORN.render(midi, dur), gain))

    def bell(t: float, midi: int, gain: float = 0.5) -> None:
        parts.append((t, GLOCK.render(midi, 0.5), gain))

    if name == "start":  # a rising fanfare: the show begins
        for k, m in enumerate((67, 72, 76)):
            brass(0.12 * k, m, 0.09)
        brass(0.36, 79, 0.5)
        for m in (60, 64, 67):
            horn(0.36, m, 0.5)
        parts.append((0.36, crash(7), 0.4))
        parts.append((0.36, kick(8), 0.6))
    elif name == "warning":  # ten seconds left: two quick bell pairs
        for k, t in enumerate((0.0, 0.16, 0.5, 0.66)):
            bell(t, 93 if k % 2 == 0 else 88, 0.55)
    elif name == "end":  # time is up: a falling brass call and a cymbal
        for k, m in enumerate((79, 76, 72)):
            brass(0.15 * k, m, 0.1)
        brass(0.45, 67, 0.7)
        for m in (48, 55, 64):
            horn(0.45, m, 0.7, 0.25)
        parts.append((0.45, crash(11), 0.5))
        parts.append((0.45, kick(12), 0.7))
    elif name == "tadaa":  # a Tadaa! press: a quick glockenspiel arpeggio
        for k, m in enumerate((84, 88, 91, 96)):
            bell(0.055 * k, m, 0.45 + 0.05 * k)
    elif name == "tie":  # a tie: an alternating two-tone alert the host cannot miss
        for k in range(6):
            bell(0.12 * k, 90 if k % 2 == 0 else 85, 0.5)
        parts.append((0.0, snare(21), 0.3))
        parts.append((0.36, snare(22), 0.3))
    else:
        raise ValueError(f"no cue {name!r}")
    length = max(t + len(sig) / SR for t, sig, _ in parts)
    mix = Mixer(int(length * SR) + 1)
    for t, sig, gain in parts:
        mix.add("cue", t, sig, gain)
    return room(mix.buses["cue"])


# ---------------------------------------------------------------------------------
# Output.


KNEE = 0.7


def master(x: np.ndarray) -> np.ndarray:
    """Level the mix: the loudest 0.1 % of samples go through a soft knee, then the
    peak is set to ``PEAK``. The knee is rational (basic arithmetic, no ``tanh``),
    so it is exact everywhere; above it the level approaches 1 and never reaches it.
    """
    mag = np.abs(x)
    loud = float(np.quantile(mag, 0.999))
    if loud <= 0.0:
        return x
    y = x * (KNEE / loud)
    mag = np.abs(y)
    over = mag > KNEE
    u = (mag[over] - KNEE) / (1.0 - KNEE)
    y[over] = np.sign(y[over]) * (KNEE + (1.0 - KNEE) * u / (1.0 + u))
    return y * (PEAK / float(np.abs(y).max()))


def to_pcm16(x: np.ndarray) -> bytes:
    return np.round(master(x) * 32767.0).astype("<i2").tobytes()


def write_wav(path: Path, x: np.ndarray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".wav.tmp")
    with wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(SR)
        w.writeframes(to_pcm16(x))
    tmp.replace(path)


def jobs() -> dict[str, tuple[Callable[[Path], Path], Callable[[], np.ndarray]]]:
    """Every file this script makes: name → (path under a root, renderer)."""
    out: dict[str, tuple[Callable[[Path], Path], Callable[[], np.ndarray]]] = {}
    pieces = {p.id: p for p in scores.PIECES}
    for spec in TRACK_TABLE:
        piece = pieces[spec.id]
        out[spec.id] = (
            lambda root, i=spec.id: track_path(i, root),
            lambda p=piece: render_piece(p),
        )
    for name in CUES:
        out[name] = (lambda root, c=name: cue_path(c, root), lambda c=name: render_cue(c))
    return out


def render(name: str, root: Path) -> Path:
    where, make = jobs()[name]
    path = where(root)
    write_wav(path, make())
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out",
        type=Path,
        default=builtin_sounds_dir(),
        help="root folder (default: the package's companion/audio/sounds/)",
    )
    parser.add_argument("--only", action="append", help="a track id or cue name (repeatable)")
    args = parser.parse_args(argv)
    names = args.only or list(jobs())
    for name in names:
        t0 = time.perf_counter()
        path = render(name, args.out)
        with wave.open(str(path), "rb") as w:
            secs = w.getnframes() / w.getframerate()
        print(f"{path}  {secs:6.1f} s  ({time.perf_counter() - t0:.1f} s to render)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
