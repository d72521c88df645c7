"""A whole game through a live session, exported to JSON and replayed: same outcome."""

from __future__ import annotations

import contextlib
import json
import random
from pathlib import Path

from cat_box_helpers import NAMES
from test_cat_box_properties import choose

from companion.games.cat_box.prepare import deal_for
from companion.rules.base import RuleError, seat_players
from companion.session.export import (
    dumps_document,
    parse_document,
    replay_session,
    session_document,
)
from companion.session.live import LiveSession
from companion.session.store import Store


def play_to_the_end(store: Store, seed: int, options: dict[str, object]) -> LiveSession:
    rng = random.Random(seed)
    live = LiveSession.start(
        store, "cat-box", seat_players(NAMES[:4]), options, rng=random.Random(seed)
    )
    live.act(deal_for(live.players, live.options, live.rng))
    while live.outcome is None:
        with contextlib.suppress(RuleError):
            live.act(choose(live.state, rng))
    return live


def test_export_replays_to_the_same_outcome(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "c.db")
    live = play_to_the_end(store, 11, {})
    text = dumps_document(session_document(store.session(live.id), store.entries(live.id)))
    [(row, entries)] = parse_document(text)
    replayed = replay_session(row, entries)
    assert replayed.outcome == live.outcome
    assert replayed.matches_record
    deal = next(e for e in entries if e.kind == "action")
    assert deal.payload["type"] == "deal" and len(deal.payload["card_set"]["cards"]) == 9


def test_a_host_card_file_is_in_the_export_and_replays_without_it(tmp_path: Path) -> None:
    from importlib.resources import files

    text = files("companion.games.cat_box.rules").joinpath("default_cards.toml").read_text("utf-8")
    own = tmp_path / "ours.toml"
    own.write_text(
        text.replace('name = "Default cards', 'name = "Our cards')
        .replace("default = true", "default = false")
        .replace("hiss = 14", "hiss = 15"),
        "utf-8",
    )
    store = Store.open(tmp_path / "c.db")
    live = play_to_the_end(store, 5, {"card_file": str(own), "start_player": "p2"})
    doc = json.loads(
        dumps_document(session_document(store.session(live.id), store.entries(live.id)))
    )
    own.unlink()  # the file is gone: the log alone must replay
    [(row, entries)] = parse_document(json.dumps(doc))
    replayed = replay_session(row, entries)
    assert replayed.outcome == live.outcome
    dealt = entries[0].payload
    assert dealt["source"] == str(own) and dealt["start"] == "p2"
    assert dealt["card_set"]["name"].startswith("Our cards")
    assert 15 in [c["hiss"] for c in dealt["card_set"]["cards"]]
