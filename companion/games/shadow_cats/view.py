"""喵窩暗影's view-model: what the host screen and the board both show, from the state.

Design decisions:

* Pure (the standard library, ``companion.rules`` and this game's rules and guide):
  frozen rows of plain values and ``Say`` sentences, translated where they are drawn.
  The screen (``screen.py``/``widgets.py``) and the board (``board.py``) render the
  same ``ShadowView``; each label, HP bar, distance and colour is computed here once.
* Hidden information is left out by construction: the rules never hold an identity
  that was not revealed (``Seat.identity`` is ``None`` until a death, a public reveal,
  a Neutral's declaration or the final entry), and a row's ``identity`` is read from
  that field only. During the setup the rows show the draft, which is public.
* Colours are names: a slot's roster colour name and the one ``colour_hex`` that
  turns it into a terminal colour for both renderers.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.shadow_cats.guide import GUIDE
from companion.games.shadow_cats.rules.board import CENTRE, SLOTS, sums_for
from companion.games.shadow_cats.rules.roster import Character, Roster
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.rules.words import word
from companion.rules.base import N_, PlayerId
from companion.rules.guide import Say, listing, say
from companion.rules.names import fit_name

COLOURS = {
    # Roster colour names → the shade both renderers draw (unknown names: grey).
    "brown": "#8b5a2b",
    "red": "#c0392b",
    "green": "#27ae60",
    "blue": "#2e86de",
    "yellow": "#d4ac0d",
    "purple": "#8e44ad",
    "orange": "#e67e22",
    "grey": "#7f8c8d",
    "gray": "#7f8c8d",
    "black": "#34495e",
    "white": "#ecf0f1",
    "pink": "#e84393",
}
COLOUR_WORDS = {
    "brown": N_("brown"),
    "red": N_("red"),
    "green": N_("green"),
    "blue": N_("blue"),
    "yellow": N_("yellow"),
    "purple": N_("purple"),
    "orange": N_("orange"),
    "grey": N_("grey"),
    "gray": N_("grey"),
    "black": N_("black"),
    "white": N_("white"),
    "pink": N_("pink"),
}
IDENTITY_COLOURS = {"red": "#c0392b", "blue": "#2e86de", "neutral": "#d4ac0d"}
STEP_WORDS = {
    "move": N_("move"),
    "choose": N_("choose a location"),
    "forest": N_("Cat Forest"),
    "attack": N_("attack"),
}
# The ring drawn as three rows round the centre: slots 1–6 go round clockwise.
RING_ROWS = ((1, 2), (6, CENTRE, 3), (5, 4))


def colour_hex(name: str) -> str:
    """A roster colour name (or ``#rrggbb``) as ``#rrggbb``; grey when unknown.

    >>> colour_hex("Brown"), colour_hex("#123abc"), colour_hex("mauve")
    ('#8b5a2b', '#123abc', '#7f8c8d')
    """
    key = name.strip().lower()
    if key in COLOURS:
        return COLOURS[key]
    digits = key[1:]
    if key.startswith("#") and len(digits) == 6 and all(c in "0123456789abcdef" for c in digits):
        return key
    return COLOURS["grey"]


def colour_word(name: str) -> Say | str:
    """A roster colour name as a word to translate (unknown names as written)."""
    word = COLOUR_WORDS.get(name.strip().lower())
    return Say(word) if word else name


@dataclass(frozen=True)
class HpBar:
    """HP out of max, and the colour of what is left."""

    hp: int
    top: int

    @property
    def colour(self) -> str:
        ratio = self.hp / self.top if self.top else 0
        return "green" if ratio > 0.5 else "yellow" if ratio > 0.25 else "red"

    def filled(self, width: int) -> int:
        """Cells of a ``width``-cell bar to fill (a living character shows at least one)."""
        cells = 0 if self.top <= 0 else round(width * self.hp / self.top)
        return min(width, max(1 if self.hp > 0 else 0, cells))

    @property
    def numbers(self) -> str:
        return f"{self.hp}/{self.top}"


@dataclass(frozen=True)
class SeatRow:
    """One player's row (seating order)."""

    player: PlayerId
    name: str
    character: str
    element: str
    """The element id the character fights with (``copied``'s while it copies)."""
    copied: str | None
    hp: HpBar
    range: int
    weapon: str | None
    armour: str | None
    location: str | None
    alive: bool
    identity: str | None
    """Only a recorded identity (never a hidden one)."""
    distance: int | None
    """From the player whose turn it is; ``None`` for that player, the dead and the
    unplaced."""
    current: bool
    first: bool


@dataclass(frozen=True)
class Piece:
    name: str
    hp: int
    alive: bool
    current: bool


@dataclass(frozen=True)
class Cell:
    """One slot of the board: its colour, the location card on it and who stands there."""

    slot: int
    colour: str
    """The roster's colour name."""
    location: str | None
    sums: tuple[int, ...]
    pieces: tuple[Piece, ...]

    @property
    def where(self) -> Say:
        return Say(N_("centre")) if self.slot == CENTRE else say(N_("slot {n}"), n=self.slot)


@dataclass(frozen=True)
class AttackLine:
    """The last attack's breakdown: roll → table → element → equipment → damage."""

    attacker: str
    target: str
    roll: int
    table: int | None
    element: int
    weapon: int
    armour: int
    damage: int
    hp_before: int
    hp_after: int
    killed: bool


@dataclass(frozen=True)
class ShadowView:
    phase: str
    banner: Say
    prompt: Say
    rows: tuple[SeatRow, ...]
    cells: tuple[Cell, ...]
    attack: AttackLine | None
    death: Say | None
    """A death waiting for its turned identity card."""
    victory: Say | None
    notices: tuple[Say, ...]

    def cell(self, slot: int) -> Cell:
        return next(c for c in self.cells if c.slot == slot)


# --------------------------------------------------------------------------- building


def build(state: ShadowState, lang: str) -> ShadowView:
    """The view of ``state`` with card names in ``lang`` (``"zh"`` or ``"en"``)."""
    names = {p.id: fit_name(p.name) for p in state.players}
    roster = state.roster or (state.draft.roster if state.draft else None)
    return ShadowView(
        phase=state.phase,
        banner=banner(state, names),
        prompt=GUIDE.prompt(state),
        rows=_rows(state, roster, names, lang),
        cells=_cells(state, roster, names),
        attack=_attack(state, names),
        death=(
            say(
                N_("{player} died: turn the identity card over and enter it."),
                player=names[state.pending_reveal],
            )
            if state.pending_reveal is not None
            else None
        ),
        victory=_victory(state, names),
        notices=tuple(
            Say(n.template, {k: _notice_param(k, v, names) for k, v in n.params})
            for n in state.notices
        ),
    )


def _notice_param(key: str, value: object, names: dict[str, str]) -> object:
    """A notice's player ids as names, its game words (locations…) as words to translate."""
    if key in ("player", "target") and isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, Say):  # a list of names: rendered in the shown language
        return value
    english = word(key, value)
    return Say(english) if isinstance(english, str) and english != value else value


def banner(state: ShadowState, names: dict[str, str]) -> Say:
    """The phase banner: where the game is, in a few words."""
    if state.phase == "setup":
        return Say(N_("Setup: characters, identity counts, board and first player"))
    if state.phase == "start":
        return say(
            N_("Start positions · next: {player}"), player=names.get(state.next_to_place or "", "—")
        )
    if state.phase == "ended":
        return Say(N_("Victory! Waiting for the identities still hidden"))
    if state.phase == "over":
        return Say(N_("Game over"))
    parts = [
        say(N_("Round {n}"), n=state.round),
        say(N_("{player}'s turn"), player=names.get(state.turn or "", "—")),
        Say(STEP_WORDS[state.step]),
    ]
    return Say("{a} · {b} · {c}", dict(zip("abc", parts, strict=True)))


def _character(roster: Roster | None, cid: str) -> Character | None:
    return roster.character(cid) if roster is not None else None


def _rows(
    state: ShadowState, roster: Roster | None, names: dict[str, str], lang: str
) -> tuple[SeatRow, ...]:
    if state.phase == "setup":
        draft = state.draft
        rows = []
        for i, player in enumerate(state.players):
            cid = draft.characters[i] if draft is not None else None
            character = _character(roster, cid) if cid else None
            rows.append(
                SeatRow(
                    player=player.id,
                    name=fit_name(player.name),
                    character=character.display_name(lang) if character else "—",
                    element=character.element if character else "none",
                    copied=None,
                    hp=HpBar(character.max_hp, character.max_hp) if character else HpBar(0, 0),
                    range=character.range if character else 0,
                    weapon=None,
                    armour=None,
                    location=None,
                    alive=True,
                    identity=None,
                    distance=None,
                    current=False,
                    first=draft is not None and player.id == draft.first_player,
                )
            )
        return tuple(rows)
    out = []
    turn = state.turn if state.phase == "play" else None
    for seat in state.seats:
        character = state.character(seat.player)
        fighting = state.fighting_character(seat.player)
        weapon, armour = state.item(seat.weapon), state.item(seat.armour)
        distance = None
        if (
            turn is not None
            and seat.player != turn
            and seat.alive
            and seat.location is not None
            and state.seat(turn).location is not None
        ):
            distance = state.distance(turn, seat.player)
        out.append(
            SeatRow(
                player=seat.player,
                name=names[seat.player],
                character=character.display_name(lang),
                element=fighting.element,
                copied=fighting.display_name(lang) if seat.copied else None,
                hp=HpBar(seat.hp, character.max_hp),
                range=character.range,
                weapon=weapon.display_name(lang) if weapon else None,
                armour=armour.display_name(lang) if armour else None,
                location=seat.location,
                alive=seat.alive,
                identity=seat.identity,
                distance=distance,
                current=seat.player == turn,
                first=seat.player == state.first_player,
            )
        )
    return tuple(out)


def _cells(state: ShadowState, roster: Roster | None, names: dict[str, str]) -> tuple[Cell, ...]:
    colours = (roster.centre_colour, *roster.outer_colours) if roster else ("brown", *("grey",) * 6)
    layout = state.layout or (state.draft.layout if state.draft else ())
    turn = state.turn if state.phase == "play" else None
    cells = []
    for slot in range(SLOTS):
        location = layout[slot] if layout else None
        pieces = tuple(
            Piece(names[s.player], s.hp, s.alive, s.player == turn)
            for s in state.seats
            if location is not None and s.location == location
        )
        cells.append(
            Cell(
                slot=slot,
                colour=colours[slot],
                location=location,
                sums=sums_for(location) if location else (),
                pieces=pieces,
            )
        )
    return tuple(cells)


def _attack(state: ShadowState, names: dict[str, str]) -> AttackLine | None:
    report = state.last_attack
    if report is None:
        return None
    return AttackLine(
        attacker=names[report.attacker],
        target=names[report.target],
        roll=report.roll,
        table=report.table,
        element=report.element,
        weapon=report.weapon,
        armour=report.armour,
        damage=report.damage,
        hp_before=report.hp_before,
        hp_after=report.hp_after,
        killed=report.killed,
    )


def _victory(state: ShadowState, names: dict[str, str]) -> Say | None:
    won = state.victory
    if state.phase != "ended" or won is None:
        return None
    if won.kind == "neutral":
        return say(N_("Neutral win: {names}."), names=listing([names[p] for p in won.neutrals]))
    if won.team == "red":
        return Say(N_("Every Blue character is dead: the Red team wins."))
    return Say(N_("Every Red character is dead: the Blue team wins."))
