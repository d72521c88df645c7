"""Kill after every key: a scripted game; after each key a fresh app on the same
database file (new Store, new app, ``LiveSession.resume``) shows the same view-model
and the same screen. A deal or roll made at key k is the same after the "kill": the
resumed app has another random source, so a re-deal or a re-roll would show.
"""

from __future__ import annotations

import difflib
import random

import pytest

from companion.games.shadow_cats.screen import ShadowCatsScreen
from companion.games.shadow_cats.view import build
from companion.session.clock import ManualClock
from companion.ui.app import make_app

SIZE = (160, 50)
NAMES = ["Ann", "Bo", "Cy", "Di"]
KEYS = [
    # the draft: another character for Ann, the first player, the board by hand
    *("c", "down", "enter"),
    *("w", "down", "enter"),
    *("o", *["enter"] * 7),
    "s",
    # start positions: a 7 rolled again then 6; the companion's dice; 8; the companion's
    *("m", "7", "enter", "6", "enter"),
    *("m", "r", "enter"),
    *("m", "8", "enter"),
    *("m", "r", "enter"),
    # Bo: the companion rolls a 7 (recorded before the choice), the list opens on its
    # first item, the second is chosen; an attack with the companion's d100
    *("m", "r", "enter"),
    *("down", "enter"),
    *("a", "enter", "r", "enter"),
    # Cy: typed dice, end of turn; then Bo loses 20 HP to an event card (the selection
    # follows the turn, so the host goes up to the first row and down to Bo's)
    *("m", "4", "enter", "e"),
    *(["up"] * 6 + ["down"]),
    *("h", "minus", "2", "0", "space", "e", "v", "enter"),
]


def game_screen(app) -> ShadowCatsScreen:
    return next(s for s in reversed(app.screen_stack) if isinstance(s, ShadowCatsScreen))


def screen_text(app) -> str:
    """What the game screen shows, less the header's clock."""
    lines = [strip.text for strip in app.screen._compositor.render_strips()]
    return "\n".join(lines[1:])


async def resumed(db, sid, seed):
    """The model of a kill: a new app and store on the same file, resuming ``sid``."""
    app = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(seed))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.resume_session(sid)
        await app.settle()
        await pilot.pause()
        screen = game_screen(app)
        return build(screen.session.state, "en"), screen_text(app), screen.session.state


async def play_and_kill(tmp_path, keys, after=None):
    db = tmp_path / "kill.sqlite3"
    app = make_app(db, lang="en", clock=ManualClock(), rng=random.Random(7))
    seen = []
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("shadow-cats", NAMES, {})
        await app.settle()
        await pilot.pause()
        sid = game_screen(app).session.id
        last: tuple[int, str | None] = (-1, None)
        for k, key in enumerate(["", *keys]):
            if key:
                await pilot.press(key)
            await app.settle()
            await pilot.pause()
            screen = game_screen(app)
            view = build(screen.session.state, "en")
            text = screen_text(app) if app.screen is screen else None
            on_disk = len(screen.session.entries)
            if k and on_disk == last[0] and text in (None, last[1]):
                # Nothing new on disk and nothing new on screen (a key inside a dialog):
                # a kill here reopens the very file the last check reopened.
                seen.append((key, screen.session.state))
                continue
            last = (on_disk, text)
            got_view, got_text, got_state = await resumed(db, sid, 1000 + k)
            assert got_view == view, (k, key)
            assert got_state == screen.session.state, (k, key)
            if text is not None and got_text != text:
                diff = difflib.unified_diff(text.splitlines(), got_text.splitlines(), lineterm="")
                raise AssertionError(f"key {k} ({key!r}):\n" + "\n".join(diff))
            seen.append((key, screen.session.state))
        if after is not None:
            after(seen)
        await pilot.press("ctrl+q")
    return seen


@pytest.mark.slow
async def test_every_key_of_a_game_resumes_to_the_same_screen(tmp_path):
    def check(seen):
        final = seen[-1][1]
        assert final.phase == "play" and final.seat("p2").hp < final.character("p2").max_hp
        types = {e for _key, state in seen for e in [state.phase]}
        assert types == {"setup", "start", "play"}

    await play_and_kill(tmp_path, KEYS, check)
