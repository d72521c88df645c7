"""喵喵咪呀's view-model: what the host screen and the table board both show, computed once.

Design decisions:

* Pure (stdlib + the shared pure types + this game's rules and guide): frozen rows and
  labels from the state and the host-monotonic time. The screen and the board only
  lay them out, so the weighted totals with the 1.5 ring, the leader, a tie, the timer
  and "time is up" cannot differ between them.
* Text is ``Say`` (an English template marked ``N_`` and its parameters), translated
  where it is shown; colours are names (``"red"``, ``"blue"``…), mapped to styles by
  the renderers.
* The table's part (``TableView``) holds public facts only, by construction: a
  player's identity comes from ``MeowfiaState.side_of`` and the revealed tiles (the
  Sheriff is public; the Undercover only once the rules know it), and the ballot only
  as totals and how many have voted — who pointed at whom stays on the host's
  screen (``HostView.voters``), since the table reveals its votes together.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from companion.games.meowfia.guide import BUILDING_NAMES, GUIDE, SIDE_WINS, clock
from companion.games.meowfia.rules import (
    BUILDINGS,
    TARGET,
    Ballot,
    MeowfiaState,
    format_weight,
)
from companion.rules.base import N_, PlayerId
from companion.rules.guide import Say, listing, say
from companion.rules.names import fit_name

PHASE_NAMES = {
    "setup": N_("Setup"),
    "smuggling": N_("Smuggling"),
    "inspection": N_("Inspection"),
    "reckoning": N_("Reckoning"),
    "over": N_("Game over"),
}
TABLE_CALLS = {
    "setup": N_("Waiting for the Sheriff"),
    "smuggling": N_("Sheriff, close your eyes."),
    "inspection": N_("Sheriff, open your eyes."),
}
"""What the table hears in a phase (the board shows it beside the phase name)."""
ARROWS = {"N": "↑", "E": "→", "S": "↓", "W": "←"}
TRACK_COLOURS = {"smuggles": "red", "intercepts": "blue"}
IDENTITY_COLOURS = {"sheriff": "blue", "undercover": "blue", "meowfia": "red"}

Identity = Literal["sheriff", "undercover", "meowfia", "unknown"]
Marker = Literal["ring", "message", "rose"]
Mark = Literal["", "leads", "tie", "accused"]


def seat_key(seat: int) -> str:
    """The key for seat ``seat`` (1-based): ``1``…``9``, then ``0`` for seat 10."""
    return "0" if seat == 10 else str(seat)


@dataclass(frozen=True)
class Seat:
    """A player as both screens name them: the seat key and the name."""

    pid: PlayerId
    key: str
    name: str

    @property
    def label(self) -> str:
        """``"3 Cy"``: the host presses the number to pick the player."""
        return f"{self.key} {self.name}"


def seats(state: MeowfiaState) -> dict[PlayerId, Seat]:
    return {
        p.id: Seat(p.id, seat_key(i), fit_name(p.name))
        for i, p in enumerate(state.players, start=1)
    }


def seat_of(state: MeowfiaState, pid: PlayerId | None) -> Seat | None:
    return None if pid is None else seats(state).get(pid)


# --------------------------------------------------------------------- the rows


@dataclass(frozen=True)
class Banner:
    round: int
    phase: str
    phase_name: Say
    call: Say | None
    sheriff: Seat | None


@dataclass(frozen=True)
class Track:
    counter: Literal["smuggles", "intercepts"]
    label: Say
    count: int
    target: int
    colour: str

    @property
    def slots(self) -> tuple[bool, ...]:
        """One flag per slot: filled or not."""
        return tuple(slot < self.count for slot in range(self.target))


@dataclass(frozen=True)
class Markers:
    ring: Seat | None
    message: Seat | None
    rose: Seat | None


@dataclass(frozen=True)
class OrderItem:
    """One player in the questioning order."""

    who: Seat
    status: Literal["done", "now", "waiting"]
    last: bool
    """Questioned last in this round: takes the ring at the first reckoning."""
    claimed: str | None
    """The building they claimed, if recorded."""


@dataclass(frozen=True)
class BuildingCell:
    code: str
    name: Say
    arrow: str
    claims: int
    opened: Literal["contraband", "empty"] | None


@dataclass(frozen=True)
class Questioning:
    round: int
    items: tuple[OrderItem, ...]
    buildings: tuple[BuildingCell, ...]
    ring_goes_to_last: bool
    """No reckoning yet: the ring will go to the player questioned last."""

    @property
    def opened(self) -> BuildingCell | None:
        return next((b for b in self.buildings if b.opened is not None), None)


@dataclass(frozen=True)
class Total:
    """One candidate's weighted total on the ballot."""

    who: Seat
    total: str
    """As a host reads it: ``2.5``."""
    share: float
    """Of the highest total (0…1), for the bar length."""
    mark: Mark


@dataclass(frozen=True)
class Tally:
    """The ballot as the table sees it: totals, how many have voted, the result."""

    reckoning: int
    number: int
    """1 for a reckoning's first ballot, 2+ for revotes."""
    totals: tuple[Total, ...]
    voted: int
    voters: int
    result: Literal["open", "tie", "accused"]
    best: str
    """The highest total (``0`` before any vote)."""
    tied: tuple[Seat, ...]
    accused: Seat | None
    ring: Seat | None
    earlier_tie: tuple[str, tuple[Seat, ...]] | None
    """For a revote: the total and the players of the tie before it."""

    @property
    def title(self) -> Say:
        return say(N_("Reckoning {k}, ballot {b}"), k=self.reckoning, b=self.number)

    @property
    def tied_names(self) -> Say:
        return listing([s.name for s in self.tied])


@dataclass(frozen=True)
class VoterRow:
    """One voter on the host's grid (who pointed at whom: the host's screen only)."""

    who: Seat
    weight: str
    ring: bool
    entry: Literal["none", "vote", "abstain"]
    target: Seat | None
    target_leads: bool
    revealed: str | None
    """The role name (or ``""``) when this voter's tile showed a Meowfia member."""


@dataclass(frozen=True)
class PlayerRow:
    who: Seat
    identity: Identity | None
    """``None`` before the game starts."""
    role: str | None
    markers: tuple[Marker, ...]
    revealed: bool = False
    """The tile was turned (else an identity is the Sheriff's, or deduced at the end)."""

    @property
    def colour(self) -> str:
        return IDENTITY_COLOURS.get(self.identity or "", "grey")


@dataclass(frozen=True)
class RevealRow:
    round: int
    who: Seat
    tile: Literal["undercover", "meowfia"]
    role: str | None
    manual: bool


@dataclass(frozen=True)
class TimerView:
    """The phase timer: ``clock`` left, and whether it runs, waits or ran out."""

    phase: str
    clock: str
    status: Literal["running", "paused", "up"]

    @property
    def label(self) -> Say:
        if self.status == "up":
            return say(N_("Time is up!"))
        if self.status == "paused":
            return say(N_("Timer paused: {time}"), time=self.clock)
        return say(N_("Timer: {time}"), time=self.clock)


@dataclass(frozen=True)
class WinView:
    side: Literal["police", "meowfia"]
    title: Say
    winners: tuple[Seat, ...]
    losers: tuple[Seat, ...]
    needs_identify: bool
    colour: str


@dataclass(frozen=True)
class TableView:
    """Everything public: what the board shows, and the host screen around its grid."""

    banner: Banner
    tracks: tuple[Track, Track]
    markers: Markers
    questioning: Questioning | None
    tally: Tally | None
    players: tuple[PlayerRow, ...]
    reveals: tuple[RevealRow, ...]
    timer: TimerView | None
    win: WinView | None
    prompt: Say


@dataclass(frozen=True)
class HostView:
    """The host's screen: the table's view plus the votes voter by voter."""

    table: TableView
    voters: tuple[VoterRow, ...]


# --------------------------------------------------------------------- building them


def table_view(state: MeowfiaState, now_ns: int | None = None) -> TableView:
    """The public view of ``state`` at host-monotonic ``now_ns`` (for the timer)."""
    return TableView(
        banner=banner(state),
        tracks=(
            Track("smuggles", say(N_("Smuggles")), state.smuggles, TARGET, "red"),
            Track("intercepts", say(N_("Intercepts")), state.intercepts, TARGET, "blue"),
        ),
        markers=Markers(
            seat_of(state, state.ring), seat_of(state, state.message), seat_of(state, state.rose)
        ),
        questioning=_questioning(state),
        tally=tally(state, state.ballot) if state.ballot is not None else None,
        players=_players(state),
        reveals=_reveals(state),
        timer=timer_view(state, now_ns),
        win=_win(state),
        prompt=GUIDE.prompt(state),
    )


def host_view(state: MeowfiaState, now_ns: int | None = None) -> HostView:
    table = table_view(state, now_ns)
    ballot = state.ballot
    return HostView(
        table=table,
        voters=voter_rows(state, ballot, table.tally) if ballot is not None else (),
    )


def banner(state: MeowfiaState) -> Banner:
    call = TABLE_CALLS.get(state.phase)
    return Banner(
        round=state.round_number,
        phase=state.phase,
        phase_name=say(PHASE_NAMES[state.phase]),
        call=say(call) if call else None,
        sheriff=seat_of(state, state.sheriff),
    )


def _questioning(state: MeowfiaState) -> Questioning | None:
    current = state.current_round
    if current is None:
        return None
    by_seat = seats(state)
    claims = {q.player: q.claim for q in current.questioned}
    nxt = current.next_to_question if state.phase == "inspection" else None
    items = tuple(
        OrderItem(
            who=by_seat[pid],
            status="now" if pid == nxt else ("done" if pid in claims else "waiting"),
            last=pid == current.ring_goes_to(state.ring_to_questioned),
            claimed=claims.get(pid),
        )
        for pid in current.order
    )
    counts = dict.fromkeys(BUILDINGS, 0)
    for claim in claims.values():
        if claim is not None:
            counts[claim] += 1
    buildings = tuple(
        BuildingCell(
            code=b,
            name=say(BUILDING_NAMES[b]),
            arrow=ARROWS[b],
            claims=counts[b],
            opened=current.result if current.building == b else None,
        )
        for b in BUILDINGS
    )
    return Questioning(
        round=current.number,
        items=items,
        buildings=buildings,
        ring_goes_to_last=state.reckonings == 0 and state.phase in ("smuggling", "inspection"),
    )


def tally(state: MeowfiaState, ballot: Ballot) -> Tally:
    """The weighted totals (the ring's 1.5 included), the leader and a tie: counted once."""
    by_seat = seats(state)
    totals = ballot.totals()
    best = max(totals.values(), default=Fraction(0))
    leaders = set(ballot.leaders())

    def mark(pid: PlayerId, total: Fraction) -> Mark:
        if ballot.result == "accused":
            return "accused" if pid == ballot.accused else ""
        if ballot.result == "tie":
            return "tie" if pid in leaders else ""
        return "leads" if best > 0 and total == best else ""

    rows = tuple(
        Total(
            who=by_seat[pid],
            total=format_weight(total),
            share=float(total / best) if best else 0.0,
            mark=mark(pid, total),
        )
        for pid, total in totals.items()
    )
    earlier = None
    if ballot.number > 1:
        before = [b for b in state.ballots_of(ballot.reckoning) if b.number == ballot.number - 1]
        if before and before[0].result == "tie":
            tie = before[0]
            earlier = (
                format_weight(max(tie.totals().values(), default=Fraction(0))),
                tuple(by_seat[p] for p in tie.tied),
            )
    return Tally(
        reckoning=ballot.reckoning,
        number=ballot.number,
        totals=rows,
        voted=len(ballot.casts),
        voters=len(ballot.voters),
        result=ballot.result,
        best=format_weight(best),
        tied=tuple(by_seat[p] for p in ballot.tied),
        accused=by_seat.get(ballot.accused) if ballot.accused else None,
        ring=by_seat.get(ballot.ring) if ballot.ring else None,
        earlier_tie=earlier,
    )


def voter_rows(
    state: MeowfiaState, ballot: Ballot, counted: Tally | None = None
) -> tuple[VoterRow, ...]:
    by_seat = seats(state)
    counted = counted or tally(state, ballot)
    leaders = {t.who.pid for t in counted.totals if t.mark in ("leads", "accused")}
    rows = []
    for voter in ballot.voters:
        cast = ballot.cast_of(voter)
        tile = state.revealed_tile(voter)
        target = cast.target if cast is not None else None
        rows.append(
            VoterRow(
                who=by_seat[voter],
                weight=format_weight(ballot.weight(voter)),
                ring=voter == ballot.ring,
                entry="none" if cast is None else ("abstain" if target is None else "vote"),
                target=by_seat[target] if target is not None else None,
                target_leads=target in leaders,
                revealed=(tile.role or "") if tile is not None and tile.tile == "meowfia" else None,
            )
        )
    return tuple(rows)


def identity(state: MeowfiaState, pid: PlayerId) -> Identity | None:
    """What the table knows of ``pid``: from public facts only (``side_of``, turned tiles)."""
    if state.phase == "setup":
        return None
    if pid == state.sheriff:
        return "sheriff"
    if pid == state.undercover:
        return "undercover"
    record = state.revealed_tile(pid)
    if record is not None:
        return record.tile
    if state.side_of(pid) == "meowfia":
        return "meowfia"
    return "unknown"


def _players(state: MeowfiaState) -> tuple[PlayerRow, ...]:
    by_seat = seats(state)
    rows = []
    for player in state.players:
        pid = player.id
        record = state.revealed_tile(pid)
        holders: tuple[tuple[Marker, PlayerId | None], ...] = (
            ("ring", state.ring),
            ("message", state.message),
            ("rose", state.rose),
        )
        markers = tuple(name for name, holder in holders if holder == pid)
        rows.append(
            PlayerRow(
                who=by_seat[pid],
                identity=identity(state, pid),
                role=record.role if record is not None else None,
                markers=markers,
                revealed=record is not None,
            )
        )
    return tuple(rows)


def _reveals(state: MeowfiaState) -> tuple[RevealRow, ...]:
    by_seat = seats(state)
    return tuple(
        RevealRow(r.round, by_seat[r.player], r.tile, r.role, r.by == "manual")
        for r in state.revealed
    )


def timer_view(state: MeowfiaState, now_ns: int | None) -> TimerView | None:
    """The phase timer at ``now_ns``; ``None`` when none is set (or no time is given)."""
    timer = state.timer
    if timer is None:
        return None
    now = timer.since_ns if now_ns is None else now_ns
    if timer.is_up(now):
        return TimerView(timer.phase, clock(0), "up")
    status: Literal["running", "paused"] = "running" if timer.running else "paused"
    return TimerView(timer.phase, clock(timer.remaining_ns(now)), status)


def _win(state: MeowfiaState) -> WinView | None:
    side = state.winning_side
    if state.ended is None or side is None:
        return None
    by_seat = seats(state)
    sides = {p.id: state.side_of(p.id) for p in state.players}
    return WinView(
        side=side,
        title=say(SIDE_WINS[side]),
        winners=tuple(by_seat[p] for p, s in sides.items() if s == side),
        losers=tuple(by_seat[p] for p, s in sides.items() if s is not None and s != side),
        needs_identify=state.undercover is None,
        colour="blue" if side == "police" else "green",
    )
