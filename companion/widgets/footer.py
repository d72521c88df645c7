"""The footer of every screen: Textual's, with its keys clipped before the palette key
and recomposed once per change of what it shows.

* **Nothing laid over the keys.** Textual's ``Footer`` docks the "^p Commands" key on
  the right and lets the other keys run on beneath it when they do not fit (80
  columns, a game with many keys). Where a double-width character lies under that key,
  the compositor drops a character of the key on top (Textual issue #6357): the
  Chinese footer read "▏^p   令" instead of "▏^p 命令". Here the keys sit in their own
  box that ends where the palette key begins, so the keys that do not fit are cut at
  that box's edge and nothing is laid over them.
* **Rebuilt only when it changes.** Textual's ``Footer`` rebuilds all its keys (a
  widget each, styled three times as it mounts) every time the screen publishes
  "bindings updated", and a screen publishes that for every focus change, every
  reactive with ``bindings=True`` and every ``refresh_bindings()``. Opening a game
  screen published it 5–10 times, and the footer was rebuilt each time (issue 12/13,
  docs/PERFORMANCE.md "Opening a game screen"): a third of the opening. This footer
  waits for the frame, then rebuilds only if the keys it would show (key, label,
  enabled or dimmed, tooltip) differ from the ones it shows.
* Each key bound to the footer's ``compact`` also arrived with ``compact`` on (its own
  default) and was switched to the footer's value once mounted: two restyles per key
  for nothing. Those keys are given the footer's value before they mount.
"""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

Shown = tuple[tuple[Any, ...], ...]


class KeyFooter(Footer):
    """``Footer`` with its keys clipped before the palette key, rebuilt on change only."""

    DEFAULT_CSS = """
    KeyFooter #footer-keys { width: 1fr; height: 1; overflow: hidden hidden; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown: Shown | None = None
        self._pending = False

    def compose(self) -> ComposeResult:
        palette: FooterKey | None = None
        with Horizontal(id="footer-keys"):
            for widget in super().compose():
                if isinstance(widget, FooterKey) and widget.has_class("-command-palette"):
                    palette = widget
                    continue
                # A key bound to the footer's ``compact`` gets its value now: no class
                # flip (and restyle) at mount. The palette key is not bound.
                bound = widget._reactive_connect or {}
                if isinstance(widget, FooterKey) and "compact" in bound:
                    widget.set_reactive(FooterKey.compact, self.compact)
                yield widget
        if palette is not None:
            yield palette

    def bindings_changed(self, screen: Screen[Any]) -> None:
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._pending:
            self._pending = True
            self.call_after_refresh(self._rebuild_if_changed)

    def shown(self) -> Shown:
        """What the footer would show now, as plain data."""
        app = self.app
        keys = [
            (
                key,
                active.binding.action,
                active.binding.description,
                active.binding.show,
                active.binding.group,
                app.get_key_display(active.binding),
                active.enabled,
                active.tooltip,
            )
            for key, active in self.screen.active_bindings.items()
        ]
        return (*keys, (self.show_command_palette, app.ENABLE_COMMAND_PALETTE))

    async def _rebuild_if_changed(self) -> None:
        self._pending = False
        if not self.is_attached:
            return
        shown = self.shown()
        if shown == self._shown:
            return
        self._shown = shown
        await self.recompose()
