"""A game's outcome as one sentence, its winners named in the shown language's list.

Every game's ``outcome`` names its winners with the ``{names}`` field of its summary
(the convention of ``Outcome``), joined by the pure rules before any language is known.
The end banner, the board and History's detail fill that field again here, from the
winners in seat order, with ``listing``: ``Ann, Cy`` in English, ``安安、茜茜`` in
Chinese (the rules' ASCII comma was a language leak in the Chinese screens).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from string import Formatter
from types import MappingProxyType

from companion.i18n import _, listing
from companion.rules.base import Outcome, Player


def winner_names(players: Sequence[Player], outcome: Outcome) -> str:
    """The winners in seat order, as a list in the shown language."""
    winners = set(outcome.winners)
    return listing(p.name for p in players if p.id in winners)


def names_itself(outcome: Outcome) -> bool:
    """Whether the summary names the winners (has a ``{names}`` field)."""
    return any(field == "names" for _l, field, _s, _c in Formatter().parse(outcome.summary))


def outcome_sentence(players: Sequence[Player], outcome: Outcome) -> str:
    """The outcome's summary in the shown language, ``{names}`` filled from the winners."""
    if names_itself(outcome) and outcome.winners:
        names = winner_names(players, outcome)
        outcome = replace(outcome, params=MappingProxyType({**outcome.params, "names": names}))
    return outcome.render(_)
