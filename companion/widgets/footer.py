"""The footer of every screen: its keys never run under the command-palette key.

Textual's ``Footer`` docks the "^p Commands" key on the right and lets the other keys
run on beneath it when they do not fit (80 columns, a game with many keys). Where a
double-width character lies under that key, the compositor drops a character of the
key on top (Textual issue #6357): the Chinese footer read "▏^p   令" instead of
"▏^p 命令". Here the keys sit in their own box that ends where the palette key
begins, so the keys that do not fit are cut at that box's edge and nothing is laid
over them.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Footer
from textual.widgets._footer import FooterKey


class KeyFooter(Footer):
    """A ``Footer`` whose keys are clipped before the palette key (see the module)."""

    DEFAULT_CSS = """
    KeyFooter #footer-keys { width: 1fr; height: 1; overflow: hidden hidden; }
    """

    def compose(self) -> ComposeResult:
        palette: FooterKey | None = None
        with Horizontal(id="footer-keys"):
            for widget in super().compose():
                if isinstance(widget, FooterKey) and widget.has_class("-command-palette"):
                    palette = widget
                    continue
                yield widget
        if palette is not None:
            yield palette
