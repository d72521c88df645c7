"""The rules of 九张牌：喵喵开箱 as one pure ``apply`` (rules: docs/rules/cat-box.md).

Decisions where the rules text is silent (each also in the docs):

* The rolled player dice join the held dice after every roll — also after a bust
  and in the FAQ-6 case (立刻结束行动 ends the action; the dice stay where they
  were put). A FAQ-6 player is still active and may retire later in the round.
* On a bust only the tokens on the *exceeded* cards go back to the supply (the
  text: 从被超过哈气值的纸箱牌上移除); tokens on other cards stay.
* The opened card's place in the display is taken by the refill from the bottom.
* Last round: when a refill finds the deck empty, the *other players still active
  this round* each take one more action, clockwise from the opener; players already
  stopped stay stopped (本轮的剩余时间内不能再进行任何行动). If none is active the
  game ends at once. Opening another box in the last round does not extend it.
* Instant win: checked after every action. If several players reach 20 at once
  (an opening can give others tokens), the highest score among them wins; equal
  scores share the win. Scores at an instant win do not include final gains.
* Envy effects are data on cards the companion cannot read: ``envy`` records that
  one is used (once per turn, only with a matching rolled player die, only from a
  displayed card or one in front of *another* player); the host applies the effect
  with the manual ``set-dice``, ``adjust-tokens`` or ``remove-token`` (each with a
  reason, kept in the log).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from companion.games.cat_box.rules.actions import (
    AdjustTokens,
    Deal,
    Open,
    Pass,
    Place,
    RemoveToken,
    Retire,
    Roll,
    SetDice,
    UseEnvy,
)
from companion.games.cat_box.rules.cards import check_card_set
from companion.games.cat_box.rules.state import (
    DISPLAY_SIZE,
    INSTANT_WIN,
    CatBoxState,
    DisplayedCard,
    Notice,
    PendingRoll,
    Seat,
    Termination,
)
from companion.rules.base import (
    N_,
    Action,
    BadActionError,
    Game,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    OptionSpec,
    Outcome,
    Player,
    PlayerId,
    SetupError,
    action_types_of,
    check_player_count,
    player_by_id,
)

MIN_PLAYERS = 3
MAX_PLAYERS = 8
COMMON_DICE = 3
MAX_SET_DICE = 6
MAX_ADJUST = 50
START_CHOICES = ("random", *(f"p{i}" for i in range(1, MAX_PLAYERS + 1)))


class CatBox(Game[CatBoxState]):
    id = "cat-box"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    options = (
        OptionSpec(
            "card_file",
            N_("Card file (TOML); empty: the default set"),
            str,
            "",
            help=N_(
                "Your own box cards; the cards are copied into the log when the game is dealt."
            ),
        ),
        OptionSpec(
            "start_player",
            N_("Start player (who last teased a cat)"),
            str,
            "random",
            choices=START_CHOICES,
        ),
    )
    action_types = action_types_of(
        Deal, Roll, Place, Pass, Open, Retire, UseEnvy, SetDice, AdjustTokens, RemoveToken
    )

    # ------------------------------------------------------------------ setup

    def setup(self, players: Sequence[Player], options: Mapping[str, Any]) -> CatBoxState:
        check_player_count(players, MIN_PLAYERS, MAX_PLAYERS)
        opts = self.check_options(options)
        start = str(opts["start_player"])
        if start != "random" and start not in {p.id for p in players}:
            raise SetupError(N_("The start player {player} is not at this table."), player=start)
        return CatBoxState(players=tuple(players), start_option=start)

    # ------------------------------------------------------------------ apply

    def apply(self, state: CatBoxState, action: Action) -> CatBoxState:
        if state.ended is not None:
            raise GameOverError(N_("The game is over; undo to change it."))
        if isinstance(action, Deal):
            return self._deal(state, action)
        if not state.dealt:
            raise IllegalActionError(N_("Deal the cards first."))
        handler = _HANDLERS.get(type(action))
        if handler is None:
            raise BadActionError(N_("Cat Box has no action {type!r}."), type=action.type)
        player_by_id(state.players, getattr(action, "player", ""))
        new = handler(state, action)
        return _check_instant_win(new)

    def _deal(self, state: CatBoxState, action: Deal) -> CatBoxState:
        if state.dealt:
            raise IllegalActionError(N_("The cards are already dealt."))
        check_card_set(action.card_set, action.source or "deal")
        player_by_id(state.players, action.start)
        if state.start_option != "random" and action.start != state.start_option:
            raise IllegalActionError(
                N_("The host chose {player} to start."), player=state.name(state.start_option)
            )
        starts = [c.id for c in action.card_set.cards if c.start]
        rest = sorted(c.id for c in action.card_set.cards if not c.start)
        if sorted(action.deck) != rest:
            raise BadActionError(N_("The deck must list each card that is not a start card once."))
        deck = action.deck
        display = [*starts, deck[-1], deck[-2]]  # two from the bottom
        shown = tuple(
            DisplayedCard(c, tuple(() for _ in action.card_set.card(c).slots)) for c in display
        )
        return replace(
            state,
            card_set=action.card_set,
            source=action.source,
            deck=deck[:-2],
            display=shown,
            seats=tuple(Seat(p.id) for p in state.players),
            round=1,
            round_start=action.start,
            first_player=action.start,
            current=action.start,
            notices=(Notice("round-started", action.start, number=1),),
        )

    # ------------------------------------------------------------------ reading

    def outcome(self, state: CatBoxState) -> Outcome | None:
        if state.ended is None:
            return None
        scores = state.scores()
        names = ", ".join(state.name(pid) for pid in state.winners)
        best = max(scores[pid] for pid in state.winners)
        if state.ended is Termination.INSTANT_WIN:
            summary = (
                N_("{names} reach {score} points and share the win.")
                if len(state.winners) > 1
                else N_("{names} reaches {score} points and wins at once.")
            )
        else:
            summary = (
                N_("The deck is empty. {names} share the win with {score} points.")
                if len(state.winners) > 1
                else N_("The deck is empty. {names} wins with {score} points.")
            )
        return Outcome(
            termination=state.ended,
            winners=state.winners,
            scores=MappingProxyType(dict(scores)),
            summary=summary,
            params={"names": names, "score": best},
        )

    def scores(self, state: CatBoxState) -> Mapping[PlayerId, int]:
        return state.scores() if state.dealt else {}

    def progress_label(self, state: CatBoxState) -> str:
        if not state.dealt:
            return PROGRESS_NOT_DEALT
        tail = ", " + PROGRESS_LAST_ROUND if state.last_round else ""
        return f"round {state.round}, deck {len(state.deck)}{tail}"


PROGRESS_NOT_DEALT = N_("not dealt")
PROGRESS_LAST_ROUND = N_("last round")
"""Phase words of ``progress_label`` (English, translated by the history screen)."""


# --------------------------------------------------------------------------- checks


def _check_dice(common: Sequence[int], dice: Sequence[int], *, low: int, high: int) -> None:
    for value in (*common, *dice):
        if not 1 <= value <= 6:
            raise IllegalActionError(N_("A die shows 1 to 6, not {value}."), value=value)
    if len(common) != COMMON_DICE:
        raise IllegalActionError(N_("There are 3 common dice, not {count}."), count=len(common))
    if not low <= len(dice) <= high:
        if low == high - 1:
            raise IllegalActionError(N_("Roll 1 or 2 player dice, not {count}."), count=len(dice))
        raise IllegalActionError(
            N_("Give {low} to {high} player dice, not {count}."),
            low=low,
            high=high,
            count=len(dice),
        )


def _check_turn(state: CatBoxState, pid: PlayerId) -> None:
    """``pid`` may take a turn action now (it is their turn, they are active)."""
    seat = state.seat(pid)
    if not seat.active:
        raise NotYourTurnError(N_("{name} has stopped for this round."), name=state.name(pid))
    if state.current != pid:
        raise NotYourTurnError(
            N_("It is {name}'s turn, not {other}'s."),
            name=state.name(state.current or pid),
            other=state.name(pid),
        )


def _check_no_roll(state: CatBoxState) -> None:
    if state.pending is not None:
        raise IllegalActionError(
            N_("{name} has rolled: place a token or pass first."),
            name=state.name(state.pending.player),
        )


def _pending_of(state: CatBoxState, pid: PlayerId) -> PendingRoll:
    _check_turn(state, pid)
    if state.pending is None or state.pending.player != pid:
        raise IllegalActionError(N_("{name} has not rolled yet."), name=state.name(pid))
    return state.pending


def _shown(state: CatBoxState, card_id: str) -> DisplayedCard:
    shown = state.displayed(card_id)
    if shown is None:
        raise IllegalActionError(N_("The card {card} is not on display."), card=card_id)
    return shown


def _slot_index(state: CatBoxState, shown: DisplayedCard, slot: int) -> int:
    if not 1 <= slot <= len(shown.tokens):
        raise IllegalActionError(
            N_("{card} has slots 1 to {count}, not {slot}."),
            card=_card_name(state, shown.card),
            count=len(shown.tokens),
            slot=slot,
        )
    return slot - 1


def _card_name(state: CatBoxState, card_id: str) -> str:
    return state.card(card_id).name


def _reason(text: str | None) -> str:
    reason = (text or "").strip()
    if not reason:
        raise IllegalActionError(N_("Give a reason for the manual change."))
    return reason


# --------------------------------------------------------------------------- state edits


def _edit_seat(state: CatBoxState, pid: PlayerId, **changes: Any) -> CatBoxState:
    return replace(
        state, seats=tuple(replace(s, **changes) if s.player == pid else s for s in state.seats)
    )


def _edit_card(
    state: CatBoxState, card_id: str, tokens: tuple[tuple[PlayerId, ...], ...]
) -> CatBoxState:
    return replace(
        state,
        display=tuple(replace(d, tokens=tokens) if d.card == card_id else d for d in state.display),
    )


def _strip_tokens(shown: DisplayedCard, pid: PlayerId) -> tuple[tuple[PlayerId, ...], ...]:
    return tuple(tuple(p for p in slot if p != pid) for slot in shown.tokens)


def _next_clockwise(state: CatBoxState, pid: PlayerId) -> PlayerId:
    ids = [p.id for p in state.players]
    return ids[(ids.index(pid) + 1) % len(ids)]


def _clockwise_after(state: CatBoxState, pid: PlayerId) -> list[PlayerId]:
    ids = [p.id for p in state.players]
    at = ids.index(pid)
    return ids[at + 1 :] + ids[:at]


def _end_turn(state: CatBoxState, pid: PlayerId) -> CatBoxState:
    """Pass play on after ``pid``'s action: next active player, round end, or game end."""
    state = replace(state, pending=None)
    if state.ended is not None:
        return state
    if state.final_queue is not None:
        queue = state.final_queue
        if queue and queue[0] == pid:
            queue = queue[1:]
        if not queue:
            return _finish(state)
        return replace(state, final_queue=queue, current=queue[0])
    for candidate in [*_clockwise_after(state, pid), pid]:
        if state.seat(candidate).active:
            return replace(state, current=candidate)
    # Everyone has stopped: the round ends (保留区 cleared, all active again).
    start = _next_clockwise(state, state.round_start or pid)
    return replace(
        state,
        round=state.round + 1,
        round_start=start,
        current=start,
        seats=tuple(replace(s, status="active", held=()) for s in state.seats),
        notices=(
            *state.notices,
            Notice("round-ended", number=state.round),
            Notice("round-started", start, number=state.round + 1),
        ),
    )


def _finish(state: CatBoxState) -> CatBoxState:
    """Deck-empty end: everyone gains their tokens still on displayed cards."""
    seats = tuple(replace(s, owned=s.owned + state.placed(s.player)) for s in state.seats)
    display = tuple(replace(d, tokens=tuple(() for _ in d.tokens)) for d in state.display)
    done = replace(state, seats=seats, display=display, current=None, final_queue=())
    scores = done.scores()
    best = max(scores.values())
    winners = tuple(p.id for p in state.players if scores[p.id] == best)
    return replace(
        done,
        ended=Termination.DECK_EMPTY,
        winners=winners,
        notices=(*state.notices, Notice("game-ended", others=winners)),
    )


def _check_instant_win(state: CatBoxState) -> CatBoxState:
    if state.ended is not None:
        return state
    scores = state.scores()
    reached = {pid: s for pid, s in scores.items() if s >= INSTANT_WIN}
    if not reached:
        return state
    best = max(reached.values())
    winners = tuple(p.id for p in state.players if reached.get(p.id) == best)
    return replace(
        state,
        ended=Termination.INSTANT_WIN,
        winners=winners,
        current=None,
        pending=None,
        notices=(*state.notices, Notice("instant-win", others=winners, number=best)),
    )


# --------------------------------------------------------------------------- actions


def _roll(state: CatBoxState, action: Roll) -> CatBoxState:
    _check_dice(action.common, action.dice, low=1, high=2)
    _check_turn(state, action.player)
    _check_no_roll(state)
    return replace(
        state, pending=PendingRoll(action.player, action.common, action.dice), notices=()
    )


def _place(state: CatBoxState, action: Place) -> CatBoxState:
    pending = _pending_of(state, action.player)
    check = state.check_roll(pending.player, pending.common, pending.rolled)
    name = state.name(action.player)
    if check.bust:
        raise IllegalActionError(
            N_("{name}'s dice exceed a hiss value ({total}): pass to settle the bust."),
            name=name,
            total=check.total,
        )
    if check.overwhelmed:
        raise IllegalActionError(
            N_("{total} exceeds every hiss value: nothing can be placed (FAQ 6); pass."),
            total=check.total,
        )
    shown = _shown(state, action.card)
    index = _slot_index(state, shown, action.slot)
    card = state.card(action.card)
    if action.player in shown.tokens[index]:
        raise IllegalActionError(
            N_("{name} already has a token on slot {slot} of {card}."),
            name=name,
            slot=action.slot,
            card=card.name,
        )
    if card.hiss < check.total:
        raise IllegalActionError(
            N_("{card} has hiss value {hiss}, below {name}'s {total}."),
            card=card.name,
            hiss=card.hiss,
            name=name,
            total=check.total,
        )
    override = (action.override or "").strip()
    if (card.id, action.slot) not in check.met and not override:
        raise IllegalActionError(
            N_(
                "The dice do not meet {condition!r} (slot {slot} of {card}); the host may "
                "override with a reason."
            ),
            condition=card.slots[index],
            slot=action.slot,
            card=card.name,
        )
    tokens = tuple(
        (*slot, action.player) if i == index else slot for i, slot in enumerate(shown.tokens)
    )
    seat = state.seat(action.player)
    state = _edit_card(state, card.id, tokens)
    state = _edit_seat(
        state, action.player, taken=seat.taken + 1, held=(*seat.held, *pending.rolled)
    )
    state = replace(
        state, notices=(Notice("placed", action.player, (card.id,), number=action.slot),)
    )
    return _end_turn(state, action.player)


def _pass(state: CatBoxState, action: Pass) -> CatBoxState:
    pending = _pending_of(state, action.player)
    check = state.check_roll(pending.player, pending.common, pending.rolled)
    seat = state.seat(action.player)
    state = _edit_seat(state, action.player, held=(*seat.held, *pending.rolled))
    if check.bust:
        returned = 0
        for card_id in check.bust_cards:
            shown = _shown(state, card_id)
            returned += shown.count(action.player)
            state = _edit_card(state, card_id, _strip_tokens(shown, action.player))
        retired = tuple(s.player for s in state.seats if s.status == "retired")
        seats = tuple(
            replace(s, status="busted", returned=s.returned + returned)
            if s.player == action.player
            else replace(s, owned=s.owned + 1, taken=s.taken + 1)
            if s.player in retired
            else s
            for s in state.seats
        )
        state = replace(
            state,
            seats=seats,
            notices=(Notice("bust", action.player, check.bust_cards, retired, number=check.total),),
        )
    elif check.overwhelmed:
        state = replace(state, notices=(Notice("faq6", action.player, number=check.total),))
    else:
        state = replace(state, notices=(Notice("passed", action.player),))
    # A bust can lift a retired player to 20: that win comes before any end of the game.
    return _end_turn(_check_instant_win(state), action.player)


def _open(state: CatBoxState, action: Open) -> CatBoxState:
    _check_turn(state, action.player)
    _check_no_roll(state)
    shown = _shown(state, action.card)
    if not shown.full_of(action.player):
        raise IllegalActionError(
            N_("{name} cannot open {card}: not every slot holds their token."),
            name=state.name(action.player),
            card=_card_name(state, action.card),
        )
    gains: dict[PlayerId, int] = {}
    for slot in shown.tokens:
        for pid in slot:
            if pid != action.player:
                gains[pid] = gains.get(pid, 0) + 1
    seats = []
    for s in state.seats:
        if s.player == action.player:
            s = replace(
                s,
                status="opened",
                won=(*s.won, action.card),
                returned=s.returned + len(shown.tokens),
            )
        elif s.player in gains:
            s = replace(s, owned=s.owned + gains[s.player])
        seats.append(s)
    notices = [
        Notice(
            "opened",
            action.player,
            (action.card,),
            tuple(p for p in (x.id for x in state.players) if p in gains),
        )
    ]
    display = list(state.display)
    at = display.index(shown)
    deck = state.deck
    final_queue = state.final_queue
    if deck:  # refill from the bottom, into the opened card's place
        refill = deck[-1]
        display[at] = DisplayedCard(refill, tuple(() for _ in state.card(refill).slots))
        deck = deck[:-1]
    else:
        del display[at]
        if final_queue is None:
            final_queue = tuple(
                pid for pid in _clockwise_after(state, action.player) if state.seat(pid).active
            )
            notices.append(Notice("last-round", action.player, others=final_queue))
    assert len(display) <= DISPLAY_SIZE
    state = replace(
        state,
        seats=tuple(seats),
        display=tuple(display),
        deck=deck,
        final_queue=final_queue,
        notices=tuple(notices),
    )
    return _end_turn(_check_instant_win(state), action.player)


def _retire(state: CatBoxState, action: Retire) -> CatBoxState:
    _check_turn(state, action.player)
    _check_no_roll(state)
    seat = state.seat(action.player)
    state = _edit_seat(
        state, action.player, status="retired", owned=seat.owned + 1, taken=seat.taken + 1
    )
    state = replace(state, notices=(Notice("retired", action.player),))
    return _end_turn(_check_instant_win(state), action.player)


def _use_envy(state: CatBoxState, action: UseEnvy) -> CatBoxState:
    pending = _pending_of(state, action.player)
    if pending.envy is not None:
        raise IllegalActionError(N_("Only one envy effect per turn (FAQ 3)."))
    try:
        card = state.card(action.card)
    except KeyError:
        raise IllegalActionError(N_("There is no card {card}."), card=action.card) from None
    if action.card in state.seat(action.player).won:
        raise IllegalActionError(
            N_("{name} scored {card}: its envy effect is for the others (FAQ 2)."),
            name=state.name(action.player),
            card=card.name,
        )
    if action.card not in state.envy_sources(action.player):
        raise IllegalActionError(
            N_("{card} is neither on display nor in front of a player."), card=card.name
        )
    if card.envy.pip not in pending.rolled:
        raise IllegalActionError(
            N_("The envy effect of {card} needs a rolled player die showing {pip}."),
            card=card.name,
            pip=card.envy.pip,
        )
    return replace(
        state,
        pending=replace(pending, envy=card.id),
        notices=(Notice("envy", action.player, (card.id,), number=card.envy.pip),),
    )


def _set_dice(state: CatBoxState, action: SetDice) -> CatBoxState:
    pending = _pending_of(state, action.player)
    reason = _reason(action.reason)
    _check_dice(action.common, action.dice, low=1, high=MAX_SET_DICE)
    return replace(
        state,
        pending=replace(pending, common=action.common, rolled=action.dice, adjusted=reason),
        notices=(),
    )


def _adjust_tokens(state: CatBoxState, action: AdjustTokens) -> CatBoxState:
    _reason(action.reason)
    if action.delta == 0 or abs(action.delta) > MAX_ADJUST:
        raise IllegalActionError(N_("Adjust by 1 to {most} tokens, up or down."), most=MAX_ADJUST)
    seat = state.seat(action.player)
    if seat.owned + action.delta < 0:
        raise IllegalActionError(
            N_("{name} owns only {owned} tokens."), name=state.name(action.player), owned=seat.owned
        )
    if action.delta > 0:
        return _edit_seat(
            state, action.player, owned=seat.owned + action.delta, taken=seat.taken + action.delta
        )
    return _edit_seat(
        state, action.player, owned=seat.owned + action.delta, returned=seat.returned - action.delta
    )


def _remove_token(state: CatBoxState, action: RemoveToken) -> CatBoxState:
    _reason(action.reason)
    shown = _shown(state, action.card)
    index = _slot_index(state, shown, action.slot)
    if action.player not in shown.tokens[index]:
        raise IllegalActionError(
            N_("{name} has no token on slot {slot} of {card}."),
            name=state.name(action.player),
            slot=action.slot,
            card=_card_name(state, action.card),
        )
    tokens = tuple(
        tuple(p for p in slot if p != action.player) if i == index else slot
        for i, slot in enumerate(shown.tokens)
    )
    seat = state.seat(action.player)
    state = _edit_card(state, action.card, tokens)
    return _edit_seat(state, action.player, returned=seat.returned + 1)


_HANDLERS: dict[type[Action], Any] = {
    Roll: _roll,
    Place: _place,
    Pass: _pass,
    Open: _open,
    Retire: _retire,
    UseEnvy: _use_envy,
    SetDice: _set_dice,
    AdjustTokens: _adjust_tokens,
    RemoveToken: _remove_token,
}


GAME = CatBox()
