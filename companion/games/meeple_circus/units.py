"""How Meeple Circus writes times: one place for every label of a time or a gap.

Pure (no i18n module, no Textual): the guide, the view-model, the host screen and the
board all format through these, so the same two presses show the same gap everywhere.

Design decisions:

* A gap between two presses is shown at the precision it is known: from one button
  box's own clock it is exact (``50 µs``, ``2.013 ms``); from host times (keyboard,
  or two devices) to a tenth of a millisecond, next to each press's ± uncertainty.
* A gap whose order the clock could not tell (the two presses were too close to
  call, whoever the host put first) is written ``±10.4 ms``; a certain one ``+10.4 ms``.
  A negative sign is never shown ("+-10.4 ms" was).
"""

from __future__ import annotations

NS_PER_S = 1_000_000_000
NS_PER_MS = 1_000_000


def format_elapsed(ns: int) -> str:
    """Time into the music, ``m:ss.mmm`` (negative before the start).

    >>> format_elapsed(20_300_000_000), format_elapsed(-250_000_000)
    ('0:20.300', '-0:00.250')
    """
    sign = "-" if ns < 0 else ""
    seconds, rest = divmod(abs(ns), NS_PER_S)
    return f"{sign}{seconds // 60}:{seconds % 60:02d}.{rest // NS_PER_MS:03d}"


def format_length(ns: int) -> str:
    """A track's or countdown's length, ``M:SS`` rounded up.

    >>> format_length(124_000_000_000), format_length(59_000_000_001)
    ('2:04', '1:00')
    """
    seconds = max(0, -(-ns // NS_PER_S))
    return f"{seconds // 60}:{seconds % 60:02d}"


def format_ms(ns: int) -> str:
    """An uncertainty or host-time gap to a tenth of a millisecond.

    >>> format_ms(20_000_000), format_ms(250_000_000)
    ('20.0 ms', '250.0 ms')
    """
    return f"{abs(ns) / NS_PER_MS:.1f} ms"


def format_exact(ns: int) -> str:
    """A gap from one device's clock, at the precision it deserves.

    >>> format_exact(50_000), format_exact(1_500), format_exact(2_013_000)
    ('50 µs', '1.5 µs', '2.013 ms')
    >>> format_exact(3_250_000_000)
    '3.250 s'
    """
    ns = abs(ns)
    if ns < NS_PER_MS:
        return f"{ns // 1000} µs" if ns % 1000 == 0 else f"{ns / 1000:.1f} µs"
    if ns < NS_PER_S:
        return f"{ns / NS_PER_MS:.3f} ms"
    return f"{ns / NS_PER_S:.3f} s"


def format_gap(ns: int, *, exact: bool, certain: bool) -> str:
    """The gap column: ``+`` when the order is certain, ``±`` when the clock could not tell.

    >>> format_gap(-10_400_000, exact=False, certain=False)
    '±10.4 ms'
    >>> format_gap(250_000_000, exact=False, certain=True)
    '+250.0 ms'
    >>> format_gap(3_250_000_000, exact=False, certain=True)
    '+3.250 s'
    >>> format_gap(50_000, exact=True, certain=True)
    '+50 µs'
    """
    if exact:
        text = format_exact(ns)
    elif abs(ns) >= NS_PER_S:
        text = f"{abs(ns) / NS_PER_S:.3f} s"
    else:
        text = format_ms(ns)
    return ("+" if certain and ns >= 0 else "±") + text
