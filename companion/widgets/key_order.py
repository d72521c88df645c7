"""Keys typed in a burst edit a text field in the order they were typed.

Textual (8.x) inserts a printable key in ``Input._on_key`` at once, but a key bound on
the input (backspace, delete, left/right, home/end, ctrl+u…) runs only after the key
event has bubbled up to the app and come back as an action; in a fast burst
("tmux send-keys BSpace 3 0", a host's quick correction) the characters typed after
it were inserted first, so "20" + backspace 3 0 became "203". Textual issue #6605
(open; PR #6631 proposes this same fix upstream).

Design decision: one work-around, installed once for every ``Input`` of the app
(``install``, called by ``companion.widgets``): the input runs its *own* non-priority
bindings inline in ``_on_key`` — the same actions the app would run a moment later,
only in key order. Priority bindings (ctrl+s start, Tab, Enter) are matched before a
key reaches the input, so they are untouched; keys the input does not bind bubble on
as before. Remove when Textual ships the fix.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input

_original_on_key = Input._on_key


async def _on_key_in_order(self: Input, event: events.Key) -> None:
    if not event.is_printable:
        for binding in self._bindings.key_to_bindings.get(event.key, []):
            if binding.priority or self.check_action(binding.action, ()) is not True:
                continue
            event.stop()
            event.prevent_default()
            await self.run_action(binding.action)
            return
    await _original_on_key(self, event)


def install() -> None:
    """Make every ``Input`` run its own editing keys in key order (idempotent)."""
    setattr(Input, "_on_key", _on_key_in_order)  # noqa: B010 - a class attribute on purpose
