"""Where a line of prose may break: Chinese between any two characters, the rest at spaces.

Design decision: Rich and Textual wrap every text they show through one function each,
``rich.text.divide_line`` (``Text.wrap``: tables, the log, ``Static(Text(...))``) and the
same function imported by ``textual.content`` (``Static("...")``, labels, the footer's
neighbours). Both only break at spaces, so a Chinese sentence was one "word": it broke
at the one space it had (``…违禁品和 3`` / ``个空箱分别…``) or was chopped at the width.
``divide_line`` here has the same signature and, for text without a wide character, the
very same result (it hands such text to Rich's own function, so English screens and their
snapshots do not move). For text with Chinese it finds break opportunities the way
Chinese typesetting does (a simplified UAX #14 with the 禁则 rules):

- between any two Chinese characters, and between Chinese and a Latin word;
- never before closing punctuation (，。、；：？！）」』】》… and ASCII ``) , . ; :``)
  nor after opening punctuation (（「『【《 ``(``), so no line starts with a comma;
- never between a number and the measure word after it (``3 个``, ``12张``), nor
  between a word and the punctuation glued to it.

Which text is Chinese prose is the current language's call: in the English screens
Chinese appears as names (``丑时 (Choushi)``), which stay whole as English words do.

``install()`` puts it in place of Rich's; the app calls it once at start.
``measure_min`` is the narrowest width a text can wrap to (its widest unbreakable run),
which Rich's tables use to share their width between columns.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from rich import _wrap as rich_wrap
from rich.cells import cell_len, get_character_cell_size

from companion.i18n import current_language

CLOSING = frozenset("，。、；：？！）」』】》〉〕｝］’”％‰…—～·,.;:!?)]}%")
"""May not start a line (行首禁则)."""

OPENING = frozenset("（「『【《〈〔｛［‘“([{")
"""May not end a line (行尾禁则)."""

MEASURE_EXCLUDED = CLOSING | OPENING
"""Wide characters a number does not hold on to (they have their own rules)."""

_rich_divide_line: Callable[..., list[int]] = rich_wrap.divide_line
_NUMBER = re.compile(r"^[+\-−±×x#№]?\d[\d.,:/%]*\s*$")


def is_wide(char: str) -> bool:
    """A character that is set on its own, as Chinese is (full-width and wide)."""
    return unicodedata.east_asian_width(char) in "WF"


def has_wide(text: str) -> bool:
    return any(is_wide(c) for c in text if ord(c) > 0x2E7F)


def _atoms(text: str, chinese: bool) -> list[tuple[int, str]]:
    """Split into units that are set whole: a wide character, or a run of anything else
    up to the next wide character or after a space (its trailing spaces included).

    In an English sentence (``chinese`` false) Chinese is a name (``丑时 (Choushi)``):
    a run of wide characters stays whole, as an English word does."""
    atoms: list[tuple[int, str]] = []
    start = 0
    index = 0
    length = len(text)
    while index < length:
        char = text[index]
        if is_wide(char):
            end = index + 1
            while not chinese and end < length and is_wide(text[end]) and text[end] not in CLOSING:
                end += 1
        else:
            end = index
            # a run of non-wide, non-space characters, then its spaces
            while end < length and not is_wide(text[end]) and not text[end].isspace():
                end += 1
        while end < length and text[end].isspace():
            end += 1
        if end == index:  # leading spaces: they go with what follows (as Rich does)
            while end < length and text[end].isspace():
                end += 1
            index = end
            continue
        atoms.append((start, text[start:end]))
        start = index = end
    return atoms


def _glued(before: str, after: str) -> bool:
    """No break between the unit ``before`` and the unit ``after`` that follows it."""
    head = after.lstrip()[:1]
    if head in CLOSING:
        return True
    tail = before.rstrip()[-1:]
    if tail in OPENING and before == before.rstrip():
        return True
    # a number and its measure word: "3 个空箱", "12张", "第 2 轮"
    return bool(_NUMBER.match(before)) and is_wide(head) and head not in MEASURE_EXCLUDED


def segments(text: str, chinese: bool | None = None) -> list[tuple[int, str]]:
    """The text as (start index, piece) pieces between which a line may break.

    ``chinese``: the text is Chinese prose (default: the current language is Chinese)."""
    if chinese is None:
        chinese = current_language() == "zh"
    merged: list[tuple[int, str]] = []
    last_atom = ""
    for start, atom in _atoms(text, chinese):
        if merged and _glued(last_atom, atom):
            first, piece = merged[-1]
            merged[-1] = (first, piece + atom)
        else:
            merged.append((start, atom))
        last_atom = atom
    return merged


def break_opportunities(text: str) -> Iterable[str]:
    """The unbreakable pieces of the text, without their trailing spaces."""
    return (piece.rstrip() for _, piece in segments(text))


def fold_piece(piece: str, width: int) -> list[str]:
    """Chop a piece wider than any line into lines of ``width`` cells, still without a
    line that starts with closing punctuation or ends with opening punctuation (the
    character before moves down with it)."""
    lines: list[list[str]] = [[]]
    used = 0
    for char in piece:
        size = get_character_cell_size(char)
        line = lines[-1]
        if used + size > width and line:
            carried: list[str] = []
            # carry characters down until the new line starts with something that may
            # start a line (a run of closers, ")。", moves down with the letter before)
            while len(line) > 1 and ((carried or [char])[0] in CLOSING or line[-1] in OPENING):
                carried.insert(0, line.pop())
            lines.append([*carried, char])
            used = sum(get_character_cell_size(c) for c in lines[-1])
        else:
            line.append(char)
            used += size
    return ["".join(line) for line in lines]


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """The character offsets at which to break ``text`` to fit ``width`` cells.

    The same contract as Rich's ``divide_line``; text without wide characters gets Rich's
    own answer."""
    if not has_wide(text):
        return _rich_divide_line(text, width, fold)
    breaks: list[int] = []
    offset = 0
    for start, piece in segments(text):
        piece_width = cell_len(piece.rstrip())
        if width - offset >= piece_width:
            offset += cell_len(piece)
            continue
        if piece_width > width:
            if not fold:
                if start:
                    breaks.append(start)
                offset = cell_len(piece)
                continue
            # Too long for any line (a long name, a URL): chop it, as Rich does.
            if offset and start:
                breaks.append(start)
            lines = fold_piece(piece, width)
            position = start
            for number, line in enumerate(lines):
                if number:
                    breaks.append(position)
                position += len(line)
            offset = cell_len(lines[-1])
        elif offset and start:
            breaks.append(start)
            offset = cell_len(piece)
    return breaks


def measure_min(text: str) -> int:
    """The narrowest width ``text`` wraps to without chopping: its widest piece."""
    return max((cell_len(piece) for piece in break_opportunities(text)), default=0)


_installed = False


def install() -> None:
    """Make Rich and Textual wrap with ``divide_line`` (idempotent).

    Both import Rich's function by name into their modules, so the name is replaced where
    it is used; Rich's ``Text`` also measures its narrowest width from its words, which
    for Chinese is the whole sentence, so a table column of Chinese prose would not
    shrink: that measure is replaced too."""
    global _installed
    if _installed:
        return
    _installed = True
    import rich.text
    import textual.content
    from rich.measure import Measurement

    rich.text.divide_line = divide_line  # type: ignore[attr-defined]
    textual.content.divide_line = divide_line  # type: ignore[attr-defined]
    original_measure = rich.text.Text.__rich_measure__

    def __rich_measure__(self: rich.text.Text, console: object, options: object) -> Measurement:
        measured = original_measure(self, console, options)  # type: ignore[arg-type]
        plain = self.plain
        if not has_wide(plain):
            return measured
        narrowest = max((measure_min(line) for line in plain.splitlines()), default=0)
        return Measurement(min(measured.minimum, narrowest), measured.maximum)

    rich.text.Text.__rich_measure__ = __rich_measure__  # type: ignore[method-assign]
