"""Block figures: the font draws what it should, and sizes fit their box."""

from __future__ import annotations

from companion.widgets.bigtext import BigText, best_scale, bitmap, render_lines, size_at


def test_scale_one_packs_two_pixel_rows_per_line() -> None:
    assert bitmap("1") == [".#.", "##.", ".#.", ".#.", "###"]
    assert render_lines("1", 1) == ["▄█ ", " █ ", "▀▀▀"]


def test_a_clock_at_scale_two() -> None:
    lines = render_lines("0:5", 2)
    # 3 + 1 + 1 + 1 + 3 pixels, two columns each; 5 pixel rows of two half-rows.
    assert size_at("0:5", 2) == (18, 5)
    assert len(lines) == 5 and {len(line) for line in lines} == {18}
    # Pixel row 0 is "###.#.###"... with the colon's top blank: "###...###".
    assert lines[0] == "██████" + "      " + "██████"
    # Pixel row 1: "#.#" "." "#" "." "#..".
    assert lines[1] == "██  ██" + "  " + "██" + "  " + "██    "


def test_best_scale_is_the_largest_that_fits() -> None:
    assert best_scale("1:23", 200, 100, max_scale=6) == 6
    cols, rows = size_at("1:23", 3)
    assert best_scale("1:23", cols, rows) == 3
    assert best_scale("1:23", cols - 1, rows) == 2
    assert best_scale("1:23", 5, 1) == 0


def test_unknown_characters_are_blank_not_guessed() -> None:
    assert bitmap("x") == bitmap(" ")
    assert BigText("7", 0).lines() == ["7"]
