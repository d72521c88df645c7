"""Pilot: a whole 3-player Meeple Circus game through the keys, with a fake clock.

The clock only moves when the test says so, and the countdown is recomputed by
calling ``screen.tick()`` (what the screen's interval timer does), so the music's
end and every press time are exact. The audio backend is a fake that records calls;
the tracks are short WAVs written into a temporary sounds folder.
"""

from __future__ import annotations

import json
from pathlib import Path

from mc_ui_helpers import SIZE, FakeAudio, Table, plain, type_text
from textual.widgets import Input, Static

from companion.games.meeple_circus.dialogs import ReviewDialog, ScoreDialog
from companion.games.meeple_circus.screen import KEYBOARD_UNCERTAINTY_NS
from companion.rules.base import Player
from companion.session.clock import ManualClock
from companion.session.export import (
    dumps_document,
    load_sessions,
    parse_document,
    replay_session,
    sessions_document,
)
from companion.ui.app import make_app
from companion.widgets.dialogs import ChoiceDialog, ConfirmDialog
from companion.widgets.key_choice import KeyChoiceDialog


async def test_three_acts_through_the_keys(tmp_path: Path, sounds: Path) -> None:
    lang = "en"
    clock = ManualClock(start_ns=5_000 * 1_000_000_000)
    audio = FakeAudio()
    app = make_app(tmp_path / "mc.sqlite3", lang=lang, clock=clock, audio=audio)
    players = (
        Player("p1", "Ann", "red", "2010-03-01"),
        Player("p2", "Bo", "blue", "2012-07-07"),
        Player("p3", "Cy", "green", "2008-01-15"),
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", players, {})
        await app.settle()
        t = Table(app, pilot, clock, audio)
        banner = t.screen.query_one("#mc-banner", Static)
        if lang == "zh":
            assert "第一次彩排" in plain(banner)
        else:
            assert "First rehearsal" in plain(banner)

        # ---------------------------------------------------------------- act 1
        await t.keys("2")  # Bo saw a circus most recently
        assert t.state.preparation_order() == ("p2", "p3", "p1")
        await t.keys("1")  # not Ann's turn: refused, nothing changes
        assert t.state.act.prepared == ()
        await t.keys("p", "p", "p")
        assert t.state.phase == "performance"
        assert t.countdown.text == "1:00" and t.countdown.mode == "idle"

        await t.keys("3")  # Cy presses before the music: a false start
        await t.later(1)
        await t.start_music()
        assert audio.calls[-1] == "play:big-top-march"
        start = t.state.performance.current.start_ns
        assert start == clock.monotonic_ns()
        await t.later(20.3)
        assert t.countdown.text == "0:40" and t.countdown.mode == "running"
        await t.keys("3")  # Cy: Tadaa! at 20.3 s
        await t.later(0.25)
        await t.keys("1")  # Ann at 20.55 s
        await t.keys("1")  # Ann again: a repeat
        tadaa = plain(t.screen.query_one("#mc-tadaa", Static))
        assert "250.0" in tadaa  # the gap to the previous press, in ms
        await t.later(29.0)
        assert (t.countdown.text, t.countdown.warning) == ("0:11", False)
        await t.later(1.0)
        assert (t.countdown.text, t.countdown.warning) == ("0:10", True)
        assert "warning" not in " ".join(audio.calls)  # music plays: no cue over it
        await t.later(9.5)  # the music's time is up
        assert t.state.performance.current.end_reason == "music"
        assert t.state.performance.current.end_ns == start + 60 * 1_000_000_000
        assert t.countdown.text == "0:00" and t.countdown.mode == "ended"
        assert audio.calls[-2:] == ["stop", "play:end"]
        await t.keys("2")  # Bo, too late
        statuses = [j.status for j in t.state.verdict().presses]
        assert statuses == ["false-start", "counted", "counted", "repeat", "too-late"]
        presses = [j.press for j in t.state.verdict().presses]
        assert presses[1].uncertainty_ns == KEYBOARD_UNCERTAINTY_NS
        assert presses[1].host_ns - start == 20_300_000_000
        await t.keys("f")
        assert t.state.phase == "evaluation"
        assert dict(t.state.act.speed_tokens) == {"p3": 2, "p1": 1}

        await t.score("1", "3 2", "2", "1", "4", typed=True)  # Ann: 5 + 2 + 1 + 4 + token 1 = 13
        await t.score("2", "2", "1")  # Bo: 3
        await t.keys("3")
        dialog = app.screen
        assert isinstance(dialog, ScoreDialog)
        red = dialog.query_one("#mc-red", Input)
        red.focus()
        await type_text(pilot, "9")  # off the measuring stick: shown, not saved
        await pilot.press("enter")
        await app.settle()
        assert isinstance(app.screen, ScoreDialog)
        assert "measuring stick" in str(dialog.query_one("#mc-red-error").render()) or (
            lang == "zh"
        )
        await pilot.press("backspace")
        await type_text(pilot, "3")
        await pilot.press("enter")
        await app.settle()
        assert isinstance(app.screen, ReviewDialog)  # the last save closes the act: review
        await pilot.press("enter")
        await app.settle()
        assert t.state.totals() == {"p1": 13, "p2": 3, "p3": 5}
        assert t.state.phase == "end" and t.state.act.next_first_player == "p2"
        assert "Bo" in plain(t.screen.query_one("#mc-end", Static))
        await t.keys("n")

        # ---------------------------------------------------------------- act 2
        assert t.state.act_number == 2 and t.state.preparation_order() == ("p2", "p3", "p1")
        await t.keys("p", "p", "p")
        await t.start_music()
        assert audio.calls[-1] == "play:jugglers-galop"
        await t.later(5)
        await t.keys("2")  # Bo pressed by mistake
        await t.later(3)
        await t.keys("v")  # void it: the dialog lists presses by key
        assert isinstance(app.screen, KeyChoiceDialog)
        await t.keys("1")
        assert [j.status for j in t.state.verdict().presses] == ["voided"]
        await t.later(10)
        await t.keys("1", "3")  # Ann and Cy at the same instant: too close to call
        assert t.state.verdict().undecided == ("tie:p1,p3",)
        assert "tie" not in " ".join(audio.calls)  # no alert over the music
        await t.later(2)
        await t.keys("2")  # Bo really finishes: everyone has pressed
        await t.keys("x")  # stop early
        assert t.state.performance.current.end_reason == "stopped"
        assert audio.calls[-2:] == ["stop", "play:end"]
        await t.keys("f")  # refused: the tie decides the tokens
        assert t.state.phase == "performance"
        await t.keys("t")
        assert isinstance(app.screen, KeyChoiceDialog)
        await t.keys("3")  # the host saw Cy first (her seat key)
        await t.keys("f")
        assert dict(t.state.act.speed_tokens) == {"p3": 2, "p1": 1}
        await t.score("1", "", "1")  # Ann: 1 + token 1
        await t.score("2", "4", "", "", "", "3")  # Bo: demand 4, guest star 3
        await t.score("3", "", "", "1")  # Cy: 1 + token 2
        assert t.state.totals() == {"p1": 15, "p2": 10, "p3": 8}
        await t.keys("n")

        # ---------------------------------------------------------------- act 3
        assert t.state.act_number == 3
        assert t.state.performance_order() == ("p3", "p1", "p2")  # Cy has fewest
        await t.keys("p", "p", "p")
        assert t.state.performer == "p3"
        order = plain(t.screen.query_one("#mc-order", Static))
        assert order.index("Cy") < order.index("Ann") < order.index("Bo")
        await t.start_music()
        assert audio.calls[-1] == "play:tightrope-waltz"
        await t.later(12)
        await t.keys("1")  # Ann is not performing: no effect
        await t.keys("3")  # Cy's Tadaa! ends the show
        attempt = t.state.performance.current
        assert attempt.end_reason == "tadaa"
        await app.settle()
        await t.screen.audio_settled()
        assert audio.calls[-2:] == ["stop", "play:tadaa"]
        assert t.state.verdict().tokens == {}
        await t.keys("f")
        assert t.state.performer == "p1"

        assert t.countdown.text == "0:40"  # each performer has their own track
        await t.keys("m")  # a music-note card: the host picks another track
        assert isinstance(app.screen, ChoiceDialog)
        await t.keys("down", "down", "enter")
        assert t.countdown.text == "0:50"
        await t.start_music()
        assert audio.calls[-1] == "play:grand-finale"
        await t.later(3)
        await t.keys("a")  # the table was knocked: abort
        assert isinstance(app.screen, ConfirmDialog)
        await t.keys("y")
        await t.screen.audio_settled()
        assert audio.calls[-1] == "stop"
        assert t.state.performance.current is None
        await t.later(5)
        await t.start_music()  # restart
        assert len(t.state.performance.attempts) == 2
        await t.later(25)
        await t.keys("1")
        await t.keys("f")
        assert t.state.performer == "p2"
        await t.start_music()
        assert audio.calls[-1] == "play:grand-finale"
        await t.later(51)  # Bo never pressed: the music ran out
        assert t.state.performance.current.end_reason == "music"
        await t.keys("f")
        assert t.state.phase == "evaluation"

        await t.score("1", "", "", "", "", "2")  # Ann: guest 2 ×2 = 4
        await t.score("2", "", "", "", "", "", "3")  # Bo: challenge 3
        await t.score("3", "2", "", "", "", "3 2", "1")  # Cy: 2 + (5 × 2) + 1 = 13
        assert t.state.phase == "over"
        assert t.state.totals() == {"p1": 19, "p2": 13, "p3": 21}
        outcome = t.screen.session.outcome
        assert outcome is not None and outcome.winners == ("p3",)
        final = plain(t.screen.query_one("#mc-final", Static))
        assert "Cy" in final and "21" in final
        session_id = t.screen.session.id

    # Export, then replay the file: the same outcome.
    from companion.session.store import Store

    with Store.open(tmp_path / "mc.sqlite3") as store:
        text = dumps_document(sessions_document(load_sessions(store, [session_id])))
    ((row, entries),) = parse_document(text)
    replayed = replay_session(row, entries)
    assert replayed.outcome == outcome
    assert replayed.matches_record
    assert json.loads(text)["sessions"][0]["game"] == "meeple-circus"


async def test_shared_victory_in_chinese(tmp_path: Path, sounds: Path) -> None:
    """A whole game on plain countdowns (with their cues), in Simplified Chinese."""
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang="zh", clock=clock, audio=FakeAudio())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session(
            "meeple-circus",
            ["Ann", "Bo"],
            {
                "music_act1": "countdown:30",
                "music_act2": "countdown:30",
                "music_act3": "countdown:30",
            },
        )
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        assert "第一次彩排" in plain(t.screen.query_one("#mc-banner", Static))
        await t.keys("1", "p", "p")
        assert t.countdown.text == "0:30"
        await t.start_music()
        assert app.audio.calls == ["play:start"]  # a plain countdown has its cues
        await t.later(21)
        assert app.audio.calls[-1] == "play:warning"
        await t.later(10)
        assert app.audio.calls[-1] == "play:end"
        await t.keys("f")
        await t.score("1", "2")
        await t.score("2", "2")
        assert t.state.pending_pick is not None  # no birth dates: the host picks
        await t.keys("n")
        assert t.state.act_number == 1  # refused until the host picks
        await t.keys("h")
        assert isinstance(app.screen, KeyChoiceDialog)
        await t.keys("2")
        await t.keys("n")
        for _act in (2, 3):
            await t.keys("p", "p")
            for _performer in range(1 if t.state.act_number == 2 else 2):
                await t.start_music()
                await t.later(31)
                await t.keys("f")
            await t.score("1", "1")
            await t.score("2", "1")
            if t.state.phase == "end":
                if t.state.pending_pick is not None:
                    await t.keys("1")
                await t.keys("n")
        assert t.state.phase == "over"
        final = plain(t.screen.query_one("#mc-final", Static))
        assert final.count("（并列）") == 2
        assert "共享胜利" in final
        assert "最终排名" in plain(t.screen.query_one("#mc-banner", Static))
