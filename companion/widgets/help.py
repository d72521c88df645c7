"""``?`` / F1 on every screen: the keys that work now and, on a game screen, the rules
in brief (on Home, the new-session form and the history: what the screen is for).

Design decision: the list is the footer's own (``Screen.active_bindings``; on a game
screen the phase's keys first, the focused widget's keys included), so it cannot
disagree with the footer; keys that do nothing now are listed after the others with
the guide's reason, and the rules summary comes from the game's guide in the chosen
language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from companion.i18n import N_, _
from companion.widgets.translate import translate_bindings

if TYPE_CHECKING:
    from companion.widgets.game_screen import GameScreen


NOT_LISTED = frozenset(
    {
        "help",
        "app.focus_next",
        "app.focus_previous",
        "focus_next",
        "focus_previous",
        "submit_field",
        "screen.copy_text",
        "command_palette",
    }
)
"""Actions the help leaves out: itself, and the keys of fields and of Textual itself
(Tab, Enter, copy), which are no game's."""


class HelpScreen(ModalScreen[None]):
    """What each key does now, and the rules summary. Any of escape, ?, F1, q closes."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,f1,q", "close", N_("Close")),
    ]

    def __init__(self, screen: Screen[Any], title: str = "", about: str = "") -> None:
        """``screen``: the screen the keys are for. A game screen brings its own title
        (the game's name) and text (the guide's rules summary); any other screen gives
        ``title`` and ``about`` (translated already)."""
        super().__init__()
        self.for_screen = screen
        self.title_text = title
        self.about = about
        translate_bindings(self)

    @property
    def game_screen(self) -> GameScreen | None:
        from companion.widgets.game_screen import GameScreen

        return self.for_screen if isinstance(self.for_screen, GameScreen) else None

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help-dialog"):
            yield Static(self.keys_table(), id="help-keys")
            summary = self.summary()
            if summary:
                yield Static(Text(summary), id="help-rules", classes="help-rules")
            yield Static(_("escape: close"), classes="hint")

    def keys_table(self) -> Table:
        screen = self.for_screen
        game = self.game_screen
        name = game.session.info.name(game.companion.lang) if game else self.title_text
        table = Table(
            title=_("Keys now") + (" — " + name if name else ""),
            show_header=False,
            box=None,
            expand=True,
        )
        table.add_column(no_wrap=True, style="bold")
        table.add_column(ratio=1)
        later: list[tuple[str, str]] = []
        seen: set[str] = set()
        # The footer's keys in the footer's order (the phase's keys first, the focused
        # widget's included), without the aliases that have no words of their own
        # (seat keys 2…0 beside "1–0"), Textual's own focus and copy keys, and a
        # widget's hidden navigation keys (a table's cursor and page keys).
        for active in screen.active_bindings.values():
            b = active.binding
            if b.action in seen or b.action in NOT_LISTED or not b.description:
                continue
            if not b.show and active.node is not screen:
                continue  # a widget's own navigation (a table's cursor keys, page up…)
            seen.add(b.action)
            key = screen.app.get_key_display(b)
            reason = game.refusal(b.action) if game and active.node is screen else None
            if active.enabled:
                table.add_row(key, _(b.description))
            elif reason is not None:
                later.append((key, f"{_(b.description)} — {reason.render(_)}"))
            else:
                later.append((key, _(b.description)))
        for key, text in later:
            table.add_row(Text(key, style="dim"), Text(text, style="dim"))
        guide = game.guide if game else None
        if game and guide is not None and game.session.outcome is None:
            table.caption = guide.prompt(game.session.state).render(_)
        return table

    def summary(self) -> str:
        game = self.game_screen
        if game is None:
            return self.about
        guide = game.guide
        text = getattr(guide, "summary", "") if guide is not None else ""
        return _(text) if text else ""

    def action_close(self) -> None:
        self.dismiss(None)
