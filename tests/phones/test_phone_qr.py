"""The join QR code in half-blocks holds exactly segno's modules (so it scans as segno's)."""

from __future__ import annotations

import segno

from companion.hardware.qr import QUIET, qr_lines

URL = "http://192.168.178.120:8766/j/AbCdEfGhIjK"


def test_half_blocks_hold_every_module() -> None:
    lines = qr_lines(URL)
    top = {" ": False, "▀": True, "▄": False, "█": True}
    bottom = {" ": False, "▀": False, "▄": True, "█": True}
    rows: list[list[bool]] = []
    for line in lines:
        rows.append([top[c] for c in line])
        rows.append([bottom[c] for c in line])
    code = segno.make(URL, error="m", boost_error=False)
    matrix = [[bool(m) for m in row] for row in code.matrix]
    size = len(matrix)
    inner = [row[QUIET : QUIET + size] for row in rows[QUIET : QUIET + size]]
    assert inner == matrix
    assert not any(any(row) for row in rows[:QUIET] + rows[QUIET + size :])  # the quiet zone
    assert all(len(line) == size + 2 * QUIET for line in lines)
    assert len(lines) <= 20  # fits beside the Tadaa order on an 80x24 screen's height
