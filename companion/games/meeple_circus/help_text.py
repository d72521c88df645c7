"""The Meeple Circus rules summary that ``?`` shows (from docs/rules/meeple-circus.md).

Pure (an ``N_`` template translated where it is shown); kept apart from the guide's
refusals and prompts, which are short enough for the message line.
"""

from __future__ import annotations

from companion.rules.base import N_

RULES_SUMMARY = N_(
    "Three acts. Each act: preparation (clockwise from the first player, one "
    "component tile and one program card each), performance (everyone builds while "
    "the music plays; Tadaa! when done; acts 1-2: the first two take the 2 and 1 "
    "speed tokens; act 3: one performer at a time, fewest points first), "
    "evaluation (public demands, blue on the ground, yellow off the ground, red "
    "heights, speed token, guest stars from act 2, doubled in act 3, challenges in "
    "act 3), end (fewest points becomes the first player, ties: youngest, then the "
    "host). Highest total after act 3 wins; equal totals share the victory."
)
