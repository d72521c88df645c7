"""The setup keys of the 喵窩暗影 screen: every deal and change is an entry at once.

The deal is made by the preparer on the writer thread (the roster file is read there
too) and recorded with the draft it deals; each change (a character, the identity
counts, the board, the first player) is its own entry, and ``s`` records ``begin``
with the equipment deck dealt at that moment. Leave, resume or kill: nothing is dealt
again.
"""

from __future__ import annotations

from concurrent.futures import Future

from rich.text import Text
from textual import work

from companion.games.shadow_cats import prepare, render
from companion.games.shadow_cats.keys import ShadowKeys, choice_label
from companion.games.shadow_cats.rules.actions import (
    PickCharacter,
    SetCounts,
    SetFirstPlayer,
    SetLayout,
)
from companion.games.shadow_cats.rules.board import LOCATIONS
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.rules.words import KIND_WORDS, NATION_WORDS
from companion.games.shadow_cats.widgets import CountsDialog, parse_counts
from companion.i18n import _, labelled, listing
from companion.rules.base import RuleError
from companion.session.live import Change


class DraftKeys(ShadowKeys):
    """Setup: deal, change, start; and the setup panel's text."""

    roster_error = ""
    """The last roster file problem (shown in the setup panel until a deal works)."""

    def _setup_text(self, state: ShadowState) -> Text:
        draft = state.draft
        out = Text()
        file = draft.roster_file if draft else str(self.session.options.get("roster_file") or "")
        out.append(_("Roster: {file}").format(file=file or "default_roster.toml") + "\n", "bold")
        if self.roster_error:
            out.append(self.roster_error + "\n", style="bold red")
            out.append(_("Fix the file and press R to read it again.") + "\n", style="dim")
        if draft is None:
            return out
        if draft.roster.note:
            out.append(_(draft.roster.note) + "\n", style="yellow")
        for cid, printed, computed in draft.roster.warnings():
            out.append(
                _(
                    "{character}: the card prints attack {printed}, its table's "
                    "expectation is {computed}."
                ).format(character=cid, printed=printed, computed=f"{float(computed):.2f}")
                + "\n",
                style="yellow",
            )
        counts = draft.counts
        red, blue, neutral = (counts.red, counts.blue, counts.neutral) if counts else ("?",) * 3
        out.append(
            _("Identities: {red} Red · {blue} Blue · {neutral} Neutral").format(
                red=red, blue=blue, neutral=neutral
            )
            + "\n"
        )
        out.append(_("First player: {player}").format(player=self._pname(draft.first_player)))
        names = {c.id: c.display_name(self.companion.lang) for c in draft.roster.characters}
        dealt = "  ".join(
            labelled(p.name, listing(names.get(c, c) for c in pair))
            for p, pair in zip(state.players, draft.pairs, strict=False)
        )
        out.append("\n" + _("Dealt: {pairs}").format(pairs=dealt), style="dim")
        return out

    def _deck_text(self, state: ShadowState) -> Text:
        lang = self.companion.lang
        count = len(state.equipment_deck)
        out = Text(_("Equipment deck: shuffle these {count} cards").format(count=count) + "\n")
        out.stylize("bold")
        for kind in ("weapon", "armour"):
            names = [
                item.display_name(lang)
                for iid in state.equipment_deck
                if (item := state.item(iid)) is not None and item.kind == kind
            ]
            if names:
                heading = _("{kind} ({count}): ").format(kind=_(KIND_WORDS[kind]), count=len(names))
                out.append(heading, style="bold")
                out.append(listing(names) + "\n")
        return out

    # ------------------------------------------------------------------ the draft

    def deal(self) -> None:
        """Read the roster file and deal, on the writer thread, as one entry."""
        path = str(self.session.options.get("roster_file") or "")
        players, rng = self.game.players, self.session.rng

        def dealt() -> Change:
            return self.session.act(prepare.deal(prepare.read_roster(path), players, rng))

        def done(future: Future[Change]) -> None:
            error = future.exception()
            self.roster_error = error.render(_) if isinstance(error, RuleError) else ""
            self._committed(future)
            self.refresh_view()

        self.companion.write(dealt, done)

    def action_deal(self) -> None:
        self.deal()

    def action_reload(self) -> None:
        self.deal()

    def action_begin(self) -> None:
        draft, rng = self.game.draft, self.session.rng
        if draft is not None:
            self.submit(lambda: prepare.begin(draft, rng))

    @work
    async def action_change_character(self) -> None:
        draft, pid = self.game.draft, self._selected()
        if draft is None or pid is None:
            return
        index = [p.id for p in self.game.players].index(pid)
        taken = {c for i, c in enumerate(draft.characters) if i != index}
        pair = draft.pairs[index]
        ordered = [*pair, *(c.id for c in draft.roster.characters if c.id not in pair)]
        lang, choices = self.companion.lang, []
        for cid in ordered:
            c = draft.roster.character(cid)
            if c is None or cid in taken:
                continue
            parts = [
                c.display_name(lang),
                _(NATION_WORDS[c.nation]),
                render.element_label(c.element),
            ]
            parts += [_("HP {n}").format(n=c.max_hp), _("range {n}").format(n=c.range)]
            parts.append(_("expected {x}").format(x=f"{float(c.expected_damage):.1f}"))
            choices.append((cid, ("★ " if cid in pair else "") + choice_label(parts)))
        question = _("Character for {player} (★ dealt)").format(player=self._pname(pid))
        chosen = await self._choose(question, choices, draft.characters[index])
        if chosen:
            self.submit(PickCharacter(pid, chosen))

    @work
    async def action_counts(self) -> None:
        draft = self.game.draft
        if draft is None:
            return
        current = (
            f"{draft.counts.red} {draft.counts.blue} {draft.counts.neutral}" if draft.counts else ""
        )
        dialog = CountsDialog(
            _("Identity cards: Red Blue Neutral"), len(self.game.players), current
        )
        text = await self.ask(dialog)
        counts = parse_counts(text) if text is not None else None
        if counts is not None:
            self.submit(SetCounts(*counts))

    @work
    async def action_first(self) -> None:
        choices = [(p.id, p.name) for p in self.game.players]
        draft = self.game.draft
        chosen = await self._choose(
            _("Who takes the first turn?"), choices, draft.first_player if draft else None
        )
        if chosen:
            self.submit(SetFirstPlayer(chosen))

    @work
    async def action_layout(self) -> None:
        """The host's layout: pick the location on each slot, centre first."""
        picked: list[str] = []
        while len(picked) < len(LOCATIONS):
            slot = len(picked)
            where = _("centre") if slot == 0 else _("slot {n}").format(n=slot)
            options = [
                (loc, render.location_label(loc))
                for loc in LOCATIONS
                if loc not in picked and not (slot == 0 and loc == "warp")
            ]
            question = _("Which location lies on the {where}?").format(where=where)
            loc = await self._choose(question, options)
            if loc is None:
                return
            picked.append(loc)
        self.submit(SetLayout(tuple(picked)))
