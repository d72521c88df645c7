"""The Tadaa! order and the photo finish at every size (issue 22, "Fit").

Seen in tmux before the fix: at 80x24 both were below the fold with no key to reach
them; their columns were cut (``+2.9… s``, ``±20… ms``, ``coun…``); the photo
finish's time wrapped at 100 columns; every press was listed twice (the photo
finish's table and the Tadaa! order); after a tie was settled (``t`` → a player)
both rows still said "too close to call".
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mc_ui_helpers import FakeAudio, Table

from companion.games.meeple_circus.view import TOO_CLOSE
from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from tests.screen_text import visible_text

NAMES = ["Alexandra Konsta", "小明明小明明小明", "Bo", "Dimitri Papadopo", "Eve"]
"""Five players, two of them with 16-cell names (one Chinese)."""


async def act_with_presses(app, pilot, clock: ManualClock) -> Table:  # type: ignore[no-untyped-def]
    """An act 1 with a tie (seats 2 and 4 together) and a later press (seat 1)."""
    app.start_session("meeple-circus", NAMES, {"music_act1": "countdown:30"})
    await app.settle()
    t = Table(app, pilot, clock, app.audio)
    await t.keys("1", "p", "p", "p", "p", "p")
    await t.start_music()
    await t.later(2.9)
    await t.keys("2", "4")
    await t.later(1.5)
    await t.keys("1")
    return t


def press_lines(shown: str) -> list[str]:
    """The screen's lines that show a press's time into the music (and not the log's)."""
    return [
        line
        for line in shown.splitlines()
        if ("0:02.900" in line or "0:04.400" in line) and "ms" in line
    ]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(80, 24), (100, 30)])
async def test_o_shows_the_tadaa_order_whole(
    tmp_path: Path, sounds: Path, lang: str, size: tuple[int, int]
) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        t = await act_with_presses(app, pilot, clock)
        footer = visible_text(app).splitlines()[-1]
        assert "o " + _("Tadaa! order") in footer, footer
        await t.keys("o")
        shown = visible_text(app)
        rows = press_lines(shown)
        # Each press once, on one line, with its uncertainty and what it counts as.
        assert len(rows) == 3, shown
        for row in rows:
            assert "±20.0 ms" in row and "…" not in row.split("│")[-1], shown
        assert sum(_(TOO_CLOSE) in row for row in rows) == 2, shown
        assert sum(_("counts") in row for row in rows) == 1, shown
        await t.keys("o")  # and back
        assert "[5]" in visible_text(app)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_each_press_is_listed_once_at_160x48(tmp_path: Path, sounds: Path, lang: str) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        await act_with_presses(app, pilot, clock)
        shown = visible_text(app)
        assert shown.count("±20.0 ms") == 3, shown
        assert shown.count(_(TOO_CLOSE)) == 2, shown
        assert _("Photo finish") in shown


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_a_settled_tie_says_who_the_host_put_first(
    tmp_path: Path, sounds: Path, lang: str
) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()
        t = await act_with_presses(app, pilot, clock)
        await t.later(31)
        await t.keys("t", "4")  # Dimitri (seat 4) was first
        await pilot.pause()
        shown = visible_text(app)
        assert _(TOO_CLOSE) not in shown, shown
        rows = press_lines(shown)
        assert len(rows) == 3, shown
        settled = [row for row in rows if _("host's order") in row]
        assert len(settled) == 2, shown
        assert "Dimitri" in settled[0] and "小明" in settled[1], shown
        said = _("Settled by the host: {order}.").format(
            order=_("{first}, then {second}").format(
                first="Dimitri Papadopo", second="小明明小明明小明"
            )
        )
        assert said in " ".join(shown.split()), shown
