"""One Chinese name for the game and its side (喵喵咪呀), and the ring holder is never "the host".

Before: the catalog said 喵啡亚 in some strings and 喵喵咪呀 in others for the same name, and
the reckoning prompt called the ring holder 主持人 — the word the companion uses for
the person running it.
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.pofile import read_po

import companion

PO = Path(companion.__file__).parent / "games/meowfia/locale/zh_CN/LC_MESSAGES/meowfia.po"


def translations() -> list[tuple[str, str]]:
    with PO.open("rb") as fh:
        return [(str(m.id), str(m.string)) for m in read_po(fh) if m.id and m.string]


def test_one_name_for_the_game_and_its_side() -> None:
    assert not [(i, s) for i, s in translations() if "喵啡亚" in s]
    assert any("喵喵咪呀阵营" in s for _i, s in translations())


def test_the_ring_holder_is_not_called_the_host() -> None:
    bad = [(i, s) for i, s in translations() if "主持人" in s and ("ring" in i or "戒指" in s)]
    assert not bad
