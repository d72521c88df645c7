"""The identity and manual-correction keys of the 喵窩暗影 screen.

Identities are asked only when a card is turned (a death, a public reveal), when a
Neutral's win is declared, and at the end. Manual changes (HP, location, items, 丑時's
copy) keep a reason for the log.
"""

from __future__ import annotations

from textual import work

from companion.games.shadow_cats import render
from companion.games.shadow_cats.keys import ShadowKeys, choice_label, parse_hp_change
from companion.games.shadow_cats.rules.actions import (
    IDENTITIES,
    ChangeHp,
    CopyCharacter,
    DeclareNeutralWin,
    FinalIdentities,
    GiveItem,
    IdentityEntry,
    Relocate,
    Reveal,
    TakeItem,
)
from companion.games.shadow_cats.rules.board import LOCATIONS
from companion.games.shadow_cats.rules.words import KIND_WORDS
from companion.i18n import _
from companion.widgets.dialogs import PromptDialog


class ManualKeys(ShadowKeys):
    """Reveal, Neutral win, final identities; HP, relocate, items, copy."""

    # ------------------------------------------------------------------ identities

    @work
    async def action_reveal(self) -> None:
        state = self.game
        pending = state.pending_reveal
        if pending is not None:
            question = _("{player} died: which identity card is turned?")
            chosen = await self._identity(question.format(player=self._pname(pending)))
            if chosen in IDENTITIES:
                self.submit(Reveal(pending, chosen))
            return
        pid, _items = self._target("reveal")
        if pid is None:
            return
        chosen = await self._identity(_("Identity of {player}").format(player=self._pname(pid)))
        if chosen not in IDENTITIES:
            return
        reason = ""
        if state.seat(pid).alive:
            why = _("Why is {player}'s identity public?").format(player=self._pname(pid))
            if (reason := await self._reason(why) or "") == "":
                return
        self.submit(Reveal(pid, chosen, reason))

    @work
    async def action_neutral(self) -> None:
        # Only who can still be declared (GUIDE.choices): not a Neutral declared
        # already, nobody once every Neutral card is recorded.
        items = self.guide.choices(self.game, "declare-neutral-win") if self.guide else ()
        hidden = [(i["players"][0], self._pname(i["players"][0])) for i in items]
        pid = await self._choose(_("Which Neutral met their win condition?"), hidden)
        if pid is None:
            return
        why = _("Which Neutral condition did {player} meet?").format(player=self._pname(pid))
        reason = await self._reason(why)
        if reason:
            self.submit(DeclareNeutralWin((pid,), reason))

    @work
    async def action_identities(self) -> None:
        given: list[IdentityEntry] = []
        for seat in self.game.seats:
            if seat.identity is not None:
                continue
            question = _("Identity of {player}").format(player=self._pname(seat.player))
            chosen = await self._identity(question, [e.identity for e in given])
            if chosen not in IDENTITIES:
                return
            given.append(IdentityEntry(seat.player, chosen))
        self.submit(FinalIdentities(tuple(given)))

    # ------------------------------------------------------------------ manual actions

    @work
    async def action_hp(self) -> None:
        pid, _items = self._target("change-hp")
        if pid is None:
            return

        def check(text: str) -> str | None:
            try:
                amount, reason = parse_hp_change(text)
            except ValueError:
                return _("Write the change and a reason, e.g. -20 NPC card.")
            if not reason:
                return _("Give a short reason for the log.")
            return None if amount else _("An HP change of 0 changes nothing.")

        question = _("HP change for {player} (e.g. -20 NPC card, +10 potion)")
        text = await self.ask(
            PromptDialog(question.format(player=self._pname(pid)), check=check, placeholder="-20 …")
        )
        if text is not None:
            amount, reason = parse_hp_change(text)
            self.submit(ChangeHp(pid, amount, reason))

    @work
    async def action_relocate(self) -> None:
        pid, items = self._target("relocate")
        if pid is None:
            return
        places = {i["location"] for i in items if i["player"] == pid}
        choices = [(loc, render.location_label(loc)) for loc in LOCATIONS if loc in places]
        question = _("Move {player} to (no location effect)").format(player=self._pname(pid))
        loc = await self._choose(question, choices)
        reason = (
            await self._reason(_("Why does {player} move?").format(player=self._pname(pid)))
            if loc
            else None
        )
        if loc and reason:
            self.submit(Relocate(pid, loc, reason))

    @work
    async def action_give(self) -> None:
        state = self.game
        pid, items = self._target("give-item")
        if pid is None:
            return
        lang, character, choices = self.companion.lang, state.seat(pid).character, []
        free = {i["item"] for i in items if i["player"] == pid}
        for iid in state.equipment_deck:
            item = state.item(iid)
            if item is None or iid not in free:
                continue
            bonus = f"{item.bonus_for(character):+d}" + (" ★" if item.owner == character else "")
            choices.append(
                (iid, choice_label([item.display_name(lang), _(KIND_WORDS[item.kind]), bonus]))
            )
        question = _("Give {player} an item (★ their own)").format(player=self._pname(pid))
        given = await self._choose(question, choices)
        reason = await self._reason(_("Where does the item come from?")) if given else None
        if given and reason:
            self.submit(GiveItem(pid, given, reason))

    @work
    async def action_take(self) -> None:
        state = self.game
        pid, offered = self._target("take-item")
        if pid is None:
            return
        lang = self.companion.lang
        held = [state.item(i["item"]) for i in offered if i["player"] == pid]
        choices = [(item.id, item.display_name(lang)) for item in held if item is not None]
        iid = await self._choose(
            _("Take an item from {player}").format(player=self._pname(pid)), choices
        )
        reason = await self._reason(_("Why is the item taken?")) if iid else None
        if iid and reason:
            self.submit(TakeItem(pid, iid, reason))

    @work
    async def action_copy(self) -> None:
        state = self.game
        pid, items = self._target(CopyCharacter.type)  # the 丑时 player, never another
        if pid is None or state.roster is None:
            return
        lang = self.companion.lang
        copyable = {i["character"] for i in items if i["player"] == pid}  # never itself
        in_play = {s.character for s in state.seats}
        ordered = sorted(state.roster.characters, key=lambda c: c.id not in in_play)
        choices = [
            (c.id, choice_label([c.display_name(lang), render.element_label(c.element)]))
            for c in ordered
            if c.id in copyable
        ]
        question = _("Whose attack and element does {player} copy?").format(player=self._pname(pid))
        cid = await self._choose(question, choices)
        reason = (
            await self._reason(_("Why does {player} copy?").format(player=self._pname(pid)))
            if cid
            else None
        )
        if cid and reason:
            self.submit(CopyCharacter(pid, cid, reason))
