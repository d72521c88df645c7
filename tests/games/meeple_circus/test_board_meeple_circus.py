"""Meeple Circus on the board: the countdown from the logged start, the Tadaa order."""

from __future__ import annotations

from pathlib import Path

from companion.games.meeple_circus.board import MeepleCircusView, clock_text
from companion.ui.board import make_board
from companion.widgets.bigtext import BigNumber

S = 1_000_000_000
T0 = 5_000 * S  # the host's monotonic time when the music started


def screen_text(app) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


def test_clock_text() -> None:
    assert clock_text(90 * S) == "1:30"
    assert clock_text(int(10.2 * S)) == "0:11"  # rounds up: never shows time that is gone
    assert clock_text(10 * S) == "0:10"
    assert clock_text(int(9.95 * S)) == "10.0"
    assert clock_text(int(4.01 * S)) == "4.1"
    assert clock_text(0) == "0.0" and clock_text(-S) == "0.0"


async def test_countdown_and_tadaa_order(tmp_path: Path, start_writer) -> None:
    db = tmp_path / "c.db"
    writer = start_writer(db, "meeple-circus", ["Ann", "Bo", "Cy"])
    writer.send({"type": "choose-first-player", "player": "p2"})
    for pid in ("p2", "p3", "p1"):
        writer.send({"type": "prepare", "player": pid})
    now = [T0 - 2 * S]
    app = make_board(db, poll_interval=0.01, clock=lambda: now[0])
    async with app.run_test(size=(160, 50)) as pilot:
        report = writer.send({"type": "start-performance", "host_ns": T0, "length_ns": 60 * S})
        await app.caught_up(report["seq"])
        view = app.query_one(MeepleCircusView)
        clock = view.query_one("#mc-clock", BigNumber)
        for at, shown in [(15.5, "0:45"), (49.95, "0:11"), (55.04, "5.0"), (60.0, "0.0")]:
            now[0] = T0 + int(at * S)
            app._tick()  # what the 10 Hz timer does, without waiting for it
            await pilot.pause()
            assert clock.value == shown, at
        now[0] = T0 + 20 * S
        app._tick()
        await pilot.pause()
        assert "Music playing" in screen_text(app)
        assert "No Tadaa! yet" in screen_text(app)
        writer.send(
            {
                "type": "press",
                "player": "p3",
                "host_ns": T0 + 12 * S,
                "uncertainty_ns": 1_000_000,
                "source": "button-box",
                "device": "BOX1",
                "device_us": 5_000_000,
                "button": 3,
            }
        )
        # One box's own clock says 40.123 ms; the mapped host times say 40 ms.
        report = writer.send(
            {
                "type": "press",
                "player": "p1",
                "host_ns": T0 + 12 * S + 40_000_000,
                "uncertainty_ns": 1_000_000,
                "source": "button-box",
                "device": "BOX1",
                "device_us": 5_040_123,
                "button": 1,
            }
        )
        await app.caught_up(report["seq"])
        await pilot.pause()
        lines = screen_text(app).splitlines()
        # Times into the music as the host screen writes them (one label: view.py).
        cy = next(line for line in lines if " Cy " in line and "0:12.000" in line)
        ann = next(line for line in lines if " Ann " in line and "0:12.040" in line)
        assert "+40.123 ms ⏱" in ann and "speed token +1" in ann and "speed token +2" in cy
        # The photo finish's time line: seat 3 (Cy) then seat 1 (Ann), end to end.
        assert any("├3" in line and "1┤" in line for line in lines)
        assert lines.index(cy) < lines.index(ann)
        # Two presses too close to call are shown as such, not ordered by the board.
        report = writer.send({"type": "abort-performance", "host_ns": T0 + 21 * S})
        await app.caught_up(report["seq"])
        app._tick()
        await pilot.pause()
        assert "Attempt aborted" in screen_text(app) and clock.value == ""
        t1 = T0 + 30 * S
        writer.send({"type": "start-performance", "host_ns": t1, "length_ns": 60 * S})
        writer.send(
            {
                "type": "press",
                "player": "p1",
                "host_ns": t1 + 5 * S,
                "uncertainty_ns": 5_000_000,
                "source": "keyboard",
            }
        )
        report = writer.send(
            {
                "type": "press",
                "player": "p2",
                "host_ns": t1 + 5 * S + 1_000_000,
                "uncertainty_ns": 5_000_000,
                "source": "keyboard",
            }
        )
        await app.caught_up(report["seq"])
        await pilot.pause()
        text = screen_text(app)
        assert text.count("too close to call") == 2
        # The music ends; the performance closes; standings appear.
        now[0] = t1 + 61 * S
        report = writer.send({"type": "end-performance", "host_ns": t1 + 61 * S})
        await app.caught_up(report["seq"])
        app._tick()
        await pilot.pause()
        assert clock.value == "0.0" and "Time! Hands off" in screen_text(app)
