"""The history's rows per round/act: the act the game ended in has its final scores.

Found on the tmux tour (docs/tour/meeple-circus.md): Meeple Circus's last evaluation
closes act 3, and the "act 3" row showed the standings without it (博 8, his 11 only
on a separate "game over" row). Failed before the fix.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion.session.detail import ScoreStep, round_scores


def test_the_step_that_ends_the_game_counts_for_its_act() -> None:
    steps = [
        ScoreStep(0, "act 3, evaluation", {"a": 11, "b": 8}),
        ScoreStep(1, "act 3, evaluation", {"a": 28, "b": 8}),
        ScoreStep(2, "game over", {"a": 28, "b": 11}),  # the last evaluation ends it
    ]
    rows = round_scores(steps)
    assert [(r.label, dict(r.scores)) for r in rows] == [("act 3", {"a": 28, "b": 11})]


@given(st.lists(st.integers(0, 20), min_size=1, max_size=6))
def test_the_last_row_is_always_the_final_score(points: list[int]) -> None:
    """Whatever round the game ends in, the history's last row is the final score."""
    steps = [ScoreStep(0, "round 1", {"a": 0})]
    total = 0
    for n, p in enumerate(points, start=1):
        total += p
        steps.append(ScoreStep(n, f"round {n}", {"a": total}))
    steps.append(ScoreStep(len(points) + 1, "game over", {"a": total + 1}))
    rows = round_scores(steps)
    assert dict(rows[-1].scores) == {"a": total + 1}
    assert all(r.label.startswith("round") for r in rows)
