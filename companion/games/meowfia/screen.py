"""喵喵咪呀 Meowfia screen: phase and round, the two tracks, the buildings, the
questioning order, the narration with its timer, the vote grid, reveals, the win.

Design decisions:

* Thin: everything on screen comes from the view-model (``view.host_view``), the same
  one the board renders; the panels are drawn by ``panels.py`` and the ballot by
  ``vote_grid.py``. The screen maps keys to action types (``ACTION_TYPES``): the base
  enables a key from the guide's ``allowed`` and shows its ``why_not`` in the message
  line when the key does nothing now.
* Players are picked by **seat number** everywhere (``1``…``9``, ``0`` for seat 10):
  the number is printed beside every name on the screen, so one key answers any "who?".
* Nothing random or timed is decided here: the preparer draws round 1's first
  questioned player and stamps the timer's commands, on the writer thread, so every
  draw and every timer press is an entry before the screen shows it.
* The phase timer is in the log; this screen only ticks it. When it runs out the
  message line says "Time is up!", the terminal bell rings, the ``end`` cue plays where
  sound works — and the banner keeps saying it until the phase ends (it is a fact of
  the state, not a toast).
* The smuggling narration step (``space``) is the one thing that is not in the log:
  it is a reading aid for the host, and a restarted app starts the narration again
  at step 1.
"""

from __future__ import annotations

from typing import Any, ClassVar, cast

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Static

from companion.games.meowfia import panels, prepare
from companion.games.meowfia.dialogs import ask_building, ask_player, ask_tile, manual_action
from companion.games.meowfia.guide import BUILDING_NAMES
from companion.games.meowfia.rules import (
    Abstain,
    Identify,
    Inspect,
    MeowfiaState,
    Question,
    Retract,
    Reveal,
    Revote,
    SmugglingDone,
    Vote,
)
from companion.games.meowfia.rules.actions import Building, InspectionResult
from companion.games.meowfia.view import (
    HostView,
    banner,
    host_view,
    seats,
    timer_view,
)
from companion.games.meowfia.vote_grid import VoteGrid, name_seat_keys
from companion.i18n import N_, _
from companion.rules.base import Action, RuleError
from companion.session.live import Change
from companion.widgets.game_screen import GameScreen
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog
from companion.widgets.shown import Shown

COMPACT_HEIGHT = 34
"""Below this many rows the compass and the narration's step list fold away."""


class MeowfiaScreen(GameScreen):
    CSS_PATH = "screen.tcss"
    AUTO_FOCUS = None  # the vote grid takes focus only while a ballot is shown
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "seat('1')", N_("Sheriff: seat number"), key_display="1–0"),
        *[Binding(k, f"seat('{k}')", "", show=False) for k in "234567890"],
        Binding("space", "next_prompt", N_("Next prompt")),
        Binding("d", "smuggling_done", N_("Placement done")),
        Binding("q", "question", N_("Questioned")),
        Binding("c", "claim", N_("Questioned + claim")),
        Binding("o", "open_building", N_("Open building")),
        Binding("r", "revote", N_("Revote")),
        Binding("v", "reveal", N_("Turn the tile")),
        Binding("t", "timer", N_("Timer")),
        Binding("m", "manual", N_("Manual")),
        Binding("u", "identify", N_("Who was the Undercover")),
    ]
    ACTION_TYPES: ClassVar[dict[str, tuple[str, ...]]] = {
        "seat": ("start",),
        "next_prompt": ("smuggling-done",),
        "smuggling_done": ("smuggling-done",),
        "question": ("question",),
        "claim": ("question",),
        "open_building": ("inspect",),
        "revote": ("revote",),
        "reveal": ("reveal",),
        "timer": ("timer",),
        "manual": ("move-marker", "set-weight", "reveal-tile", "set-counter"),
        "identify": ("identify",),
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The footer names as many seat keys as there are seats ("1–7" at seven; "1–0"
        # showed ten whatever the table, issue 22).
        name_seat_keys(self, "seat('1')", len(self.session.players))
        self.prompt_step = 0
        self._seen: tuple[int, str] | None = None
        self._timer_status: str | None = None
        self._ticker: Timer | None = None

    # ------------------------------------------------------------------ layout

    def compose_game(self) -> ComposeResult:
        yield Shown("", id="mf-banner", classes="phase-banner")
        with Horizontal(id="mf-top"):
            yield Shown("", id="mf-tracks")
            yield Shown("", id="mf-buildings")
            yield Shown("", id="mf-seats")
        yield Shown("", id="mf-status")
        yield Shown("", id="mf-order")
        with Vertical(id="mf-narration"):
            yield Shown("", id="mf-prompt")
            yield Shown("", id="mf-steps")
        yield VoteGrid(len(self.session.players), id="mf-grid")
        yield Shown("", id="mf-win", classes="hidden")

    @property
    def mf(self) -> MeowfiaState:
        state: MeowfiaState = self.session.state
        return state

    def view(self) -> HostView:
        """What this screen shows now (the view-model, at the session's clock)."""
        return host_view(self.mf, self.session.clock.monotonic_ns())

    def on_mount(self) -> None:
        self._ticker = self.set_interval(0.2, self._tick, pause=True)
        super().on_mount()

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        self.set_class(event.size.height < COMPACT_HEIGHT, "-short")

    # ------------------------------------------------------------------ rendering

    def refresh_view(self) -> None:
        state = self.mf
        seen = (state.round_number, state.phase)
        if seen != self._seen:
            self._seen = seen  # a new phase: the narration from its first step
            self.prompt_step = 0
        host = self.view()
        view = host.table
        phase = view.banner.phase
        self._render_banner()
        self.query_one("#mf-tracks", Static).update(panels.tracks(view))
        self.query_one("#mf-buildings", Static).update(panels.buildings(view.questioning))
        self.query_one("#mf-seats", Static).update(panels.seats(view))
        self.query_one("#mf-status", Static).update(panels.status_line(view))
        self.query_one("#mf-order", Static).update(panels.order(view.questioning))
        # The reckoning gives the vote grid the room: three widgets shown or hidden
        # directly (a screen class, ``-reckoning``, restyled every node of the screen at
        # each ballot opened or undone: ~115 style applications for one change).
        reckoning = phase == "reckoning"
        self.query_one("#mf-top").display = not reckoning
        self.query_one("#mf-order").display = not reckoning
        self.query_one("#mf-status").display = reckoning
        now, steps = panels.narration(view, self.prompt_step)
        self.query_one("#mf-prompt", Static).update(now)
        self.query_one("#mf-steps", Static).update(steps or "")
        self.query_one("#mf-steps", Static).set_class(steps is None, "-none")
        self.query_one("#mf-narration", Vertical).display = phase in ("smuggling", "inspection")
        self._render_grid(host)
        win = panels.win(view.win)
        box = self.query_one("#mf-win", Static)
        box.set_class(win is None, "hidden")
        if view.win is not None and win is not None:
            box.update(win)
            box.set_class(view.win.side == "police", "police")
        self._timer_status = view.timer.status if view.timer else None
        if self._ticker is not None:
            if view.timer is not None and view.timer.status == "running":
                self._ticker.resume()
            else:
                self._ticker.pause()

    def _render_banner(self) -> None:
        state = self.mf
        timer = timer_view(state, self.session.clock.monotonic_ns())
        name = self.session.info.name(self.companion.lang)
        self.query_one("#mf-banner", Static).update(panels.banner(banner(state), name, timer))

    def _render_grid(self, host: HostView) -> None:
        grid = self.query_one(VoteGrid)
        tally = host.table.tally
        if tally is None:
            grid.display = False
            if self.focused is not None and grid in self.focused.ancestors:
                self.set_focus(None)
            return
        grid.display = True
        by_key = {seat.key: pid for pid, seat in seats(self.mf).items()}
        grid.show(tally, host.voters, by_key)
        if self.app.screen is self:
            grid.focus_table()

    # ------------------------------------------------------------------ the timer

    def timer_left_ns(self) -> int | None:
        """Nanoseconds left on the phase timer, or None when it is not set."""
        timer = self.mf.timer
        return None if timer is None else timer.remaining_ns(self.session.clock.monotonic_ns())

    def _tick(self) -> None:
        before = self._timer_status
        timer = timer_view(self.mf, self.session.clock.monotonic_ns())
        self._timer_status = timer.status if timer else None
        self._render_banner()
        if before == "running" and self._timer_status == "up":
            if self._ticker is not None:
                self._ticker.pause()
            self.time_up()

    def time_up(self) -> None:
        """The phase timer ran out: the message line, the terminal bell, the end cue."""
        self.say(_("Time is up!"))
        self.app.bell()
        companion = self.companion

        def play_cue() -> None:
            # In a thread: the first use opens the audio device, which can take a moment.
            try:
                from companion.audio.tracks import cue  # deferred: only when a timer ends

                companion.audio.play(cue("end"))
            except Exception:  # no sound is never an error at the table
                return

        self.run_worker(play_cue, thread=True, group="cue")

    def action_timer(self) -> None:
        session = self.session
        self.submit(lambda: prepare.timer(session.state, session.clock.monotonic_ns()))

    # ------------------------------------------------------------------ the flow

    def action_seat(self, key: str) -> None:
        by_key = {seat.key: pid for pid, seat in seats(self.mf).items()}
        sheriff = by_key.get(key)
        if sheriff is None:
            self.say(_("There is no seat {key} at this table.").format(key=key), error=True)
            return
        session = self.session
        self.submit(lambda: prepare.start(session.state, sheriff, session.rng))

    def action_next_prompt(self) -> None:
        if self.prompt_step < len(panels.SMUGGLING_STEPS) - 1:
            self.prompt_step += 1
            self.refresh_view()
        else:
            self.submit(SmugglingDone())

    def action_smuggling_done(self) -> None:
        self.submit(SmugglingDone())

    def action_question(self) -> None:
        current = self.mf.current_round
        if current is not None and current.next_to_question is not None:
            self.submit(Question(current.next_to_question))

    @work(group="dialog")
    async def action_claim(self) -> None:
        current = self.mf.current_round
        pid = current.next_to_question if current is not None else None
        if pid is None:
            return
        label = seats(self.mf)[pid].label
        question = _("Which building does {name} claim?").format(name=label)
        building = await ask_building(self, question)
        if building is not None:
            self.submit(Question(pid, cast(Building, building)))

    @work(group="dialog")
    async def action_open_building(self) -> None:
        # Before the questioning is done the dialog first asks whether to open now
        # (GUIDE.confirm); choosing a building is the yes, escape the no. A separate
        # yes/no dialog would turn the host's habitual "o n c" into "no" and a claim.
        guide = self.guide
        early = guide.confirm(self.mf, "inspect") if guide is not None else None
        which = _("Which building does the Sheriff open?")
        question = which if early is None else early.render(_) + "\n" + which
        building = await ask_building(self, question)
        if building is None:
            return
        found = await self.ask(
            KeyChoiceDialog(
                _("What was inside the {building} building?").format(
                    building=_(BUILDING_NAMES[building])
                ),
                [
                    KeyChoice(
                        "c",
                        "contraband",
                        _("the real contraband (an intercept; a reckoning follows)"),
                    ),
                    KeyChoice("e", "empty", _("an empty box (a smuggle)")),
                ],
            )
        )
        if found is not None:
            self.submit(Inspect(cast(Building, building), cast(InspectionResult, found)))

    def on_vote_grid_cast(self, event: VoteGrid.Cast) -> None:
        event.stop()
        action: Action = (
            Abstain(event.voter) if event.target is None else Vote(event.voter, event.target)
        )
        grid = self.query_one(VoteGrid)
        voter = event.voter

        def act() -> Change:
            try:
                return self.session.act(action)
            except RuleError:
                # The grid moved on when the key was pressed: bring it back to this voter.
                self.app.call_from_thread(grid.refused, voter)
                raise

        self.companion.write(act, self._committed)

    def on_vote_grid_withdraw(self, event: VoteGrid.Withdraw) -> None:
        event.stop()
        self.submit(Retract(event.voter))

    def on_vote_grid_refused(self, event: VoteGrid.Refused) -> None:
        event.stop()
        self.say(_("There is no seat {key} at this table.").format(key=event.key), error=True)

    def action_revote(self) -> None:
        self.submit(Revote())

    @work(group="dialog")
    async def action_reveal(self) -> None:
        ballot = self.mf.ballot
        accused = ballot.accused if ballot is not None else None
        if accused is None:
            return
        label = seats(self.mf)[accused].label
        question = _("Turn {name}'s tile. What does it show?").format(name=label)
        answer = await ask_tile(self, question, label)
        if answer is not None:
            self.submit(Reveal(accused, *answer))

    @work(group="dialog")
    async def action_identify(self) -> None:
        pid = await ask_player(self, _("Who was the Undercover?"), self.mf.hidden)
        if pid:
            self.submit(Identify(pid))

    @work(group="dialog")
    async def action_manual(self) -> None:
        action = await manual_action(self)
        if action is not None:
            self.submit(action)


SCREEN = MeowfiaScreen
