"""The host's music pick (``m``) is a log entry: ``choose-music``.

It used to live in the screen only, so a kill (or leaving and resuming) played the
act's option again. Now the state says what times the performance that plays next;
the pick is refused, with the reason and nothing changed, when its form is wrong
(the rules) or when this machine cannot play it (``prepare.music_choice``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mc_helpers import MS, SECOND, TRACK, Table, key
from mc_ui_helpers import FakeAudio, write_wav
from mc_ui_helpers import Table as Screen
from textual.widgets import Static

from companion.games.meeple_circus import prepare
from companion.games.meeple_circus.guide import GUIDE
from companion.games.meeple_circus.music import MusicShelf
from companion.games.meeple_circus.rules import GAME
from companion.games.meeple_circus.rules.actions import (
    ChooseFirstPlayer,
    ChooseMusic,
    EndPerformance,
    FinishPerformance,
    ScorePlayer,
    StartPerformance,
)
from companion.i18n import _, set_language
from companion.rules.base import BadActionError, IllegalActionError, RuleError, action_to_json
from companion.session.clock import ManualClock
from companion.ui.app import make_app


def test_a_pick_in_preparation_times_the_acts_performance() -> None:
    t = Table.of("Ann", "Bo", music_act1="countdown:30")
    t.do(ChooseFirstPlayer("p1"))
    assert t.state.music_setting() == "countdown:30"
    t.do(ChooseMusic("countdown:45"))
    assert t.state.music_setting() == "countdown:45"
    t.prepare_all()
    assert t.state.phase == "performance" and t.state.music_setting() == "countdown:45"
    t.do(ChooseMusic("track:jugglers-galop"))  # the last pick wins
    assert t.state.music_setting() == "track:jugglers-galop"
    assert t.state.act.music_choices == ((0, "track:jugglers-galop"),)


def test_a_pick_is_kept_per_act_and_per_act_3_performer() -> None:
    t = Table.of("Ann", "Bo", music_act2="countdown:60")
    t.do(ChooseFirstPlayer("p1"))
    t.do(ChooseMusic("countdown:45"))
    t.prepare_all()
    t.rehearsal(key("p1", 10 * SECOND), key("p2", 11 * SECOND))
    t.score_all({})
    t.end_act()
    assert t.state.act_number == 2 and t.state.music_setting() == "countdown:60"
    t.prepare_all()
    t.rehearsal(key("p1", 10 * SECOND), key("p2", 11 * SECOND))
    t.score_all({})
    t.end_act()
    t.prepare_all()
    first, second = t.state.performance_order()
    t.do(ChooseMusic("countdown:20"))
    assert t.state.performer == first and t.state.music_setting() == "countdown:20"
    t.do(StartPerformance(0, TRACK, "countdown:20"), EndPerformance(TRACK), FinishPerformance())
    assert t.state.performer == second
    assert t.state.music_setting() == ""  # the second performer: the act's option again


@pytest.mark.parametrize(
    ("music", "message"),
    [
        ("", "Choose a track, a music file or a countdown."),
        ("   ", "Choose a track, a music file or a countdown."),
        ("countdown:5", "A countdown lasts 15 to 900 whole seconds, not '5'."),
        ("countdown:two", "A countdown lasts 15 to 900 whole seconds, not 'two'."),
        ("track:", "A built-in track is written track:ID, not 'track:'."),
    ],
)
def test_a_malformed_pick_is_refused_and_changes_nothing(music: str, message: str) -> None:
    t = Table.of("Ann", "Bo")
    t.do(ChooseFirstPlayer("p1"))
    before = t.state
    with pytest.raises(BadActionError) as err:
        GAME.apply(before, ChooseMusic(music))
    assert err.value.render() == message
    assert t.state == before


def test_a_pick_outside_preparation_and_performance_is_refused() -> None:
    t = Table.of("Ann", "Bo")
    assert ChooseMusic.type not in GUIDE.allowed(t.state)
    with pytest.raises(IllegalActionError):
        GAME.apply(t.state, ChooseMusic("countdown:30"))  # no act yet
    t.start_game()
    t.rehearsal(key("p1", 10 * SECOND), key("p2", 11 * SECOND))
    assert t.state.phase == "evaluation"
    assert ChooseMusic.type not in GUIDE.allowed(t.state)
    assert "preparation or performance" in GUIDE.why_not(t.state, ChooseMusic.type).render()
    with pytest.raises(IllegalActionError):
        GAME.apply(t.state, ChooseMusic("countdown:30"))
    t.do(ScorePlayer("p1"), ScorePlayer("p2"))
    assert ChooseMusic.type not in GUIDE.allowed(t.state)


def test_the_pick_round_trips_through_json() -> None:
    action = ChooseMusic("~/music/circus.mp3 @ 2:00")
    data = action_to_json(action)
    assert data == {"type": "choose-music", "music": "~/music/circus.mp3 @ 2:00"}
    assert GAME.parse_action(json.loads(json.dumps(data))) == action


@pytest.mark.parametrize(
    ("lang", "act1", "act3"),
    [
        (
            "en",
            "The host picks the music for act 1: a plain countdown of 0:45.",
            "The host picks the music for Bo's show: circus song.mp3 @ 2:00.",
        ),
        (
            "zh",
            "主持人为第 1 幕选择音乐：普通倒计时 0:45。",
            "主持人为 Bo 的表演选择音乐：circus song.mp3 @ 2:00。",
        ),
    ],
)
def test_the_log_sentence_in_both_languages(lang: str, act1: str, act3: str) -> None:
    set_language(lang)
    try:
        t = Table.of("Ann", "Bo")
        t.do(ChooseFirstPlayer("p1"))
        before = t.state
        t.do(ChooseMusic("countdown:45"))
        assert GUIDE.describe(ChooseMusic("countdown:45"), before, t.state).render(_) == act1
        t.state = _act_3_preparation(t)
        pick = ChooseMusic("/music/circus song.mp3 @ 2:00")
        before = t.state
        t.do(pick)
        assert t.state.performance_order()[0] == "p2"
        assert GUIDE.describe(pick, before, t.state).render(_) == act3
        track = ChooseMusic("track:grand-finale")
        assert "grand-finale" in GUIDE.describe(track, before, t.do(track)).render(_)
    finally:
        set_language("en")


def _act_3_preparation(t: Table):  # type: ignore[no-untyped-def]
    """Act 3 with Bo performing first (the fewest points)."""
    t.prepare_all()
    t.rehearsal(key("p1", 10 * SECOND), key("p2", 11 * SECOND))
    t.score_all({"p1": 5})
    t.end_act()
    t.prepare_all()
    t.rehearsal(key("p1", 10 * SECOND), key("p2", 10 * SECOND + 500 * MS))
    t.score_all({"p1": 5})
    t.end_act()
    assert t.state.act_number == 3 and t.state.phase == "preparation"
    return t.state


def test_the_preparer_refuses_music_this_machine_cannot_play(tmp_path: Path, sounds: Path) -> None:
    song = tmp_path / "song.wav"
    write_wav(song, 20)
    assert prepare.music_choice(f"  {song}  ") == ChooseMusic(str(song))
    assert prepare.music_choice("track:grand-finale") == ChooseMusic("track:grand-finale")
    for bad, message in [
        (str(tmp_path / "nope.mp3"), "does not exist"),
        (f"{song} @ 0:30", "lasts only 0:20"),
        ("track:no-such-track", "There is no built-in track 'no-such-track'."),
        ("countdown:5", "15 to 900"),
    ]:
        with pytest.raises(RuleError) as err:
            prepare.music_choice(bad)
        assert message in err.value.render(), bad


def test_the_shelf_reads_the_pick_the_state_holds(sounds: Path) -> None:
    t = Table.of("Ann", "Bo", music_act1="countdown:30")
    t.do(ChooseFirstPlayer("p1"))
    shelf = MusicShelf()
    assert shelf.next_for(t.state).length_ns == 30 * SECOND
    t.do(ChooseMusic("track:jugglers-galop"))
    music = shelf.next_for(t.state)
    assert (music.track_id, music.length_ns) == ("jugglers-galop", 45 * SECOND)
    t.do(ChooseMusic("countdown:45"))
    assert shelf.next_for(t.state).track_id == "countdown:45"


async def test_a_refused_pick_says_why_and_writes_nothing(tmp_path: Path, sounds: Path) -> None:
    """The screen's path for a pick (checked on the writer thread), and ``m`` out of phase."""
    clock = ManualClock()
    app = make_app(tmp_path / "mc.sqlite3", lang="en", clock=clock, audio=FakeAudio())
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        app.start_session("meeple-circus", ["Ann", "Bo"], {"music_act1": "countdown:30"})
        await app.settle()
        t = Screen(app, pilot, clock, app.audio)
        await t.keys("1", "p")
        entries = list(t.screen.session.entries)
        missing = tmp_path / "gone.mp3"  # chosen, then deleted before the pick was saved
        t.screen.submit(lambda: prepare.music_choice(str(missing)))
        await app.settle()
        line = str(t.screen.query_one("#message-line", Static).render())
        assert "does not exist" in line
        assert list(t.screen.session.entries) == entries
        assert t.screen.current_music().track_id == "countdown:30"  # still the act's option
        t.screen.submit(lambda: prepare.music_choice("countdown:45"))
        await app.settle()
        assert t.state.music_setting() == "countdown:45"
        await t.keys("p")
        assert t.countdown.text == "0:45"
        await t.start_music()
        await t.later(46)
        await t.keys("f")
        assert t.state.phase == "evaluation"
        entries = list(t.screen.session.entries)
        await t.keys("m")  # out of phase: the guide's reason, no dialog
        assert t.screen is app.screen
        line = str(t.screen.query_one("#message-line", Static).render())
        assert "in its act's preparation or performance" in line
        assert list(t.screen.session.entries) == entries
