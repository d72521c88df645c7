"""米宝马戏团 Meeple Circus screen: phases, the music countdown, the Tadaa order, scoring.

Design decisions:

* The screen renders the rules' state and never decides a rule: what a press means,
  the tokens, whose turn it is, all come from ``CircusState``; a refused action
  comes back as the rules' message.
* One timeline: the start of the music is stamped with the session clock when
  ``play()`` returns (on a worker thread, as ``play`` may wait for a previous
  stream to drain), and keyboard presses are stamped with the same clock the
  moment the key event is handled. The countdown is ``start + length − now``,
  recomputed on every tick; it never asks the audio backend whether it still plays.
* A keyboard press carries ``KEYBOARD_UNCERTAINTY_NS`` (±20 ms): a USB keyboard is
  polled every 8–10 ms, and the terminal and Textual's event loop add a few
  milliseconds more before the key is handled. Two keyboard presses closer than
  40 ms are therefore shown as too close to call, for the host to settle.
* One sound at a time (the audio backend's rule): while music plays, the music is
  the cue. The 10-second warning, the Tadaa chime and the tie alert sound only
  when no music plays (a plain countdown, or after the music stopped); the end cue
  sounds when the music ends or is stopped. A missing cue file is skipped.
* Button-box presses arrive through ``receive_press`` (the hardware layer calls it
  on the UI thread) and take the same path as keyboard presses. The performance
  view holds an empty container ``#mc-hardware`` where the hardware layer mounts
  its device-status line and photo-finish widget.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from companion.games.meeple_circus import panels as views
from companion.games.meeple_circus.dialogs import ScoreDialog
from companion.games.meeple_circus.rules.actions import (
    AbortPerformance,
    ChooseFirstPlayer,
    EndAct,
    EndPerformance,
    FinishPerformance,
    HostPick,
    Prepare,
    Press,
    ScorePlayer,
    SettlePress,
    SettleTie,
    StartPerformance,
    VoidPress,
)
from companion.games.meeple_circus.rules.state import SPEED_TOKEN_ACTS, CircusState
from companion.games.meeple_circus.rules.timing import Attempt
from companion.games.meeple_circus.tadaa_panel import TadaaPanel
from companion.i18n import N_, _
from companion.rules.base import RuleError
from companion.session.live import Change, LiveSession
from companion.widgets.countdown import Countdown, format_remaining
from companion.widgets.dialogs import ChoiceDialog, ConfirmDialog, PromptDialog
from companion.widgets.game_screen import GameScreen
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog

NS_PER_S = 1_000_000_000
KEYBOARD_UNCERTAINTY_NS = 20 * views.MS
"""Half-width of a keyboard press's time interval (see the module docstring)."""
TICK_S = 0.1
FALLBACK_LENGTH_S = 120
"""A plain countdown's length when no track can be read (the official tracks' ~2 min)."""
CHOICE_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"


@dataclass(frozen=True)
class Music:
    """What times a performance: a WAV file, or a plain countdown (``path`` None)."""

    title: str
    length_ns: int
    path: Path | None
    track_id: str
    note: str = ""
    """Why this was chosen when it is a fallback (shown on screen)."""
    cut_s: float | None = None
    """Play only this long (fading out): ``song.mp3 @ 2:00``; ``length_ns`` is the cut."""


def countdown_music(seconds: int, note: str = "") -> Music:
    return Music(
        _("Plain countdown {time}").format(time=format_remaining(seconds * NS_PER_S)),
        seconds * NS_PER_S,
        None,
        f"countdown:{seconds}",
        note,
    )


def music_from_setting(setting: str, act: int, performance: int = 0) -> Music:
    """The music an act's session option asks for, falling back to a countdown.

    With the default setting, act 3's performers take the act's built-in tracks in
    turn (each performs to their own track); acts 1–2 use the act's first track.
    """
    from companion.audio.choice import parse_music_choice
    from companion.audio.errors import AudioFileError
    from companion.audio.tracks import tracks_for_act

    try:
        choice = parse_music_choice(setting)
        if choice.kind == "file":
            return file_music(choice)
        if choice.kind == "countdown" and choice.length_s is not None:
            return countdown_music(round(choice.length_s))
        tracks = tracks_for_act(act)
        track = tracks[performance % len(tracks)]
    except (AudioFileError, OSError, ValueError, IndexError) as exc:
        note = _("Music unavailable ({problem}); plain countdown instead.").format(problem=exc)
        return countdown_music(FALLBACK_LENGTH_S, note)
    return Music(track.title, round(track.duration_s * NS_PER_S), track.path, track.id)


def check_options(options: Mapping[str, Any]) -> str | None:
    """The new-session form's check of the act music on this machine, or None if fine.

    The rules cannot look at files; ``companion.audio.choice`` refuses a missing or
    undecodable file, a countdown written another way and a cut longer than the song.
    """
    from companion.audio.choice import check_act_music
    from companion.audio.errors import AudioFileError

    try:
        check_act_music([str(options.get(f"music_act{n}") or "") for n in (1, 2, 3)])
    except AudioFileError as exc:
        return str(exc)
    return None


def file_music(choice: Any) -> Music:
    """The music of a checked file choice (``companion.audio.choice.MusicChoice``)."""
    assert choice.path is not None and choice.length_s is not None
    track_id = f"file:{choice.path}" + (f"@{choice.cut_s}" if choice.cut_s is not None else "")
    return Music(
        choice.title, round(choice.length_s * NS_PER_S), choice.path, track_id, cut_s=choice.cut_s
    )


class MeepleCircusScreen(GameScreen):
    """The host's view of a Meeple Circus game."""

    CSS_PATH = "screen.tcss"
    check_options = staticmethod(check_options)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "player_key(0)", N_("Player keys"), key_display="1-5"),
        *(
            Binding(key, f"player_key({i})", N_("Player keys"), show=False)
            for i, key in enumerate(views.PLAYER_KEYS[1:], start=1)
        ),
        Binding("r", "random_first", N_("Random first player")),
        Binding("p", "prepare", N_("Prepared")),
        Binding("s", "start", N_("Start music")),
        Binding("x", "stop_early", N_("Stop early")),
        Binding("a", "abort", N_("Abort")),
        Binding("v", "void", N_("Void a press")),
        Binding("t", "settle", N_("Settle")),
        Binding("m", "music", N_("Music")),
        Binding("f", "finish", N_("Finish performance")),
        Binding("e", "score_next", N_("Score")),
        Binding("h", "host_pick", N_("Host picks")),
        Binding("n", "next_act", N_("Next act")),
        Binding("B", "map_buttons", N_("Tadaa buttons")),
    ]

    PHASE_ACTIONS: ClassVar[dict[str, set[str]]] = {
        "first-player": {"random_first", "player_key"},
        "preparation": {"prepare", "player_key", "music"},
        "performance": {
            "start",
            "stop_early",
            "abort",
            "void",
            "settle",
            "music",
            "finish",
            "player_key",
        },
        "evaluation": {"score_next", "player_key"},
        "end": {"next_act", "host_pick", "player_key"},
        "over": set(),
    }

    def __init__(self, session: LiveSession) -> None:
        super().__init__(session)
        self._music_cache: dict[tuple[int, int], Music] = {}
        self._audio_key: tuple[int, int, int] | None = None
        """The attempt our music plays for: (act, performance index, attempt index)."""
        self._starting = False
        self._end_inflight = False
        # Every audio call runs here, one after the other: a cue can never start
        # after (and so cut off) music that the host started later, and the UI
        # thread never waits for a device.
        self._audio_jobs = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mc-audio")
        self._warned: tuple[int, int, int] | None = None
        self._tie_alerted: tuple[str, ...] = ()

    # ------------------------------------------------------------------ layout

    def compose_game(self) -> ComposeResult:
        yield Static("", id="mc-banner", classes="phase-banner")
        with Horizontal(id="mc-main"):
            yield Static("", id="mc-players")
            with VerticalScroll(id="mc-phase"):
                yield Static("", id="mc-first", classes="mc-pane")
                yield Static("", id="mc-prep", classes="mc-pane")
                with Vertical(id="mc-performance", classes="mc-pane"):
                    yield Static("", id="mc-order")
                    yield Countdown(id="mc-countdown")
                    yield Static("", id="mc-track")
                    with Vertical(id="mc-hardware"):
                        yield TadaaPanel(
                            self.session,
                            self.receive_press,
                            performance=lambda: self.circus.performance,
                            speed_tokens=lambda: self.circus.act_number in SPEED_TOKEN_ACTS,
                        )
                    yield Static("", id="mc-tadaa")
                    yield Static("", id="mc-undecided")
                yield Static("", id="mc-evaluation", classes="mc-pane")
                yield Static("", id="mc-end", classes="mc-pane")
                yield Static("", id="mc-final", classes="mc-pane")
        yield Static("", id="mc-hint", classes="hint")

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(TICK_S, self.tick)

    def on_unmount(self) -> None:
        self._stop_music()
        self._audio_jobs.shutdown(wait=False)

    def action_leave(self) -> None:
        self._stop_music()
        super().action_leave()

    @property
    def circus(self) -> CircusState:
        state: CircusState = self.session.state
        return state

    @property
    def audio(self) -> Any:
        return self.companion.audio

    def clock_ns(self) -> int:
        return self.session.clock.monotonic_ns()

    # ------------------------------------------------------------------ bindings

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show (and allow) only the keys that mean something in this phase."""
        if not any(action in actions for actions in self.PHASE_ACTIONS.values()):
            return True  # undo, redo, home, the hardware panel's keys…
        state = self.circus
        if action not in self.PHASE_ACTIONS.get(state.phase, set()):
            return False
        if action == "player_key":
            index = parameters[0] if parameters else 0
            if not isinstance(index, int) or index >= len(state.players):
                return False
            if state.phase == "end":
                return state.pending_pick is not None
        if action == "host_pick":
            return state.pending_pick is not None
        return True

    # ------------------------------------------------------------------ rendering

    def refresh_view(self) -> None:
        state = self.circus
        self.refresh_bindings()
        self._render_banner(state)
        self.query_one("#mc-players", Static).update(views.players_table(state))
        pane = {
            "first-player": "mc-first",
            "preparation": "mc-prep",
            "performance": "mc-performance",
            "evaluation": "mc-evaluation",
            "end": "mc-end",
            "over": "mc-final",
        }[state.phase]
        for widget in self.query(".mc-pane"):
            widget.display = widget.id == pane
        # Evaluation, end and standings show every player themselves.
        self.query_one("#mc-players", Static).display = state.phase in (
            "first-player",
            "preparation",
            "performance",
        )
        if state.phase == "first-player":
            self.query_one("#mc-first", Static).update(views.first_view(state))
        elif state.phase == "preparation":
            self.query_one("#mc-prep", Static).update(views.prep_view(state))
        elif state.phase == "performance":
            self._render_performance(state)
        elif state.phase == "evaluation":
            self.query_one("#mc-evaluation", Static).update(views.evaluation_view(state))
        elif state.phase == "end":
            self.query_one("#mc-end", Static).update(views.end_view(state))
        else:
            self.query_one("#mc-final", Static).update(
                views.final_view(state, self.session.outcome)
            )
        self.query_one("#mc-hint", Static).update(views.hint(state))
        self._reconcile_audio()
        self.tick()

    def _render_banner(self, state: CircusState) -> None:
        if state.phase == "over":
            text = _(views.PHASE_NAMES["over"])
        else:
            act = state.act_number
            text = _("Act {n} · {name} · {phase}").format(
                n=act, name=_(views.ACT_NAMES[act]), phase=_(views.PHASE_NAMES[state.phase])
            )
            if state.act is not None:
                first = self.session.player(state.act.first_player).name
                text += "  ·  " + _("first player: {name}").format(name=first)
            if act == 3 and state.fun_technical:
                text += "  ·  " + _("with Fun and Technical challenges")
        self.query_one("#mc-banner", Static).update(text)

    # ------------------------------------------------------------------ performance view

    def current_music(self) -> Music:
        state = self.circus
        act = state.act_number
        index = max(0, len(state.act.performances) - 1) if state.act else 0
        key = (act, index if act == 3 else 0)
        music = self._music_cache.get(key)
        if music is None:
            music = music_from_setting(state.music[act - 1], act, key[1])
            self._music_cache[key] = music
        return music

    def _render_performance(self, state: CircusState) -> None:
        perf = state.performance
        assert perf is not None
        order = Text()
        if state.act_number == 3:
            act = state.act
            assert act is not None
            order.append(_("Performance order: "), style="bold")
            for i, pid in enumerate(state.performance_order()):
                if i:
                    order.append("  ·  ")
                name = self.session.player(pid).name
                if i < len(act.performances) - 1:
                    order.append(f"✓ {name}", style="dim")
                elif i == len(act.performances) - 1:
                    order.append(f"▶ {name}", style="bold reverse")
                else:
                    order.append(name)
        else:
            order.append(
                _("Everyone builds at once; the first two Tadaa! take the 2 and 1 speed tokens.")
            )
        self.query_one("#mc-order", Static).update(order)
        self.query_one("#mc-track", Static).update(self._track_line(perf.current))
        verdict = state.verdict()
        assert verdict is not None
        self.query_one("#mc-tadaa", Static).update(
            views.tadaa_table(state, verdict, state.act_number in SPEED_TOKEN_ACTS)
        )
        self.query_one("#mc-undecided", Static).update(views.undecided_text(state))

    def _track_line(self, attempt: Attempt | None) -> Text:
        line = Text()
        if attempt is not None:
            titles = {m.track_id: m.title for m in self._music_cache.values()}
            title = titles.get(attempt.track or "", attempt.track or "")
            if title.startswith("countdown:"):
                title = _("plain countdown")
            length = format_remaining(attempt.length_ns)
        else:
            music = self.current_music()
            title, length = music.title, format_remaining(music.length_ns)
        line.append(
            "♪ " + _("Music: {title} ({length})").format(title=title, length=length), style="bold"
        )
        audio = self.audio
        if getattr(audio, "available", False):
            line.append("  ·  " + _("sound: {name}").format(name=audio.name))
            latency = getattr(audio, "latency_s", None)
            if isinstance(latency, float):
                line.append(", " + _("output latency ≤ {ms} ms").format(ms=round(latency * 1000)))
        else:
            reason = getattr(audio, "reason", "") or _("no sound")
            line.append("  ·  " + _("silent: {reason}").format(reason=reason), style="yellow")
        music = self.current_music()
        if attempt is None and music.note:
            line.append("\n" + music.note, style="yellow")
        return line

    # ------------------------------------------------------------------ other views

    # ------------------------------------------------------------------ clock and sound

    def _attempt_key(self) -> tuple[int, int, int] | None:
        state = self.circus
        perf = state.performance
        if perf is None or perf.current is None or state.act is None:
            return None
        return (state.act_number, len(state.act.performances) - 1, len(perf.attempts) - 1)

    def tick(self) -> None:
        """Recompute the countdown from the clock; end the music when its time is up."""
        state = self.circus
        countdown = self.query_one("#mc-countdown", Countdown)
        perf = state.performance
        if perf is None:
            return
        attempt = perf.current
        if attempt is None:
            countdown.show(self.current_music().length_ns, "idle")
            return
        now = self.clock_ns()
        key = self._attempt_key()
        if attempt.running:
            remaining = attempt.scheduled_end_ns - now
            countdown.show(remaining, "running")
            if (
                countdown.warning
                and self._warned != key
                and self._audio_key is None
                and not self._starting
            ):
                self._warned = key
                self.play_cue("warning")
            if remaining <= 0 and not self._end_inflight:
                self._end_inflight = True

                def sent(_future: Future[Change]) -> None:
                    self._end_inflight = False

                self._submit_then(EndPerformance(now), sent)
        else:
            countdown.show(attempt.scheduled_end_ns - attempt.end_ns, "ended")

    def _reconcile_audio(self) -> None:
        """Stop our music when the attempt it plays for is no longer running (undo too)."""
        if self._audio_key is None or self._starting:
            return
        perf = self.circus.performance
        running = perf is not None and perf.current is not None and perf.current.running
        if not running or self._attempt_key() != self._audio_key:
            self._stop_music()

    def _audio_do(self, job: Callable[[], None]) -> Future[None]:
        """Run an audio call on the screen's audio thread, in order."""
        return self._audio_jobs.submit(job)

    async def audio_settled(self) -> None:
        """Wait until every queued audio call has run (tests)."""
        await asyncio.wrap_future(self._audio_do(lambda: None))

    def play_cue(self, name: str) -> None:
        """Play a short cue if no music plays; a missing cue file is skipped."""
        if self._audio_key is not None or self._starting:
            return
        from companion.audio.errors import AudioFileError
        from companion.audio.tracks import cue

        audio = self.audio
        path = cue(name)

        def job() -> None:
            with contextlib.suppress(AudioFileError, OSError, ValueError):
                audio.play(path)

        self._audio_do(job)

    def on_committed(self, change: Change) -> None:
        kind = change.entry.payload.get("type") if change.entry.kind == "action" else None
        state: CircusState = change.state
        if kind in ("end-performance", "abort-performance"):
            self._stop_music()
            if kind == "end-performance":
                self.play_cue("end")
        elif kind == "press":
            perf = state.performance
            attempt = perf.current if perf is not None else None
            verdict = state.verdict()
            last = verdict.presses[-1] if verdict and verdict.presses else None
            if (
                attempt is not None
                and attempt.end_reason == "tadaa"
                and attempt.stop_ns == change.entry.payload.get("host_ns")
            ):
                self._stop_music()
                self.play_cue("tadaa")
            elif last is not None and last.status == "counted":
                self.play_cue("tadaa")
        verdict = state.verdict()
        ties = tuple(u for u in (verdict.undecided if verdict else ()) if u.startswith("tie"))
        if ties and ties != self._tie_alerted:
            self._tie_alerted = ties
            self.play_cue("tie")

    def _stop_music(self) -> None:
        if self._audio_key is not None:
            self._audio_key = None
            self._audio_do(self.audio.stop)

    def _submit_then(self, action: Any, after: Callable[[Future[Change]], None]) -> None:
        """``submit``, with ``after`` run on the UI thread once the writer answered."""

        def done(future: Future[Change]) -> None:
            after(future)
            self._committed(future)

        self.companion.write(lambda: self.session.act(action), done)

    def action_map_buttons(self) -> None:
        self.query_one(TadaaPanel).open_mapping()

    # ------------------------------------------------------------------ presses

    def receive_press(self, press: Press) -> None:
        """A Tadaa! press from any source (keyboard or button box), on the UI thread.

        Outside a performance a keyboard press is refused with the rules' message;
        a button-box press is ignored here (the hardware log keeps it).
        """
        if self.circus.phase != "performance" and press.source == "button-box":
            return
        self.submit(press)

    def action_player_key(self, index: int) -> None:
        # Stamp first: nothing may delay the time of a press.
        stamp = self.clock_ns()
        state = self.circus
        if index >= len(state.players):
            return
        pid = state.players[index].id
        phase = state.phase
        if phase == "performance":
            self.receive_press(Press(pid, stamp, KEYBOARD_UNCERTAINTY_NS, "keyboard"))
        elif phase == "first-player":
            self.submit(ChooseFirstPlayer(pid))
        elif phase == "preparation":
            self.submit(Prepare(pid))
        elif phase == "evaluation":
            self.open_score(pid)
        elif phase == "end" and state.pending_pick is not None:
            self.submit(HostPick(pid))

    # ------------------------------------------------------------------ phase actions

    def action_random_first(self) -> None:
        pid = self.session.rng.choice(self.circus.player_ids())
        self.submit(ChooseFirstPlayer(pid, random=True))

    def action_prepare(self) -> None:
        due = self.circus.next_to_prepare()
        if due is not None:
            self.submit(Prepare(due))

    def _dry_run(self, action: Any) -> bool:
        """Would the rules accept ``action`` now? Shows their message if not."""
        try:
            self.session.game.apply(self.circus, action)
        except RuleError as err:
            self.notify(err.render(_), severity="error", title=_("Not allowed"))
            return False
        return True

    def action_start(self) -> None:
        if self._starting:
            return
        music = self.current_music()
        if not self._dry_run(StartPerformance(self.clock_ns(), music.length_ns, music.track_id)):
            return
        if music.path is None:
            self.play_cue("start")
            self._starting = True
            self._submit_start(self.clock_ns(), music)
            return
        self._starting = True
        path = music.path
        audio = self.audio
        app = self.app

        def play() -> None:
            error: str | None = None
            try:
                if music.cut_s is None:
                    audio.play(path)
                else:
                    audio.play(path, cut_s=music.cut_s)
            except Exception as exc:  # a bad file: the countdown still runs
                error = str(exc)
            # The music's time starts when play() returns (playback has started).
            started = self.clock_ns()
            app.call_from_thread(self._submit_start, started, music, error)

        self._audio_do(play)

    def _submit_start(self, started_ns: int, music: Music, error: str | None = None) -> None:
        action = StartPerformance(started_ns, music.length_ns, music.track_id)
        if error:
            self.notify(
                _("The music could not play ({problem}); the countdown runs.").format(
                    problem=error
                ),
                severity="warning",
            )

        def after(future: Future[Change]) -> None:
            self._starting = False
            if music.path is None or error:
                return
            if future.exception() is None:
                self._audio_key = self._attempt_key()
            else:
                self._audio_do(self.audio.stop)

        self._submit_then(action, after)

    def action_stop_early(self) -> None:
        self.submit(EndPerformance(self.clock_ns()))

    def action_abort(self) -> None:
        stamp = self.clock_ns()
        perf = self.circus.performance
        if perf is None or perf.current is None:
            self.notify(
                _("No performance has started, so there is nothing to abort."), severity="warning"
            )
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.submit(AbortPerformance(stamp, "host"))

        self.app.push_screen(
            ConfirmDialog(
                _("Abort this performance? Its presses are discarded and it starts again with s.")
            ),
            done,
        )

    def action_void(self) -> None:
        verdict = self.circus.verdict()
        if verdict is None:
            return
        choices = [
            KeyChoice(
                CHOICE_KEYS[i],
                str(j.index),
                _("#{n} {name} at {time} ({status})").format(
                    n=j.index + 1,
                    name=self.session.player(j.press.player).name,
                    time=views.format_elapsed(j.elapsed_ns) if j.elapsed_ns is not None else "—",
                    status=_(views.STATUS_LABELS[j.status]),
                ),
            )
            for i, j in enumerate(verdict.presses[-len(CHOICE_KEYS) :])
            if j.status not in ("voided", "discarded")
        ]
        if not choices:
            self.notify(_("There is no press to void."), severity="warning")
            return

        def done(choice: str | None) -> None:
            if choice is not None:
                self.submit(VoidPress(int(choice)))

        self.app.push_screen(KeyChoiceDialog(_("Void which press?"), choices), done)

    def action_settle(self) -> None:
        verdict = self.circus.verdict()
        if verdict is None or not verdict.undecided:
            self.notify(_("Nothing to settle."), severity="information")
            return
        item = verdict.undecided[0]
        kind, _sep, what = item.partition(":")
        if kind == "press":
            j = verdict.presses[int(what)]
            name = self.session.player(j.press.player).name
            edge = _("start") if j.status == "uncertain-start" else _("end")
            question = _(
                "Press #{n} by {name} was within {unc} of the music's {edge}. Did it count?"
            ).format(
                n=j.index + 1, name=name, unc=views.format_ms(j.press.uncertainty_ns), edge=edge
            )
            choices = [
                KeyChoice("y", "yes", _("yes: inside the music")),
                KeyChoice(
                    "n", "no", _("no: false start") if edge == _("start") else _("no: too late")
                ),
            ]

            def done(choice: str | None) -> None:
                if choice is not None:
                    self.submit(SettlePress(j.index, counted=choice == "yes"))

            self.app.push_screen(KeyChoiceDialog(question, choices), done)
            return
        self._settle_tie(tuple(what.split(",")), ())

    def _settle_tie(self, remaining: tuple[str, ...], chosen: tuple[str, ...]) -> None:
        if len(remaining) == 1:
            self.submit(SettleTie((*chosen, *remaining)))
            return
        choices = [
            KeyChoice(CHOICE_KEYS[i], pid, self.session.player(pid).name)
            for i, pid in enumerate(remaining)
        ]

        def done(choice: str | None) -> None:
            if choice is not None:
                rest = tuple(p for p in remaining if p != choice)
                self._settle_tie(rest, (*chosen, choice))

        question = _("Too close to call: who was first?") if not chosen else _("And next?")
        self.app.push_screen(KeyChoiceDialog(question, choices), done)

    def action_finish(self) -> None:
        self.submit(FinishPerformance())

    def action_music(self) -> None:
        """Pick what times the next performance: a built-in track, a music file, a countdown."""
        from companion.audio.tracks import tracks_for_act

        state = self.circus
        act = state.act_number
        choices: list[tuple[str, str]] = []
        with contextlib.suppress(OSError, ValueError):
            for track in tracks_for_act(act):
                length = format_remaining(round(track.duration_s * NS_PER_S))
                choices.append((f"track:{track.id}", f"♪ {track.title} ({length})"))
        choices.append(("file", _("Another music file…")))
        choices.append(("countdown", _("A plain countdown…")))
        key = (act, max(0, len(state.act.performances) - 1) if act == 3 and state.act else 0)

        def set_music(music: Music) -> None:
            self._music_cache[key] = music
            self.refresh_view()

        def chosen(choice: str | None) -> None:
            if choice is None:
                return
            if choice.startswith("track:"):
                from companion.audio.tracks import track

                t = track(choice.removeprefix("track:"))
                set_music(Music(t.title, round(t.duration_s * NS_PER_S), t.path, t.id))
            elif choice == "file":
                self._ask_file(set_music)
            else:
                self._ask_countdown(set_music)

        self.app.push_screen(ChoiceDialog(_("Music for this performance"), choices), chosen)

    def _ask_file(self, set_music: Any) -> None:
        from companion.audio.choice import parse_music_file
        from companion.audio.errors import AudioFileError

        def check(text: str) -> str | None:
            try:
                parse_music_file(text)
            except AudioFileError as exc:
                return str(exc)
            return None

        def done(text: str | None) -> None:
            if text:
                set_music(file_music(parse_music_file(text)))

        self.app.push_screen(
            PromptDialog(
                _("Music file (MP3, FLAC, OGG or WAV); “@ 2:00” after it cuts the song"),
                check=check,
                placeholder="~/music/circus.mp3 @ 2:00",
            ),
            done,
        )

    def _ask_countdown(self, set_music: Any) -> None:
        from companion.audio.choice import parse_music_choice
        from companion.audio.errors import AudioFileError

        def check(text: str) -> str | None:
            try:
                parse_music_choice(f"countdown:{text.strip()}")
            except AudioFileError as exc:
                return str(exc)
            return None

        def done(text: str | None) -> None:
            if text:
                set_music(countdown_music(int(text.strip())))

        self.app.push_screen(
            PromptDialog(_("Countdown length in seconds"), value="120", check=check), done
        )

    # ------------------------------------------------------------------ evaluation

    def action_score_next(self) -> None:
        unscored = self.circus.unscored()
        if unscored:
            self.open_score(unscored[0])

    def open_score(self, pid: str) -> None:
        state = self.circus
        act = state.act
        if state.phase != "evaluation" or act is None:
            return
        if act.score_of(pid) is not None:
            self.notify(
                _("{name} is already scored in act {act}; undo to change it.").format(
                    name=self.session.player(pid).name, act=act.number
                ),
                severity="warning",
            )
            return

        def validate(action: ScorePlayer) -> str | None:
            try:
                self.session.game.apply(self.circus, action)
            except RuleError as err:
                return err.render(_)
            return None

        def done(action: ScorePlayer | None) -> None:
            if action is not None:
                self.submit(action)

        speed = act.token_of(pid) if act.number in SPEED_TOKEN_ACTS else 0
        self.app.push_screen(
            ScoreDialog(
                pid, self.session.player(pid).name, act.number, speed, state.totals()[pid], validate
            ),
            done,
        )

    # ------------------------------------------------------------------ end of act

    def action_host_pick(self) -> None:
        pending = self.circus.pending_pick
        if pending is None:
            self.notify(_("There is no tie for the host to break now."), severity="information")
            return
        choices = [
            KeyChoice(CHOICE_KEYS[i], pid, self.session.player(pid).name)
            for i, pid in enumerate(pending.candidates)
        ]

        def done(choice: str | None) -> None:
            if choice is not None:
                self.submit(HostPick(choice))

        self.app.push_screen(KeyChoiceDialog(_("Who becomes the first player?"), choices), done)

    def action_next_act(self) -> None:
        self.submit(EndAct())


SCREEN = MeepleCircusScreen
