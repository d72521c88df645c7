"""逗猫条件 Tease conditions: a small vocabulary evaluated on the dice.

A printed card says in words what the dice must show for a token to go on a slot;
the companion needs the same as data. A condition is text in this grammar::

    condition   := alternative ( "|" alternative )*     # either side may hold
    alternative := term ( "&" term )*                   # every term must hold
    term        := WORD | WORD ":" NUMBER | WORD ":" PIPS | "sum" OP NUMBER
    PIPS        := PIP ( "," PIP )*                     # PIP is 1..6
    OP          := ">=" | "<=" | "="

``&`` binds tighter than ``|``; there are no parentheses; spaces are ignored.
The words are listed in ``WORDS`` (with a one-line meaning each, shown in
``docs/games/cat-box.md`` and by the screen). The dice a condition sees are the
three common dice plus every player die of the roller (held and just rolled).

Design decisions:

* A term that is not in the vocabulary is an error when the card file is read, so
  a typo never silently makes a slot impossible (or free).
* ``two-pairs`` needs two *different* pips on two dice each (four 5s are not two
  pairs); ``full-house`` likewise needs two different pips (3 + 2).
* Numbers are checked against what dice can show (``straight:7`` is refused).

>>> evaluate(parse("pair & sum>=12"), (6, 6, 1))
True
>>> evaluate(parse("straight:4 | has:6,6"), (1, 2, 3, 5))
False
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from companion.rules.base import N_

PIPS = range(1, 7)
MAX_NUMBER = 200
MAX_KIND = 30


class ConditionError(ValueError):
    """A condition text does not parse. ``template``/``params`` as in ``RuleError``."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


@dataclass(frozen=True)
class Word:
    """One word of the vocabulary, as documented."""

    word: str
    syntax: str
    meaning: str
    """English meaning, marked for translation."""
    example: str


WORDS: tuple[Word, ...] = (
    Word("any", "any", N_("always met: a free slot"), "any"),
    Word("pair", "pair", N_("at least two dice show the same pip"), "pair"),
    Word(
        "two-pairs",
        "two-pairs",
        N_("two different pips each show on at least two dice"),
        "two-pairs",
    ),
    Word(
        "three-of-a-kind",
        "three-of-a-kind",
        N_("at least three dice show the same pip"),
        "three-of-a-kind",
    ),
    Word(
        "four-of-a-kind",
        "four-of-a-kind",
        N_("at least four dice show the same pip"),
        "four-of-a-kind",
    ),
    Word(
        "five-of-a-kind",
        "five-of-a-kind",
        N_("at least five dice show the same pip"),
        "five-of-a-kind",
    ),
    Word("kind", "kind:N", N_("at least N dice show the same pip (N from 2)"), "kind:3"),
    Word(
        "full-house",
        "full-house",
        N_("one pip on at least three dice and another pip on at least two"),
        "full-house",
    ),
    Word("straight", "straight:N", N_("N consecutive pips all show (N from 2 to 6)"), "straight:3"),
    Word(
        "has", "has:P,Q,…", N_("the dice include these pips (has:6,6 needs two sixes)"), "has:1,6"
    ),
    Word("no", "no:P,Q,…", N_("no die shows any of these pips"), "no:1"),
    Word(
        "distinct", "distinct:N", N_("at least N different pips show (N from 1 to 6)"), "distinct:4"
    ),
    Word("all-different", "all-different", N_("no two dice show the same pip"), "all-different"),
    Word("all-odd", "all-odd", N_("every die shows 1, 3 or 5"), "all-odd"),
    Word("all-even", "all-even", N_("every die shows 2, 4 or 6"), "all-even"),
    Word(
        "sum", "sum>=N, sum<=N, sum=N", N_("the total of all the dice compared with N"), "sum>=12"
    ),
)
WORD_NAMES = frozenset(w.word for w in WORDS)

_PLAIN = {
    "any",
    "pair",
    "two-pairs",
    "three-of-a-kind",
    "four-of-a-kind",
    "five-of-a-kind",
    "full-house",
    "all-different",
    "all-odd",
    "all-even",
}
_OF_A_KIND = {"pair": 2, "three-of-a-kind": 3, "four-of-a-kind": 4, "five-of-a-kind": 5}
_NUMBER_RANGE = {"kind": (2, MAX_KIND), "straight": (2, 6), "distinct": (1, 6)}
CONDITION_EMPTY = N_("the condition is empty")
CONDITION_EMPTY_TERM = N_("{text!r} has an empty term")
CONDITION_UNKNOWN = N_("unknown word {word!r}")
CONDITION_NUMBER = N_("{word!r} needs a number from {low} to {high}")
CONDITION_PIPS = N_("{word!r} needs pips from 1 to 6 separated by commas")
_SUM = re.compile(r"^sum(>=|<=|=)(\d+)$")
_WITH_ARG = re.compile(r"^([a-z-]+):(.*)$")


@dataclass(frozen=True)
class Term:
    """One parsed term: ``word`` with its number, pips or comparison."""

    word: str
    number: int = 0
    pips: tuple[int, ...] = ()
    op: str = ""


@dataclass(frozen=True)
class Condition:
    """A parsed condition: any alternative whose terms all hold."""

    text: str
    alternatives: tuple[tuple[Term, ...], ...]


@lru_cache(maxsize=512)
def parse(text: str) -> Condition:
    """Parse a condition, or raise ``ConditionError`` naming the bad word."""
    compact = "".join(text.split())
    if not compact:
        raise ConditionError(CONDITION_EMPTY)
    alternatives: list[tuple[Term, ...]] = []
    for alternative in compact.split("|"):
        terms: list[Term] = []
        for raw in alternative.split("&"):
            if not raw:
                raise ConditionError(CONDITION_EMPTY_TERM, text=text)
            terms.append(_term(raw))
        alternatives.append(tuple(terms))
    return Condition(text=text, alternatives=tuple(alternatives))


def _term(raw: str) -> Term:
    if raw in _PLAIN:
        return Term(raw)
    found = _SUM.match(raw)
    if found:
        number = int(found.group(2))
        if number > MAX_NUMBER:
            raise ConditionError(CONDITION_NUMBER, word=raw, low=0, high=MAX_NUMBER)
        return Term("sum", number=number, op=found.group(1))
    found = _WITH_ARG.match(raw)
    if found is None or found.group(1) not in WORD_NAMES - _PLAIN - {"sum"}:
        raise ConditionError(CONDITION_UNKNOWN, word=raw)
    word, arg = found.group(1), found.group(2)
    if word in _NUMBER_RANGE:
        low, high = _NUMBER_RANGE[word]
        if not arg.isdigit() or not low <= int(arg) <= high:
            raise ConditionError(CONDITION_NUMBER, word=raw, low=low, high=high)
        return Term(word, number=int(arg))
    parts = arg.split(",")
    if not all(p.isdigit() and int(p) in PIPS for p in parts) or len(parts) > MAX_KIND:
        raise ConditionError(CONDITION_PIPS, word=raw)
    return Term(word, pips=tuple(int(p) for p in parts))


def evaluate(condition: Condition, dice: Sequence[int]) -> bool:
    """Whether ``dice`` (common dice plus the roller's player dice) meet ``condition``."""
    counts = Counter(dice)
    return any(all(_holds(t, dice, counts) for t in alt) for alt in condition.alternatives)


def meets(text: str, dice: Sequence[int]) -> bool:
    """``evaluate(parse(text), dice)``; a bad text raises ``ConditionError``."""
    return evaluate(parse(text), dice)


def _holds(term: Term, dice: Sequence[int], counts: Counter[int]) -> bool:
    word = term.word
    most = max(counts.values(), default=0)
    if word == "any":
        return True
    if word in _OF_A_KIND:
        return most >= _OF_A_KIND[word]
    if word == "kind":
        return most >= term.number
    if word == "two-pairs":
        return sum(1 for c in counts.values() if c >= 2) >= 2
    if word == "full-house":
        return any(a != b and counts[a] >= 3 and counts[b] >= 2 for a in counts for b in counts)
    if word == "straight":
        return any(
            all(p in counts for p in range(start, start + term.number))
            for start in range(1, 8 - term.number)
        )
    if word == "has":
        need = Counter(term.pips)
        return all(counts[p] >= n for p, n in need.items())
    if word == "no":
        return not any(counts[p] for p in term.pips)
    if word == "distinct":
        return len(counts) >= term.number
    if word == "all-different":
        return most <= 1
    if word == "all-odd":
        return all(d % 2 == 1 for d in dice)
    if word == "all-even":
        return all(d % 2 == 0 for d in dice)
    if word == "sum":
        total = sum(dice)
        if term.op == ">=":
            return total >= term.number
        if term.op == "<=":
            return total <= term.number
        return total == term.number
    raise AssertionError(f"unhandled word {word}")  # pragma: no cover - parse() guards
