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
