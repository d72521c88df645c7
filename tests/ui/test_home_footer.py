"""Home's footer at 80 columns lists only the keys that apply, each whole (issue 22).

Seen in tmux at 80x24: with no session at all the footer still said ``r Resume
a Abandon p Same table again``, ``x 丢掉演示`` was cut, and ``? 帮助`` and ``^q`` were
not on screen at all. Both failed before the fix.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import catalog
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import HomeScreen
from tests.screen_text import visible_text


def footer(app) -> str:  # type: ignore[no-untyped-def]
    return visible_text(app).rstrip("\n").splitlines()[-1]


def tr(lang: str, text: str) -> str:
    return catalog(lang).gettext(text)


def whole_keys(app, lang: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The footer text every key that applies now must show, whole."""
    out, actions = [], set()
    for active in app.screen.active_bindings.values():
        b = active.binding
        if active.enabled and b.show and b.description and b.action not in actions:
            actions.add(b.action)  # one key per action (? and f1 are one key in the footer)
            out.append(f"{app.get_key_display(b)} {tr(lang, b.description)}")
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_home_footer_with_no_session_has_no_session_keys(tmp_path: Path, lang: str) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        shown = footer(app)
        for gone in ("Resume", "Abandon", "Rematch", "Drop demos"):
            assert tr(lang, gone) not in shown, shown
        assert "? " + tr(lang, "Help") in shown, shown
        assert "^q " + tr(lang, "Quit") in shown, shown
        for key in whole_keys(app, lang):
            assert key in shown, (key, shown)
        await pilot.press("r")  # left out of the footer, it still says why it does nothing
        await pilot.pause()
        assert [n.message for n in app._notifications] == [
            tr(lang, "There is no unfinished session.")
        ]


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_home_footer_with_demo_sessions_shows_every_key_that_applies_whole(
    tmp_path: Path, lang: str
) -> None:
    app = make_app(tmp_path / "db.sqlite3", lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("t")  # the tour: a demo session of every game
        await app.settle()
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        shown = footer(app)
        assert tr(lang, "Resume") in shown and tr(lang, "Drop demos") in shown, shown
        for key in whole_keys(app, lang):
            assert key in shown, (key, shown)
        assert "^q " + tr(lang, "Quit") in shown, shown
