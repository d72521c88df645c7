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
* **Only the keys that apply now.** A key the screen's guide does not allow now
  (``check_action`` → None, Textual's "disabled") is left out of the footer: the
  Meowfia "1–0 Sheriff" stayed all game, Shadow Cats' "s Start game  c Character
  d Deal again" during play and after the end (issue 22), and at 80 columns they
  took the room of keys that mattered. Pressing such a key still says why it does
  nothing, and ``?`` lists it, dimmed, with the guide's reason.
* **Fitted to its width** (every screen; ``fit=False`` for Textual's own). Where the
  keys that apply do not fit with Textual's padding, the footer draws them compact
  (one space less each), where even that is too wide it leaves out the "^p Commands"
  key (ctrl+p still opens the palette), and then the last keys, each key shown whole
  and ``?`` (every key, with why) kept: at 80 columns Home's ``? 帮助`` and ``^q 退出``
  were past the edge, and game footers were cut mid-key (issue 22).
* Each key bound to the footer's ``compact`` also arrived with ``compact`` on (its own
  default) and was switched to the footer's value once mounted: two restyles per key
  for nothing. Those keys are given the footer's value before they mount, and every
  key its ``-compact`` class (its watcher added it after the key's first styling: a
  second styling of each key of a compact footer at each rebuild).
* In a burst of keys the footer is rebuilt once, when the burst has landed
  (``after_burst``): each key is still judged by the screen's ``check_action`` when
  it comes, not by what the footer shows.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from companion.widgets.shown import after_burst

Shown = tuple[tuple[Any, ...], ...]


class KeyFooter(Footer):
    """``Footer`` with its keys clipped before the palette key, rebuilt on change only."""

    DEFAULT_CSS = """
    KeyFooter #footer-keys { width: 1fr; height: 1; overflow: hidden hidden; }
    """

    def __init__(self, *, fit: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.fit = fit
        """Compact, then without the palette key, where the keys do not fit (module)."""
        self._shown: Shown | None = None
        self._pending = False
        self._rebuilding = False

    def compose(self) -> ComposeResult:
        palette: FooterKey | None = None
        keys: list[Any] = []
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.has_class("-command-palette"):
                palette = widget
                continue
            if isinstance(widget, FooterKey) and widget.has_class("-disabled"):
                continue  # does not apply now (see the module)
            keys.append(widget)
        room = self.size.width
        if self.fit and room:
            palette_width = 0 if palette is None else _width(palette, compact=False) + 1
            wide = sum(_width(k, compact=False) for k in keys)
            narrow = sum(_width(k, compact=True) for k in keys)
            compact = wide + palette_width > room
            self.set_reactive(Footer.compact, compact)
            self.set_class(compact, "-compact")
            if narrow + palette_width > room:
                palette = None  # the keys that apply first; ctrl+p still works
            keys = _whole_keys(keys, room)
        with Horizontal(id="footer-keys"):
            for widget in keys:
                # A key bound to the footer's ``compact`` gets its value now: no class
                # flip (and restyle) at mount. The palette key is not bound.
                bound = widget._reactive_connect or {}
                if isinstance(widget, FooterKey) and "compact" in bound:
                    _set_compact(widget, self.compact)
                yield widget
        if palette is not None:
            # Not bound to the footer's ``compact``: Textual leaves it at its default,
            # compact (its look in Textual's own footer), set here before it mounts.
            _set_compact(palette, True)
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
        palette = (self.show_command_palette, app.ENABLE_COMMAND_PALETTE)
        return (*keys, palette, (self.size.width if self.fit else 0,))

    def on_resize(self) -> None:
        if self.fit and not self._pending:  # fitted to the new width (compact, the palette key)
            self._pending = True
            self.call_after_refresh(self._rebuild_if_changed)

    async def _rebuild_if_changed(self) -> None:
        if not self.is_attached:
            self._pending = False
            return
        if after_burst(self, self._rebuild_after_burst):
            return  # still pending: ``drawn`` is False until then
        self._pending = False
        shown = self.shown()
        if shown == self._shown:
            return
        self._shown = shown
        self._rebuilding = True
        try:
            await self.recompose()
        finally:
            self._rebuilding = False

    def _rebuild_after_burst(self) -> None:
        self.call_after_refresh(self._rebuild_if_changed)

    def drawn(self) -> bool:
        """The keys of the current bindings are on screen: no rebuild asked for or under
        way, and one done (a footer that never met its screen's bindings is blank)."""
        return not self._pending and not self._rebuilding and self._shown is not None


def _set_compact(key: FooterKey, compact: bool) -> None:
    """``key``'s ``compact`` and the ``-compact`` class it gives, before it mounts.

    A ``FooterKey``'s watcher sets that class once the key is mounted (or its
    ``compact`` first read), after the key was styled: in a compact footer (most game
    screens: their keys do not fit with Textual's padding) and for the palette key
    always, a second styling of every key at every rebuild, 12-15 restyles a key typed
    (redo comes or goes) at Meeple Circus. Set here, unstyled, the watcher never runs."""
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)


def _whole_keys(keys: list[Any], room: int) -> list[Any]:
    """The keys that fit whole in ``room`` (compact), help kept whatever else goes.

    Past compact and the palette key, a game screen's keys still ran past 80 columns and
    the last ones were cut in the middle (Meowfia's ``? 帮`` at 80x24 in Chinese, Shadow
    Cats' ``n 中…``): the keys at the end are left out instead, each key shown is whole,
    and ``?``, which lists every key with what it does now, always stays."""
    room += 1  # the last key's margin may fall past the edge
    if sum(_width(k, compact=True) for k in keys) <= room:
        return keys
    helps = [k for k in keys if isinstance(k, FooterKey) and k.action.endswith("help")]
    kept: list[Any] = []
    used = sum(_width(k, compact=True) for k in helps)
    for key in keys:
        if key in helps:
            kept.append(key)
        elif used + _width(key, compact=True) <= room:
            kept.append(key)
            used += _width(key, compact=True)
        else:
            used = room + 1  # keys stay in their order: none after the first left out
    return kept


def _width(widget: Any, *, compact: bool) -> int:
    """Cells a footer key takes: `` key desc `` (Textual's padding) or ``key desc`` and a
    margin (compact)."""
    if not isinstance(widget, FooterKey):
        return 0
    text = cell_len(widget.key_display) + cell_len(widget.description)
    return text + (2 if compact else 3)
