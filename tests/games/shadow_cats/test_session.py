"""Shadow Cats at the session layer: roster files, dice, deals, a live session, export→replay."""

from __future__ import annotations

import contextlib
import random
from collections import Counter

import pytest
from shadow_helpers import players, roster_text

from companion.games.shadow_cats import prepare as sc
from companion.games.shadow_cats.rules import GAME
from companion.games.shadow_cats.rules.board import SUMS
from companion.games.shadow_cats.testing import Table
from companion.rules.base import DataFileError, RuleError
from companion.session.clock import ManualClock
from companion.session.export import (
    dumps_document,
    parse_document,
    replay_session,
    session_document,
)
from companion.session.live import LiveSession
from companion.session.store import Store


def test_default_roster_is_read_from_the_package():
    source = sc.read_roster("")
    assert source.file_name == "default_roster.toml"
    assert len(source.parse().characters) == 23
    assert sc.read_roster(None) == source


def test_host_roster_file_is_read_and_named(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text(roster_text(), encoding="utf-8")
    source = sc.read_roster(str(path))
    assert source.file_name == str(path) and source.text == path.read_text(encoding="utf-8")
    assert source.parse().character("mimic").copies


def test_unreadable_roster_files_name_the_file(tmp_path):
    with pytest.raises(DataFileError, match=r"nothere\.toml: cannot be read"):
        sc.read_roster(str(tmp_path / "nothere.toml"))
    bad = tmp_path / "latin1.toml"
    bad.write_bytes("name = 'caf\xe9'".encode("latin-1"))
    with pytest.raises(DataFileError, match=r"latin1\.toml: the file is not UTF-8"):
        sc.read_roster(str(bad))
    broken = tmp_path / "broken.toml"
    broken.write_text("[[character]]\nid = 'x'\n", encoding="utf-8")
    with pytest.raises(
        DataFileError,
        match=r"broken.toml: \[\[character\]\] #1 \(x\): the "
        "field name is missing",
    ):
        sc.read_roster(str(broken)).parse()


def test_dice_procedures():
    rng = random.Random(1)
    sums = Counter(sc.roll_2d6(rng) for _ in range(6000))
    assert set(sums) == set(range(2, 13)) and sums[7] > sums[2]
    assert {sc.roll_d100(rng) for _ in range(3000)} == set(range(1, 101))
    for _ in range(300):
        start = sc.roll_start(rng)
        assert start[-1] != 7 and all(r == 7 for r in start[:-1])
        here = rng.choice(list(set(SUMS.values())))
        move = sc.roll_move(rng, here)
        assert all(SUMS.get(r) == here for r in move[:-1])
        assert move[-1] == 7 or SUMS[move[-1]] != here
    assert any(len(sc.roll_move(random.Random(s), "warp")) > 1 for s in range(50))


def test_deals():
    rng = random.Random(2)
    roster = sc.default_roster().parse()
    for _ in range(200):
        layout = sc.deal_layout(rng)
        assert layout[0] != "warp" and len(set(layout)) == 7
    pairs = sc.deal_character_pairs(roster, 10, rng)
    flat = [c for pair in pairs for c in pair]
    assert len(pairs) == 10 and len(set(flat)) == 20
    chosen = [p[0] for p in pairs]
    deck = sc.deal_equipment(roster, chosen, rng)
    kinds = Counter(roster.item(i).kind for i in deck)
    assert kinds == {"weapon": 12, "armour": 12}
    for cid in chosen:
        assert f"{cid}-weapon" in deck and f"{cid}-armour" in deck


def test_random_setup_needs_counts_for_the_player_number():
    source = sc.RosterSource("t.toml", roster_text(identities={}))
    with pytest.raises(DataFileError, match="no counts for 5 players"):
        sc.random_setup(source, players(5), random.Random(0))
    action = sc.random_setup(source, players(5), random.Random(0), counts=(2, 2, 1))
    assert (action.red, action.blue, action.neutral) == (2, 2, 1)


def play_live(session: LiveSession, table: Table, limit: int = 3000) -> None:
    for _ in range(limit):
        if session.outcome is not None:
            return
        with contextlib.suppress(RuleError):  # the table may try an illegal give
            session.act(table.next_action(session.state))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("seed", [3, 11])
def test_live_session_exports_and_replays_to_the_same_outcome(tmp_path, seed):
    store = Store.open(tmp_path / "s.sqlite3")
    rng = random.Random(seed)
    session = LiveSession.start(store, "shadow-cats", players(6), {}, clock=ManualClock(), rng=rng)
    table = Table(session.players, session.rng, neutral_rate=0.02)
    play_live(session, table)
    session.undo()
    session.redo()
    row = store.session(session.id)
    text = dumps_document(session_document(row, store.entries(session.id)))
    [(parsed_row, parsed_entries)] = parse_document(text)
    replayed = replay_session(parsed_row, parsed_entries)
    assert replayed.outcome == session.outcome
    assert replayed.matches_record
    # the roster text travels inside the log: the file is never read again
    assert parsed_entries[0].payload["type"] == "setup"
    assert "[[character]]" in parsed_entries[0].payload["roster"]
    resumed = LiveSession.resume(store, session.id)
    assert resumed.state == session.state
    store.close()


def test_roster_option_is_only_a_path():
    opts = GAME.check_options({"roster_file": "~/rosters/mine.toml"})
    assert opts == {"roster_file": "~/rosters/mine.toml"}
    assert GAME.check_options({}) == {"roster_file": ""}
