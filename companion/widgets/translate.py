"""Translate what Textual keeps outside our render code: binding descriptions.

``BINDINGS`` are class attributes, built once at import; their descriptions are
marked with ``N_`` and translated per instance here, so the footer follows the
language chosen at start-up (and tests may switch languages in one process).
"""

from __future__ import annotations

import dataclasses

from textual.dom import DOMNode

from companion.i18n import _


def translate_bindings(node: DOMNode) -> None:
    """Replace each binding description of ``node`` by its translation."""
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            dataclasses.replace(
                b,
                description=_(b.description) if b.description else "",
                tooltip=_(b.tooltip) if b.tooltip else "",
            )
            for b in bindings
        ]
