"""The phones' join link as a QR code in half-blocks (the host's screen, the table board).

Two modules a character (``▀``, ``▄``, ``█``): the link (about 40 characters) is a
version-3 code, 29 modules, with its quiet zone 33 columns by 17 lines. The lines are meant to be
drawn black on white (``QR_STYLE``): scanners expect dark modules on a light
ground, whatever the terminal's own colours. The web board streams the same
terminal through xterm.js, which draws these block glyphs edge to edge, so one
rendering serves the terminal and the browser.
"""

from __future__ import annotations

QR_STYLE = "#000000 on #ffffff"
QUIET = 2
"""Modules of white around the code (the standard asks 4; 2 scans fine on a screen
and keeps the code small)."""


def qr_lines(text: str) -> list[str]:
    """The code as lines of half-blocks (dark = the foreground colour)."""
    import segno  # loaded when a code is first drawn, not with every screen that may draw one

    code = segno.make(text, error="m", boost_error=False)
    rows = [[bool(m) for m in row] for row in code.matrix]
    width = len(rows[0]) + 2 * QUIET
    blank = [False] * width
    rows = [blank] * QUIET + [[False] * QUIET + r + [False] * QUIET for r in rows] + [blank] * QUIET
    if len(rows) % 2:
        rows.append(blank)
    glyph = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
    return [
        "".join(glyph[(a, b)] for a, b in zip(top, bottom, strict=True))
        for top, bottom in zip(rows[::2], rows[1::2], strict=True)
    ]
