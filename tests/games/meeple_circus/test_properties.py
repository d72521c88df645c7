"""Invariants of the Tadaa judging and of replay, for any press times (hypothesis)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from mc_helpers import MS, TRACK, Table, box, key

from companion.games.meeple_circus.rules import GAME
from companion.games.meeple_circus.rules.actions import (
    EndPerformance,
    FinishPerformance,
    Press,
    ScorePlayer,
    SettlePress,
    SettleTie,
    StartPerformance,
    VoidPress,
)
from companion.rules.base import action_to_json, seat_players
from companion.session.log import replay
from companion.session.store import Entry

START = 1_000 * MS
PLAYERS = ("p1", "p2", "p3", "p4", "p5")

# Times from well before the start to well after the end, often landing near them.
times = st.one_of(
    st.integers(min_value=0, max_value=START + TRACK + 2_000 * MS),
    st.sampled_from([START - 1, START, START + 1, START + TRACK - 1, START + TRACK]),
)


def _exact_presses(min_size: int = 0) -> st.SearchStrategy[list[Press]]:
    """Keyboard presses with no uncertainty at distinct times."""
    return st.lists(
        st.tuples(st.sampled_from(PLAYERS), times),
        min_size=min_size,
        max_size=12,
        unique_by=lambda pt: pt[1],
    ).map(lambda pts: [key(p, t) for p, t in pts])


def _table(act3: bool = False) -> Table:
    t = Table.of("A", "B", "C", "D", "E")
    t.start_game()
    if act3:
        t.rehearsal()
        t.score_all({})
        t.end_act()
        t.prepare_all()
        t.rehearsal()
        t.score_all({})
        t.end_act()
        t.prepare_all()
    return t


def _expected_tokens(presses: list[Press], voided: set[int]) -> dict[str, int]:
    """The rule in plain words: the two earliest distinct players inside the music."""
    inside = sorted(
        (p.host_ns, p.player)
        for i, p in enumerate(presses)
        if i not in voided and START < p.host_ns < START + TRACK
    )
    winners: list[str] = []
    for _, player in inside:
        if player not in winners:
            winners.append(player)
    return dict(zip(winners[:2], (2, 1), strict=False))


@settings(max_examples=200, deadline=None)
@given(presses=_exact_presses(), data=st.data())
def test_tokens_go_to_the_two_earliest_distinct_players_inside_the_music(
    presses: list[Press], data: st.DataObject
) -> None:
    t = _table()
    # Some presses arrive before the start action, the rest after it: same result.
    split = data.draw(st.integers(0, len(presses)))
    t.do(*presses[:split], StartPerformance(START, TRACK), *presses[split:])
    voided = set(data.draw(st.sets(st.integers(0, max(0, len(presses) - 1)), max_size=3)))
    voided &= set(range(len(presses)))
    for index in sorted(voided):
        t.do(VoidPress(index))
    t.do(EndPerformance(START + TRACK))
    # A press exactly on the start or end is the host's call: call it "outside".
    verdict = t.state.verdict()
    for j in verdict.presses:
        if j.status in ("uncertain-start", "uncertain-end"):
            t.do(SettlePress(j.index, counted=False))
    t.do(FinishPerformance())
    assert dict(t.state.act.speed_tokens) == _expected_tokens(presses, voided)


@settings(max_examples=150, deadline=None)
@given(
    raw=st.lists(
        st.tuples(
            st.sampled_from(PLAYERS),
            times,
            st.integers(0, 50 * MS),
            st.sampled_from(["keyboard", "box-A", "box-B"]),
        ),
        max_size=10,
    )
)
def test_with_uncertainty_tokens_never_contradict_the_true_order(
    raw: list[tuple[str, int, int, str]],
) -> None:
    """Whatever the host settles consistently with the press times, the tokens
    equal the plain rule applied to those times; undecided ties only when it matters."""
    presses: list[Press] = []
    device_clock = {"box-A": 0, "box-B": 0}
    for player, t, u, source in sorted(raw, key=lambda r: (r[1], r[0])):
        if source == "keyboard":
            presses.append(key(player, t, u))
        else:
            device_clock[source] += 1  # each box's clock agrees with host order
            presses.append(box(player, t, device_clock[source], u, device=source))
    tbl = _table()
    tbl.do(StartPerformance(START, TRACK), *presses, EndPerformance(START + TRACK))
    first = tbl.state.verdict()
    # Settle every flag by where the centre lies, and every tie by centre order.
    for j in first.presses:
        if j.status in ("uncertain-start", "uncertain-end"):
            inside = START < j.press.host_ns < START + TRACK
            tbl.do(SettlePress(j.index, counted=inside))
    for group in tbl.state.verdict().order:
        if len(group) > 1:
            firsts = {}
            for j in tbl.state.verdict().presses:
                if j.status == "counted" and j.press.player in group:
                    firsts[j.press.player] = j.press.host_ns
            tbl.do(SettleTie(tuple(sorted(group, key=lambda p: (firsts[p], p)))))
    final = tbl.state.verdict()
    assert final.tokens is not None
    expected = _expected_tokens(presses, set())
    assert final.tokens == expected
    if first.tokens is not None:
        # Decided without help: it must already be the only possible answer.
        assert first.tokens == expected


@settings(max_examples=100, deadline=None)
@given(presses=_exact_presses(min_size=1))
def test_no_speed_tokens_in_act_3(presses: list[Press]) -> None:
    t = _table(act3=True)
    for index in range(len(t.state.performance_order())):
        mine = [p for p in presses if p.player == t.state.performer]
        t.do(StartPerformance(START + index * 10 * TRACK, TRACK))
        shifted = [key(p.player, p.host_ns + index * 10 * TRACK) for p in mine]
        for press in shifted:
            t.do(press)
        verdict = t.state.verdict()
        assert verdict.tokens == {}
        if t.state.performance.current.running:
            t.do(EndPerformance(START + index * 10 * TRACK + TRACK))
        t.do(FinishPerformance())
    assert t.state.phase == "evaluation"
    assert t.state.act.speed_tokens == ()
    t.score_all({})
    assert all(s.speed == 0 for s in t.state.act.scores)


@settings(max_examples=60, deadline=None)
@given(
    points=st.lists(st.integers(0, 12), min_size=9, max_size=9),
    presses=_exact_presses(),
)
def test_replaying_the_log_gives_the_same_state(points: list[int], presses: list[Press]) -> None:
    players = seat_players(["A", "B", "C"], birth_dates=["2001-01-01", "2002-02-02", None])
    t = Table(players)
    t.start_game()
    mine = [p for p in presses if p.player in ("p1", "p2", "p3")]
    t.do(StartPerformance(START, TRACK), *mine, EndPerformance(START + TRACK))
    for j in t.state.verdict().presses:
        if j.status in ("uncertain-start", "uncertain-end"):
            t.do(SettlePress(j.index, counted=True))
    t.do(FinishPerformance())
    for act in range(3):
        for i, pid in enumerate(t.state.player_ids()):
            extra = {"guest_stars": (points[3 * act + i] % 5 + 1,)} if act else {}
            t.do(ScorePlayer(pid, blue=points[3 * act + i], **extra))  # type: ignore[arg-type]
        if act == 2:
            break
        t.end_act()
        t.prepare_all()
        if act == 0:
            t.rehearsal()
        else:
            t.grand_show()
    entries = [
        Entry(seq=i + 1, kind="action", payload=action_to_json(a), at="", mono_ns=None)
        for i, a in enumerate(t.actions)
    ]
    state, outcome = replay(GAME, players, {}, entries)
    assert state == t.state
    assert outcome == GAME.outcome(t.state)
    assert outcome is not None
    best = max(t.state.totals().values())
    assert set(outcome.winners) == {p for p, v in t.state.totals().items() if v == best}
