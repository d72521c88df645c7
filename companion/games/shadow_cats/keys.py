"""What every key of the 喵窩暗影 screen shares: the state, names, the chosen row, and
asking (a choice list that opens on its first item, a reason for the log).

The keys themselves are grouped by when they are used: ``draft_keys.py`` (the setup),
``manual_keys.py`` (identities and the host's manual corrections) and the turn keys in
``screen.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from textual.widgets import DataTable

from companion.games.shadow_cats.rules.actions import Identity
from companion.games.shadow_cats.rules.state import ShadowState
from companion.games.shadow_cats.rules.words import IDENTITY_WORDS
from companion.i18n import _, listing
from companion.widgets.dialogs import ChoiceDialog, ReasonDialog
from companion.widgets.game_screen import GameScreen


def parse_hp_change(text: str) -> tuple[int, str]:
    """``"-20 NPC card"`` → ``(-20, "NPC card")``; ``ValueError`` if malformed."""
    clean = text.strip().replace("＋", "+").replace("－", "-").replace("−", "-")
    amount, _sep, reason = clean.partition(" ")
    if not amount.lstrip("+-").isdigit():
        raise ValueError(text)
    return int(amount), reason.strip()


def choice_label(parts: Sequence[str]) -> str:
    return "  ·  ".join(p for p in parts if p)


class ShadowKeys(GameScreen):
    """Helpers for the key handlers (no bindings of its own)."""

    @property
    def game(self) -> ShadowState:
        state: ShadowState = self.session.state
        return state

    def _pname(self, pid: str | None) -> str:
        return "—" if pid is None else self.session.player(pid).name

    def _selected(self) -> str | None:
        table = self.query_one("#sc-players", DataTable)
        players = self.game.players
        return players[table.cursor_row].id if 0 <= table.cursor_row < len(players) else None

    def _target(self, action_type: str) -> tuple[str | None, tuple[Mapping[str, Any], ...]]:
        """The player a manual key acts on, and the guide's items for ``action_type``
        (``GUIDE.choices``: only what the rules accept). The selected row if the action
        can apply to it — the selection follows the turn — else the player whose turn
        it is, else the only player it can apply to; else the reason, and None."""
        guide = self.guide
        items = guide.choices(self.game, action_type) if guide is not None else ()
        players = list(dict.fromkeys(str(i["player"]) for i in items))
        if not items:
            reason = guide.why_not(self.game, action_type).render(_) if guide else ""
            self.say(reason or _("Nothing to choose from."), error=True)
            return None, ()
        for pid in (self._selected(), self.game.turn):
            if pid in players:
                return pid, items
        if len(players) == 1:
            return players[0], items
        self.say(
            _("Not for {player}: select one of {names}.").format(
                player=self._pname(self._selected()),
                names=listing(self._pname(p) for p in players),
            ),
            error=True,
        )
        return None, ()

    async def _choose(
        self, question: str, choices: Sequence[tuple[str, str]], selected: str | None = None
    ) -> str | None:
        if not choices:
            self.say(_("Nothing to choose from."), error=True)
            return None
        return await self.ask(ChoiceDialog(question, choices, selected))

    async def _reason(self, question: str) -> str | None:
        text = await self.ask(ReasonDialog(question, placeholder=_("e.g. event card")))
        return text.strip() if text is not None else None

    async def _identity(self, question: str, chosen: Sequence[Identity] = ()) -> str | None:
        """Ask for a turned card: only the identities the counts leave open are offered
        (``chosen``: answers given in this entry but not recorded yet), the first one
        highlighted; so a game with no Neutral never offers one."""
        choices = [(i, _(IDENTITY_WORDS[i])) for i in self.game.open_identities(chosen)]
        return await self._choose(question, choices)
