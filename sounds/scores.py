"""Note data of the five Meeple Circus tracks: original tunes written for this project.

Notation (read by ``render.py``): a melody is a list of notes ``pitch[:beats]``
where a pitch is ``c5``, ``f#4`` or ``bb4`` (C4 is middle C), ``r`` a rest, beats
count quarter notes and carry over to the next note until changed; a trailing
``'`` plays the note short (staccato); ``d5>g5`` glides from one pitch to the
other; ``|`` is a bar line and is checked. Chords: one group per bar, split evenly
inside the bar; ``-`` is no chord, ``_`` holds the previous one, a ``!`` suffix is
a held tutti chord with a cymbal, ``^`` a short tutti hit, ``~`` a snare roll.

Every piece has the circus-march shape: an introduction, two strains played twice
(the repeat louder, with a second part and more brass), a trio in the subdominant
key, a break, and a coda ending on a "ta-DA!" stinger — the clear end of the music
that is also the end of the building time.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Strain:
    """A passage: melody, one chord group per bar, and the key it is in."""

    melody: str
    chords: str
    key: str


@dataclass(frozen=True)
class Section:
    """A strain played once, with an orchestration."""

    strain: str
    gain: float = 1.0
    lead: str = "cornet"
    harmony: bool = False  # a horn a third below the tune
    tutti: bool = False  # trombones double the tune an octave below
    glock: bool = False  # glockenspiel an octave above
    crash: bool = True  # cymbal on the first beat
    drums: bool = True


@dataclass(frozen=True)
class Piece:
    id: str
    tempo: float  # quarter notes per minute
    meter: str
    strains: dict[str, Strain]
    form: tuple[Section, ...]


def _join(*phrases: str) -> str:
    return " | ".join(p.strip().strip("|").strip() for p in phrases)


# --- Act 1 --------------------------------------------------------------------------
# Big Top March: C major, 2/4, trio in F.

_a1 = "e5:.5 g5 c6:.75 b5:.25 | a5:.5 g5 e5:1 | f5:.5 a5 d6:.75 c6:.25 | b5:.5 a5 g5:1"
_a2 = "e5:.5 g5 c6 e6 | d6:.5 c#6 d6 e6 | f6:.5 e6 d6 c6 | b5:1 g5:1"
_a3 = "e5:.5 g5 c6 e6 | f6:.5 e6 d6 c6 | b5:.5 d6 g5 b5 | c6:1 r:1"
_b1 = "g5:.5' g5' g#5' a5' | c6:1 a5:1 | g5:.5' g5' f#5' g5' | e5:1 c5:1"
_b2 = "d5:.5 e5 f5 f#5 | g5:.5 a5 b5 c6 | d6:.5 c6 b5 a5 | g5:1 r:1"
_b3 = "d5:.5 e5 f5 d5 | e5:.5 g5 c6 e6 | d6:.5 b5 g5 b5 | c6:1 c5:1"
_t1 = "a5:1.5 g5:.5 | f5:1 c5:1 | d5:.5 e5 f5 g5 | a5:2"
_t2 = "c6:1.5 bb5:.5 | a5:1 f5:1 | g5:.5 a5 g5 f5 | e5:1 c5:1"
_t3 = "c6:1.5 a5:.5 | bb5:1 d6:1 | c6:.5 a5 g5 e5 | f5:2"

BIG_TOP_MARCH = Piece(
    id="big-top-march",
    tempo=126,
    meter="2/4",
    strains={
        "intro": Strain(
            "g4:.5' g4' c5:1 | e5:.5' e5' g5:1 | g5:.5 f5 e5 d5 | c5:.5 b4 a4 g4",
            "C | C | G7 | G7",
            "C",
        ),
        "A": Strain(
            _join(_a1, _a2, _a1, _a3),
            "C | C | G7 | G7 | C | A7 | Dm | G7 | C | C | G7 | G7 | C | F | G7 | C",
            "C",
        ),
        "B": Strain(
            _join(_b1, _b2, _b1, _b3),
            "C | F | C | C | G7 | G7 | D7 | G7 | C | F | C | C | G7 | C | G7 | C",
            "C",
        ),
        "trio": Strain(
            _join(_t1, _t2, _t1, _t3),
            "F | F | Bb | F | F | F | C7 | C7 | F | F | Bb | F | F | Bb | C7 | F",
            "F",
        ),
        "break": Strain(
            "c4:.5' c4' c4' c4' | db4:1 c4:1 | c4:.5' c4' c4' c4' | db4:1 c4:1 | "
            "e4:.5 f4 g4 a4 | bb4:.5 c5 d5 e5 | f5:.5 e5 d5 c5 | bb4:.5 a4 g4 e4",
            "C7 | C7 | C7 | C7 | F | Gm | C7 | C7",
            "F",
        ),
        "coda": Strain(
            "f5:.5 a5 c6 f6 | e6:.5 c6 bb5 g5 | f5:.25 g5 a5 bb5 c6 d6 e6 e6 | r:.5 c6:.5' f6:3 |",
            "F | C7 | C7~ | - C7^ F! _ | _",
            "F",
        ),
    },
    form=(
        Section("intro", gain=0.8),
        Section("A", gain=0.8),
        Section("A", harmony=True, tutti=True),
        Section("B", gain=0.85, crash=False),
        Section("B", harmony=True),
        Section("trio", gain=0.7, glock=True),
        Section("trio", harmony=True, glock=True),
        Section("break", lead="trombone", tutti=True),
        Section("trio", gain=1.0, harmony=True, tutti=True, glock=True),
        Section("coda", harmony=True, tutti=True),
    ),
)

# --- Act 2 --------------------------------------------------------------------------
# The Jugglers' Galop: G major, fast 2/4 with running notes, trio in C.

_ga1 = (
    "d5:.25 e5 d5 c#5 d5:.5 b5 | a5:.25 b5 a5 g#5 a5:.5 g5 | "
    "f#5:.25 g5 f#5 f5 f#5:.5 d6 | c6:.5 b5 a5 f#5"
)
_ga2 = "g5:.25 a5 g5 f#5 g5:.5 b5 | d6:.5 b5 g5 d5 | e5:.25 f#5 g5 a5 b5 c6 d6 e6 | d6:.5' r d5:1"
_ga3 = "g5:.25 a5 g5 f#5 g5:.5 b5 | e6:.5 c6 a5 e5 | d5:.25 e5 f#5 g5 a5 b5 c6 a5 | g5:.5' r g4' r"
_gb1 = "b5:.5' g5' b5' g5' | c6:.5' a5' c6' a5' | b5:.5' g5' e5' g5' | f#5:1 d5:1"
_gb2 = "e5:.5' c6' e5' c6' | d5:.5' b5' d5' b5' | c5:.25 d5 e5 f#5 g5 a5 b5 c6 | d6:1 r:1"
_gb3 = "e6:.5' c6' a5' e5' | d6:.5' b5' g5' d5' | a5:.25 b5 a5 g#5 a5:.5 f#5 | g5:1 r:1"
_gt1 = "e5:1 g5:1 | c6:1.5 b5:.5 | a5:1 f5:1 | d6:2"
_gt2 = "b5:1 a5:1 | g5:.5 a5 g5 f5 | e5:1 g5:1 | d5:2"
_gt3 = "e5:1 g5:1 | c6:1 e6:1 | d6:.5 c6 b5 d6 | c6:2"

JUGGLERS_GALOP = Piece(
    id="jugglers-galop",
    tempo=132,
    meter="2/4",
    strains={
        "intro": Strain(
            "d5:.5' r d5' r | d5:.5' r d5' r | d5:.25 e5 f#5 g5 a5 b5 c6 c#6 | d6:.5' r r:1",
            "D7 | D7 | D7 | D7",
            "G",
        ),
        "A": Strain(
            _join(_ga1, _ga2, _ga1, _ga3),
            "G | D7 | D7 | D7 | G | G | C | D7 | G | D7 | D7 | D7 | G | C | D7 | G",
            "G",
        ),
        "B": Strain(
            _join(_gb1, _gb2, _gb1, _gb3),
            "G | Am | Em | D | C | G | D7 | D7 | G | Am | Em | D | C | G | D7 | G",
            "G",
        ),
        "trio": Strain(
            _join(_gt1, _gt2, _gt1, _gt3),
            "C | C | F | G7 | G7 | G7 | C | G7 | C | C | F | G7 | C | Am | G7 | C",
            "C",
        ),
        "break": Strain(
            "g4:.25 a4 b4 c5 d5 e5 f5 g5 | a5:.25 g5 f#5 g5 f5:.5 d5 | "
            "g4:.25 a4 b4 c5 d5 e5 f5 g5 | b5:.25 a5 g#5 a5 g5:.5 f5 | "
            "e5:.5' g5' c6' e6' | d6:.5' b5' g5' f5' | "
            "e5:.25 f#5 g5 a5 b5 c6 d6 e6 | f#6:.5' r d5:1",
            "G7 | G7 | G7 | G7 | C | G7 | Am | D7",
            "C",
        ),
        "coda": Strain(
            "g5:.25 a5 b5 c6 d6:.5 g6 | e6:.25 f#6 g6 e6 d6:.5 b5 | "
            "c6:.25 b5 a5 g5 f#5 e5 d5 c5 | b4:.25 c5 d5 e5 f#5 g5 a5 b5 | "
            "r:.5 d6:.5' g6:3 |",
            "G | C | D7 | D7~ | - D7^ G! _ | _",
            "G",
        ),
    },
    form=(
        Section("intro", gain=0.8),
        Section("A", gain=0.8),
        Section("A", harmony=True, tutti=True),
        Section("B", gain=0.8, crash=False),
        Section("B", harmony=True, glock=True),
        Section("trio", gain=0.75, glock=True),
        Section("trio", harmony=True, tutti=True),
        Section("break", gain=0.9, tutti=True),
        Section("A", harmony=True, tutti=True, glock=True),
        Section("coda", harmony=True, tutti=True),
    ),
)

# --- Act 3 --------------------------------------------------------------------------
# Tightrope Waltz: F major, 3/4, a minor strain for the wobble, trio in Bb.

_wa1 = "f5:2 a5:1 | c6:3 | bb5:2 g5:1 | e5:3"
_wa2 = "g5:2 bb5:1 | e6:2 d6:1 | c6:1 a5:1 f5:1 | g5:2 c5:1"
_wa3 = "a5:2 c6:1 | f6:2 e6:1 | d6:1 c6:1 e5:1 | f5:2 r:1"
_wb1 = "a5:1 g#5:1 a5:1 | f5:2 d5:1 | e5:1 d#5:1 e5:1 | c#5:3"
_wb2 = "d5:1 e5:1 f5:1 | g5:1 a5:1 bb5:1 | a5:1 g5:1 f5:1 | e5:3"
_wb3 = "d6:2 bb5:1 | a5:2 f5:1 | e5:1 g5:1 c#5:1 | d5:3"
_wt1 = "d5:3 | f5:2 d5:1 | bb5:3 | a5:2 f5:1"
_wt2 = "g5:2 eb5:1 | c6:2 a5:1 | bb5:2 g5:1 | f5:3"
_wt3 = "g5:2 bb5:1 | eb6:2 c6:1 | d6:1 c6:1 a5:1 | bb5:3"

TIGHTROPE_WALTZ = Piece(
    id="tightrope-waltz",
    tempo=180,
    meter="3/4",
    strains={
        "intro": Strain(
            "c5:1 a4:1 c5:1 | f5:3 | e5:1 d5:1 bb4:1 | g4:2 c5:1",
            "F | F | C7 | C7",
            "F",
        ),
        "A": Strain(
            _join(_wa1, _wa2, _wa1, _wa3),
            "F | F | C7 | C7 | C7 | C7 | F | C7 | F | F | C7 | C7 | F | Dm | C7 | F",
            "F",
        ),
        "B": Strain(
            _join(_wb1, _wb2, _wb1, _wb3),
            "Dm | Dm | A7 | A7 | Dm | Gm | Dm | A7 | Dm | Dm | A7 | A7 | Gm | Dm | A7 | Dm",
            "F",
        ),
        "trio": Strain(
            _join(_wt1, _wt2, _wt1, _wt3),
            "Bb | Bb | Gm | F7 | Eb | F7 | Gm | F7 | Bb | Bb | Gm | F7 | Eb | Cm | F7 | Bb",
            "Bb",
        ),
        "coda": Strain(
            "f5:1 a5:1 c6:1 | f6:3 | e6:1 d6:1 c6:1 | bb5:1 g5:1 e5:1 | r:1 c6:1' f6:4 |",
            "F | Dm | C7 | C7~ | - C7^ F! | _",
            "F",
        ),
    },
    form=(
        Section("intro", gain=0.7, lead="clarinet"),
        Section("A", gain=0.7, lead="clarinet", glock=True),
        Section("A", gain=0.9, harmony=True),
        Section("B", gain=0.75, lead="clarinet", crash=False),
        Section("B", gain=0.9, harmony=True, tutti=True),
        Section("trio", gain=0.75, glock=True),
        Section("trio", harmony=True, glock=True),
        Section("A", harmony=True, tutti=True, glock=True),
        Section("coda", harmony=True, tutti=True),
    ),
)

# Clown Car Polka: Bb major, bouncy 2/4 with slides, a G minor strain, trio in Eb.

_pa1 = "f5:.5' d5' bb4' d5' | f5:.5' bb5:1 a5:.5' | g5:.5' eb5' c5' eb5' | g5:.5' c6:1 bb5:.5'"
_pa2 = "a5:.5' c6' a5' f5' | eb5:.5' f5' g5' a5' | bb5:.5' f5' d5' bb4' | c5:1 r:1"
_pa3 = "a5:.5' c6' eb6' c6' | a5:.5' f5' eb5' c5' | d5:.5' f5' c5' eb5' | bb4:1 r:1"
_pb1 = "d5:.5' d5' d5>g5:1 | bb4:.5' bb4' bb4>eb5:1 | d5:.5' c5' bb4' a4' | g4:1 r:1"
_pb2 = "bb4:.5' c5' d5' eb5' | f5:.5' g5' a5' bb5' | c6:.5' a5' f5' eb5' | d5:.5' r f5>bb5:1"
_pb3 = "bb5:.5' a5' g5' f#5' | g5:.5' d5' bb4' g4' | a4:.5' c5' f#5' a5' | g5:1 r:1"
_pt1 = "g5:1.5 f5:.5 | eb5:1 bb4:1 | c5:.5 d5 eb5 f5 | g5:2"
_pt2 = "bb5:1.5 ab5:.5 | g5:1 eb5:1 | f5:.5 g5 f5 eb5 | d5:1 bb4:1"
_pt3 = "bb5:1.5 g5:.5 | ab5:1 c6:1 | bb5:.5 g5 f5 d5 | eb5:2"

CLOWN_CAR_POLKA = Piece(
    id="clown-car-polka",
    tempo=120,
    meter="2/4",
    strains={
        "intro": Strain(
            "f5:.5' r f5' r | f5:.25 g5 f5 e5 f5:.5' r | bb4:.5' d5' f5' bb5' | a5:.5' f5' c5' a4'",
            "F7 | F7 | Bb | F7",
            "Bb",
        ),
        "A": Strain(
            _join(_pa1, _pa2, _pa1, _pa3),
            "Bb | Bb | Cm | Cm | F7 | F7 | Bb | F7 | Bb | Bb | Cm | Cm | F7 | F7 | Bb F7 | Bb",
            "Bb",
        ),
        "B": Strain(
            _join(_pb1, _pb2, _pb1, _pb3),
            "Gm | Eb | D7 | Gm | Bb | Bb | F7 | Bb | Gm | Eb | D7 | Gm | Gm | Gm | D7 | Gm",
            "Bb",
        ),
        "trio": Strain(
            _join(_pt1, _pt2, _pt1, _pt3),
            "Eb | Eb | Ab | Eb | Eb | Eb | Bb7 | Bb7 | Eb | Eb | Ab | Eb | Eb | Ab | Bb7 | Eb",
            "Eb",
        ),
        "coda": Strain(
            "f5:.5' d5' f5' bb5' | d6:.5' bb5' f5' d5' | c5:.25 d5 eb5 f5 g5 a5 bb5 c6 | "
            "r:.5 f5:.5' bb5:3 |",
            "Bb | Bb | F7~ | - F7^ Bb! _ | _",
            "Bb",
        ),
    },
    form=(
        Section("intro", gain=0.8),
        Section("A", gain=0.8),
        Section("A", harmony=True, glock=True),
        Section("B", gain=0.85, lead="trombone", crash=False),
        Section("B", harmony=True, tutti=True),
        Section("trio", gain=0.7, lead="clarinet", glock=True),
        Section("trio", harmony=True, tutti=True),
        Section("A", harmony=True, tutti=True, glock=True),
        Section("coda", harmony=True, tutti=True),
    ),
)

# Grand Finale March: Eb major, 6/8 "screamer", trio in Ab, a dogfight break.

_fa1 = "bb4:1 eb5:.5 g5:1 bb5:.5 | eb6:1.5 bb5:1.5 | c6:1 ab5:.5 f5:1 ab5:.5 | bb5:3"
_fa2 = "f5:1 bb5:.5 d6:1 f6:.5 | eb6:1 d6:.5 c6:1 bb5:.5 | c6:1 a5:.5 f5:1 a5:.5 | bb5:1.5 r:1.5"
_fa3 = "g5:1 bb5:.5 eb6:1 g6:.5 | f6:1 eb6:.5 d6:1 c6:.5 | bb5:1 eb6:.5 d6:1 f6:.5 | eb6:1.5 r:1.5"
_fb1 = "g5:.5 ab5 a5 bb5:1 g5:.5 | eb5:.5 f5 g5 ab5:1 f5:.5 | d5:.5 eb5 e5 f5:1 ab5:.5 | g5:1.5 eb5"
_fb2 = "c6:.5 bb5 a5 bb5:1 f5:.5 | ab5:.5 g5 f#5 g5:1 eb5:.5 | f5:.5 g5 ab5 bb5 c6 d6 | d6:1.5 bb5"
_fb3 = "c6:.5 bb5 a5 bb5:1 g5:.5 | ab5:.5 bb5 c6 d6:1 bb5:.5 | eb6:.5 bb5 g5 f5:1 d5:.5 | eb5:1.5 r"
_ft1 = "c5:1.5 eb5 | ab5:3 | g5:1 f5:.5 eb5:1 db5:.5 | c5:3"
_ft2 = "db5:1.5 f5 | bb5:3 | ab5:1 g5:.5 f5:1 eb5:.5 | eb5:3"
_ft3 = "c6:1.5 ab5 | db6:1.5 bb5 | ab5:1 f5:.5 eb5:1 g5:.5 | ab5:3"

GRAND_FINALE = Piece(
    id="grand-finale",
    tempo=189,
    meter="6/8",
    strains={
        "intro": Strain(
            "eb5:.5' eb5' eb5' bb4:1.5 | eb5:.5' eb5' eb5' g5:1.5 | "
            "bb5:.5' bb5' bb5' ab5:.5 g5 f5 | eb5:.5 f5 g5 ab5 a5 bb5",
            "Eb | Eb | Bb7 | Bb7",
            "Eb",
        ),
        "A": Strain(
            _join(_fa1, _fa2, _fa1, _fa3),
            "Eb | Eb | Fm | Bb7 | Bb7 | Bb7 | F7 | Bb7 | "
            "Eb | Eb | Fm | Bb7 | Eb | Ab Bb7 | Bb7 | Eb",
            "Eb",
        ),
        "B": Strain(
            _join(_fb1, _fb2, _fb1, _fb3),
            "Eb | Fm | Bb7 | Eb | Bb7 | Eb | F7 | Bb7 | "
            "Eb | Fm | Bb7 | Eb | Eb | Bb7 | Eb Bb7 | Eb",
            "Eb",
        ),
        "trio": Strain(
            _join(_ft1, _ft2, _ft1, _ft3),
            "Ab | Ab | Eb7 | Ab | Db | Bbm | Eb7 | Eb7 | Ab | Ab | Eb7 | Ab | Ab | Db | Eb7 | Ab",
            "Ab",
        ),
        "break": Strain(
            "eb4:.5 eb4 eb4 e4:1 f4:.5 | eb4:.5 eb4 eb4 e4:1 f4:.5 | "
            "g4:.5 ab4 a4 bb4:1 g4:.5 | bb4:.5 c5 db5 eb5:1.5 | "
            "eb5:.5 eb5 eb5 e5:1 f5:.5 | eb5:.5 eb5 eb5 e5:1 f5:.5 | "
            "g5:.5 ab5 a5 bb5 c6 db6 | eb6:1.5 r:1.5",
            "Eb7 | Eb7 | Eb7 | Eb7 | Eb7 | Eb7 | Eb7 | Eb7",
            "Ab",
        ),
        "coda": Strain(
            "c6:1 ab5:.5 eb5:1 ab5:.5 | c6:1 eb6:.5 ab6:1.5 | g6:.5 f6 eb6 db6 c6 bb5 | "
            "ab5:.5 bb5 c6 db6 eb6 f6 | r:1.5 eb6:.5' r:1 | ab6:6 |",
            "Ab | Ab | Eb7 | Eb7~ | - Eb7^ | Ab! | _",
            "Ab",
        ),
    },
    form=(
        Section("intro", gain=0.85),
        Section("A", gain=0.8),
        Section("A", harmony=True, tutti=True),
        Section("B", gain=0.85, crash=False),
        Section("B", harmony=True, glock=True),
        Section("trio", gain=0.7, glock=True),
        Section("trio", harmony=True, tutti=True),
        Section("break", lead="trombone", tutti=True),
        Section("trio", harmony=True, tutti=True, glock=True),
        Section("coda", harmony=True, tutti=True),
    ),
)

PIECES = (BIG_TOP_MARCH, JUGGLERS_GALOP, TIGHTROPE_WALTZ, CLOWN_CAR_POLKA, GRAND_FINALE)
