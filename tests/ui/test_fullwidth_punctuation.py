"""Chinese text uses full-width punctuation next to Chinese characters (issue 22).

Seen in tmux: Shadow Cats' deal read ``丽丽: 枫 / 幻龙``. Every zh_CN catalog (the
shared ones and each game's) is read: a msgstr with Chinese in it has ``：，（）；！？``
next to a Chinese character, never the ASCII ``:,();!?``. What must stay ASCII is
allowed by name: key names (``?：帮助``, ``标 ! 的行``), syntax the host types
(``countdown:秒数``, ``track:编号``, ``分:秒``). The code that joins names and values
(a name and its cards) goes through ``companion.i18n.labelled``, tested here too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion.i18n import labelled, listing, set_language

ROOT = Path(__file__).resolve().parents[2] / "companion"
CATALOGS = sorted(ROOT.glob("**/zh_CN/LC_MESSAGES/*.po"))
HAN = r"\u3400-\u9fff"
NEXT_TO_CHINESE = re.compile(rf"(?<=[{HAN}])\s?[:,();!?]|[:,();!?]\s?(?=[{HAN}])")
ALLOWED = [
    re.compile(r"(?<![\w?])\?(?=：)"),  # the ? key: "?：帮助"
    re.compile(r"标 ! 的"),  # the mark "!" as printed by doctor
    re.compile(r"\b(?:countdown|track):(?=[{HAN}])".replace("{HAN}", HAN)),  # typed syntax
    re.compile(r"分:秒"),  # the m:ss a host types
]


def offenders(text: str) -> list[str]:
    out = []
    for hit in NEXT_TO_CHINESE.finditer(text):
        start, end = hit.span()
        if any(
            a.search(text, max(0, start - 12), end + 12)
            and any(m.start() <= start < m.end() + 1 for m in a.finditer(text))
            for a in ALLOWED
        ):
            continue
        out.append(text[max(0, start - 8) : end + 8])
    return out


def test_the_catalogs_are_there() -> None:
    assert len(CATALOGS) >= 10, CATALOGS


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.name)
def test_chinese_msgstrs_use_full_width_punctuation(path: Path) -> None:
    with path.open("rb") as handle:
        catalog = read_po(handle)
    bad = []
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for text in strings:
            if text and re.search(f"[{HAN}]", text):
                bad += offenders(text)
    assert not bad, bad


def test_the_checker_sees_ascii_next_to_chinese() -> None:
    assert offenders("丽丽: 枫 / 幻龙") == ["丽丽: 枫 / 幻龙"]
    assert offenders("ctrl+z：撤销 · ?：帮助") == []
    assert offenders("Ann (Bo)") == []


def test_a_name_and_its_value_are_joined_in_the_languages_punctuation() -> None:
    try:
        set_language("zh")
        assert labelled("丽丽", listing(["枫", "幻龙"])) == "丽丽：枫、幻龙"
        set_language("en")
        assert labelled("Lili", listing(["Maple", "Dragon"])) == "Lili: Maple, Dragon"
    finally:
        set_language("en")
