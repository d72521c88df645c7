"""The text field every screen uses: its editing keys apply in the order they were typed.

Textual's ``Input`` inserts a printable key at once, in its own ``_on_key``, but its
editing keys (backspace, delete, the arrows, home/end, ctrl+w …) are bindings: the key
first bubbles up to the app, which then runs the field's action. In a burst (a fast
typist, ``tmux send-keys BSpace 7 Enter``, a barcode reader) the next letter is already
in the field when the backspace arrives, so "12" BSpace "3" became "12" with the "3"
deleted: "abc" BSpace BSpace BSpace "7" Enter submitted "abc7" (Textual issue #6605,
still open). Here the field runs its own (non-priority) bindings in ``_on_key``, in key
order; what runs is the same action the app would have found first in the binding chain.
Priority bindings (the app's Tab, Enter, ctrl+q) are handled before the key reaches the
field and are not touched.
"""

from __future__ import annotations

from textual import events
from textual.widgets import Input


class TextInput(Input):
    """A Textual ``Input`` whose own editing keys run in key order (see the module)."""

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable:
            return  # Input._on_key (next in the MRO) inserts it
        for binding in self._bindings.key_to_bindings.get(event.key, ()):
            if binding.priority:
                continue
            if await self.app.run_action(binding.action, self):
                # Handled here, like the app would have: neither Input._on_key nor the
                # bubbling (which would run the binding a second time) sees it.
                event.stop()
                event.prevent_default()
                return
