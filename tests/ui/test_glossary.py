"""The rulebook's own words (issue 22, "Reading"): each game's glossary in
``docs/games/<id>.md`` lists the Chinese rule text's terms and the words the catalog
used instead (公众需求卡 for 观众需求卡, 配件板块 for 构成要素板块, 节目卡 for 节目牌,
起始玩家 for 先手玩家, 速度标记 for 速度奖励标志). Every term is in the rule text; no
word of the last column is in the game's catalog."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"meeple-circus": ("meeple_circus", "meeple-circus.zh-Hans.txt")}


def glossary(game: str) -> list[tuple[list[str], list[str]]]:
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    section = text.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("English", "---"):
            continue
        terms = [t.strip() for t in cells[1].split("/") if t.strip()]
        wrong = [t.strip() for t in re.split(r"[/,、]", cells[2]) if t.strip()]
        rows.append((terms, wrong))
    return rows


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_glossary_is_the_rulebooks_and_the_catalog_follows_it(game: str) -> None:
    package, rules_file = GAMES[game]
    rules = (ROOT / "docs" / "rules" / rules_file).read_text(encoding="utf-8")
    catalog = (
        ROOT
        / "companion"
        / "games"
        / package
        / "locale"
        / "zh_CN"
        / "LC_MESSAGES"
        / f"{package}.po"
    ).read_text(encoding="utf-8")
    rows = glossary(game)
    assert len(rows) >= 5, rows
    for terms, wrong in rows:
        for term in terms:
            assert term.rstrip("！") in rules, f"{term} is not in the rule text"
        for word in wrong:
            assert word not in catalog, f"the catalog says {word}, the rulebook {terms[0]}"
