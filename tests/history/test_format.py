"""How history numbers and labels read in both languages."""

from __future__ import annotations

import pytest

from companion.i18n import set_language
from companion.ui.history_format import duration, number, progress_label, side_label


@pytest.fixture
def zh():
    set_language("zh")
    yield
    set_language("en")


def test_english() -> None:
    set_language("en")
    assert progress_label("act 2, evaluation") == "act 2, evaluation"
    assert duration(59 * 60) == "59 min" and duration(95 * 60) == "1 h 35 min"
    assert duration(None) == "–"
    assert number(3.0) == "3" and number(2.25) == "2.2" and number(None) == "–"
    assert side_label("police") == "police" and side_label("") == ""


def test_chinese(zh) -> None:
    assert progress_label("act 2") == "第2幕"
    assert progress_label("round 3") == "第3轮"
    assert duration(95 * 60) == "1 小时 35 分钟"
    assert side_label("police") == "警方" and side_label("meowfia") == "喵喵咪呀"
    assert side_label("werewolf") == "werewolf"  # unknown sides are shown as stored


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_options_read_as_the_form_labels_them(lang) -> None:
    """The history heading said "discussion_seconds=30, revote_tied_only=false" (field
    names and JSON, in the Chinese UI too); it now reads as the new-session form."""
    from companion.games import find_game
    from companion.i18n import catalog
    from companion.ui.history_format import options_text

    set_language(lang)
    try:
        stored = {
            "revote_tied_only": False,
            "smuggling_seconds": 20,
            "discussion_seconds": 30,
            "ring_to_questioned": True,
        }
        text = options_text("meowfia", stored)
        for spec in find_game("meowfia").load().options:
            assert catalog(lang).gettext(spec.label) in text
            assert spec.name not in text
        assert "false" not in text and "=" not in text
        assert catalog(lang).gettext("No") in text and "20" in text and "30" in text
        roster = options_text("shadow-cats", {"roster_file": ""})
        assert "roster_file" not in roster and '""' not in roster
        assert options_text("meowfia", {"house_rule": 1}) == "house_rule=1"  # unknown: as stored
        assert options_text("no-such-game", {"x": True}) == "x=true"
    finally:
        set_language("en")
