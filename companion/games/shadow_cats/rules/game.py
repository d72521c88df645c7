"""喵窩暗影 Shadow Cats: the rules the companion enforces (docs/games/shadow-cats.md).

Flow: ``setup`` (roster text, characters, layout, identity counts) → ``place`` for
every player (start positions) → turns of ``move`` (then ``forest`` on 喵森林) and
``attack`` or ``end-turn`` → deaths ask for ``reveal`` → a team wipe or a declared
Neutral win ends play → ``final-identities`` records every identity → outcome.

Decisions where the rules page is silent are listed in the docs; the main ones:

* A death stops play until the dead character's identity is entered (the card is
  turned at once at the table). Only ``reveal`` and ``declare-neutral-win`` are
  accepted meanwhile.
* ``attack`` and ``end-turn`` end the turn; the next living player in seating order
  moves next. Manual actions (HP, relocate, items, reveal, copy) are allowed at any
  step of play and never end a turn.
* A Neutral win may be declared after a team wipe ended play and before the final
  identities are entered: the game only ends at a victory, so such a declaration is
  "at the same moment", and the Neutral win takes precedence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from companion.games.shadow_cats.rules.actions import (
    ALL_ACTIONS,
    IDENTITIES,
    Attack,
    Begin,
    ChangeHp,
    CopyCharacter,
    Deal,
    DeclareNeutralWin,
    Destination,
    EndTurn,
    FinalIdentities,
    Forest,
    GiveItem,
    Identity,
    Move,
    MoveDice,
    PickCharacter,
    Place,
    Relocate,
    Reveal,
    SetCounts,
    SetFirstPlayer,
    SetLayout,
    Setup,
    TakeItem,
)
from companion.games.shadow_cats.rules.board import (
    FREE_CHOICE,
    LOCATION_NOTICES,
    SUMS,
    check_2d6,
    check_d100,
    check_layout,
    check_location,
)
from companion.games.shadow_cats.rules.roster import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    IdentityCounts,
    Roster,
    parse_roster,
)
from companion.games.shadow_cats.rules.state import (
    FOREST_DAMAGE,
    FOREST_HEAL,
    AttackReport,
    Draft,
    Notice,
    Seat,
    ShadowState,
    Step,
    Victory,
)
from companion.games.shadow_cats.rules.termination import Termination
from companion.games.shadow_cats.rules.words import Bad, Illegal, NotYourTurn
from companion.rules.base import (
    N_,
    Action,
    Game,
    GameOverError,
    OptionSpec,
    Outcome,
    Player,
    PlayerId,
    SetupError,
    action_types_of,
    check_player_count,
    player_by_id,
)
from companion.rules.guide import listing

DECK_SIZE = 12
"""Weapons (and armours) in the equipment deck."""
MAX_ROLLS = 30
MAX_HP_CHANGE = 999


def _notice(template: str, **params: Any) -> Notice:
    return Notice(template, tuple(params.items()))


def _need_reason(reason: str) -> None:
    if not reason.strip():
        raise Bad(N_("Give a short reason for the log."))


class ShadowCats(Game[ShadowState]):
    id = "shadow-cats"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec(
            "roster_file",
            N_("Roster file (empty: the shipped default roster)"),
            str,
            "",
            help=N_(
                "A TOML file with characters, equipment, identity counts and board "
                "colours. It is read when the game is set up and its text is kept "
                "in the log."
            ),
        ),
    )
    action_types = action_types_of(*ALL_ACTIONS)

    # ------------------------------------------------------------------ Game API

    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> ShadowState:
        check_player_count(players, MIN_PLAYERS, MAX_PLAYERS)
        return ShadowState(players=tuple(players))

    def apply(self, state: ShadowState, action: Action) -> ShadowState:
        if state.phase == "over":
            raise GameOverError(N_("The game is over; undo to change it."))
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise Bad(N_("Shadow Cats has no action {type!r}."), type=action.type)
        if state.phase == "setup" and not isinstance(action, SETUP_ACTIONS):
            raise Illegal(N_("Set the game up first (roster, characters, board)."))
        if state.phase != "setup" and isinstance(action, SETUP_ACTIONS):
            raise Illegal(N_("The game is set up already; undo to set it up again."))
        new: ShadowState = handler(replace(state, notices=()), action)
        return new

    def outcome(self, state: ShadowState) -> Outcome | None:
        if state.phase != "over" or state.victory is None:
            return None
        sides = {s.player: s.identity or "" for s in state.seats}
        characters = _characters(state)
        victory = state.victory
        if victory.kind == "neutral":
            winners = tuple(s.player for s in state.seats if s.player in victory.neutrals)
            names = ", ".join(_name(state, pid) for pid in winners)
            return Outcome(
                termination=Termination.NEUTRAL_WIN,
                winners=winners,
                sides=sides,
                summary=N_("Neutral win: {names}."),
                params={"names": names},
                characters=characters,
            )
        winners = tuple(s.player for s in state.seats if s.identity == victory.team)
        summary = (
            N_("Red team wins: every Blue character is dead.")
            if victory.team == "red"
            else N_("Blue team wins: every Red character is dead.")
        )
        return Outcome(
            termination=Termination.TEAM_WIPE,
            winners=winners,
            sides=sides,
            summary=summary,
            params={"team": victory.team},
            characters=characters,
        )

    def progress_label(self, state: ShadowState) -> str:
        if state.phase in ("setup", "start"):
            return state.phase
        return f"round {state.round}"


# --------------------------------------------------------------------------- helpers


def _characters(state: ShadowState) -> dict[PlayerId, dict[str, str]]:
    """Each player's character card, named in both languages (the history shows it)."""
    out: dict[PlayerId, dict[str, str]] = {}
    for seat in state.seats:
        card = state.roster.character(seat.character) if state.roster is not None else None
        if card is None:
            out[seat.player] = {"id": seat.character, "en": seat.character, "zh": seat.character}
        else:
            out[seat.player] = {
                "id": card.id,
                "en": card.display_name("en"),
                "zh": card.display_name("zh"),
            }
    return out


def _name(state: ShadowState, pid: PlayerId) -> str:
    return player_by_id(state.players, pid).name


def _set_seat(state: ShadowState, seat: Seat) -> ShadowState:
    return replace(state, seats=tuple(seat if s.player == seat.player else s for s in state.seats))


def _living_seat(state: ShadowState, pid: PlayerId) -> Seat:
    player_by_id(state.players, pid)
    seat = state.seat(pid)
    if not seat.alive:
        raise Illegal(
            N_("{player} is dead: dead characters take no turns and cannot be targeted."),
            player=_name(state, pid),
        )
    return seat


def _check_play(state: ShadowState) -> None:
    """Play actions need the play phase and no death waiting for its identity."""
    if state.phase == "start":
        raise Illegal(N_("Roll every start position first."))
    if state.phase != "play":
        raise GameOverError(
            N_("The game has ended: enter the identities that are not revealed yet.")
        )
    if state.pending_reveal is not None:
        raise Illegal(
            N_("{player} died: enter the identity on the turned card first."),
            player=_name(state, state.pending_reveal),
        )


def _check_turn(state: ShadowState, pid: PlayerId, step: Step) -> Seat:
    _check_play(state)
    seat = _living_seat(state, pid)
    if pid != state.turn:
        assert state.turn is not None
        raise NotYourTurn(
            N_("It is {current}'s turn, not {player}'s."),
            current=_name(state, state.turn),
            player=_name(state, pid),
        )
    if state.step != step:
        if state.step == "move":
            raise Illegal(N_("{player} moves first: roll 2d6."), player=_name(state, pid))
        if state.step == "forest":
            raise Illegal(
                N_("{player} is in the Cat Forest: choose its effect first."),
                player=_name(state, pid),
            )
        if state.step == "choose":
            raise Illegal(
                N_("{player} rolled a 7: choose the destination first."),
                player=_name(state, pid),
            )
        raise Illegal(
            N_("{player} has moved already: attack or end the turn."), player=_name(state, pid)
        )
    return seat


def _check_rolls(rolls: Sequence[int]) -> None:
    if not rolls:
        raise Bad(N_("A move needs at least one 2d6 roll."))
    if len(rolls) > MAX_ROLLS:
        raise Bad(N_("More than {count} rolls in one move."), count=MAX_ROLLS)
    for roll in rolls:
        check_2d6(roll)


def _change_hp(state: ShadowState, pid: PlayerId, amount: int) -> tuple[ShadowState, int]:
    """Add ``amount`` to HP clamped to 0..max; return the state and what was applied."""
    seat = state.seat(pid)
    top = state.character(pid).max_hp
    hp = max(0, min(top, seat.hp + amount))
    applied = hp - seat.hp
    state = _set_seat(state, replace(seat, hp=hp))
    if amount > 0 and applied < amount:
        state = replace(
            state,
            notices=(
                *state.notices,
                _notice(
                    N_("{player} heals {applied} of {amount} HP: max HP is {max_hp}."),
                    player=pid,
                    applied=applied,
                    amount=amount,
                    max_hp=top,
                ),
            ),
        )
    if seat.alive and hp == 0:
        state = _on_death(state, pid)
    return state, applied


def _on_death(state: ShadowState, pid: PlayerId) -> ShadowState:
    seat = state.seat(pid)
    state = replace(state, notices=(*state.notices, _notice(N_("{player} dies."), player=pid)))
    if seat.identity is None:
        state = replace(state, pending_reveal=pid)
    if state.turn == pid:
        state = _advance_turn(state)
    if seat.identity is not None:
        state = _check_wipe(state)
    return state


def _advance_turn(state: ShadowState) -> ShadowState:
    """The next living player in seating order moves; a new round starts at the first."""
    order = state.turn_order()
    ids = [s.player for s in order]
    at = ids.index(state.turn) if state.turn in ids else -1
    for step in range(1, len(order) + 1):
        index = at + step
        seat = order[index % len(order)]
        if seat.alive:
            new_round = state.round + (1 if index >= len(order) else 0)
            return replace(state, turn=seat.player, step="move", round=new_round, pending_rolls=())
    return replace(state, turn=None)  # pragma: no cover - a wipe ends play first


def _check_wipe(state: ShadowState) -> ShadowState:
    """A team whose every member is dead (by recorded identity) loses."""
    counts = state.counts
    assert counts is not None
    for team, other in (("red", "blue"), ("blue", "red")):
        dead = sum(1 for s in state.seats if not s.alive and s.identity == team)
        if dead == getattr(counts, team) and state.victory is None:
            state = replace(state, phase="ended", victory=Victory("team", team=other))  # type: ignore[arg-type]
            state = replace(
                state,
                notices=(
                    *state.notices,
                    _notice(
                        N_("Every Red character is dead: the Blue team wins.")
                        if team == "red"
                        else N_("Every Blue character is dead: the Red team wins.")
                    ),
                ),
            )
    return _maybe_finish(state)


def _maybe_finish(state: ShadowState) -> ShadowState:
    if state.phase == "ended" and all(s.identity is not None for s in state.seats):
        return replace(state, phase="over", pending_reveal=None)
    return state


def _check_identity_room(state: ShadowState, identity: Identity, extra: int = 1) -> None:
    assert state.counts is not None
    allowed = getattr(state.counts, identity)
    if state.revealed(identity) + extra > allowed:
        raise Illegal(
            N_("This game has {count} {identity} identities, and they are all recorded already."),
            count=allowed,
            identity=identity,
        )


# --------------------------------------------------------------------------- handlers


def check_counts(players: int, red: int, blue: int, neutral: int) -> IdentityCounts:
    """The identity counts for ``players``, or ``SetupError`` saying what is wrong.

    Pure, so the setup screen checks the counts as they are typed.

    >>> check_counts(4, 2, 2, 0)
    IdentityCounts(red=2, blue=2, neutral=0)
    """
    counts = IdentityCounts(red=red, blue=blue, neutral=neutral)
    if min(counts.red, counts.blue) < 1 or counts.neutral < 0:
        raise SetupError(N_("A game needs at least one Red and one Blue identity."))
    if counts.total != players:
        raise SetupError(
            N_("The identity counts add up to {total}, not {count} players."),
            total=counts.total,
            count=players,
        )
    return counts


def _check_characters(state: ShadowState, roster: Roster, file: str, chosen: Sequence[str]) -> None:
    n = len(state.players)
    if len(chosen) != n:
        raise Bad(N_("Give one character for each of the {count} players."), count=n)
    for cid in chosen:
        if roster.character(cid) is None:
            raise Bad(N_("{file} has no character {character!r}."), file=file, character=cid)
    if len(set(chosen)) != n:
        raise Illegal(N_("Two players chose the same character."))


def _setup(state: ShadowState, action: Setup) -> ShadowState:
    """The whole setup in one action (logs written before the draft was recorded)."""
    file = action.roster_file.strip() or "roster.toml"
    roster = parse_roster(action.roster, file)
    _check_characters(state, roster, file, action.characters)
    layout = check_layout(action.layout)
    counts = check_counts(len(state.players), action.red, action.blue, action.neutral)
    player_by_id(state.players, action.first_player)
    return _start(
        state,
        roster,
        file,
        action.characters,
        layout,
        counts,
        action.first_player,
        action.equipment_deck,
    )


def _start(
    state: ShadowState,
    roster: Roster,
    file: str,
    characters: Sequence[str],
    layout: tuple[str, ...],
    counts: IdentityCounts,
    first_player: PlayerId,
    deck: Sequence[str],
) -> ShadowState:
    _check_deck(roster, characters, deck)
    seats = tuple(
        Seat(player=p.id, character=cid, hp=_max_hp(roster, cid))
        for p, cid in zip(state.players, characters, strict=True)
    )
    return replace(
        state,
        phase="start",
        roster=roster,
        roster_file=file,
        seats=seats,
        layout=layout,
        counts=counts,
        equipment_deck=tuple(deck),
        first_player=first_player,
        draft=None,
        turn=None,
        round=0,
    )


def _deal(state: ShadowState, action: Deal) -> ShadowState:
    file = action.roster_file.strip() or "roster.toml"
    roster = parse_roster(action.roster, file)
    n = len(state.players)
    if len(action.pairs) != n or any(not pair for pair in action.pairs):
        raise Bad(N_("Deal character cards to each of the {count} players."), count=n)
    dealt = [cid for pair in action.pairs for cid in pair]
    for cid in dealt:
        if roster.character(cid) is None:
            raise Bad(N_("{file} has no character {character!r}."), file=file, character=cid)
    if len(set(dealt)) != len(dealt):
        raise Illegal(N_("A character card is dealt twice."))
    characters = tuple(pair[0] for pair in action.pairs)
    layout = check_layout(action.layout)
    player_by_id(state.players, action.first_player)
    draft = Draft(
        roster=roster,
        roster_file=file,
        pairs=tuple(tuple(pair) for pair in action.pairs),
        characters=characters,
        layout=layout,
        counts=roster.counts_for(n),
        first_player=action.first_player,
    )
    return replace(state, draft=draft)


def _draft(state: ShadowState) -> Draft:
    if state.draft is None:
        raise Illegal(N_("Deal the setup first (the roster is read and the cards dealt)."))
    return state.draft


def _pick(state: ShadowState, action: PickCharacter) -> ShadowState:
    draft = _draft(state)
    player_by_id(state.players, action.player)
    if draft.roster.character(action.character) is None:
        raise Bad(
            N_("{file} has no character {character!r}."),
            file=draft.roster_file,
            character=action.character,
        )
    index = [p.id for p in state.players].index(action.player)
    for i, cid in enumerate(draft.characters):
        if i != index and cid == action.character:
            raise Illegal(
                N_("{player} has {character} already."),
                player=state.players[i].name,
                character=action.character,
            )
    chosen = tuple(
        action.character if i == index else cid for i, cid in enumerate(draft.characters)
    )
    return replace(state, draft=replace(draft, characters=chosen))


def _set_counts(state: ShadowState, action: SetCounts) -> ShadowState:
    draft = _draft(state)
    counts = check_counts(len(state.players), action.red, action.blue, action.neutral)
    return replace(state, draft=replace(draft, counts=counts))


def _set_layout(state: ShadowState, action: SetLayout) -> ShadowState:
    draft = _draft(state)
    return replace(state, draft=replace(draft, layout=check_layout(action.layout)))


def _set_first(state: ShadowState, action: SetFirstPlayer) -> ShadowState:
    draft = _draft(state)
    player_by_id(state.players, action.player)
    return replace(state, draft=replace(draft, first_player=action.player))


def _begin(state: ShadowState, action: Begin) -> ShadowState:
    draft = _draft(state)
    if draft.counts is None:
        raise Illegal(
            N_("{file} has no identity counts for {count} players: set them first (k)."),
            file=draft.roster_file,
            count=len(state.players),
        )
    return _start(
        state,
        draft.roster,
        draft.roster_file,
        draft.characters,
        draft.layout,
        draft.counts,
        draft.first_player,
        action.equipment_deck,
    )


def _max_hp(roster: Any, cid: str) -> int:
    character = roster.character(cid)
    assert character is not None
    return int(character.max_hp)


def _check_deck(roster: Any, characters: Sequence[str], deck: Sequence[str]) -> None:
    """Every in-play character's own items, then others up to 12 weapons and 12 armours."""
    if len(set(deck)) != len(deck):
        raise Bad(N_("An equipment card is listed twice in the deck."))
    for iid in deck:
        if roster.item(iid) is None:
            raise Bad(N_("There is no equipment {item!r} in the roster."), item=iid)
    in_play = set(characters)
    for item in roster.items:
        if item.owner in in_play and item.id not in deck:
            raise Illegal(
                N_("The equipment deck must hold {item}, the item of a character in play."),
                item=item.id,
            )
    for kind in ("weapon", "armour"):
        available = sum(1 for i in roster.items if i.kind == kind)
        chosen = sum(1 for iid in deck if roster.item(iid).kind == kind)
        wanted = min(DECK_SIZE, available)
        if chosen != wanted:
            raise Illegal(
                N_("The equipment deck holds {count} {kind} cards; it needs {wanted}."),
                count=chosen,
                kind=kind,
                wanted=wanted,
            )


def _place(state: ShadowState, action: Place) -> ShadowState:
    if state.phase != "start":
        raise Illegal(N_("Start positions are rolled before the first turn only."))
    player_by_id(state.players, action.player)
    expected = state.next_to_place
    assert expected is not None
    if action.player != expected:
        raise NotYourTurn(
            N_("{current} rolls a start position next, not {player}."),
            current=_name(state, expected),
            player=_name(state, action.player),
        )
    _check_rolls(action.rolls)
    for roll in action.rolls[:-1]:
        if roll != FREE_CHOICE:
            raise Illegal(
                N_("Only a 7 is rolled again for a start position; {roll} places the piece."),
                roll=roll,
            )
    last = action.rolls[-1]
    if last == FREE_CHOICE:
        raise Illegal(N_("A 7 for a start position is rolled again: add the next roll."))
    location = SUMS[last]
    state = _set_seat(state, replace(state.seat(action.player), location=location))
    state = replace(
        state,
        notices=(
            _notice(N_("{player} starts on {location}."), player=action.player, location=location),
        ),
    )
    if state.next_to_place is None:
        state = replace(state, phase="play", turn=state.first_player, step="move", round=1)
    return state


def _check_rerolls(state: ShadowState, rolls: Sequence[int], here: str | None) -> None:
    """All but the last roll of a move landed where the player already was."""
    _check_rolls(rolls)
    for roll in rolls[:-1]:
        if roll == FREE_CHOICE or SUMS[roll] != here:
            raise Illegal(
                N_(
                    "Roll {roll} needs no re-roll: only a roll that lands "
                    "where the player already is is rolled again."
                ),
                roll=roll,
            )


def _move(state: ShadowState, action: Move) -> ShadowState:
    seat = _check_turn(state, action.player, "move")
    here = seat.location
    _check_rerolls(state, action.rolls, here)
    last = action.rolls[-1]
    if last == FREE_CHOICE:
        if action.destination is None:
            raise Bad(N_("A 7 lets the player choose: give the destination."))
        there = _free_destination(state, action.player, action.destination, here)
    else:
        there = SUMS[last]
        if action.destination is not None and action.destination != there:
            raise Bad(
                N_("Roll {roll} lands on {location}; a destination is chosen only on a 7."),
                roll=last,
                location=there,
            )
        if there == here:
            raise Illegal(
                N_("Roll {roll} lands where {player} already is: roll again and add that roll."),
                roll=last,
                player=_name(state, action.player),
            )
    return _arrive(state, seat, there)


def _free_destination(state: ShadowState, pid: PlayerId, destination: str, here: str | None) -> str:
    there = check_location(destination)
    if there == here:
        raise Illegal(
            N_("{player} may not stay on {location}."),
            player=_name(state, pid),
            location=there,
        )
    return there


def _arrive(state: ShadowState, seat: Seat, there: str) -> ShadowState:
    state = _set_seat(state, replace(seat, location=there))
    step: Step = "forest" if there == "forest" else "attack"
    return replace(
        state,
        step=step,
        pending_rolls=(),
        notices=(
            _notice(N_("{player} moves to {location}."), player=seat.player, location=there),
            _notice(LOCATION_NOTICES[there], player=seat.player),
        ),
    )


def _move_dice(state: ShadowState, action: MoveDice) -> ShadowState:
    seat = _check_turn(state, action.player, "move")
    _check_rerolls(state, action.rolls, seat.location)
    if action.rolls[-1] != FREE_CHOICE:
        raise Bad(
            N_("move-dice records dice that end in a 7; roll {roll} is a whole move."),
            roll=action.rolls[-1],
        )
    return replace(
        state,
        step="choose",
        pending_rolls=tuple(action.rolls),
        notices=(
            _notice(N_("{player} rolls a 7: choose any other location."), player=action.player),
        ),
    )


def _destination(state: ShadowState, action: Destination) -> ShadowState:
    seat = _check_turn(state, action.player, "choose")
    there = _free_destination(state, action.player, action.location, seat.location)
    return _arrive(state, seat, there)


def _forest(state: ShadowState, action: Forest) -> ShadowState:
    _check_turn(state, action.player, "forest")
    _living_seat(state, action.target)
    if action.effect == "damage":
        if action.target == action.player:
            raise Illegal(N_("Cat Forest's 20 damage must go to another character."))
        state, _ = _change_hp(replace(state, step="attack"), action.target, -FOREST_DAMAGE)
    else:
        state, _ = _change_hp(replace(state, step="attack"), action.target, FOREST_HEAL)
    return state


def _attack(state: ShadowState, action: Attack) -> ShadowState:
    _check_turn(state, action.player, "attack")
    player_by_id(state.players, action.target)
    if action.target == action.player:
        raise Illegal(N_("A character cannot attack itself."))
    target = _living_seat(state, action.target)
    reach = state.character(action.player).range
    gap = state.distance(action.player, action.target)
    if gap > reach:
        raise Illegal(
            N_("{target} is at distance {distance}; {player}'s range is {range}."),
            target=_name(state, action.target),
            distance=gap,
            range=reach,
            player=_name(state, action.player),
        )
    check_d100(action.roll)
    table = state.fighting_character(action.player).damage_for(action.roll)
    element, weapon, armour = state.attack_modifiers(action.player, action.target)
    if table is None:
        element = weapon = armour = 0
        dealt = 0
    else:
        dealt = max(0, table + element + weapon - armour)
    state, _ = _change_hp(state, action.target, -dealt)
    report = AttackReport(
        attacker=action.player,
        target=action.target,
        roll=action.roll,
        table=table,
        element=element,
        weapon=weapon,
        armour=armour,
        damage=dealt,
        hp_before=target.hp,
        hp_after=state.seat(target.player).hp,
    )
    state = replace(state, last_attack=report)
    if state.turn == action.player:
        state = _advance_turn(state)
    return state


def _end_turn(state: ShadowState, action: EndTurn) -> ShadowState:
    _check_turn(state, action.player, "attack")
    return _advance_turn(state)


def _reveal(state: ShadowState, action: Reveal) -> ShadowState:
    if state.phase == "start":
        raise Illegal(N_("Roll every start position first."))
    player_by_id(state.players, action.player)
    if action.identity not in IDENTITIES:  # pragma: no cover - the JSON codec checks
        raise Bad(N_("Unknown identity {identity!r}."), identity=action.identity)
    seat = state.seat(action.player)
    if seat.identity is not None:
        raise Illegal(
            N_("{player}'s identity is recorded already ({identity})."),
            player=_name(state, action.player),
            identity=seat.identity,
        )
    pending = state.pending_reveal
    if pending is not None and pending != action.player:
        raise Illegal(
            N_("{player} died: enter the identity on the turned card first."),
            player=_name(state, pending),
        )
    if seat.alive:
        _need_reason(action.reason)
    _check_identity_room(state, action.identity)
    state = _set_seat(state, replace(seat, identity=action.identity))
    state = replace(
        state,
        notices=(
            _notice(N_("{player} is {identity}."), player=action.player, identity=action.identity),
        ),
    )
    if pending == action.player:
        state = replace(state, pending_reveal=None)
    if not seat.alive:
        return _check_wipe(state)
    return _maybe_finish(state)


def _manual_target(state: ShadowState, pid: PlayerId, reason: str) -> Seat:
    _check_play(state)
    _need_reason(reason)
    return _living_seat(state, pid)


def _change_hp_action(state: ShadowState, action: ChangeHp) -> ShadowState:
    _manual_target(state, action.player, action.reason)
    if action.amount == 0:
        raise Bad(N_("An HP change of 0 changes nothing."))
    if abs(action.amount) > MAX_HP_CHANGE:
        raise Bad(N_("An HP change is at most {limit} either way."), limit=MAX_HP_CHANGE)
    state, _ = _change_hp(state, action.player, action.amount)
    return state


def _relocate(state: ShadowState, action: Relocate) -> ShadowState:
    seat = _manual_target(state, action.player, action.reason)
    there = check_location(action.location)
    if seat.location == there:
        raise Illegal(
            N_("{player} is on {location} already."),
            player=_name(state, action.player),
            location=there,
        )
    state = _set_seat(state, replace(seat, location=there))
    return replace(
        state,
        notices=(
            _notice(N_("{player} is moved to {location}."), player=action.player, location=there),
        ),
    )


def _give_item(state: ShadowState, action: GiveItem) -> ShadowState:
    seat = _manual_target(state, action.player, action.reason)
    item = state.item(action.item)
    if item is None:
        raise Bad(N_("There is no equipment {item!r} in the roster."), item=action.item)
    if item.id not in state.equipment_deck:
        raise Illegal(N_("{item} is not in this game's equipment deck."), item=item.name)
    holder = state.holder_of(item.id)
    if holder is not None:
        raise Illegal(
            N_("{holder} holds {item} already; take it first."),
            holder=_name(state, holder),
            item=item.name,
        )
    held = seat.weapon if item.kind == "weapon" else seat.armour
    if held is not None:
        raise Illegal(
            N_("{player} holds a {kind} already; take it first."),
            player=_name(state, action.player),
            kind=item.kind,
        )
    new = replace(seat, weapon=item.id) if item.kind == "weapon" else replace(seat, armour=item.id)
    return _set_seat(state, new)


def _take_item(state: ShadowState, action: TakeItem) -> ShadowState:
    _check_play(state)
    _need_reason(action.reason)
    player_by_id(state.players, action.player)
    seat = state.seat(action.player)
    if action.item not in (seat.weapon, seat.armour):
        raise Illegal(
            N_("{player} does not hold {item}."),
            player=_name(state, action.player),
            item=action.item,
        )
    new = replace(seat, weapon=None) if seat.weapon == action.item else replace(seat, armour=None)
    return _set_seat(state, new)


def _copy(state: ShadowState, action: CopyCharacter) -> ShadowState:
    seat = _manual_target(state, action.player, action.reason)
    own = state.character(action.player)
    if not own.copies:
        raise Illegal(N_("{character} cannot copy other characters."), character=own.name)
    assert state.roster is not None
    if state.roster.character(action.character) is None:
        raise Bad(
            N_("{file} has no character {character!r}."),
            file=state.roster_file,
            character=action.character,
        )
    if action.character == own.id:
        raise Illegal(N_("{character} cannot copy itself."), character=own.name)
    return _set_seat(state, replace(seat, copied=action.character))


def _declare(state: ShadowState, action: DeclareNeutralWin) -> ShadowState:
    if state.phase not in ("play", "ended"):
        raise Illegal(N_("A Neutral can only win during play."))
    _need_reason(action.reason)
    if not action.players:
        raise Bad(N_("Name the Neutral player(s) who won."))
    if len(set(action.players)) != len(action.players):
        raise Bad(N_("A player is named twice."))
    assert state.counts is not None
    if state.counts.neutral == 0:
        raise Illegal(N_("This game has no Neutral identities."))
    earlier = state.victory.neutrals if state.victory and state.victory.kind == "neutral" else ()
    new = 0
    for pid in action.players:
        player_by_id(state.players, pid)
        if pid in earlier:
            raise Illegal(
                N_("{player}'s Neutral win is recorded already."), player=_name(state, pid)
            )
        identity = state.seat(pid).identity
        if identity not in (None, "neutral"):
            raise Illegal(
                N_("{player} was revealed as {identity}; only a Neutral wins this way."),
                player=_name(state, pid),
                identity=identity,
            )
        new += identity is None
    _check_identity_room(state, "neutral", new)
    for pid in action.players:
        state = _set_seat(state, replace(state.seat(pid), identity="neutral"))
    pending = state.pending_reveal
    if pending is not None and state.seat(pending).identity is not None:
        pending = None
    state = replace(
        state,
        phase="ended",
        pending_reveal=pending,
        victory=Victory("neutral", neutrals=(*earlier, *action.players)),
        notices=(
            _notice(
                N_("Neutral win declared: {names}."),
                names=listing([_name(state, pid) for pid in action.players]),
            ),
        ),
    )
    return _maybe_finish(state)


def _final(state: ShadowState, action: FinalIdentities) -> ShadowState:
    if state.phase != "ended":
        raise Illegal(N_("The game has not ended: identities are entered after a victory."))
    given: dict[PlayerId, Identity] = {}
    for entry in action.identities:
        player_by_id(state.players, entry.player)
        if entry.player in given:
            raise Bad(N_("{player} is listed twice."), player=_name(state, entry.player))
        if state.seat(entry.player).identity is not None:
            raise Illegal(
                N_("{player}'s identity is recorded already ({identity})."),
                player=_name(state, entry.player),
                identity=state.seat(entry.player).identity,
            )
        given[entry.player] = entry.identity
    missing = [s.player for s in state.seats if s.identity is None and s.player not in given]
    if missing:
        raise Illegal(
            N_("Enter the identity of {players} too."),
            players=listing([_name(state, p) for p in missing]),
        )
    seats = tuple(replace(s, identity=given.get(s.player, s.identity)) for s in state.seats)
    assert state.counts is not None
    for identity in IDENTITIES:
        count = sum(1 for s in seats if s.identity == identity)
        wanted = getattr(state.counts, identity)
        if count != wanted:
            raise Illegal(
                N_("That makes {count} {identity} identities, but this game has {wanted}."),
                count=count,
                identity=identity,
                wanted=wanted,
            )
    return replace(state, seats=seats, phase="over", pending_reveal=None)


SETUP_ACTIONS = (Setup, Deal, PickCharacter, SetCounts, SetLayout, SetFirstPlayer, Begin)

_HANDLERS: dict[type[Action], Any] = {
    Setup: _setup,
    Deal: _deal,
    PickCharacter: _pick,
    SetCounts: _set_counts,
    SetLayout: _set_layout,
    SetFirstPlayer: _set_first,
    Begin: _begin,
    MoveDice: _move_dice,
    Destination: _destination,
    Place: _place,
    Move: _move,
    Forest: _forest,
    Attack: _attack,
    EndTurn: _end_turn,
    Reveal: _reveal,
    ChangeHp: _change_hp_action,
    Relocate: _relocate,
    GiveItem: _give_item,
    TakeItem: _take_item,
    CopyCharacter: _copy,
    DeclareNeutralWin: _declare,
    FinalIdentities: _final,
}
