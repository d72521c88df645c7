"""喵喵咪呀 Meowfia screen: phase and round, the two tracks, the buildings, the
questioning order, the narration with its timer, the vote grid, reveals, the win.

Design decisions:

* Thin: every number on screen (totals, weights, who leads, who is questioned
  next, who holds the ring) is read from the rules' state; the screen only formats.
* Players are picked by **seat number** everywhere (``1``…``9``, ``0`` for seat 10):
  the number is printed beside every name, so one key answers any "who?".
* The first questioned player of round 1 is drawn here with ``session.rng`` and
  travels inside the ``start`` action, so the log replays the same way forever.
* Keys are hidden from the footer when their action makes no sense in the
  current phase (``check_action``), so the footer is the list of what can be done.
* The phase timer is optional (``t``); it runs on the session clock, and its end
  plays the ``end`` cue where sound works (silently skipped where it does not).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any, ClassVar, cast

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.timer import Timer
from textual.widgets import Digits, Static

from companion.games.meowfia.rules import (
    BUILDINGS,
    Abstain,
    Ballot,
    Identify,
    Inspect,
    MeowfiaState,
    MoveMarker,
    Question,
    Retract,
    Reveal,
    RevealTile,
    Revote,
    SetCounter,
    SetWeight,
    SmugglingDone,
    Start,
    Vote,
    format_weight,
)
from companion.games.meowfia.rules.actions import Building, Counter, InspectionResult, Marker, Tile
from companion.games.meowfia.vote_grid import CandidateTotal, GridView, VoteGrid, VoterRow
from companion.i18n import N_, _
from companion.rules.base import Action, RuleError
from companion.session.live import Change
from companion.widgets.dialogs import PromptDialog
from companion.widgets.game_screen import GameScreen
from companion.widgets.key_choice import KeyChoice, KeyChoiceDialog, seat_key

PHASE_NAMES = {
    "setup": N_("Setup"),
    "smuggling": N_("Smuggling"),
    "inspection": N_("Inspection"),
    "reckoning": N_("Reckoning"),
    "over": N_("Game over"),
}
BUILDING_NAMES = {"N": N_("North"), "E": N_("East"), "S": N_("South"), "W": N_("West")}
SIDE_NAMES = {"police": N_("Police"), "meowfia": N_("Meowfia")}
"""Actions offered only in some phases (hidden from the footer otherwise)."""

# The smuggling phase as the rules text words it (偷渡), one prompt per step.
SMUGGLING_STEPS = (
    N_("Sheriff, close your eyes."),
    N_("Everyone else, the Undercover included, agree on this round's smuggling plan."),
    N_("Choose 1 of the 5 contraband tokens as this round's real contraband."),
    N_(
        "Take the 3 empty boxes and share them out with the real contraband among the "
        "four buildings."
    ),
    N_("Each building takes exactly 1 token; all four buildings must hold one."),
    N_(
        "When all four buildings hold a token, end the discussion and tell the Sheriff to "
        "begin the inspection."
    ),
)
INSPECTION_PROMPT = N_(
    "Sheriff, open your eyes. Question the players in order: "
    "“Which building holds the real contraband?”"
)
RECKONING_PROMPT = N_(
    "Discussion: everyone but the Sheriff. Then all point at once; "
    "the ring holder's vote counts 1.5."
)


def seat_label(state: MeowfiaState, pid: str | None) -> str:
    """``"3 Cy"``: the seat key and the name (``-`` for nobody)."""
    if pid is None:
        return "-"
    for seat, player in enumerate(state.players, start=1):
        if player.id == pid:
            return f"{seat_key(seat)} {player.name}"
    return pid


def grid_view(state: MeowfiaState, ballot: Ballot) -> GridView:
    """What the vote grid shows for ``ballot`` (counts come from the rules)."""
    totals = ballot.totals()
    best = max(totals.values(), default=Fraction(0))
    leaders = set(ballot.leaders()) if any(totals.values()) or ballot.result != "open" else set()
    rows = []
    seat_of = {p.id: i for i, p in enumerate(state.players, start=1)}
    for voter in ballot.voters:
        cast = ballot.cast_of(voter)
        tile = state.revealed_tile(voter)
        revealed = ""
        if tile is not None:
            revealed = _("revealed: {role}").format(role=tile.role or _("Meowfia"))
        rows.append(
            VoterRow(
                voter=voter,
                seat=seat_of[voter],
                name=state.name(voter),
                weight=format_weight(ballot.weight(voter)),
                ring=voter == ballot.ring,
                entry="none" if cast is None else ("abstain" if cast.target is None else "vote"),
                target=None if cast is None else cast.target,
                target_label=seat_label(state, cast.target) if cast and cast.target else "",
                revealed=revealed,
            )
        )
    candidates = tuple(
        CandidateTotal(
            player=c,
            label=seat_label(state, c),
            total=format_weight(t),
            share=float(t / best) if best else 0.0,
            leader=c in leaders,
        )
        for c, t in totals.items()
    )
    title = _("Reckoning {k}, ballot {b}").format(k=ballot.reckoning, b=ballot.number)
    if ballot.number > 1:
        title += "  " + _("(revote)")
        earlier = [b for b in state.ballots_of(ballot.reckoning) if b.number == ballot.number - 1]
        if earlier and earlier[0].result == "tie":
            tie = earlier[0]
            title += "  ·  " + _("ballot {b}: tie at {total} between {names}").format(
                b=tie.number,
                total=format_weight(max(tie.totals().values(), default=Fraction(0))),
                names=", ".join(seat_label(state, p) for p in tie.tied),
            )
    entered = len(ballot.casts)
    if ballot.result == "tie":
        status = _(
            "Tie at {total} between {names}: no one is accused. Press r for a revote."
        ).format(
            total=format_weight(best), names=", ".join(seat_label(state, p) for p in ballot.tied)
        )
    elif ballot.result == "accused":
        status = _("{name} is accused with {total}. Press v to turn their tile.").format(
            name=seat_label(state, ballot.accused), total=format_weight(best)
        )
    else:
        status = _(
            "{entered} of {voters} entered. Cursor on a voter, then the seat key of "
            "their target; a: abstain; backspace: clear."
        ).format(entered=entered, voters=len(ballot.voters))
    seats = {seat_key(i): p.id for i, p in enumerate(state.players, start=1)}
    return GridView(
        title=title,
        rows=tuple(rows),
        totals=candidates,
        status=status,
        result=ballot.result,
        seats=seats,
    )


def track(label: str, count: int, style: str) -> Text:
    """A 3-slot track: ``Smuggles  ■ ■ □  1/3``."""
    text = Text(f"{label} ", style="bold")
    for slot in range(3):
        text.append("■ " if slot < count else "□ ", style=style if slot < count else "dim")
    text.append(f"{count}/3")
    return text


class MeowfiaScreen(GameScreen):
    CSS_PATH = "screen.tcss"
    AUTO_FOCUS = None  # the vote grid takes focus only while a ballot is shown
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "seat('1')", N_("Sheriff: seat 1–9, 0"), key_display="1–0"),
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

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.prompt_step = 0
        self._seen: tuple[int, str] | None = None
        self._timer_end_ns: int | None = None
        self._timer_left_ns: int | None = None
        self._ticker: Timer | None = None

    # ------------------------------------------------------------------ layout

    def compose_game(self) -> ComposeResult:
        yield Static("", id="mf-banner", classes="phase-banner")
        with Horizontal(id="mf-top"):
            yield Static("", id="mf-tracks")
            yield Static("", id="mf-buildings")
            yield Static("", id="mf-seats")
        yield Static("", id="mf-order")
        with Vertical(id="mf-narration"):
            with Horizontal(id="mf-prompt-row"):
                yield Static("", id="mf-prompt")
                yield Digits("", id="mf-timer")
            yield Static("", id="mf-steps")
        yield VoteGrid(id="mf-grid")
        yield Static("", id="mf-win", classes="hidden")
        yield Static("", id="mf-hint", classes="hint")

    @property
    def mf(self) -> MeowfiaState:
        state: MeowfiaState = self.session.state
        return state

    def on_mount(self) -> None:
        self._ticker = self.set_interval(0.2, self._tick, pause=True)
        super().on_mount()

    # ------------------------------------------------------------------ rendering

    def refresh_view(self) -> None:
        state = self.mf
        seen = (state.round_number, state.phase)
        if seen != self._seen:
            # A new phase: narration from its first step, and no timer left running.
            self._seen = seen
            self.prompt_step = 0
            self._stop_timer()
        self._render_banner(state)
        self.query_one("#mf-tracks", Static).update(self._tracks(state))
        self.query_one("#mf-buildings", Static).update(self._buildings(state))
        self.query_one("#mf-seats", Static).update(self._seats(state))
        self.query_one("#mf-order", Static).update(self._order(state))
        self._render_narration(state)
        self._render_grid(state)
        self._render_win(state)
        self.query_one("#mf-hint", Static).update(self._hint(state))
        self.refresh_bindings()

    def _render_banner(self, state: MeowfiaState) -> None:
        phase = _(PHASE_NAMES[state.phase])
        text = self.session.info.name(self.companion.lang)
        if state.round_number:
            text += "  ·  " + _("Round {n}").format(n=state.round_number)
        text += "  ·  " + phase
        if state.sheriff is not None:
            text += "  ·  " + _("Sheriff: {name}").format(name=seat_label(state, state.sheriff))
        self.query_one("#mf-banner", Static).update(text)

    def _tracks(self, state: MeowfiaState) -> Group:
        lines = [
            track(_("Smuggles"), state.smuggles, "bold red"),
            track(_("Intercepts"), state.intercepts, "bold blue"),
            Text(""),
            Text(_("Ring: {name}").format(name=seat_label(state, state.ring)), style="magenta"),
            Text(_("Message: {name}").format(name=seat_label(state, state.message))),
            Text(_("Rose: {name}").format(name=seat_label(state, state.rose))),
        ]
        return Group(*lines)

    def _buildings(self, state: MeowfiaState) -> Table:
        current = state.current_round
        claims: dict[str, int] = dict.fromkeys(BUILDINGS, 0)
        if current is not None:
            for q in current.questioned:
                if q.claim is not None:
                    claims[q.claim] += 1

        def cell(b: str) -> Text:
            text = Text(f"[{b}] " + _(BUILDING_NAMES[b]), style="bold")
            if current is not None and current.building == b:
                if current.result == "contraband":
                    text.append("\n" + _("contraband!"), style="bold white on blue")
                else:
                    text.append("\n" + _("empty box"), style="bold white on red")
            elif claims[b]:
                text.append("\n" + _("claimed {n}×").format(n=claims[b]), style="dim")
            else:
                text.append("\n")
            return text

        grid = Table.grid(padding=(0, 1))
        for _col in range(3):
            grid.add_column(justify="center", width=12)
        grid.add_row("", cell("N"), "")
        grid.add_row(cell("W"), Text("✛", style="dim", justify="center"), cell("E"))
        grid.add_row("", cell("S"), "")
        return grid

    def _seats(self, state: MeowfiaState) -> Table:
        table = Table.grid(padding=(0, 1))
        table.add_column(justify="right", no_wrap=True)
        table.add_column(no_wrap=True)
        table.add_column()
        for seat, player in enumerate(state.players, start=1):
            notes: list[Text] = []
            if player.id == state.sheriff:
                notes.append(Text(_("Sheriff"), style="bold blue"))
            tile = state.revealed_tile(player.id)
            if tile is not None and tile.tile == "meowfia":
                role = f" ({tile.role})" if tile.role else ""
                notes.append(Text(_("revealed: Meowfia") + role, style="green"))
            if player.id == state.undercover:
                notes.append(Text(_("Undercover"), style="bold blue"))
            for pid, label in (
                (state.ring, _("ring")),
                (state.message, _("message")),
                (state.rose, _("rose")),
            ):
                if pid == player.id:
                    notes.append(Text(label, style="magenta"))
            table.add_row(Text(seat_key(seat), style="bold"), player.name, Text(" · ").join(notes))
        return table

    def _order(self, state: MeowfiaState) -> Text:
        current = state.current_round
        if current is None:
            return Text(
                _(
                    "Press the seat number of the Sheriff. The first player to be "
                    "questioned is then drawn at random."
                ),
                style="bold",
            )
        text = Text(_("Questioning order: "), style="bold")
        done = {q.player for q in current.questioned}
        nxt = current.next_to_question if state.phase == "inspection" else None
        for index, pid in enumerate(current.order):
            if index:
                text.append(" → ", style="dim")
            label = seat_label(state, pid)
            if pid == nxt:
                text.append("▶ " + label + " " + _("(now)"), style="bold reverse")
            elif pid in done:
                text.append("✓ " + label, style="dim")
            else:
                text.append(label)
            if pid == current.last_questioned:
                text.append(" " + _("(last)"), style="bold magenta")
        if state.reckonings == 0 and state.phase in ("smuggling", "inspection"):
            text.append(
                "\n" + _("At the first reckoning the ring goes to the player questioned last."),
                style="dim",
            )
        return text

    def _render_narration(self, state: MeowfiaState) -> None:
        box = self.query_one("#mf-narration", Vertical)
        prompt = self.query_one("#mf-prompt", Static)
        steps = self.query_one("#mf-steps", Static)
        if state.phase == "smuggling":
            # The step to read out now, large; the whole sequence below it.
            step = self.prompt_step
            prompt.update(Text(f"{step + 1}/{len(SMUGGLING_STEPS)}  " + _(SMUGGLING_STEPS[step])))
            text = Text()
            for index, words in enumerate(SMUGGLING_STEPS):
                style = "bold" if index == step else ("dim" if index < step else "")
                mark = "▶" if index == step else ("✓" if index < step else " ")
                text.append(f"{mark} {index + 1}. " + _(words) + "\n", style=style)
            steps.update(text)
        elif state.phase == "inspection":
            prompt.update(Text(_(INSPECTION_PROMPT)))
        elif state.phase == "reckoning":
            prompt.update(Text(_(RECKONING_PROMPT)))
        steps.display = state.phase == "smuggling"
        box.display = state.phase in ("smuggling", "inspection", "reckoning")
        box.set_class(state.phase == "reckoning", "compact")
        self._render_timer()

    def _render_grid(self, state: MeowfiaState) -> None:
        grid = self.query_one(VoteGrid)
        ballot = state.ballot
        if ballot is None:
            grid.display = False
            if self.focused is not None and grid in self.focused.ancestors:
                self.set_focus(None)
            return
        grid.display = True
        grid.show(grid_view(state, ballot))
        if self.app.screen is self:
            grid.focus_table()

    def _render_win(self, state: MeowfiaState) -> None:
        box = self.query_one("#mf-win", Static)
        outcome = self.session.outcome
        if outcome is None or state.winning_side is None:
            box.add_class("hidden")
            return
        side = state.winning_side
        title = _("The Police win!") if side == "police" else _("The Meowfia win!")
        text = Text(title + "\n", style="bold")
        winners = ", ".join(seat_label(state, pid) for pid in outcome.winners) or "-"
        text.append(
            _("Winners ({side}): {names}").format(side=_(SIDE_NAMES[side]), names=winners) + "\n"
        )
        losers = [p.id for p in state.players if outcome.sides.get(p.id) not in (None, side)]
        if losers:
            text.append(
                _("Lose: {names}").format(names=", ".join(seat_label(state, pid) for pid in losers))
                + "\n"
            )
        if state.undercover is None:
            text.append(
                _("Press u to enter who was the Undercover, so every player's side is recorded."),
                style="bold",
            )
        box.update(text)
        box.set_class(side == "police", "police")
        box.remove_class("hidden")

    def _hint(self, state: MeowfiaState) -> str:
        hints = {
            "setup": _("1–9, 0: the Sheriff's seat."),
            "smuggling": _("space: next prompt · d: placement done · t: timer · m: manual"),
            "inspection": _(
                "q: next player questioned · c: with the building they claim · "
                "o: open a building · m: manual"
            ),
            "reckoning": _(
                "↑↓: voter · 1–9, 0: their target · a: abstain · backspace: clear · "
                "r: revote · v: turn the tile · t: timer · m: manual"
            ),
            "over": _("u: enter the Undercover · ctrl+z: undo"),
        }
        return hints[state.phase] + "  ·  " + _("ctrl+z: undo · escape: home")

    # ------------------------------------------------------------------ which keys apply

    def _allowed(self, action: str) -> bool:
        """Whether a gated action makes sense in the current state."""
        state = self.mf
        ballot = state.ballot
        allowed: dict[str, Callable[[], bool]] = {
            "seat": lambda: state.phase == "setup",
            "next_prompt": lambda: state.phase == "smuggling",
            "smuggling_done": lambda: state.phase == "smuggling",
            "question": lambda: state.phase == "inspection",
            "claim": lambda: state.phase == "inspection",
            "open_building": lambda: state.phase == "inspection",
            "revote": lambda: ballot is not None and ballot.result == "tie",
            "reveal": lambda: ballot is not None and ballot.result == "accused",
            "timer": lambda: state.phase in ("smuggling", "reckoning"),
            "manual": lambda: state.phase not in ("setup", "over"),
            "identify": lambda: state.phase == "over" and state.undercover is None,
        }
        check = allowed.get(action)
        return True if check is None else check()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self._allowed(action)

    def _if_allowed(self, action: str, run: Callable[[], None]) -> None:
        """Run a key's action if it applies now (keys typed during a commit are held
        by the app until it lands, so "now" is the state the host meant)."""
        if self._allowed(action):
            run()

    # ------------------------------------------------------------------ the flow

    def action_seat(self, key: str) -> None:
        self._if_allowed("seat", lambda: self._do_seat(key))

    def _do_seat(self, key: str) -> None:
        state = self.mf
        sheriff = self._seat_player(key)
        if sheriff is None:
            return
        others = [p.id for p in state.players if p.id != sheriff]
        first = self.session.rng.choice(others)  # drawn here, recorded in the action
        self.submit(Start(sheriff, first))

    def _seat_player(self, key: str) -> str | None:
        for seat, player in enumerate(self.mf.players, start=1):
            if seat_key(seat) == key:
                return player.id
        self.notify(_("There is no seat {key} at this table.").format(key=key), severity="warning")
        return None

    def action_next_prompt(self) -> None:
        self._if_allowed("next_prompt", self._do_next_prompt)

    def _do_next_prompt(self) -> None:
        if self.prompt_step < len(SMUGGLING_STEPS) - 1:
            self.prompt_step += 1
            self._render_narration(self.mf)
        else:
            self._do_smuggling_done()

    def action_smuggling_done(self) -> None:
        self._if_allowed("smuggling_done", self._do_smuggling_done)

    def _do_smuggling_done(self) -> None:
        self.submit(SmugglingDone())

    def action_question(self) -> None:
        self._if_allowed("question", self._do_question)

    def _do_question(self) -> None:
        current = self.mf.current_round
        if current is None or current.next_to_question is None:
            self.notify(_("Everyone has been questioned this round."), severity="warning")
            return
        self.submit(Question(current.next_to_question))

    def action_claim(self) -> None:
        self._if_allowed("claim", self._do_claim)

    def _do_claim(self) -> None:
        current = self.mf.current_round
        if current is None or current.next_to_question is None:
            self.notify(_("Everyone has been questioned this round."), severity="warning")
            return
        pid = current.next_to_question

        def done(building: str | None) -> None:
            if building is not None:
                self.submit(Question(pid, cast(Building, building)))

        self._ask_building(
            _("Which building does {name} claim?").format(name=seat_label(self.mf, pid)), done
        )

    def action_open_building(self) -> None:
        self._if_allowed("open_building", self._do_open_building)

    def _do_open_building(self) -> None:
        def result(building: str) -> Callable[[str | None], None]:
            def done(found: str | None) -> None:
                if found is not None:
                    self.submit(Inspect(cast(Building, building), cast(InspectionResult, found)))

            return done

        def chosen(building: str | None) -> None:
            if building is None:
                return
            self.app.push_screen(
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
                ),
                result(building),
            )

        self._ask_building(_("Which building does the Sheriff open?"), chosen)

    def _ask_building(self, question: str, done: Callable[[str | None], None]) -> None:
        choices = [KeyChoice(b.lower(), b, _(BUILDING_NAMES[b])) for b in BUILDINGS]
        self.app.push_screen(KeyChoiceDialog(question, choices), done)

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

    def action_revote(self) -> None:
        self._if_allowed("revote", self._do_revote)

    def _do_revote(self) -> None:
        self.submit(Revote())

    def action_reveal(self) -> None:
        self._if_allowed("reveal", self._do_reveal)

    def _do_reveal(self) -> None:
        ballot = self.mf.ballot
        if ballot is None or ballot.accused is None:
            return
        accused = ballot.accused
        self._ask_tile(
            _("Turn {name}'s tile. What does it show?").format(name=seat_label(self.mf, accused)),
            accused,
            lambda tile, role: self.submit(Reveal(accused, tile, role)),
        )

    def _ask_tile(self, question: str, pid: str, done: Callable[[Tile, str | None], None]) -> None:
        def role_entered(text: str | None) -> None:
            if text is not None:
                done("meowfia", text.strip() or None)

        def tile_chosen(tile: str | None) -> None:
            if tile == "undercover":
                done("undercover", None)
            elif tile == "meowfia":
                self.app.push_screen(
                    PromptDialog(
                        _("Role name on {name}'s tile (optional: enter to skip)").format(
                            name=seat_label(self.mf, pid)
                        )
                    ),
                    role_entered,
                )

        self.app.push_screen(
            KeyChoiceDialog(
                question,
                [
                    KeyChoice("u", "undercover", _("the Undercover (卧底)")),
                    KeyChoice("m", "meowfia", _("a Meowfia member (喵啡亚成员)")),
                ],
            ),
            tile_chosen,
        )

    def action_identify(self) -> None:
        self._if_allowed("identify", self._do_identify)

    def _do_identify(self) -> None:
        state = self.mf
        hidden = list(state.hidden)

        def done(pid: str | None) -> None:
            if pid is not None:
                self.submit(Identify(pid))

        self._ask_player(_("Who was the Undercover?"), hidden, done)

    def _ask_player(
        self,
        question: str,
        pids: Iterable[str],
        done: Callable[[str | None], None],
        nobody: bool = False,
    ) -> None:
        state = self.mf
        wanted = set(pids)
        choices = [
            KeyChoice(seat_key(seat), p.id, seat_label(state, p.id))
            for seat, p in enumerate(state.players, start=1)
            if p.id in wanted
        ]
        if nobody:
            choices.append(KeyChoice("minus", "", _("nobody")))
        self.app.push_screen(KeyChoiceDialog(question, choices), done)

    # ------------------------------------------------------------------ manual actions

    def action_manual(self) -> None:
        self._if_allowed("manual", self._do_manual)

    def _do_manual(self) -> None:
        def chosen(kind: str | None) -> None:
            handlers: dict[str, Callable[[], None]] = {
                "ring": lambda: self._manual_marker("ring"),
                "message": lambda: self._manual_marker("message"),
                "rose": lambda: self._manual_marker("rose"),
                "weight": self._manual_weight,
                "tile": self._manual_tile,
                "counter": self._manual_counter,
            }
            if kind in handlers:
                handlers[kind]()

        self.app.push_screen(
            KeyChoiceDialog(
                _("Manual action (role ability or table mistake); each asks for a reason."),
                [
                    KeyChoice("r", "ring", _("move the ring")),
                    KeyChoice("g", "message", _("move the message marker")),
                    KeyChoice("o", "rose", _("move the rose marker")),
                    KeyChoice("w", "weight", _("change a voter's weight for this ballot")),
                    KeyChoice("t", "tile", _("reveal a tile outside a vote")),
                    KeyChoice("c", "counter", _("correct a counter")),
                ],
            ),
            chosen,
        )

    def _with_reason(self, make: Callable[[str], Action]) -> None:
        def check(text: str) -> str | None:
            return None if text.strip() else _("A manual action needs a short reason.")

        def done(text: str | None) -> None:
            if text is not None:
                self.submit(make(text))

        self.app.push_screen(PromptDialog(_("Reason (goes into the log)"), check=check), done)

    def _manual_marker(self, marker: str) -> None:
        names = {
            "ring": _("the ring"),
            "message": _("the message marker"),
            "rose": _("the rose marker"),
        }

        def done(pid: str | None) -> None:
            if pid is not None:
                self._with_reason(
                    lambda reason: MoveMarker(cast(Marker, marker), pid or None, reason)
                )

        self._ask_player(
            _("Move {marker} to whom?").format(marker=names[marker]),
            [p.id for p in self.mf.players],
            done,
            nobody=True,
        )

    def _manual_weight(self) -> None:
        ballot = self.mf.ballot
        if ballot is None or ballot.result != "open":
            # Said before asking for a voter, a weight and a reason that would be refused.
            self.notify(_("A weight is changed only on an open ballot."), severity="error")
            return

        def weight_entered(pid: str) -> Callable[[str | None], None]:
            def done(text: str | None) -> None:
                if text is not None:
                    weight = parse_weight(text)
                    self._with_reason(lambda reason: SetWeight(pid, weight, reason))

            return done

        def check(text: str) -> str | None:
            try:
                parse_weight(text)
            except ValueError:
                return _("Write a weight like 0, 1, 1.5, 2 or 1/2.")
            return None

        def chosen(pid: str | None) -> None:
            if pid is not None:
                self.app.push_screen(
                    PromptDialog(
                        _("Weight of {name} on this ballot").format(name=seat_label(self.mf, pid)),
                        check=check,
                        placeholder="2",
                    ),
                    weight_entered(pid),
                )

        self._ask_player(_("Whose weight changes?"), self.mf.voters, chosen)

    def _manual_tile(self) -> None:
        ballot = self.mf.ballot
        if ballot is not None and ballot.result != "tie":
            self.notify(
                _("Not during a vote: finish the ballot (and its reveal) first."), severity="error"
            )
            return

        def chosen(pid: str | None) -> None:
            if pid is None:
                return
            self._ask_tile(
                _("Reveal {name}'s tile. What does it show?").format(name=seat_label(self.mf, pid)),
                pid,
                lambda tile, role: self._with_reason(
                    lambda reason: RevealTile(pid, tile, reason, role)
                ),
            )

        self._ask_player(_("Whose tile is revealed?"), self.mf.hidden, chosen)

    def _manual_counter(self) -> None:
        def value_chosen(counter: str) -> Callable[[str | None], None]:
            def done(value: str | None) -> None:
                if value is not None:
                    self._with_reason(
                        lambda reason: SetCounter(cast(Counter, counter), int(value), reason)
                    )

            return done

        def counter_chosen(counter: str | None) -> None:
            if counter is None:
                return
            self.app.push_screen(
                KeyChoiceDialog(
                    _("New value"), [KeyChoice(str(n), str(n), str(n)) for n in range(4)]
                ),
                value_chosen(counter),
            )

        self.app.push_screen(
            KeyChoiceDialog(
                _("Which counter?"),
                [
                    KeyChoice("s", "smuggles", _("Smuggles")),
                    KeyChoice("i", "intercepts", _("Intercepts")),
                ],
            ),
            counter_chosen,
        )

    # ------------------------------------------------------------------ the timer

    def _timer_seconds(self) -> int:
        key = "smuggling_seconds" if self.mf.phase == "smuggling" else "discussion_seconds"
        return int(self.session.options.get(key) or 0)

    def action_timer(self) -> None:
        self._if_allowed("timer", self._do_timer)

    def _do_timer(self) -> None:
        now = self.session.clock.monotonic_ns()
        if self._timer_end_ns is not None:  # running: pause
            self._timer_left_ns = max(0, self._timer_end_ns - now)
            self._timer_end_ns = None
            if self._ticker is not None:
                self._ticker.pause()
        elif self._timer_left_ns is not None:  # paused: resume
            self._timer_end_ns = now + self._timer_left_ns
            self._timer_left_ns = None
            if self._ticker is not None:
                self._ticker.resume()
        else:
            seconds = self._timer_seconds()
            if seconds <= 0:
                self.notify(
                    _("No timer for this phase: set its seconds in the session options."),
                    severity="warning",
                )
                return
            self._timer_end_ns = now + seconds * 1_000_000_000
            if self._ticker is not None:
                self._ticker.resume()
        self._render_timer()

    def _stop_timer(self) -> None:
        self._timer_end_ns = None
        self._timer_left_ns = None
        if self._ticker is not None:
            self._ticker.pause()

    def timer_left_ns(self) -> int | None:
        """Nanoseconds left on the phase timer, or None when it is not set."""
        if self._timer_end_ns is not None:
            return max(0, self._timer_end_ns - self.session.clock.monotonic_ns())
        return self._timer_left_ns

    def _render_timer(self) -> None:
        digits = self.query_one("#mf-timer", Digits)
        left = self.timer_left_ns()
        if left is None:
            digits.display = False
            return
        seconds = -(-left // 1_000_000_000)
        digits.update(f"{seconds // 60}:{seconds % 60:02d}")
        digits.display = True
        digits.set_class(self._timer_left_ns is not None, "paused")

    def _tick(self) -> None:
        left = self.timer_left_ns()
        self._render_timer()
        if left is not None and left <= 0 and self._timer_end_ns is not None:
            self._stop_timer()
            self._timer_left_ns = 0
            self._render_timer()
            self.time_up()

    def time_up(self) -> None:
        """The phase timer ran out: a message, the terminal bell, and the end cue."""
        self.notify(_("Time is up!"), title=_("Timer"), timeout=8)
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


def parse_weight(text: str) -> Fraction:
    """``"1.5"``, ``"3/2"``, ``"2"``, ``"0"`` → an exact ``Fraction``; else ``ValueError``."""
    clean = text.strip().replace("，", ".").replace("／", "/")
    if not clean:
        raise ValueError(text)
    try:
        value = Fraction(clean)
    except (ValueError, ZeroDivisionError):
        raise ValueError(text) from None
    if value < 0:
        raise ValueError(text)
    return value


SCREEN = MeowfiaScreen
