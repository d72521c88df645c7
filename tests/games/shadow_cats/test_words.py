"""Game words inside messages are translated with the message (both languages)."""

from __future__ import annotations

import pytest
from shadow_helpers import placed

from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import Relocate, Reveal
from companion.games.shadow_cats.rules.state import Notice
from companion.games.shadow_cats.rules.words import render_params, word
from companion.i18n import catalog
from companion.rules.base import RuleError


def refusal(state, action):
    with pytest.raises(RuleError) as info:
        GAME.apply(state, action)
    return info.value


def test_identity_and_location_words_follow_the_language():
    state = placed(["warp", "kingdom", "kingdom", "kingdom", "kingdom"])
    state = GAME.apply(state, Reveal("p2", "red", "event"))
    state = GAME.apply(state, Reveal("p3", "red", "event"))
    error = refusal(state, Reveal("p4", "red", "event"))
    assert str(error) == "This game has 2 Red identities, and they are all recorded already."
    assert error.render(catalog("zh").gettext) == "本局只有 2 张红队身份牌，已全部记录。"
    error = refusal(state, Relocate("p2", "kingdom", "x"))
    assert str(error) == "Bo is on Cat Kingdom already."
    assert error.render(catalog("zh").gettext) == "Bo 已经在喵王国。"  # Simplified (issue 13)


def test_notices_and_unknown_values_render_plainly():
    notice = Notice("{player} moves to {location}.", (("player", "Ann"), ("location", "forest")))
    assert notice.render() == "Ann moves to forest."  # the raw notice keeps ids
    assert render_params(notice.template, dict(notice.params)) == "Ann moves to Cat Forest."
    assert render_params(notice.template, dict(notice.params), catalog("zh").gettext) == (
        "Ann 移动到喵森林。"
    )
    assert word("location", "moon") == "moon"
    assert word("player", "red") == "red"
