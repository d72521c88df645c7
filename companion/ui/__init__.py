"""The Textual app: thin screens that call the session layer and render its state.

Textual paints a changed screen on a timer, at most ``TEXTUAL_FPS`` times a second (60
unless set): a key's effect waits for the next tick, and one whose effect ends in a
scroll (the log following its newest line, a table's cursor kept in view) for a second
one. The companion asks for 120, which halves each wait (a 21-key burst at the score
pad: 52 -> 37 ms a key, the bare Textual app's single key 24 -> 13 ms; docs/
PERFORMANCE.md). It animates nothing, so a frame is still painted only when something
changed. Set here, before Textual is first imported (it reads the variable once, as
``textual.constants.MAX_FPS``); a ``TEXTUAL_FPS`` the host set is kept.
"""

import os

os.environ.setdefault("TEXTUAL_FPS", "120")
