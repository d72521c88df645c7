"""The Cat Box screen at 80x24 (docs/tour/cat-box.md).

Found on the tmux tour: a card is 17 columns wide at 80x24, and "哈气值 6  得分 3
嫉妒 ⚀" on one line wrapped inside "得分 3": the score's 3 stood under the next
line's start, apart from its label. Failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_each_card_shows_its_hiss_and_score_on_one_line(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        live = app.start_session("cat-box", ["Ann", "Bo", "Cy"], {})
        await app.settle()
        for _i in range(5):
            await pilot.pause()
        await app.settle()
        shown = visible_text(app)
        state = live.state
        assert state.display, shown
        for card_id in state.display:  # the displayed cards, in order
            card = state.card(card_id.card)
            piece = _("hiss {n}").format(n=card.hiss) + "  " + _("score {n}").format(n=card.score)
            assert piece in shown, (piece, shown)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_each_slot_choice_of_a_roll_is_on_one_line(tmp_path: Path, lang: str) -> None:
    """Found on the tour (80x24 zh): the roll dialog's choices wrapped as one line, so
    "[4] 奶牛猫 1 (含 6)" broke over two lines. Failed before the fix."""
    import random

    from companion.games.cat_box.dialogs import RollDialog

    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(1))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("cat-box", ["Ann", "Bo", "Cy"], {"start_player": "p1"})
        await app.settle()
        await pilot.press("r")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, RollDialog)
        await pilot.press("1", "1", "2", "6", "enter")
        await app.settle()
        choices = dialog.choices()
        assert len(choices) >= 4
        shown = visible_text(app)
        opening, closing = (" (", ")") if lang == "en" else ("（", "）")  # full-width in zh
        for key, card, slot in choices:
            name = dialog.state.card(card).display_name(lang)
            start = f"[{key}] {name} {slot}{opening}"
            assert start in shown, (key, shown)
            line = next(row for row in shown.splitlines() if start in row)
            after = line.split(f"[{key}] ", 1)[1]
            assert closing in after, (key, line)  # its condition closes on the same line
