"""The screen's other entries: button-box presses, undo of the music, resume, the countdown."""

from __future__ import annotations

from pathlib import Path

from mc_ui_helpers import SIZE, FakeAudio, Table

from companion.games.meeple_circus.rules.actions import Press
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.home import ResumeDialog
from companion.widgets.countdown import NS_PER_S, Countdown, format_remaining

MS = 1_000_000


def test_countdown_rounds_up_and_marks_the_last_ten_seconds() -> None:
    assert format_remaining(125 * NS_PER_S) == "2:05"
    assert format_remaining(NS_PER_S + 1) == "0:02"
    assert format_remaining(0) == "0:00"
    countdown = Countdown()
    countdown.set_reactive(Countdown.remaining_ns, 10 * NS_PER_S)
    countdown.set_reactive(Countdown.mode, "running")
    assert countdown.warning
    countdown.set_reactive(Countdown.mode, "ended")
    assert not countdown.warning


async def test_button_box_presses_take_the_same_path(tmp_path: Path, sounds: Path) -> None:
    clock = ManualClock(start_ns=100 * NS_PER_S)
    audio = FakeAudio()
    app = make_app(tmp_path / "mc.sqlite3", clock=clock, audio=audio)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
        await app.settle()
        t = Table(app, pilot, clock, audio)
        # Outside a performance a button-box press is ignored (the hardware log keeps it).
        t.screen.receive_press(Press("p1", clock.ns, 0, "button-box", "BOX", 1))
        await app.settle()
        assert t.screen.session.entries == []
        await t.keys("1", "p", "p", "p")
        await t.start_music()
        start = t.state.performance.current.start_ns
        # Two presses of one box: host times inverted by a clock-sync refit, the box's
        # own clock says Bo first. Then Cy on another box, too close to Bo to call.
        t.screen.receive_press(Press("p1", start + 5_000 * MS, 500_000, "button-box", "A", 900))
        t.screen.receive_press(Press("p2", start + 4_999 * MS, 500_000, "button-box", "A", 400))
        t.screen.receive_press(Press("p3", start + 5_000 * MS, 500_000, "button-box", "B", 7))
        await app.settle()
        verdict = t.state.verdict()
        assert verdict.order == (("p2", "p1", "p3"),)
        assert verdict.undecided == ("tie:p1,p2,p3",)
        # Undoing the start stops the music; redoing it does not restart it.
        await t.keys("ctrl+z", "ctrl+z", "ctrl+z", "ctrl+z")
        await t.screen.audio_settled()
        assert t.state.performance.current is None
        assert audio.calls[-1] == "stop"
        assert t.countdown.mode == "idle"


async def test_a_press_delivered_twice_lands_once(tmp_path: Path, sounds: Path) -> None:
    """The restart's redelivery of a raw press and the hub's own message for it can
    both reach the screen (the panel redelivers after the first refresh, which under
    load comes after the hub logged the press but before its message was handled):
    the press lands once and the host sees no error for the copy."""
    clock = ManualClock(start_ns=100 * NS_PER_S)
    audio = FakeAudio()
    app = make_app(tmp_path / "mc.sqlite3", clock=clock, audio=audio)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo", "Cy"], {})
        await app.settle()
        t = Table(app, pilot, clock, audio)
        await t.keys("1", "p", "p", "p")
        await t.start_music()
        start = t.state.performance.current.start_ns
        press = Press("p1", start + 5_000 * MS, 500_000, "button-box", "A", 900, 1)
        t.screen.receive_press(press)
        t.screen.receive_press(press)
        await app.settle()
        assert len(t.state.performance.presses) == 1
        presses = [e for e in t.screen.session.entries if e.payload.get("type") == "press"]
        assert len(presses) == 1
        assert "already" not in str(t.screen.query_one("#message-line").render())


async def test_a_running_countdown_survives_a_restart(tmp_path: Path, sounds: Path) -> None:
    db = tmp_path / "mc.sqlite3"
    clock = ManualClock(start_ns=100 * NS_PER_S)
    app = make_app(db, clock=clock, audio=FakeAudio())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {})
        await app.settle()
        t = Table(app, pilot, clock, app.audio)
        await t.keys("1", "p", "p")
        await t.start_music()
        start = t.state.performance.current.start_ns
        await t.later(12)
        await t.keys("2")
        await pilot.press("ctrl+q")

    clock.advance(20)  # the laptop restarted the app 20 s later; the music is gone
    app2 = make_app(db, clock=clock, audio=FakeAudio())
    async with app2.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app2.screen, ResumeDialog)
        await pilot.press("enter")
        await app2.settle()
        t = Table(app2, pilot, clock, app2.audio)
        assert t.countdown.mode == "running"
        assert t.countdown.text == format_remaining(60 * NS_PER_S - 32 * NS_PER_S)
        await t.later(30)  # the track's time runs out as if it had played
        attempt = t.state.performance.current
        assert attempt.end_reason == "music"
        assert attempt.end_ns == start + 60 * NS_PER_S
        assert [j.status for j in t.state.verdict().presses] == ["counted"]
