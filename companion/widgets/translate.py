"""Translate what Textual keeps outside our render code: binding descriptions.

``BINDINGS`` are class attributes, built once at import; their descriptions are
marked with ``N_`` and translated per instance here, so the footer follows the
language chosen at start-up (and tests may switch languages in one process).
"""

from __future__ import annotations

import dataclasses

from textual.binding import Binding
from textual.dom import DOMNode
from textual.screen import Screen

from companion.i18n import _

TEXTUALS_OWN = frozenset(
    (b.action, b.description) for b in Screen.BINDINGS if isinstance(b, Binding) and not b.show
)
"""Textual's own hidden keys of every screen (Tab, shift+Tab, copy): no catalog has
their words, the footer and the help leave them out, so they are not looked up —
where no game is selected each such look-up fell through every game's catalog and
made Home's start-up read all seven (issue 26)."""


def translate_bindings(node: DOMNode) -> None:
    """Replace each binding description of ``node`` by its translation."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            b
            if (b.action, b.description) in TEXTUALS_OWN
            else dataclasses.replace(
                b,
                description=_(b.description) if b.description else "",
                tooltip=_(b.tooltip) if b.tooltip else "",
            )
            for b in bindings
        ]
