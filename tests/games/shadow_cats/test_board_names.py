"""Every location on the Shadow Cats ring is named in full, at 80x24 and 160x48, in both
languages. Before the fix a name longer than the slot's title room was cut by the
panel's border at 80 columns ("Cat Kingdo", "Kumamoto S", "Sakura Vil")."""

from __future__ import annotations

import random

import pytest

from companion.games.shadow_cats.render import location_label
from companion.games.shadow_cats.screen import ShadowCatsScreen
from companion.i18n import set_language
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (160, 48)])
@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_every_location_is_named_in_full(tmp_path, lang, size):
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", ["Ann", "Bo", "Cy", "Di"], {})
        await app.settle()
        screen = app.screen
        assert isinstance(screen, ShadowCatsScreen)
        await pilot.pause()
        screen.query_one("#game-view").scroll_home(animate=False)
        await pilot.pause()
        shown = visible_text(app)
        set_language(lang)
        try:
            layout = screen.game.layout or screen.game.draft.layout
            names = [location_label(cell) for cell in layout if cell]
        finally:
            set_language("en")
        assert len(names) == 7
        for name in names:  # a two-word name may wrap inside its slot, not be cut
            for word in name.split():
                assert word in shown, name + "\n" + shown
