"""One conformance suite every registered game passes (issue 25).

Each game's record names a testing hook (``companion/games/<id>/testing.py``, a
``companion.rules.testing.GameTesting``): candidate actions and a random legal step.
With it every game, the sixth as much as the first, is held to the same contract:

* ``allowed(state)`` is exactly the set of types ``apply`` accepts among the
  candidates, and every other type has a reason (``why_not``);
* every candidate round-trips through the action codec (JSON and back);
* a random legal game, recorded through a live session, replays from its JSON
  export to the same state and outcome, and resumes after every step (a kill after
  each commit) to the same state and the same guide prompt;
* the board never shows a text the hook declares hidden;
* every sentence the guide and the rules show (prompts, log sentences, refusals,
  reasons) is translated in the game's own context: a string marked in the game's
  folder must be in the game's catalog (another game's or the shared meaning is a
  collision and fails);
* its docs page, both catalogs and its per-game tests folder exist;
* the start player the history reads from the log entries agrees with the guide.

Registering a game is all it takes to be checked. Seeds are fixed: a failure replays.
"""

from __future__ import annotations

import io
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from companion.games import GAMES
from companion.i18n import catalog, catalog_files
from companion.i18n_check import _is_untranslatable, extracted, translated_in
from companion.rules.base import Action, RuleError, action_to_json, seat_players
from companion.rules.guide import Say
from companion.rules.plugin import GameInfo
from companion.rules.testing import GameTesting
from companion.session.clock import ManualClock
from companion.session.export import export_text, parse_document, replay_session
from companion.session.live import LiveSession
from companion.session.log import replay
from companion.session.store import Store

ROOT = Path(__file__).resolve().parents[2]
NAMES = ["Ann", "Bo", "小明", "Di", "Ed", "Fa", "Gu", "Hu", "Io", "Jo", "Ka", "Li"]
SEEDS = (1, 2)
ids = [g.id for g in GAMES]


def hook(info: GameInfo) -> GameTesting[Any]:
    testing = info.testing
    assert isinstance(testing, GameTesting), f"{info.id}: its record names no testing hook"
    return testing


def tables(info: GameInfo) -> Iterator[tuple[int, dict[str, Any], int]]:
    for count in hook(info).tables:
        for options in hook(info).options:
            for seed in SEEDS:
                yield count, dict(options), seed


def walk(info: GameInfo, count: int, options: dict[str, Any], seed: int):  # type: ignore[no-untyped-def]
    """(state, candidates, chosen action or None) along one random legal game."""
    game, testing = info.rules, hook(info)
    rng = random.Random(seed)
    state = game.setup(seat_players(NAMES[:count]), game.check_options(options))
    for _ in range(testing.steps):
        candidates = list(testing.candidates(state, rng))
        action = testing.random_step(game, state, rng)
        yield state, candidates, action
        if action is None:
            return
        state = game.apply(state, action)
    yield state, list(testing.candidates(state, rng)), None


@pytest.mark.parametrize("info", GAMES, ids=ids)
def test_allowed_is_exactly_what_apply_accepts(info: GameInfo) -> None:
    game, guide = info.rules, info.guide
    assert guide is not None, f"{info.id} has no guide"
    seen: set[str] = set()
    for count, options, seed in tables(info):
        for state, candidates, _action in walk(info, count, options, seed):
            allowed = guide.allowed(state)
            assert allowed <= set(game.action_types), allowed - set(game.action_types)
            accepted: set[str] = set()
            for action in candidates:
                try:
                    game.apply(state, action)
                except RuleError:
                    continue
                assert action.type in allowed, (info.id, guide.phase(state), action)
                accepted.add(action.type)
            assert accepted == allowed, (info.id, guide.phase(state), allowed - accepted)
            seen |= accepted
            for tag in set(game.action_types) - allowed:
                assert guide.why_not(state, tag).render(), (info.id, tag)
            assert guide.prompt(state).render()
    assert seen, f"{info.id}: the random games played nothing"


@pytest.mark.parametrize("info", GAMES, ids=ids)
def test_every_action_round_trips_through_the_codec(info: GameInfo) -> None:
    game = info.rules
    for count, options, seed in tables(info):
        for _state, candidates, _action in walk(info, count, options, seed):
            for action in candidates:
                assert game.parse_action(action_to_json(action)) == action, action


def live_game(info: GameInfo, store: Store, count: int, options: dict[str, Any], seed: int):  # type: ignore[no-untyped-def]
    """A random legal game recorded through a live session; after every commit the
    session is resumed from the store as a restarted app would (kill after each step)."""
    game, testing, guide = info.rules, hook(info), info.guide
    assert guide is not None
    rng = random.Random(seed)
    live = LiveSession.start(
        store, info.id, seat_players(NAMES[:count]), options, clock=ManualClock()
    )
    for _ in range(testing.steps):
        action = testing.random_step(game, live.state, rng)
        if action is None:
            break
        live.act(action)
        resumed = LiveSession.resume(store, live.id, clock=ManualClock())
        assert resumed.state == live.state, (info.id, action)
        assert resumed.outcome == live.outcome
        assert guide.prompt(resumed.state).render() == guide.prompt(live.state).render()
    return live


@pytest.mark.parametrize("info", GAMES, ids=ids)
def test_random_games_resume_after_every_step_and_replay_from_their_export(
    info: GameInfo, tmp_path: Path
) -> None:
    from companion.session.results import query_results

    store = Store.open(tmp_path / "db.sqlite3")
    try:
        count, options, seed = next(tables(info))
        live = live_game(info, store, count, options, seed)
        [(row, entries)] = parse_document(export_text(store, [live.id], "json"))
        replayed = replay_session(row, entries)
        assert replayed.matches_record and replayed.outcome == live.outcome
        state, outcome = replay(info.rules, row.players, row.options, entries)
        assert state == live.state and outcome == live.outcome
        # The start player the history reads from the log agrees with the guide's.
        guide = info.guide
        assert guide is not None
        [result] = [r for r in query_results(store) if r.id == live.id]
        flagged = [p.pid for p in result.players if p.start_player]
        starter = guide.start_player(live.state)
        assert flagged == ([starter] if starter is not None else []), (info.id, flagged)
    finally:
        store.close()


def board_text(info: GameInfo, live: LiveSession) -> str:
    from rich.console import Console

    from companion.session.follow import Snapshot

    view = info.board.load()(Snapshot(1, live._row, info, live.state, live.outcome, 0), "en")
    panels = getattr(view, "panels", None)
    assert panels is not None, f"{info.id}: declares hidden texts but its board has no panels()"
    console = Console(file=io.StringIO(), width=200, record=True, color_system=None)
    for renderable in panels().values():
        console.print(renderable)
    return console.export_text()


@pytest.mark.parametrize("info", GAMES, ids=ids)
def test_the_board_never_shows_what_the_game_declares_hidden(
    info: GameInfo, tmp_path: Path
) -> None:
    game, testing = info.rules, hook(info)
    store = Store.open(tmp_path / "db.sqlite3")
    try:
        for count, options, seed in list(tables(info))[:2]:
            rng = random.Random(seed)
            live = LiveSession.start(
                store, info.id, seat_players(NAMES[:count]), options, clock=ManualClock()
            )
            for _ in range(testing.steps):
                hidden = testing.hidden_texts(live.state)
                if hidden:
                    shown = board_text(info, live)
                    assert not [h for h in hidden if h in shown], (info.id, hidden)
                action = testing.random_step(game, live.state, rng)
                if action is None:
                    break
                live.act(action)
    finally:
        store.close()


@cache
def marked_in(domain: str) -> frozenset[str]:
    return frozenset(m.msgid for m in extracted() if m.domain == domain)


def templates(value: Any) -> Iterator[str]:
    """The template of a sentence and of every sentence inside its parameters."""
    if isinstance(value, Say | RuleError):
        if type(value).render is Say.render or isinstance(value, RuleError):
            yield value.template  # (a Say that renders itself, a card's name, is data)
        for param in value.params.values():
            yield from templates(param)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from templates(item)


def check_translated(info: GameInfo, template: str) -> None:
    if _is_untranslatable(template):
        return
    if template in marked_in(info.domain):
        assert translated_in("zh", info.domain, template), (
            f"{info.id}: {template!r} is not in its own catalog "
            f"(companion/games/{info.domain}/locale/zh_CN): another catalog's word would show"
        )
    else:
        assert catalog("zh", info.domain).gettext(template) != template, (
            f"{info.id} shows {template!r}, translated nowhere in its context"
        )


@pytest.mark.parametrize("info", GAMES, ids=ids)
def test_every_shown_sentence_is_translated_in_the_games_own_context(info: GameInfo) -> None:
    game, guide = info.rules, info.guide
    assert guide is not None
    shown: set[str] = set()
    for count, options, seed in list(tables(info))[:2]:
        for state, candidates, action in walk(info, count, options, seed):
            shown.update(templates(guide.prompt(state)))
            for tag in set(game.action_types) - guide.allowed(state):
                shown.update(templates(guide.why_not(state, tag)))
            for candidate in candidates[:40]:
                try:
                    game.apply(state, candidate)
                except RuleError as error:
                    shown.update(templates(error))
            if action is not None:
                after = game.apply(state, action)
                shown.update(templates(guide.describe(action, state, after)))
                outcome = game.outcome(after)
                if outcome is not None:
                    shown.update(templates(outcome.render(lambda t: (shown.add(t), t)[1])))
    for spec in game.options:
        shown.add(spec.label)
    for template in sorted(shown):
        check_translated(info, template)


@pytest.mark.parametrize("info", GAMES, ids=ids)
def test_its_docs_page_catalogs_and_tests_exist(info: GameInfo) -> None:
    folder = ROOT / "companion" / "games" / info.domain
    docs = [folder / "README.md", ROOT / "docs" / "games" / f"{info.id}.md"]
    assert any(p.exists() for p in docs), f"{info.id}: no docs page ({docs[0]} or {docs[1]})"
    for lang in ("en", "zh"):
        assert catalog_files(lang, info.domain), f"{info.id}: no {lang} catalog in {folder}"
    tests = ROOT / "tests" / "games" / info.domain
    assert list(tests.glob("test_*.py")), f"{info.id}: no tests in {tests}"


def test_every_action_a_hook_proposes_is_an_action() -> None:
    for info in GAMES:
        state = info.rules.setup(
            seat_players(NAMES[: hook(info).tables[0]]),
            info.rules.check_options(dict(hook(info).options[0])),
        )
        proposed = hook(info).candidates(state, random.Random(0))
        assert proposed and all(isinstance(a, Action) for a in proposed), info.id
