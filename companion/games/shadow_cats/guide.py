"""The host guide of 喵窩暗影: what can happen now, what to do next, what an entry did.

Design decisions:

* Pure like the rules (``companion.rules`` and this game's rules only): sentences are
  ``Say`` values whose templates are marked with ``N_``; the screen, the log panel,
  history and the board translate them where they are shown.
* ``allowed`` mirrors the checks in ``rules/game.py`` phase by phase; the property in
  ``tests/games/shadow_cats/test_guide.py`` holds it to them (``apply`` accepts a type only
  if it is allowed and refuses every other type).
* Characters and items are named in both languages at once (``小布 (Xiaobu)``, the
  Simplified form first): a sentence has no language until it is shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.actions import (
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
from companion.games.shadow_cats.rules.board import FREE_CHOICE, LOCATIONS
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.rules.words import IDENTITY_WORDS, LOCATION_WORDS
from companion.games.shadow_cats.summary import SUMMARY
from companion.rules.base import N_, Action, PlayerId, RuleError, player_by_id
from companion.rules.guide import Guide, Say, accepted, listing, say

SETUP_TYPES = frozenset({"setup", "deal"})
DRAFT_TYPES = frozenset({"pick-character", "identity-counts", "layout", "first-player"})
STEP_TYPES = {
    "move": frozenset({"move", "move-dice"}),
    "choose": frozenset({"destination"}),
    "forest": frozenset({"forest"}),
    "attack": frozenset({"attack", "end-turn"}),
}


def join(parts: Sequence[Any], sep: str | None = None) -> Say:
    """Several values (``Say`` or text) as one sentence part; each is translated.

    Without ``sep`` the list separator is the shown language's (``Ann, Bo`` in English,
    ``大伟、小明`` in Chinese: ``companion.rules.guide.listing``)."""
    if sep is None:
        return listing(parts)
    keys = [f"p{i}" for i in range(len(parts))]
    return Say(sep.join("{" + k + "}" for k in keys), dict(zip(keys, parts, strict=True)))


def location(loc: str | None) -> Say | str:
    return Say(LOCATION_WORDS[loc]) if loc in LOCATION_WORDS else "—"


def identity(value: str | None) -> Say | str:
    return Say(IDENTITY_WORDS[value]) if value in IDENTITY_WORDS else "?"


def rolls(values: Sequence[int]) -> Say:
    """The dice of one move as a list in the shown language (``8, 7`` / ``8、7``)."""
    return listing([str(v) for v in values])


def reason_of(text: str) -> Say | str:
    return say(N_(" ({reason})"), reason=text.strip()) if text.strip() else ""


def card_name(chinese: str, english: str) -> Say | str:
    """A card's name as the shown language reads it: ``小布 (Xiaobu)`` in English (the
    card's own name is a proper name, its romanization helps), ``小布`` alone in Chinese
    (the zh catalog renders the template as ``{chinese}``; the romanization in a
    Chinese sentence was a language leak: ``蜜茶的专属防具 (Micha's armour)``)."""
    if not english or english == chinese:
        return chinese
    return Say(N_("{chinese} ({english})"), {"chinese": chinese, "english": english})


class ShadowCatsGuide(Guide[ShadowState]):
    summary = SUMMARY
    # ------------------------------------------------------------------ where we are

    def phase(self, state: ShadowState) -> str:
        return state.phase

    def turn(self, state: ShadowState) -> PlayerId | None:
        if state.phase == "start":
            return state.next_to_place
        if state.phase == "play":
            return state.turn
        return None

    # The one-action setup of older logs, the deal, or a first player chosen after it.
    start_player_entries = (
        ("setup", "first_player"),
        ("deal", "first_player"),
        ("first-player", "player"),
    )
    start_player_from = "last"

    def start_player(self, state: ShadowState) -> PlayerId | None:
        """The player chosen to take the first turn (``first_player`` at setup)."""
        if state.first_player is not None:
            return state.first_player
        return state.draft.first_player if state.draft is not None else None

    # ------------------------------------------------------------------ allowed

    def allowed(self, state: ShadowState) -> frozenset[str]:
        if state.phase == "over":
            return frozenset()
        if state.phase == "setup":
            if state.draft is None:
                return SETUP_TYPES
            begin = {"begin"} if state.draft.counts is not None else set()
            return SETUP_TYPES | DRAFT_TYPES | begin
        if state.phase == "start":
            return frozenset({"place"})
        out: set[str] = set()
        hidden = any(s.identity is None for s in state.seats)
        neutral = state.counts is not None and state.counts.neutral > 0
        if hidden:
            out.add("reveal")
        if neutral:
            out.add("declare-neutral-win")
        if state.phase == "ended":
            return frozenset(out | {"final-identities"})
        if state.pending_reveal is not None:
            return frozenset(out)
        out |= STEP_TYPES[state.step]
        if state.step == "attack" and state.turn is not None and not state.in_range(state.turn):
            out.discard("attack")  # nobody within range: the key says so instead
        out |= {"change-hp", "relocate"}
        if any(state.holder_of(i) is None for i in state.equipment_deck):
            out.add("give-item")
        if any(s.weapon or s.armour for s in state.seats):
            out.add("take-item")
        if any(s.alive and state.character(s.player).copies for s in state.seats):
            out.add("copy")
        return frozenset(out)

    def choices(self, state: ShadowState, action_type: str) -> tuple[Mapping[str, Any], ...]:
        """The items of the manual dialogs, only those the rules accept now: who can be
        declared a Neutral winner (not one declared already, not once the Neutral cards
        are used up), who copies whom (丑时 only, living, never itself), which item to give
        or take, where to move someone, whose HP to change."""
        if action_type not in self.allowed(state):
            return ()
        living = [s.player for s in state.living()]
        out: list[tuple[Mapping[str, Any], Action]] = []
        if action_type == "declare-neutral-win":
            out = [
                ({"players": (s.player,)}, DeclareNeutralWin((s.player,), "-")) for s in state.seats
            ]
        elif action_type == CopyCharacter.type and state.roster is not None:
            for pid in living:
                for c in state.roster.characters:
                    out.append(({"player": pid, "character": c.id}, CopyCharacter(pid, c.id, "-")))
        elif action_type == "give-item":
            for pid in living:
                for iid in state.equipment_deck:
                    out.append(({"player": pid, "item": iid}, GiveItem(pid, iid, "-")))
        elif action_type == "take-item":
            for seat in state.seats:
                for held in (seat.weapon, seat.armour):
                    if held is not None:
                        fields = {"player": seat.player, "item": held}
                        out.append((fields, TakeItem(seat.player, held, "-")))
        elif action_type == "relocate":
            for pid in living:
                for loc in LOCATIONS:
                    out.append(({"player": pid, "location": loc}, Relocate(pid, loc, "-")))
        elif action_type == "reveal":
            for seat in state.seats:
                if seat.identity is None:
                    for identity in IDENTITIES:
                        action = Reveal(seat.player, identity, "-")
                        out.append(({"player": seat.player, "identity": identity}, action))
        elif action_type == "change-hp":
            out = [({"player": pid}, ChangeHp(pid, -1, "-")) for pid in living]
        return accepted(GAME.apply, state, out)

    def why_not(self, state: ShadowState, action_type: str) -> Say:
        if state.phase == "over":
            return Say(N_("The game is over; undo to change it."))
        if action_type in SETUP_TYPES | DRAFT_TYPES | {"begin"}:
            if state.phase != "setup":
                return Say(N_("The game is set up already; undo to set it up again."))
            if state.draft is None:
                return Say(N_("Deal the setup first (the roster is read and the cards dealt)."))
            return Say(N_("Set the identity counts first."))
        if state.phase == "setup":
            return Say(N_("Set the game up first (roster, characters, board)."))
        if state.phase == "start":
            return Say(N_("Roll every start position first."))
        if state.phase == "ended":
            return Say(N_("The game has ended: enter the identities that are not revealed yet."))
        if state.pending_reveal is not None:
            return say(
                N_("{player} died: enter the identity on the turned card first."),
                player=self._name(state, state.pending_reveal),
            )
        if action_type in {t for types in STEP_TYPES.values() for t in types}:
            player = self._name(state, state.turn)
            if action_type == "attack" and state.step == "attack":
                return say(
                    N_("No living character is within {player}'s range: end the turn."),
                    player=player,
                )
            return {
                "move": say(N_("{player} moves first: roll 2d6."), player=player),
                "choose": say(
                    N_("{player} rolled a 7: choose the destination first."), player=player
                ),
                "forest": say(
                    N_("{player} is in the Cat Forest: choose its effect first."), player=player
                ),
                "attack": say(
                    N_("{player} has moved already: attack or end the turn."), player=player
                ),
            }[state.step]
        return super().why_not(state, action_type)

    # ------------------------------------------------------------------ prompt

    def prompt(self, state: ShadowState) -> Say:
        if state.phase == "setup":
            if state.draft is None:
                return Say(N_("Read the roster file and deal the setup."))
            if state.draft.counts is None:
                return Say(N_("Set the identity counts, then start the game."))
            return Say(
                N_("Check the characters, identity counts, board and first player; then start.")
            )
        if state.phase == "start":
            return say(
                N_("{player} rolls 2d6 for a start position."),
                player=self._name(state, state.next_to_place),
            )
        if state.phase == "ended":
            return Say(N_("Victory: enter the identities still hidden."))
        if state.phase == "over":
            return Say(N_("The game is over."))
        if state.pending_reveal is not None:
            return say(
                N_("{player} died: enter the identity on the turned card."),
                player=self._name(state, state.pending_reveal),
            )
        player = self._name(state, state.turn)
        if state.step == "move":
            return say(N_("{player} moves: roll 2d6."), player=player)
        if state.step == "choose":
            return say(N_("{player} rolled a 7: choose any other location."), player=player)
        if state.step == "forest":
            return say(N_("{player} is in the Cat Forest: choose its effect."), player=player)
        return say(N_("{player} attacks someone in range, or ends the turn."), player=player)

    # ------------------------------------------------------------------ describe

    def describe(self, action: Action, before: ShadowState, after: ShadowState) -> Say:
        name = self._name
        if isinstance(action, Setup):
            return say(
                N_(
                    "Setup: {characters}; {red} Red, {blue} Blue, {neutral} Neutral; {first} first."
                ),
                characters=join(
                    [
                        Say("{name} {card}", {"name": p.name, "card": self._card(after, cid)})
                        for p, cid in zip(after.players, action.characters, strict=False)
                    ]
                ),
                red=action.red,
                blue=action.blue,
                neutral=action.neutral,
                first=name(after, action.first_player),
            )
        if isinstance(action, Deal):
            return say(
                N_("Dealt from {file}: {pairs}; {first} first."),
                file=action.roster_file,
                pairs=join(
                    [
                        Say(
                            "{name} {cards}",
                            {
                                "name": p.name,
                                "cards": join([self._card(after, c) for c in pair], " / "),
                            },
                        )
                        for p, pair in zip(after.players, action.pairs, strict=False)
                    ]
                ),
                first=name(after, action.first_player),
            )
        if isinstance(action, PickCharacter):
            return say(
                N_("{player} takes {character}."),
                player=name(after, action.player),
                character=self._card(after, action.character),
            )
        if isinstance(action, SetCounts):
            return say(
                N_("Identity cards: {red} Red · {blue} Blue · {neutral} Neutral."),
                red=action.red,
                blue=action.blue,
                neutral=action.neutral,
            )
        if isinstance(action, SetLayout):
            return say(
                N_("Board laid out: {layout}."), layout=join([location(x) for x in action.layout])
            )
        if isinstance(action, SetFirstPlayer):
            return say(N_("{player} takes the first turn."), player=name(after, action.player))
        if isinstance(action, Begin):
            return say(
                N_("The game starts with {count} equipment cards in the deck."),
                count=len(action.equipment_deck),
            )
        if isinstance(action, Place):
            return say(
                N_("{player} starts on {location} (2d6: {rolls})."),
                player=name(after, action.player),
                location=location(after.seat(action.player).location),
                rolls=rolls(action.rolls),
            )
        if isinstance(action, Move):
            template = (
                N_("{player} rolls {rolls} and chooses {location}.")
                if action.rolls[-1] == FREE_CHOICE
                else N_("{player} moves to {location} (2d6: {rolls}).")
            )
            return say(
                template,
                player=name(after, action.player),
                location=location(after.seat(action.player).location),
                rolls=rolls(action.rolls),
            )
        if isinstance(action, MoveDice):
            return say(
                N_("{player} rolls {rolls}: free choice of another location."),
                player=name(after, action.player),
                rolls=rolls(action.rolls),
            )
        if isinstance(action, Destination):
            return say(
                N_("{player} chooses {location}."),
                player=name(after, action.player),
                location=location(action.location),
            )
        if isinstance(action, Forest):
            return say(
                N_("Cat Forest: {player} damages {target} by 20, HP {before} → {after}.")
                if action.effect == "damage"
                else N_("Cat Forest: {player} heals {target}, HP {before} → {after}."),
                player=name(after, action.player),
                target=name(after, action.target),
                before=before.seat(action.target).hp,
                after=after.seat(action.target).hp,
            )
        if isinstance(action, Attack):
            report = after.last_attack
            if report is None or report.table is None:
                return say(
                    N_("{player} attacks {target}: d100 {roll} → miss."),
                    player=name(after, action.player),
                    target=name(after, action.target),
                    roll=action.roll,
                )
            return say(
                N_(
                    "{player} attacks {target}: d100 {roll} → {damage} damage, "
                    "HP {before} → {after}."
                ),
                player=name(after, action.player),
                target=name(after, action.target),
                roll=action.roll,
                damage=report.damage,
                before=report.hp_before,
                after=report.hp_after,
            )
        if isinstance(action, EndTurn):
            return say(N_("{player} ends the turn."), player=name(after, action.player))
        if isinstance(action, Reveal):
            return say(
                N_("{player} is {identity}{reason}."),
                player=name(after, action.player),
                identity=identity(action.identity),
                reason=reason_of(action.reason),
            )
        if isinstance(action, ChangeHp):
            return say(
                N_("{player}: HP {before} → {after}{reason}."),
                player=name(after, action.player),
                before=before.seat(action.player).hp,
                after=after.seat(action.player).hp,
                reason=reason_of(action.reason),
            )
        if isinstance(action, Relocate):
            return say(
                N_("{player} is moved to {location}{reason}."),
                player=name(after, action.player),
                location=location(action.location),
                reason=reason_of(action.reason),
            )
        if isinstance(action, GiveItem):
            return say(
                N_("{player} gets {item}{reason}."),
                player=name(after, action.player),
                item=self._item(after, action.item),
                reason=reason_of(action.reason),
            )
        if isinstance(action, TakeItem):
            return say(
                N_("{item} is taken from {player}{reason}."),
                player=name(after, action.player),
                item=self._item(after, action.item),
                reason=reason_of(action.reason),
            )
        if isinstance(action, CopyCharacter):
            return say(
                N_("{player} copies {character}{reason}."),
                player=name(after, action.player),
                character=self._card(after, action.character),
                reason=reason_of(action.reason),
            )
        if isinstance(action, DeclareNeutralWin):
            return say(
                N_("Neutral win declared: {names}{reason}."),
                names=join([name(after, p) for p in action.players]),
                reason=reason_of(action.reason),
            )
        if isinstance(action, FinalIdentities):
            return say(
                N_("Final identities: {identities}."),
                identities=join(
                    [
                        say(
                            N_("{player} {identity}"),
                            player=name(after, e.player),
                            identity=identity(e.identity),
                        )
                        for e in action.identities
                    ]
                ),
            )
        return Say(action.type)

    # ------------------------------------------------------------------ names

    @staticmethod
    def _name(state: ShadowState, pid: PlayerId | None) -> str:
        if pid is None:
            return "—"
        try:
            return player_by_id(state.players, pid).name
        except RuleError:  # an id the rules refused: the sentence still reads
            return pid

    @staticmethod
    def _card(state: ShadowState, cid: str) -> Say | str:
        roster = state.roster or (state.draft.roster if state.draft else None)
        found = roster.character(cid) if roster is not None else None
        return card_name(found.name_zh or found.name, found.name_en) if found else cid

    @staticmethod
    def _item(state: ShadowState, iid: str) -> Say | str:
        found = state.item(iid)
        return card_name(found.name_zh or found.name, found.name_en) if found else iid


GUIDE = ShadowCatsGuide()

__all__ = ["GUIDE", "ShadowCatsGuide", "join"]
