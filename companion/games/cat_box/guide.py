"""喵喵开箱's host guide: what can be done now, what to do next, what happened.

Design decisions:

* ``allowed`` is computed from the same state questions ``apply`` asks (``check_roll``,
  ``openable``): a type is listed exactly when some action of that type can pass now.
  The screen's keys, the footer and the help read it; nothing else keeps a table.
* Card names are data from the host's card file, not catalog strings, so a sentence
  carries a ``CardName`` (both names) that picks the one of the language it is shown
  in. Rules and guide stay free of gettext; the language is asked of the catalog with
  a probe string (``LANGUAGE_PROBE``) translated in each language's ``.po``.
* The start player is the ``deal``'s (``first_player``): the host's choice, or drawn
  by the preparer when the host left it to chance.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.games.cat_box.rules import (
    GAME,
    AdjustTokens,
    CatBoxState,
    Deal,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    Termination,
    UseEnvy,
)
from companion.rules.base import N_, Action, PlayerId
from companion.rules.guide import Guide, Say, accepted, listing, say

LANGUAGE_PROBE = N_("card names: English")
"""Translated as ``card names: Chinese`` in the zh catalog: tells ``CardName`` the language."""
ZH_PROBE = "card names: Chinese"


class CardName(Say):
    """A card's name in the language the sentence is shown in."""

    def __init__(self, name: str, name_zh: str = "") -> None:
        super().__init__(name, {"zh": name_zh or name})

    def render(self, gettext: Callable[[str], str] | None = None) -> str:
        if gettext is not None and gettext(LANGUAGE_PROBE) == ZH_PROBE:
            return str(self.params["zh"])
        return self.template


def card_name(state: CatBoxState, card_id: str) -> CardName:
    card = state.card(card_id)
    return CardName(card.name, card.name_zh)


def card_names(state: CatBoxState, card_ids: Sequence[str]) -> Say:
    """Several card names, each in the shown language, listed in its punctuation."""
    return listing([card_name(state, c) for c in card_ids])


def dice(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values) if values else "–"


TURN_TYPES = frozenset({Roll.type, Retire.type})
MANUAL_TYPES = frozenset({AdjustTokens.type})


class CatBoxGuide(Guide[CatBoxState]):
    start_player_entries = ((Deal.type, "start"),)
    """The ``deal`` records who starts round 1 (what ``start_player`` answers)."""
    start_player_from = "last"
    """A deal undone and dealt again: the deal in effect counts."""

    summary = N_(
        "Nine Cards: Cat Box (3–8 players). On your turn do one of: ROLL (r) the 3 common "
        "dice and 1 or 2 of your player dice, then place one token (p) on a slot whose tease "
        "condition the dice meet, on a card whose hiss value is not below the sum of your "
        "player dice (held plus rolled). If the sum is above the hiss value of a card with "
        "your tokens you BUST: those tokens go back, you stop for the round, and every "
        "retired player gains 1 token. OPEN (o) a card whose every slot holds your token: "
        "score it; the others' tokens on it become theirs. RETIRE (t): gain 1 token and stop "
        "for the round. The round ends when everyone has stopped; held dice are cleared.\n"
        "20 points win at once. When the deck runs out the others still active take one "
        "last action; then tokens on the cards go to their owners and the highest score "
        "wins. Envy effects (v) and manual fixes (m) keep a reason in the log."
    )

    def phase(self, state: CatBoxState) -> str:
        if not state.dealt:
            return "deal"
        if state.ended is not None:
            return "over"
        if state.pending is not None:
            return "roll"
        return "turn"

    def turn(self, state: CatBoxState) -> PlayerId | None:
        return state.current if state.dealt and state.ended is None else None

    def start_player(self, state: CatBoxState) -> PlayerId | None:
        return state.first_player

    def allowed(self, state: CatBoxState) -> frozenset[str]:
        if not state.dealt:
            return frozenset({Deal.type})
        if state.ended is not None or state.current is None:
            return frozenset()
        out = set(MANUAL_TYPES)
        if any(shown.holders() for shown in state.display):
            out.add(RemoveToken.type)
        pid = state.current
        pending = state.pending
        if pending is None:
            out |= TURN_TYPES
            if state.openable(pid):
                out.add(Open.type)
            return frozenset(out)
        out |= {Pass.type, SetDice.type}
        check = state.check_roll(pending.player, pending.common, pending.rolled)
        if check.may_place and self._free_slot(state, pid, check.too_hot):
            out.add(Place.type)
        if pending.envy is None and check.envy_cards:
            out.add(UseEnvy.type)
        return frozenset(out)

    @staticmethod
    def _free_slot(state: CatBoxState, pid: PlayerId, too_hot: tuple[str, ...]) -> bool:
        """A slot without ``pid``'s token on a card not too hot (with the host's override)."""
        return any(
            pid not in holders
            for shown in state.display
            if shown.card not in too_hot
            for holders in shown.tokens
        )

    def choices(self, state: CatBoxState, action_type: str) -> tuple[Mapping[str, Any], ...]:
        """The dialogs' lists, only what the rules accept now: the boxes the player whose
        turn it is may open; the slots the open roll meets (a slot taken by the
        host's override is typed with its reason, and the dialog tries it with that
        reason); the envy effects this roll may use; the tokens a player has on the
        cards (the manual "take a token off" change, with its reason typed after)."""
        pid = state.current
        if pid is None or action_type not in self.allowed(state):
            return ()
        candidates: list[tuple[Mapping[str, Any], Action]] = []
        if action_type == Open.type:
            for card in state.openable(pid):
                candidates.append(({"player": pid, "card": card}, Open(pid, card)))
        elif action_type == Place.type and state.pending is not None:
            pending = state.pending
            check = state.check_roll(pending.player, pending.common, pending.rolled)
            for card, slot in check.allowed:
                fields = {"player": pid, "card": card, "slot": slot}
                candidates.append((fields, Place(pid, card, slot)))
        elif action_type == UseEnvy.type and state.pending is not None:
            pending = state.pending
            check = state.check_roll(pending.player, pending.common, pending.rolled)
            for card in check.envy_cards:
                candidates.append(({"player": pid, "card": card}, UseEnvy(pid, card)))
        elif action_type == RemoveToken.type:
            for shown in state.display:
                for slot, holders in enumerate(shown.tokens, start=1):
                    for holder in holders:
                        fields = {"player": holder, "card": shown.card, "slot": slot}
                        action = RemoveToken(holder, shown.card, slot, "-")
                        candidates.append((fields, action))
        return accepted(GAME.apply, state, candidates)

    def prompt(self, state: CatBoxState) -> Say:
        if not state.dealt:
            return say(N_("Deal the cards (d)."))
        if state.ended is not None or state.current is None:
            return say(N_("The game is over; undo to change it."))
        name = state.name(state.current)
        last = say(N_("Last round: ")) if state.last_round else say("")
        pending = state.pending
        if pending is None:
            if state.openable(state.current):
                return say(
                    N_("{last}{name}: open a box (o), roll (r) or retire (t)."),
                    last=last,
                    name=name,
                )
            return say(N_("{last}{name}: roll (r) or retire (t)."), last=last, name=name)
        check = state.check_roll(pending.player, pending.common, pending.rolled)
        if check.bust:
            return say(N_("{name} busts at {total}: settle it (p)."), name=name, total=check.total)
        if check.overwhelmed:
            return say(
                N_("{name}'s {total} is above every hiss value: settle it (p)."),
                name=name,
                total=check.total,
            )
        return say(N_("{name}: place a token or none (p); envy (v)."), name=name)

    def why_not(self, state: CatBoxState, action_type: str) -> Say:
        if not state.dealt:
            if action_type == Deal.type:
                return super().why_not(state, action_type)
            return say(N_("Deal the cards first (d)."))
        if action_type == Deal.type:
            return say(N_("The cards are already dealt."))
        if state.ended is not None or state.current is None:
            return say(N_("The game is over; undo to change it."))
        name = state.name(state.current)
        pending = state.pending
        if action_type in (Roll.type, Open.type, Retire.type) and pending is not None:
            return say(
                N_("{name} has rolled: place a token or pass first (p)."),
                name=state.name(pending.player),
            )
        if action_type == Open.type:
            return say(N_("{name} has no card full of their tokens."), name=name)
        if action_type in (Place.type, Pass.type, SetDice.type, UseEnvy.type) and pending is None:
            return say(N_("{name} has not rolled yet: roll first (r)."), name=name)
        if action_type == UseEnvy.type and pending is not None and pending.envy is not None:
            return say(N_("Only one envy effect per turn (FAQ 3)."))
        if action_type == UseEnvy.type:
            return say(N_("No rolled player die triggers an envy effect now."))
        if action_type == Place.type:
            return say(N_("No token can be placed: settle the roll (p)."))
        if action_type == RemoveToken.type:
            return say(N_("No token is on a card."))
        return super().why_not(state, action_type)

    # ------------------------------------------------------------------ the log

    def describe(self, action: Action, before: CatBoxState, after: CatBoxState) -> Say:
        text = self._describe(action, before, after)
        if after.ended is not None and before.ended is None:
            names = listing([after.name(p) for p in after.winners])
            end = (
                say(N_("{names} reach 20 points and win."), names=names)
                if after.ended is Termination.INSTANT_WIN
                else say(N_("The deck is empty; {names} win."), names=names)
            )
            # Two sentences: "…; total 10 Cy reaches …" ran together (the tour, row 8).
            return say(N_("{text}. {end}"), text=text, end=end)
        if after.round > before.round and before.dealt:
            start = after.name(after.round_start) if after.round_start else ""
            return say(
                N_("{text}. {next}"),
                text=text,
                next=say(N_("Round {n} begins: {name} starts."), n=after.round, name=start),
            )
        return text

    def _describe(self, action: Action, before: CatBoxState, after: CatBoxState) -> Say:
        if isinstance(action, Deal):
            return say(
                N_("Dealt {count} cards; {name} starts."),
                count=len(action.card_set.cards),
                name=after.name(action.start),
            )
        player = getattr(action, "player", None)
        name = before.name(player) if isinstance(player, str) else ""
        if isinstance(action, Roll):
            check = after.pending_check()
            total = check.total if check else sum(action.dice)
            verdict = say("")
            if check is not None and check.bust:
                verdict = say(N_(" — bust"))
            elif check is not None and check.overwhelmed:
                verdict = say(N_(" — above every hiss value (FAQ 6)"))
            return say(
                N_("{name} rolls {dice} (common {common}): total {total}{verdict}"),
                name=name,
                dice=dice(action.dice),
                common=dice(action.common),
                total=total,
                verdict=verdict,
            )
        if isinstance(action, Place):
            if action.override:
                return say(
                    N_("{name} places a token on {card}, slot {slot} (host override: {reason})"),
                    name=name,
                    card=card_name(before, action.card),
                    slot=action.slot,
                    reason=action.override,
                )
            return say(
                N_("{name} places a token on {card}, slot {slot}"),
                name=name,
                card=card_name(before, action.card),
                slot=action.slot,
            )
        if isinstance(action, Pass):
            check = before.pending_check()
            if check is not None and check.bust:
                cards = card_names(before, check.bust_cards)
                return say(
                    N_("{name} hisses at {total}: tokens on {cards} go back"),
                    name=name,
                    total=check.total,
                    cards=cards,
                )
            if check is not None and check.overwhelmed:
                return say(N_("{name}'s action ends (FAQ 6)"), name=name)
            return say(N_("{name} places no token"), name=name)
        if isinstance(action, Open):
            return say(
                N_("{name} opens {card} (score {score}); score {total}"),
                name=name,
                card=card_name(before, action.card),
                score=before.card(action.card).score,
                total=after.score(action.player),
            )
        if isinstance(action, Retire):
            return say(
                N_("{name} retires and gains 1 token; score {total}"),
                name=name,
                total=after.score(action.player),
            )
        if isinstance(action, UseEnvy):
            return say(
                N_("{name} uses the envy effect of {card}"),
                name=name,
                card=card_name(before, action.card),
            )
        if isinstance(action, SetDice):
            return say(
                N_("{name}'s dice changed to {dice} (common {common}): {reason}"),
                name=name,
                dice=dice(action.dice),
                common=dice(action.common),
                reason=action.reason,
            )
        if isinstance(action, AdjustTokens):
            template = (
                N_("{name} gains {n} tokens: {reason}")
                if action.delta > 0
                else N_("{name} returns {n} tokens: {reason}")
            )
            return say(template, name=name, n=abs(action.delta), reason=action.reason)
        if isinstance(action, RemoveToken):
            return say(
                N_("{name}'s token taken off {card}, slot {slot}: {reason}"),
                name=name,
                card=card_name(before, action.card),
                slot=action.slot,
                reason=action.reason,
            )
        return say("{type}", type=action.type)


GUIDE = CatBoxGuide()
