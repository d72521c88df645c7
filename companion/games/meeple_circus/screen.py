"""米宝马戏团 Meeple Circus screen: phases, the music countdown, the Tadaa order, scoring.

Design decisions:

* The screen renders the rules' state and never decides a rule: what a press means,
  the tokens, whose turn it is, all come from ``CircusState``; which keys work now
  comes from the guide (``ACTION_TYPES``), and a refused key shows the guide's reason
  in the message line. What the board shows too comes from ``view.py``.
* One timeline: the start of the music is stamped with the session clock when
  ``play()`` returns (on the audio thread, as ``play`` may wait for a previous
  stream to drain), and keyboard presses are stamped with the same clock at the
  moment the key arrived (the key event's own time: a key of a burst waits for the
  one before it to land, and that wait is no part of the press). The countdown is
  ``start + length − now``, recomputed on every tick; it never asks the audio
  backend whether it still plays.
* A keyboard press carries ``KEYBOARD_UNCERTAINTY_NS`` (±20 ms): a USB keyboard is
  polled every 8–10 ms, and the terminal and Textual's event loop add a few
  milliseconds more before the key is handled. Two keyboard presses closer than
  40 ms are therefore shown as too close to call, for the host to settle.
* Sound (``music.SoundDesk``): the 10-second warning, the Tadaa chime and the tie
  alert sound only when no music plays; the end cue when the music ends or stops.
* What plays next is the state's (``music_setting``: the act's option, or the host's
  ``m`` pick, logged as ``choose-music``); ``music.MusicShelf`` reads it once.
* Button-box presses arrive through ``receive_press`` (the Tadaa panel calls it on
  the UI thread) and take the same path as keyboard presses.
* The act's evaluation is reviewed before its last save closes it (``evaluation.py``);
  a player's evaluation is corrected with ``correct-score``, not by undoing everyone
  scored after them.
"""

from __future__ import annotations

from collections.abc import Mapping
from concurrent.futures import Future
from typing import Any, ClassVar, cast

from textual import events, work
from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from companion.games.meeple_circus import decisions, evaluation, prepare, view
from companion.games.meeple_circus import panels as views
from companion.games.meeple_circus.music import Music, MusicShelf, SoundDesk, ask_music
from companion.games.meeple_circus.rules.actions import (
    ChooseFirstPlayer,
    EndAct,
    EndPerformance,
    FinishPerformance,
    HostPick,
    Prepare,
    Press,
    StartPerformance,
)
from companion.games.meeple_circus.rules.game import already_recorded, press_identity
from companion.games.meeple_circus.rules.state import SPEED_TOKEN_ACTS, CircusState
from companion.games.meeple_circus.tadaa_panel import TadaaPanel
from companion.games.meeple_circus.units import NS_PER_MS
from companion.i18n import N_, _
from companion.session.live import Change, LiveSession
from companion.widgets.countdown import Countdown, CountdownMode
from companion.widgets.game_screen import GameScreen
from companion.widgets.shown import Shown

KEYBOARD_UNCERTAINTY_NS = 20 * NS_PER_MS
"""Half-width of a keyboard press's time interval (see the module docstring)."""
TICK_S = 0.1
SHORT_SCREEN = 36
"""Below this many lines the countdown box shrinks to its digits (see ``on_resize``)."""
PANES = {
    "first-player": "mc-first",
    "preparation": "mc-prep",
    "performance": "mc-performance",
    "evaluation": "mc-evaluation",
    "end": "mc-end",
    "over": "mc-final",
}


class MeepleCircusScreen(GameScreen):
    """The host's view of a Meeple Circus game."""

    CSS_PATH = "screen.tcss"
    # The keys that move a performance on (s, f) come first: the footer shows them
    # even at 100 columns; ? lists every key of the phase.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "player_key(0)", N_("Player keys"), key_display="1-5"),
        *(
            Binding(key, f"player_key({i})", N_("Player keys"), show=False)
            for i, key in enumerate(views.PLAYER_KEYS[1:], start=1)
        ),
        Binding("s", "start", N_("Start music")),
        Binding("f", "finish", N_("Finish")),
        Binding("o", "tadaa_order", N_("Tadaa! order")),
        Binding("x", "stop_early", N_("Stop early")),
        Binding("a", "abort", N_("Abort")),
        Binding("t", "settle", N_("Settle")),
        Binding("v", "void", N_("Void a press")),
        Binding("r", "random_first", N_("Random first player")),
        Binding("p", "prepare", N_("Prepared")),
        Binding("e", "score_next", N_("Score")),
        Binding("c", "correct", N_("Correct a score")),
        Binding("h", "host_pick", N_("Host picks")),
        Binding("n", "next_act", N_("Next act")),
        Binding("m", "music", N_("Music")),
        Binding("B", "map_buttons", N_("Tadaa buttons")),
        Binding("P", "phones", N_("Phones")),
    ]
    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "player_key": ("choose-first-player", "prepare", "press", "score", "host-pick"),
        "random_first": ("choose-first-player",),
        "prepare": ("prepare",),
        "start": ("start-performance",),
        "stop_early": ("end-performance",),
        "abort": ("abort-performance",),
        "void": ("void-press",),
        "settle": ("settle-press", "settle-tie"),
        "finish": ("finish-performance",),
        "score_next": ("score",),
        "correct": ("correct-score",),
        "host_pick": ("host-pick",),
        "next_act": ("end-act",),
        "music": ("choose-music",),
    }

    def __init__(self, session: LiveSession) -> None:
        super().__init__(session)
        self.shelf = MusicShelf()
        self.sound = SoundDesk(lambda: self.companion.audio)
        self._end_inflight = False
        self._ready = False
        self.order_view = False
        """``o``: the performance pane shows the photo finish and the Tadaa! order
        across the whole width (at 80x24 they were below the fold, issue 22)."""

    # ------------------------------------------------------------------ layout

    def compose_game(self) -> ComposeResult:
        yield Shown("", id="mc-banner", classes="phase-banner")
        with Horizontal(id="mc-main"):
            yield Shown("", id="mc-players")
            with VerticalScroll(id="mc-phase"):
                yield Shown("", id="mc-first", classes="mc-pane")
                yield Shown("", id="mc-prep", classes="mc-pane")
                with Vertical(id="mc-performance", classes="mc-pane"):
                    yield Shown("", id="mc-order")
                    yield Countdown(id="mc-countdown")
                    yield Shown("", id="mc-track")
                    with Vertical(id="mc-hardware"):
                        yield TadaaPanel(
                            self.session,
                            self.receive_press,
                            performance=lambda: self.circus.performance,
                            speed_tokens=lambda: self.circus.act_number in SPEED_TOKEN_ACTS,
                        )
                    yield Shown("", id="mc-tadaa")
                    yield Shown("", id="mc-undecided")
                yield Shown("", id="mc-evaluation", classes="mc-pane")
                yield Shown("", id="mc-end", classes="mc-pane")
                yield Shown("", id="mc-final", classes="mc-pane")
        yield Shown("", id="mc-hint", classes="hint")

    def on_mount(self) -> None:
        super().on_mount()
        self.set_interval(TICK_S, self.tick)

    def on_resize(self, event: events.Resize) -> None:
        """On a short terminal (80x24) the countdown keeps one line of digits, so the
        music line (and why it is silent) and the Tadaa! order stay on screen below it;
        taller terminals give it room to grow."""
        self.set_class(event.size.height < SHORT_SCREEN, "-short")

    def on_unmount(self) -> None:
        self.sound.close()

    def action_leave(self) -> None:
        self.sound.stop()
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

    async def audio_settled(self) -> None:
        """Wait until every queued audio call has run (tests)."""
        await self.sound.settled()

    def is_phase_key(self, active: ActiveBinding) -> bool:
        """``o`` is listed with the keys of the performance (at 80 columns the footer
        keeps only those)."""
        return active.binding.action == "tadaa_order" or super().is_phase_key(active)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "player_key":
            index = parameters[0] if parameters else 0
            if not isinstance(index, int) or index >= len(self.circus.players):
                return False
        if action == "tadaa_order":
            return self.circus.phase == "performance"
        # Hidden, not dimmed: at 80x24 and 100x30 the footer then holds the keys that
        # work now (1-5, s or f…). A hidden key pressed still says why (the app asks
        # the guide before Textual's check), and ? lists every key with its reason.
        return super().check_action(action, parameters) or False

    # ------------------------------------------------------------------ rendering

    def _composed(self) -> bool:
        """Every pane is mounted. Under load the panes inside ``#mc-phase`` can mount
        after the screen's own Mount event (the full suite hit NoMatches here)."""
        if not self._ready:
            self._ready = len(self.query(".mc-pane")) == len(PANES) and bool(self.query(TadaaPanel))
        return self._ready

    def refresh_view(self) -> None:
        if not self._composed():
            self.call_after_refresh(self._refresh_all)
            return
        state = self.circus
        self.query_one("#mc-banner", Static).update(views.banner_text(state))
        self.query_one("#mc-players", Static).update(views.players_table(state))
        for widget in self.query(".mc-pane"):
            widget.display = widget.id == PANES[state.phase]
        # Evaluation, end and standings show every player themselves; the Tadaa! order
        # (o) takes the players' column too.
        order_view = self.order_view and state.phase == "performance"
        self.query_one("#mc-players", Static).display = not order_view and state.phase in (
            "first-player",
            "preparation",
            "performance",
        )
        for part in ("#mc-order", "#mc-countdown", "#mc-track"):
            self.query_one(part).display = not order_view
        if state.phase == "performance":
            self._render_performance(state)
        else:
            pane = views.phase_pane(state, self.session.outcome)
            self.query_one(f"#{PANES[state.phase]}", Static).update(pane)
        self.query_one("#mc-hint", Static).update(views.hint(state))
        self.sound.reconcile(state)
        self.tick()

    def current_music(self) -> Music:
        """What times the performance that plays next (see ``MusicShelf``)."""
        return self.shelf.next_for(self.circus)

    def _render_performance(self, state: CircusState) -> None:
        self.query_one("#mc-order", Static).update(views.performance_order(state))
        perf = state.performance
        attempt = perf.current if perf is not None else None
        line = views.track_line(self.current_music(), attempt, self.shelf.titles(), self.audio)
        self.query_one("#mc-track", Static).update(line)
        self.query_one("#mc-tadaa", Static).update(
            views.tadaa_table(state, state.act_number in SPEED_TOKEN_ACTS)
        )
        self.query_one("#mc-undecided", Static).update(views.undecided_text(state))
        # The photo finish shows a press the moment it is committed (its own timer
        # only keeps the device status fresh).
        self.query_one(TadaaPanel).refresh_panel()

    # ------------------------------------------------------------------ clock and sound

    def attempt_key(self) -> tuple[int, int, int] | None:
        return view.attempt_key(self.circus)

    def tick(self) -> None:
        """Recompute the countdown from the clock; end the music when its time is up."""
        state = self.circus
        perf = state.performance
        if perf is None or not self.is_attached or not self._composed():
            return
        now = self.clock_ns()
        clock = view.clock_view(state, now, self.current_music().length_ns)
        countdown = self.query_one("#mc-countdown", Countdown)
        countdown.show(clock.remaining_ns or 0, cast(CountdownMode, clock.mode))
        countdown.set_title(_(clock.label) if clock.label else "")
        attempt = perf.current
        if attempt is None or not attempt.running:
            return
        if countdown.warning:
            self.sound.warn(self.attempt_key())
        if attempt.scheduled_end_ns - now <= 0 and not self._end_inflight:
            self._end_inflight = True

            def sent(_future: Future[Change]) -> None:
                self._end_inflight = False

            self.submit(EndPerformance(now), then=sent)

    def on_committed(self, change: Change) -> None:
        self.sound.after(change)

    def action_tadaa_order(self) -> None:
        """Show the photo finish and the Tadaa! order across the screen (the countdown,
        the music line and the players give way); ``o`` again brings them back."""
        self.order_view = not self.order_view
        self.refresh_view()
        if self.order_view:
            hardware = self.query_one("#mc-hardware")
            self.call_after_refresh(
                self.query_one("#mc-phase").scroll_to_widget, hardware, top=True, animate=False
            )

    def action_map_buttons(self) -> None:
        self.query_one(TadaaPanel).open_mapping()

    def action_phones(self) -> None:
        self.query_one(TadaaPanel).open_phones()

    # ------------------------------------------------------------------ presses and picks

    def receive_press(self, press: Press) -> None:
        """A Tadaa! press from any source (keyboard, button box, phone), on the UI thread.

        Outside a performance a keyboard press is refused with the rules' message;
        a button-box or phone press is ignored here (the hardware log keeps it).
        """
        if self.circus.phase != "performance" and press.source != "keyboard":
            return
        if press_identity(press) is None:
            self.submit(press)
            return
        # A device's press can arrive twice (the hub's message, and the panel's
        # redelivery of its raw log entry after a restart): the copy is dropped
        # where commits are ordered, on the writer thread, and says nothing.
        session = self.session

        def commit() -> Change | None:
            perf = getattr(session.state, "performance", None)
            if perf is not None and already_recorded(perf, press):
                return None
            return session.act(press)

        def done(future: Future[Change | None]) -> None:
            if future.exception() is None and future.result() is None:
                return
            self._committed(cast("Future[Change]", future))

        self.companion.write(commit, done)

    def press_stamp_ns(self) -> int:
        """When the key that asks for this press arrived, on the session's clock.

        The app delivers a typed key only once the one before it has landed (its
        commit saved and shown), so a key of a burst is handled late: its press is
        stamped with the key's own arrival (``typed_key_arrival_ns``), not the moment it
        is handled. Keys typed together then lie within each other's uncertainty."""
        arrival = getattr(self.app, "typed_key_arrival_ns", lambda: None)()
        return self.clock_ns() if arrival is None else int(arrival)

    def action_player_key(self, index: int) -> None:
        # Stamp first: nothing may delay the time of a press.
        stamp = self.press_stamp_ns()
        state = self.circus
        pid = state.players[index].id
        if state.phase == "performance":
            self.receive_press(Press(pid, stamp, KEYBOARD_UNCERTAINTY_NS, "keyboard"))
        elif state.phase == "first-player":
            self.submit(ChooseFirstPlayer(pid))
        elif state.phase == "preparation":
            self.submit(Prepare(pid))
        elif state.phase == "evaluation":
            self.open_score(pid)
        elif state.phase == "end":
            self.submit(HostPick(pid))

    def action_random_first(self) -> None:
        session = self.session
        self.submit(lambda: prepare.random_first_player(session.rng, session.state))

    def action_prepare(self) -> None:
        due = self.circus.next_to_prepare()
        if due is not None:
            self.submit(Prepare(due))

    # ------------------------------------------------------------------ performance

    def action_start(self) -> None:
        if self.sound.starting:
            return
        music = self.current_music()

        def started(started_ns: int, error: str | None) -> None:
            self._submit_start(started_ns, music, error)

        self.sound.start(music, self.clock_ns, started, self.app.call_from_thread)

    def _submit_start(self, started_ns: int, music: Music, error: str | None = None) -> None:
        if error:
            self.say(
                _("The music could not play ({problem}); the countdown runs.").format(problem=error)
            )

        def after(future: Future[Change]) -> None:
            self.sound.started(music, error, future.exception() is None, self.attempt_key())

        self.submit(StartPerformance(started_ns, music.length_ns, music.track_id), then=after)

    def action_stop_early(self) -> None:
        self.submit(EndPerformance(self.clock_ns()))

    def _ask(self, chain: Any) -> None:
        """Run one dialog chain at a time (a second key waits for the first to end)."""
        self.run_worker(chain, group="mc-dialog", exclusive=True)

    def action_abort(self) -> None:
        self._ask(decisions.abort(self))

    def action_void(self) -> None:
        self._ask(decisions.void(self))

    def action_settle(self) -> None:
        self._ask(decisions.settle(self))

    def action_host_pick(self) -> None:
        self._ask(decisions.host_pick(self))

    def action_finish(self) -> None:
        self.submit(FinishPerformance())

    @work(exclusive=True, group="mc-dialog")
    async def action_music(self) -> None:
        """Pick what times the next performance: a built-in track, a music file, a countdown.

        The pick is checked on the writer thread and logged (``choose-music``)."""
        music = await ask_music(self.ask, self.circus.act_number)
        if music is not None:
            self.submit(lambda: prepare.music_choice(music))

    # ------------------------------------------------------------------ evaluation and end

    def action_score_next(self) -> None:
        unscored = self.circus.unscored()
        if unscored:
            self.open_score(unscored[0])

    def open_score(self, pid: str) -> None:
        """The player's evaluation form (a correction if they are scored already)."""
        self._ask(evaluation.score(self, pid))

    def action_correct(self) -> None:
        self._ask(evaluation.correct(self))

    def action_next_act(self) -> None:
        self.submit(EndAct())


SCREEN = MeepleCircusScreen
