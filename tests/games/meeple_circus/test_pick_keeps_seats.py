"""The host-pick dialog keeps seat numbers (issue 22, "Typing"): a tie of 茜 (seat 3)
and 丁 (seat 4) was offered as ``[1] 茜 [2] 丁``, and 茜's own key ``3`` was refused."""

from __future__ import annotations

from types import SimpleNamespace

from companion.games.meeple_circus.decisions import player_choices
from companion.rules.base import Player


def test_tied_players_keep_their_seat_keys() -> None:
    players = (
        Player("p1", "安"),
        Player("p2", "波"),
        Player("p3", "茜"),
        Player("p4", "丁"),
    )
    by_id = {p.id: p for p in players}
    screen = SimpleNamespace(session=SimpleNamespace(players=players, player=by_id.__getitem__))
    choices = player_choices(screen, ("p3", "p4"))  # type: ignore[arg-type]
    assert [(c.key, c.label) for c in choices] == [("3", "茜"), ("4", "丁")]
