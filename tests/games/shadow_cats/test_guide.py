"""The host guide: ``allowed`` agrees with ``apply`` in every reached state; sentences."""

from __future__ import annotations

from shadow_helpers import placed

from companion.games.shadow_cats import PLUGIN
from companion.games.shadow_cats.guide import GUIDE
from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import (
    Attack,
    Destination,
    MoveDice,
)
from companion.games.shadow_cats.rules.termination import Termination


def test_the_plugin_record_names_guide_and_termination():
    assert PLUGIN.guide is GUIDE and PLUGIN.termination is Termination
    assert {t.value for t in Termination} == {"team-wipe", "neutral-win"}
    assert all(member.__doc__ for member in Termination)


def test_sentences_use_names_and_translate_their_words():
    state = placed(["shop", "warp", "warp", "warp"], counts=(2, 2, 0))
    after = GAME.apply(state, MoveDice("p1", (8, 7)))
    assert GUIDE.describe(MoveDice("p1", (8, 7)), state, after).render() == (
        "Ann rolls 8, 7: free choice of another location."
    )
    moved = GAME.apply(after, Destination("p1", "warp"))
    text = GUIDE.describe(Destination("p1", "warp"), after, moved)
    assert text.render() == "Ann chooses Warp Stone."
    zh = {"Warp Stone": "传送石", "{player} chooses {location}.": "{player} 选择 {location}。"}
    assert text.render(lambda s: zh.get(s, s)) == "Ann 选择 传送石。"
    attack = Attack("p1", "p2", 100)
    hit = GAME.apply(moved, attack)
    report = hit.last_attack
    assert GUIDE.describe(attack, moved, hit).render() == (
        f"Ann attacks Bo: d100 100 → {report.damage} damage, "
        f"HP {report.hp_before} → {report.hp_after}."
    )
    assert GUIDE.start_player(hit) == "p1" and GUIDE.turn(hit) == "p2"
    assert GUIDE.why_not(hit, "attack").render() == "Bo moves first: roll 2d6."


def test_several_rolls_in_a_chinese_sentence_are_listed_the_chinese_way():
    """「掷出 8、7」, not the ASCII 「8, 7」 seen in the zh log at 80x24 (「2d6：7, 8」)."""
    from companion.i18n import catalog

    state = placed(["shop", "warp", "warp", "warp"], counts=(2, 2, 0))
    after = GAME.apply(state, MoveDice("p1", (8, 7)))
    zh = GUIDE.describe(MoveDice("p1", (8, 7)), state, after).render(
        catalog("zh", "shadow_cats").gettext
    )
    assert "8、7" in zh and ", " not in zh, zh
