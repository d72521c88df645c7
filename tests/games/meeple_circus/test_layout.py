"""At 100x30 the footer shows the keys that move a performance on (issue 13, item 4).

Before: the footer listed every key in declaration order and cut "f Finish
performance" off at 100 columns, in both languages.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from mc_ui_helpers import FakeAudio, Table

from companion.session.clock import ManualClock
from companion.ui.app import make_app


def footer(app) -> str:  # type: ignore[no-untyped-def]
    return [strip.text for strip in app.screen._compositor.render_strips()][-1]


@pytest.mark.parametrize(
    ("lang", "start", "finish"), [("en", "Start music", "Finish"), ("zh", "播放音乐", "结束")]
)
async def test_the_footer_at_100x30_shows_start_and_finish(
    tmp_path: Path, sounds: Path, lang: str, start: str, finish: str
) -> None:
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        assert f"s {start}" in footer(app)
        await t.start_music()
        await t.later(31)
        await pilot.pause()
        assert f"f {finish}" in footer(app)
        assert "? " in footer(app)  # the keys fitted, whole, help kept (test_game_footer_fits)


async def test_a_hidden_key_still_says_why(tmp_path: Path, sounds: Path) -> None:
    """Keys that do nothing now are left out of the footer, but never silent."""
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock, audio=FakeAudio())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        assert "f Finish" not in footer(app)
        await t.keys("f")
        line = str(t.screen.query_one("#message-line").render())
        assert "circus most recently" in line  # the guide's reason: what to do now


async def test_a_message_with_brackets_keeps_them(tmp_path: Path, sounds: Path) -> None:
    """The message line shows text, not markup: "[set]" (a card file's table) stays.

    Before: ``say`` passed the message to ``Static.update`` as markup, so a refusal
    naming ``[set]`` showed as "3： 必须是一个表。".
    """
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=ManualClock(), audio=FakeAudio())
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {})
        await app.settle()
        app.screen.say("cards.toml: [set] must be a table.", error=True)
        await pilot.pause()
        assert "cards.toml: [set] must be a table." in str(
            app.screen.query_one("#message-line").render()
        )


class NoSoundCard(FakeAudio):
    """As on a machine without a sound card: silent, with the reason said."""

    available = False
    reason = "No sound card found: no music, the countdown still runs."


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_the_countdown_leaves_the_music_line_in_view(
    tmp_path: Path, sounds: Path, lang: str
) -> None:
    """Found on the tmux tour (docs/tour/meeple-circus.md): at 80x24 the 12-line
    countdown box filled the panel, so the music line saying why it is silent (and
    the Tadaa! order) were below the fold. Failed before the fix."""
    from mc_ui_helpers import plain
    from textual.widgets import Static

    from tests.screen_text import missing_characters, visible_text

    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=NoSoundCard())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        await pilot.pause()
        track = plain(t.screen.query_one("#mc-track", Static))
        assert NoSoundCard.reason in " ".join(track.split())
        shown = visible_text(app)
        assert not missing_characters(track, shown), shown
        # Every line of the music line as the panel wraps it, the last one too.
        box = t.screen.query_one("#mc-track", Static)
        lines = [s.text.strip() for s in box.render_lines(box.content_region.reset_offset)]
        for line in filter(None, lines):
            assert line in shown, (line, shown)


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_the_evaluation_table_keeps_names_and_numbers(
    tmp_path: Path, sounds: Path, lang: str
) -> None:
    """Found on the tmux tour: at 80x24 the evaluation read "Pla… Dem… Yel… Tot…" with
    "● / Ann" over two lines (issue 13, item 4, still there). Failed before the fix."""
    from companion.games.meeple_circus.dialogs import SOURCE_SHORT
    from companion.games.meeple_circus.panels import act_sources
    from companion.i18n import _
    from tests.screen_text import missing_characters, visible_text

    names = ["Alexandra", "Bo", "小明明", "Dimitri", "Eve"]
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", names, {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p", "p", "p", "p")
        await t.start_music()
        await t.later(31)
        await t.keys("f")
        shown = visible_text(app)
        assert "…" not in shown, shown
        rows = shown.splitlines()
        for key, name in enumerate(names, start=1):
            assert any(f"[{key}] {name} " in row.replace("● ", "") for row in rows), shown
        header = " ".join(shown.split())
        for source in act_sources(1):
            label = _(SOURCE_SHORT[source])
            assert not missing_characters(label, shown), (label, shown)
            for word in label.split():  # a Latin word is never cut (Chinese folds)
                assert word in header or not word.isascii(), (word, shown)
        assert _("Total") in header


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_the_evaluation_form_fits_with_its_message(
    tmp_path: Path, sounds: Path, lang: str
) -> None:
    """Found on the tmux tour: at 80x24 the 96-column form ran past the right edge and
    the bottom; the problem with an entry and "enter or ctrl+s: save" were out of
    sight. Failed before the fix."""
    from textual.widgets import Label

    from companion.games.meeple_circus.dialogs import ScoreDialog
    from companion.widgets.text_input import TextInput
    from tests.screen_text import missing_characters, visible_text

    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=FakeAudio())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        await t.later(31)
        await t.keys("f", "1")
        dialog = app.screen
        assert isinstance(dialog, ScoreDialog)
        dialog.query_one("#mc-red", TextInput).value = "4 x"
        await pilot.pause()
        shown = visible_text(app)
        error = str(dialog.query_one("#mc-score-error", Label).render())
        assert error, "the entry should be refused"
        texts = [error] + [str(label.render()) for label in dialog.query(Label)]
        for text in texts:
            assert not missing_characters(text, shown), (text, shown)
        for field in dialog.query(TextInput):
            assert field.region.right <= 80 and field.region.bottom <= 24, field
