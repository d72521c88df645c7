"""Pilot: whole 喵喵咪呀 games through the keys, a tie and its revote, undo inside a ballot."""

from __future__ import annotations

import io
import random
from pathlib import Path

from rich.console import Console
from textual.widgets import DataTable, Static

from companion.games.meowfia.rules import MeowfiaState
from companion.games.meowfia.screen import MeowfiaScreen
from companion.games.meowfia.vote_grid import VoteGrid
from companion.session.clock import ManualClock
from companion.ui.app import CompanionApp, make_app
from companion.widgets.key_choice import KeyChoiceDialog

SIZE = (160, 50)
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fa"]


def said(app) -> list[str]:
    """Every message the host can see: toasts and the screen's message line."""
    out = [str(n.message) for n in app._notifications]
    lines = app.screen.query("#message-line")
    out += [str(line.render()) for line in lines]
    return out


class FakeAudio:
    """Records what would play."""

    def __init__(self) -> None:
        self.played: list[Path] = []

    def play(self, path: Path) -> None:
        self.played.append(Path(path))


def plain(content: object) -> str:
    """What a Static shows, as plain text (Rich renderables included)."""
    out = io.StringIO()
    Console(file=out, width=200, color_system=None, legacy_windows=False).print(content)
    return out.getvalue()


def text_of(screen: MeowfiaScreen, selector: str) -> str:
    return plain(screen.query_one(selector, Static).content)


def key_of(pid: str) -> str:
    """Seat key of ``pN`` (seat 10 is ``0``)."""
    n = int(pid[1:])
    return "0" if n == 10 else str(n)


async def start(pilot, app: CompanionApp, options: dict | None = None) -> MeowfiaScreen:
    await pilot.pause()
    app.start_session("meowfia", NAMES, options or {})
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, MeowfiaScreen)
    return screen


def state_of(screen: MeowfiaScreen) -> MeowfiaState:
    return screen.session.state


async def press(pilot, app: CompanionApp, *keys: str) -> None:
    for key in keys:
        await pilot.press(key)
        await app.settle()


async def smuggle_and_open(
    pilot, app, screen, building: str, found: str, full: bool = False
) -> None:
    """Smuggling confirmed, a building opened; ``full``: every prompt and question too."""
    if full:
        await press(pilot, app, *["space"] * 6)  # six prompts; the last space confirms
    else:
        await press(pilot, app, "d")
    assert state_of(screen).phase == "inspection"
    if full:
        current = state_of(screen).current_round
        assert current is not None
        await press(pilot, app, *["q"] * len(current.order))
        assert state_of(screen).current_round.next_to_question is None
    await press(pilot, app, "o", building, "c" if found == "contraband" else "e")


async def enter_ballot(pilot, app, screen, plan: dict[str, str | None]) -> None:
    """Enter ``plan`` (voter → target, None = abstain) row by row through the grid."""
    ballot = state_of(screen).ballot
    assert ballot is not None
    for voter in ballot.voters:
        grid = screen.query_one(VoteGrid)
        assert grid.current_voter() == voter
        target = plan[voter]
        await press(pilot, app, "a" if target is None else key_of(target))


def everyone_for(screen: MeowfiaScreen, target: str, fallback: str) -> dict[str, str | None]:
    ballot = state_of(screen).ballot
    assert ballot is not None
    return {v: (fallback if v == target else target) for v in ballot.voters}


async def test_a_whole_six_player_game_to_a_police_win(tmp_path):
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(7))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app)
        assert "Sheriff" in text_of(screen, "#guide-prompt")
        await press(pilot, app, "1")
        state = state_of(screen)
        assert state.sheriff == "p1" and state.phase == "smuggling"
        assert state.first in {"p2", "p3", "p4", "p5", "p6"}
        assert "1/6" in text_of(screen, "#mf-prompt")

        for round_no, (target, fallback) in enumerate(
            [("p3", "p2"), ("p4", "p2"), (None, None), ("p5", "p2")], start=1
        ):
            assert state_of(screen).round_number == round_no
            if target is None:  # an empty box: a smuggle, no reckoning
                await smuggle_and_open(pilot, app, screen, "s", "empty")
                assert state_of(screen).smuggles == 1
                continue
            await smuggle_and_open(pilot, app, screen, "e", "contraband", full=round_no == 1)
            assert state_of(screen).phase == "reckoning"
            ring = state_of(screen).ring
            assert f"{key_of(ring)} {NAMES[int(ring[1:]) - 1]}" in text_of(screen, "#mf-tracks")
            await enter_ballot(pilot, app, screen, everyone_for(screen, target, fallback))
            assert "is accused" in text_of(screen, ".vote-status")
            await press(pilot, app, "v", "m", "enter")  # a Meowfia member, no role name
            assert state_of(screen).revealed_tile(target) is not None

        state = state_of(screen)
        assert state.phase == "over" and state.intercepts == 3
        outcome = screen.session.outcome
        assert outcome is not None and outcome.termination == "intercepts"
        win = text_of(screen, "#mf-win")
        assert "The Police win!" in win and "Press u" in win
        await press(pilot, app, "u", "6")
        outcome = screen.session.outcome
        assert outcome is not None
        assert outcome.winners == ("p1", "p6")
        assert outcome.sides == {
            "p1": "police",
            "p2": "meowfia",
            "p3": "meowfia",
            "p4": "meowfia",
            "p5": "meowfia",
            "p6": "police",
        }
        assert "Ann, Fa." in text_of(screen, "#outcome-banner")  # named once, by the banner
        row = app.store.session(screen.session.id)
        assert row.status == "finished"
        assert row.outcome is not None and row.outcome["sides"]["p6"] == "police"


async def test_a_meowfia_win_by_a_revote_after_a_tie(tmp_path):
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(11))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app)
        await press(pilot, app, "1")
        await smuggle_and_open(pilot, app, screen, "w", "contraband")
        state = state_of(screen)
        ring = state.ring
        a, b = [v for v in state.voters if v != ring][:2]
        plan: dict[str, str | None] = dict.fromkeys(state.voters)
        plan[a], plan[b] = b, a  # 1 against 1; everyone else (the ring too) abstains
        await enter_ballot(pilot, app, screen, plan)
        ballot = state_of(screen).ballot
        assert ballot is not None and ballot.result == "tie"
        status = text_of(screen, ".vote-status")
        assert "Tie at 1" in status and "revote" in status
        bindings = screen.active_bindings
        assert bindings["r"].enabled and bindings["r"].binding.action == "revote"
        assert "v" not in bindings or not bindings["v"].enabled
        await press(pilot, app, "v")  # no one is accused: nothing happens
        assert state_of(screen).ballot.result == "tie"
        await press(pilot, app, "r")
        ballot = state_of(screen).ballot
        assert ballot is not None and ballot.number == 2 and ballot.casts == ()
        assert "ballot 1: tie at 1" in text_of(screen, ".vote-title")
        undercover = "p5"
        await enter_ballot(pilot, app, screen, everyone_for(screen, undercover, "p2"))
        await press(pilot, app, "v", "u")
        outcome = screen.session.outcome
        assert outcome is not None and outcome.termination == "undercover-caught"
        assert outcome.winners == ("p2", "p3", "p4", "p6")
        assert len(outcome.sides) == 6
        assert [b.result for b in state_of(screen).ballots] == ["tie", "accused"]
        assert "The Meowfia win!" in text_of(screen, "#mf-win")


async def test_undo_in_the_middle_of_a_ballot_restores_it(tmp_path):
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app)
        await press(pilot, app, "1")
        await smuggle_and_open(pilot, app, screen, "n", "contraband")
        await press(pilot, app, "3", "2", "2")  # p2 → p3, p3 → p2, p4 → p2
        ballot = state_of(screen).ballot
        assert ballot is not None and len(ballot.casts) == 3
        before = ballot.totals()
        await press(pilot, app, "ctrl+z")
        ballot = state_of(screen).ballot
        assert ballot is not None and [c.voter for c in ballot.casts] == ["p2", "p3"]
        assert ballot.totals()["p2"] == before["p2"] - 1
        grid = screen.query_one(VoteGrid)
        assert grid.current_voter() == "p4"
        table = screen.query_one(".vote-table", DataTable)
        assert table.get_cell_at((2, 3)).plain == "…"
        await press(pilot, app, "ctrl+y")
        ballot = state_of(screen).ballot
        assert ballot is not None and ballot.totals() == before
        await press(pilot, app, "backspace")  # cursor on p5, who has not voted
        assert len(state_of(screen).ballot.casts) == 3  # refused, nothing changed
        assert any("has not voted" in n for n in said(app))


async def test_refusals_show_a_message_and_change_nothing(tmp_path):
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app)
        await press(pilot, app, "1")
        await smuggle_and_open(pilot, app, screen, "n", "contraband")
        entries = len(screen.session.entries)
        await press(pilot, app, "1")  # p2 votes for the Sheriff
        assert any("cannot be voted for" in m for m in said(app))
        await press(pilot, app, "2")  # p2 votes for themself
        assert any("cannot vote for themself" in m for m in said(app))
        assert len(screen.session.entries) == entries


async def test_phase_timer_cue_and_manual_actions(tmp_path):
    clock = ManualClock()
    audio = FakeAudio()
    app = make_app(
        tmp_path / "db.sqlite3", lang="en", clock=clock, rng=random.Random(2), audio=audio
    )
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app, {"smuggling_seconds": 30})
        await press(pilot, app, "1", "t")
        assert screen.timer_left_ns() == 30_000_000_000
        clock.advance(10)
        await press(pilot, app, "t")  # pause at 20 s
        clock.advance(100)
        assert screen.timer_left_ns() == 20_000_000_000
        await press(pilot, app, "t")  # resume
        clock.advance(21)
        for _ in range(100):  # the ticker runs every 0.2 s of real time
            if audio.played:
                break
            await pilot.pause(0.1)
        assert screen.timer_left_ns() == 0
        assert audio.played and audio.played[-1].name == "end.wav"
        assert any("Time is up" in n for n in said(app))

        # Manual: move the rose marker to seat 4 with a reason.
        await press(pilot, app, "m", "o")
        assert isinstance(app.screen, KeyChoiceDialog)
        await press(pilot, app, "4")
        for ch in "ability":
            await pilot.press(ch)
        await press(pilot, app, "enter")
        assert state_of(screen).rose == "p4"
        assert state_of(screen).adjustments[-1].reason == "ability"
        # Manual: correct the smuggles counter to 2.
        await press(pilot, app, "m", "c", "s", "2")
        for ch in "missed":
            await pilot.press(ch)
        await press(pilot, app, "enter")
        assert state_of(screen).smuggles == 2
        # A weight change outside a ballot is refused before anything is typed.
        await press(pilot, app, "m", "w")
        assert app.screen is screen
        assert any("open ballot" in n for n in said(app))
        # Capital letters answer a one-key dialog too.
        await press(pilot, app, "m", "G", "3")
        for ch in "role":
            await pilot.press(ch)
        await press(pilot, app, "enter")
        assert state_of(screen).message == "p3"
        # A new phase stops the timer.
        await press(pilot, app, "d")
        assert screen.timer_left_ns() is None


async def test_the_screen_speaks_chinese(tmp_path):
    app = make_app(tmp_path / "db.sqlite3", lang="zh", clock=ManualClock(), rng=random.Random(3))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app)
        assert "准备" in text_of(screen, "#mf-banner")
        await press(pilot, app, "1")
        assert "偷渡" in text_of(screen, "#mf-banner")
        assert "警长闭上眼睛" in text_of(screen, "#mf-prompt")
        assert "走私成功" in text_of(screen, "#mf-tracks")
        await press(pilot, app, "d")
        assert "审查" in text_of(screen, "#mf-banner")
        await press(pilot, app, "o", "e", "c")
        assert "清算" in text_of(screen, "#mf-banner")
        status = text_of(screen, ".vote-status")
        assert "已录入" in status
        await press(pilot, app, "1")
        assert any("警长" in n for n in said(app))
        await enter_ballot(pilot, app, screen, everyone_for(screen, "p3", "p2"))
        assert "被指认" in text_of(screen, ".vote-status")
        await press(pilot, app, "v")
        dialog = app.screen
        assert isinstance(dialog, KeyChoiceDialog)
        assert "翻开" in dialog.question
        assert [c.label for c in dialog.choices] == ["卧底", "喵喵咪呀成员"]
        await press(pilot, app, "u")
        assert "喵喵咪呀阵营获胜" in text_of(screen, "#mf-win")
        assert "获胜者：" in text_of(screen, "#outcome-banner")


async def test_keys_typed_before_a_commit_lands_keep_their_order(tmp_path, monkeypatch):
    """A slow disk: each commit takes a while; keys typed meanwhile are not lost."""
    import time as _time

    from companion.session.live import LiveSession

    slow_act = LiveSession.act

    def act(self, action):
        _time.sleep(0.15)  # on the writer thread, like a slow fsync
        return slow_act(self, action)

    monkeypatch.setattr(LiveSession, "act", act)
    app = make_app(tmp_path / "db.sqlite3", lang="en", clock=ManualClock(), rng=random.Random(5))
    async with app.run_test(size=SIZE) as pilot:
        screen = await start(pilot, app)
        await pilot.press("1", "d")  # "d" arrives while "start" is still being written
        await app.settle()
        await app.settle()
        assert state_of(screen).phase == "inspection"
        await press(pilot, app, "o", "n", "c")
        await pilot.press("3", "2", "2")  # three voters, typed one after another
        await app.settle()
        await app.settle()
        ballot = state_of(screen).ballot
        assert ballot is not None
        assert [(c.voter, c.target) for c in ballot.casts] == [
            ("p2", "p3"),
            ("p3", "p2"),
            ("p4", "p2"),
        ]
        assert screen.query_one(VoteGrid).current_voter() == "p5"
