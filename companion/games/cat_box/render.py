"""喵喵开箱: the view-model as Rich text — cards, player cells, the roll check, notices.

Functions of ``view.py``'s rows (and, for the roll check and the notices, of the rules
state), no widgets: the host screen, the roll dialog and the board draw the same
things the same way through them, and tests can read them.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from companion.games.cat_box.rules import CatBoxState, Notice, RollCheck
from companion.games.cat_box.rules.conditions import ConditionError, Term, parse
from companion.games.cat_box.rules.state import Status
from companion.games.cat_box.view import Banner, CardView, PlayerRow, TokenView, WonCard
from companion.i18n import N_, _, listing, ngettext, paren
from companion.rules.names import fit_name

STATUS = {
    "active": N_("active"),
    "busted": N_("hissed (bust)"),
    "opened": N_("opened a box"),
    "retired": N_("retired"),
}
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


TERM_LABELS = {
    "any": N_("any"),
    "pair": N_("a pair"),
    "two-pairs": N_("two pairs"),
    "three-of-a-kind": N_("three of a kind"),
    "four-of-a-kind": N_("four of a kind"),
    "five-of-a-kind": N_("five of a kind"),
    "kind": N_("{n} of a kind"),
    "full-house": N_("full house"),
    "straight": N_("straight of {n}"),
    "has": N_("has {pips}"),
    "no": N_("no {pips}"),
    "distinct": N_("{n} different pips"),
    "all-different": N_("all different"),
    "all-odd": N_("all odd"),
    "all-even": N_("all even"),
    "sum": N_("sum {op} {n}"),
}
OPS = {">=": "≥", "<=": "≤", "=": "="}


def condition_label(text: str) -> str:
    """A tease condition in words of the current language (``pair & sum>=12`` →
    ``a pair + sum ≥ 12``); the raw text if it does not parse."""
    try:
        condition = parse(text)
    except ConditionError:
        return text
    return _(" or ").join(" + ".join(_term_label(t) for t in alt) for alt in condition.alternatives)


def _term_label(term: Term) -> str:
    return _(TERM_LABELS[term.word]).format(
        n=term.number, pips=",".join(map(str, term.pips)), op=OPS.get(term.op, term.op)
    )


def token(view: TokenView) -> Text:
    """One token: the player's seat number on their colour."""
    return Text(str(view.seat), style=f"bold {view.ink} on {view.colour}")


def player_label(row: PlayerRow) -> Text:
    return Text.assemble(token(row.token), " ", row.name)


def dice_text(dice: Sequence[int]) -> str:
    return " ".join(str(d) for d in dice) if dice else "–"


def pieces_text(row: PlayerRow) -> Text:
    """Owned tokens as big (worth 5) and small pieces, and their total."""
    big, small = row.pieces
    out = Text()
    if big:
        out.append("■" * big, style="bold")
        out.append(" ")
    if small:
        out.append("▪" * small)
        out.append(" ")
    out.append(f"= {row.owned}", style="dim")
    return out


MARKS = {"allowed": ("→", "bold green"), "met": ("✓", "green"), "": (" ", "")}


def card_panel(card: CardView, lang: str) -> Text:
    """A displayed card: name, hiss value and score, envy pip, then one line per slot.

    With a roll under way (host view), a slot the dice meet is marked ✓ and a slot
    where the token may go now is marked →; a card the total is above is marked hot.
    """
    out = Text()
    out.append(card.name.text(lang), style="bold")
    out.append("\n")
    out.append(_("hiss {n}").format(n=card.hiss), style="bold red" if card.heat else "bold yellow")
    out.append("  ")
    out.append(_("score {n}").format(n=card.score), style="bold green")
    # The envy pip on a line of its own: at 80x24 a card is 17 columns wide, and the
    # three on one line wrapped inside "score 3", the 3 under the next label.
    out.append("\n")
    out.append(_("envy {face}").format(face=DIE_FACES[card.envy_pip - 1]), style="magenta")
    if card.heat == "bust":
        out.append("  " + _("BUST"), style="bold reverse red")
    elif card.heat == "hot":
        out.append("  " + _("too hot"), style="red")
    for slot in card.slots:
        out.append("\n")
        mark, style = MARKS[slot.mark]
        out.append(f"{mark}{slot.number} ", style=style)
        out.append(condition_label(slot.condition), style=style or "")
        if slot.tokens:
            for view in slot.tokens:
                out.append(" ")  # apart: "a pair 41" read as seat 41 (issue 22)
                out.append_text(token(view))
    return out


STATUS_STYLE = {"active": "green", "busted": "red", "opened": "cyan", "retired": "yellow"}
MARKER = {"turn": "▶", "last-action": "⏳", "": ""}


def status_text(status: Status) -> Text:
    return Text(_(STATUS[status]), style=STATUS_STYLE[status])


def won_text(won: Sequence[WonCard], lang: str, cells: int | None = None) -> str:
    """``Orange cat(3), Popo cat(4)`` (``橘猫（3）、波波猫（4）``), cut with ``…`` to
    ``cells`` when given."""
    text = listing(c.name.text(lang) + paren(c.score).lstrip() for c in won) or "–"
    return text if cells is None else fit_name(text, cells)


def banner_parts(banner: Banner, *, turn: bool = True) -> list[str]:
    """Round, whose turn, deck count, last round: the phase banner of screen and board
    (the board shows the turn in its own panel: ``turn=False``)."""
    parts = [
        _("Round {n}").format(n=banner.round),
        ngettext("Deck: {n} card", "Deck: {n} cards", banner.deck).format(n=banner.deck),
    ]
    if turn and banner.turn is not None:
        parts.insert(1, _("{name}'s turn").format(name=banner.turn))
    if banner.last_round:
        parts.append(_("LAST ROUND"))
    return parts


def set_label(banner: Banner, lang: str) -> str:
    if banner.default_set or banner.set_name is None:
        return _("default cards")
    return banner.set_name.text(lang)


def check_lines(
    state: CatBoxState, check: RollCheck, lang: str, envy: bool = True, slots: bool = True
) -> Text:
    """The answer to a roll at once: bust or not, slots met, where a token may go, and
    (unless ``envy`` is false: one was used this turn) the envy effects triggered.

    ``slots=False`` leaves out the two slot lines where they are shown otherwise (the
    cards' → and ✓ marks on the screen, the choice keys in the roll dialog)."""
    name = state.name(check.player)
    held = state.seat(check.player).held
    out = Text()
    out.append(
        _("Total of {name}'s player dice: {total}").format(name=name, total=check.total),
        style="bold",
    )
    if held:
        out.append("  " + _("(held {held})").format(held=dice_text(held)), style="dim")
    out.append("\n")
    if check.bust:
        cards = listing(
            state.card(c).display_name(lang) + paren(state.card(c).hiss) for c in check.bust_cards
        )
        retired = [s.player for s in state.seats if s.status == "retired"]
        out.append(
            _("BUST: above {cards}. Tokens there go back; {name} stops for the round.").format(
                cards=cards, name=name
            ),
            style="bold red",
        )
        if retired:
            out.append(
                " "
                + _("Retired players gain 1: {names}.").format(
                    names=listing(state.name(p) for p in retired)
                ),
                style="yellow",
            )
    elif check.overwhelmed:
        out.append(
            _(
                "Above every hiss value with no tokens out: the action ends, nothing "
                "placed, nothing lost (FAQ 6)."
            ),
            style="bold yellow",
        )
    else:
        out.append(_("No bust."), style="bold green")
    if slots:
        out.append("\n")
        out.append_text(_slot_lines(state, check, lang))
    for card_id in check.envy_cards if envy else ():
        card = state.card(card_id)
        out.append("\n")
        out.append(
            _("Envy {face} of {card}: {text}").format(
                face=DIE_FACES[card.envy.pip - 1],
                card=card.display_name(lang),
                text=card.envy_text(lang),
            ),
            style="magenta",
        )
    return out


def _slot_lines(state: CatBoxState, check: RollCheck, lang: str) -> Text:
    out = Text()
    if check.met:
        met = listing(f"{state.card(c).display_name(lang)} {n}" for c, n in check.met)
        out.append(_("The dice meet: {slots}").format(slots=met))
    else:
        out.append(_("The dice meet no slot."), style="dim")
    out.append("\n")
    if check.allowed:
        allowed = listing(f"{state.card(c).display_name(lang)} {n}" for c, n in check.allowed)
        out.append(_("A token may go on: {slots}").format(slots=allowed), style="green")
    elif check.may_place:
        out.append(_("No slot takes a token now."), style="dim")
    return out


def notice_text(state: CatBoxState, notice: Notice, lang: str) -> Text | None:
    """One line for something the last action did (the round and event banners)."""
    who = state.name(notice.player) if notice.player else ""
    others = listing(state.name(p) for p in notice.others)
    cards = listing(state.card(c).display_name(lang) for c in notice.cards)
    kind = notice.kind
    if kind == "round-started":
        return Text(
            "🐾 " + _("Round {n} begins: {name} starts.").format(n=notice.number, name=who),
            style="bold cyan",
        )
    if kind == "round-ended":
        return Text(
            _("Round {n} is over: held dice cleared, everyone plays again.").format(
                n=notice.number
            ),
            style="bold cyan",
        )
    if kind == "bust":
        line = _("{name}'s {total} makes {cards} hiss: those tokens go back.").format(
            name=who, total=notice.number, cards=cards
        )
        if others:
            line += " " + _("Retired players gain 1: {names}.").format(names=others)
        return Text("🙀 " + line, style="bold red")
    if kind == "faq6":
        return Text(
            _("{name}'s {total} is above every hiss value: the action ends (FAQ 6).").format(
                name=who, total=notice.number
            ),
            style="yellow",
        )
    if kind == "placed":
        return Text(
            _("{name} placed a token on {card}, slot {n}.").format(
                name=who, card=cards, n=notice.number
            )
        )
    if kind == "passed":
        return Text(_("{name} placed no token.").format(name=who))
    if kind == "opened":
        line = _("{name} opened {card}.").format(name=who, card=cards)
        if others:
            line += " " + _("Their tokens on it go to: {names}.").format(names=others)
        return Text("📦 " + line, style="bold green")
    if kind == "retired":
        return Text(_("{name} retired and gains 1 token.").format(name=who), style="yellow")
    if kind == "envy":
        card = state.card(notice.cards[0])
        return Text(
            _("{name} uses the envy effect of {card}: {text}").format(
                name=who, card=cards, text=card.envy_text(lang)
            ),
            style="magenta",
        )
    if kind == "last-round":
        line = (
            _("The deck is empty: one more action each for {names}, then the game ends.").format(
                names=others
            )
            if others
            else _("The deck is empty and nobody else is active: the game ends.")
        )
        return Text("⏳ " + line, style="bold reverse yellow")
    if kind == "instant-win":
        return Text(
            "🏆 " + _("{names} reached {n} points!").format(names=others, n=notice.number),
            style="bold reverse green",
        )
    if kind == "game-ended":
        return Text(
            "🏁 " + _("Final gains: tokens on the displayed cards go to their owners."),
            style="bold green",
        )
    return None


def notices_text(state: CatBoxState, lang: str) -> Text:
    lines = [t for n in state.notices if (t := notice_text(state, n, lang)) is not None]
    return Text("\n").join(lines)
