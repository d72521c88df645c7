"""The log panel tells a Meeple Circus game in the guide's sentences, in both languages."""

from __future__ import annotations

from pathlib import Path

import pytest
from mc_ui_helpers import FakeAudio, Table
from textual.widgets import Input

from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.widgets.log_panel import LogPanel

EXPECTED = {
    "en": (
        "Ann starts act 1.",
        "Ann took a component tile and a program card.",
        "The host picks the music for act 1: a plain countdown of 0:45.",
        "Bo: Tadaa! at",
    ),
    "zh": (
        "Ann 开始第一幕。",
        "Ann 已拿取构成要素板块和节目牌。",
        "主持人为第 1 幕选择音乐：普通倒计时 0:45。",
        "Bo：在",
    ),
}


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_log_reads_as_sentences(tmp_path: Path, sounds: Path, lang: str) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "m", "down", "down", "enter")  # m: a plain countdown …
        app.screen.query_one(Input).value = "45"  # … of 45 s
        await t.keys("enter", "p")
        await t.start_music()
        await t.later(4)
        await t.keys("2")
        log = t.screen.query_one(LogPanel)
        text = "".join(strip.text for strip in log.lines)
        flat = "".join(text.split())  # the panel wraps long sentences
        for sentence in EXPECTED[lang]:
            assert "".join(sentence.split()) in flat, (sentence, text)
        assert "player=" not in text and "host_ns" not in text  # no key=value lines


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_the_log_names_a_built_in_track_by_its_title(
    tmp_path: Path, sounds: Path, lang: str
) -> None:
    """Found on the tmux tour: "The music starts: big-top-march (2:05)." — the track's
    id, English inside the Chinese log. Failed before the fix."""
    from companion.audio.tracks import TRACK_TABLE
    from companion.games.meeple_circus.guide import BUILT_IN_TRACK_TITLES
    from companion.i18n import _

    assert {t.id: t.title for t in TRACK_TABLE} == BUILT_IN_TRACK_TITLES
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        log = t.screen.query_one(LogPanel)
        flat = "".join("".join(strip.text for strip in log.lines).split())
        assert "big-top-march" not in flat
        assert "".join(_("Big Top March").split()) in flat, flat
