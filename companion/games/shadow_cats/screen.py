"""喵窩暗影 Shadow Cats screen: the draft, the board, players with HP, dice, attacks.

Thin by design: the rules decide (``rules/``), the guide says which keys work now
(``ACTION_TYPES``), the view-model says what to show (``view.build``, drawn by
``render.py`` like the board), and every draw is made by ``prepare.py`` on the writer
thread and recorded as it is made (``submit(lambda: prepare....)``): the deal when the
setup opens, the equipment deck at the start, each roll. Leave, kill or resume at any
key: nothing is dealt or rolled again. Identities are asked only when a card is turned
(a death, a public reveal) and at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from concurrent.futures import Future
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Static

from companion.games.shadow_cats import prepare, render
from companion.games.shadow_cats.draft_keys import DraftKeys
from companion.games.shadow_cats.keys import choice_label, parse_hp_change
from companion.games.shadow_cats.manual_keys import ManualKeys
from companion.games.shadow_cats.rules.actions import (
    Attack,
    Destination,
    EndTurn,
    Forest,
    Place,
)
from companion.games.shadow_cats.rules.board import LOCATION_EFFECTS, LOCATIONS
from companion.games.shadow_cats.view import ShadowView, build
from companion.games.shadow_cats.widgets import DiceDialog
from companion.i18n import N_, _
from companion.rules.base import Action, RuleError
from companion.rules.names import fit_name
from companion.session.live import Change
from companion.widgets.dialogs import PromptDialog
from companion.widgets.shown import Shown

WIDE = 120
"""Columns from which the players table shows every column."""
NARROW = 100
"""Below this many columns the players table shortens its element and HP cells."""
FLAT_HEIGHT = 30
"""Below this many rows the ring is drawn without frames (two lines a slot): at 80x24
the framed ring left the players table three of five rows (issue 22)."""
TALL = 40
"""Rows from which the ring of locations is drawn in full (else compact)."""

__all__ = ["SCREEN", "ShadowCatsScreen", "choice_label", "parse_hp_change"]


def _cells(cell: Any) -> int:
    """Terminal cells a table cell takes (a ``Text`` or a string)."""
    return cell_len(cell.plain if isinstance(cell, Text) else str(cell))


class RingBoard(Shown):
    """The ring of locations, drawn for the width it is shown at. The width is known
    only after layout, and the side panel beside it changes it (its ``narrow`` class):
    a ring drawn at the screen's resize used a width that was not yet final, so the
    picture depended on timing (snapshots and kill-resume compared different rings)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", **kwargs)
        self.draw: Callable[[int], RenderableType] | None = None
        self._key: object = None
        self._drawn_at: tuple[int, object] | None = None

    def show(self, draw: Callable[[int], RenderableType], key: object) -> None:
        """Draw ``draw(width)``; the same ``key`` (what the picture is made of, compared
        with ``==``) at the same width is not drawn again: the ring is the largest
        renderable of the screen, and a refresh that changed nothing else (the screen's
        open draws its view three times) repainted it whole."""
        self.draw = draw
        self._key = key
        self._redraw()

    def on_resize(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if self.draw is None:
            return
        width = max(self.size.width, 42)
        drawn = (width, self._key)
        if self._drawn_at != drawn:
            self._drawn_at = drawn
            self.update(self.draw(width))


Layout = tuple[list[str], list[tuple[list[Any], str]]]
"""A players table to show: its column titles, and each row's cells with its key."""

MIN_NAME_CELLS = 6
"""The narrowest a name gets when the table gives way to its other columns."""


class PlayersTable(DataTable[Any]):
    """The players table, laid out for the width it is shown at. With the log shown
    beside it (``l`` at 80 columns, or a resize) the table has less room than the screen:
    laid out for the screen's width, Distance went off screen and Identity was cut to
    「身」 (issue 22). ``show`` takes the layout as a function of the room; the table lays
    it out again when its own width changes, keeping its cursor."""

    PADDING = 2
    """Cells each column takes beyond its content (``cell_padding`` on both sides)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layout_for: Callable[[int], Layout] | None = None
        self._key: object = None
        self._drawn_at: tuple[int, object] | None = None

    def room(self) -> int:
        """Columns the table's cells have (the screen's before the first layout)."""
        width = self.scrollable_content_region.width or self.size.width
        return width if width > 0 else self.app.size.width

    def show(self, layout_for: Callable[[int], Layout], cursor: int, key: object) -> None:
        """Lay out ``layout_for(room)``; the same ``key`` (compared with ``==``) at the
        same room is not built again, only the cursor moved (as ``RingBoard.show``)."""
        self.layout_for = layout_for
        self._key = key
        self._redraw(cursor)

    def on_resize(self) -> None:
        self._redraw(self.cursor_row)

    def _redraw(self, cursor: int) -> None:
        if self.layout_for is None:
            return
        room = self.room()
        drawn = (room, self._key)
        if self._drawn_at == drawn:
            if 0 <= cursor < self.row_count and cursor != self.cursor_row:
                self.move_cursor(row=cursor)
            return
        self._drawn_at = drawn
        columns, rows = self.layout_for(room)
        # Each column as wide as its widest cell, measured here: left to the table, the
        # rebuilt columns started at their titles' widths until its next idle pass, so a
        # screen read right after a commit showed "土 eart" and "██" (the kill-resume
        # test failed in CI on it).
        self.clear(columns=True)
        for i, label in enumerate(columns):
            self.add_column(label, width=column_width(label, rows, i))
        for cells, key in rows:
            self.add_row(*cells, key=key)
        if 0 <= cursor < len(rows):
            self.move_cursor(row=cursor)


def column_width(label: str, rows: list[tuple[list[Any], str]], i: int) -> int:
    return max([cell_len(label)] + [_cells(r[i]) for r, _key in rows])


def table_cells(layout: Layout) -> int:
    """The cells a layout takes across, padding included."""
    columns, rows = layout
    return sum(column_width(c, rows, i) + PlayersTable.PADDING for i, c in enumerate(columns))


class ShadowCatsScreen(DraftKeys, ManualKeys):
    CSS_PATH = "screen.tcss"
    _turn_shown: str | None = None
    """The turn the player table last moved its cursor to (it follows each new turn)."""
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "begin", N_("Start game")),
        Binding("c", "change_character", N_("Character")),
        Binding("d", "deal", N_("Deal again")),
        Binding("k", "counts", N_("Identity counts")),
        Binding("o", "layout", N_("Lay out board")),
        Binding("w", "first", N_("First player")),
        Binding("R", "reload", N_("Reload roster")),
        Binding("m", "move", N_("Move / roll")),
        Binding("a", "attack", N_("Attack")),
        Binding("e", "end_turn", N_("End turn")),
        Binding("f", "forest", N_("Cat Forest")),
        Binding("r", "reveal", N_("Reveal")),
        Binding("h", "hp", N_("HP ±")),
        Binding("p", "relocate", N_("Relocate")),
        Binding("g", "give", N_("Give item")),
        Binding("t", "take", N_("Take item")),
        Binding("x", "copy", N_("Copy (Choushi)")),
        Binding("n", "neutral", N_("Neutral win")),
        Binding("v", "identities", N_("Final identities")),
    ]
    ACTION_TYPES: ClassVar[Mapping[str, tuple[str, ...]]] = {
        "begin": ("begin",),
        "change_character": ("pick-character",),
        "deal": ("deal",),
        "counts": ("identity-counts",),
        "layout": ("layout",),
        "first": ("first-player",),
        "reload": ("deal",),
        "move": ("place", "move", "move-dice", "destination"),
        "attack": ("attack",),
        "end_turn": ("end-turn",),
        "forest": ("forest",),
        "reveal": ("reveal",),
        "hp": ("change-hp",),
        "relocate": ("relocate",),
        "give": ("give-item",),
        "take": ("take-item",),
        "copy": ("copy",),
        "neutral": ("declare-neutral-win",),
        "identities": ("final-identities",),
    }

    # ------------------------------------------------------------------ layout

    def compose_game(self) -> ComposeResult:
        yield Shown("", id="sc-phase", classes="phase-banner")
        yield Shown("", id="sc-death", classes="sc-death hidden")
        yield Shown("", id="sc-victory", classes="banner hidden")
        with Horizontal(id="sc-top"):
            yield RingBoard(id="sc-board")
            with Vertical(id="sc-side"):
                yield Shown("", id="sc-notices")
                yield Shown("", id="sc-attack")
        yield PlayersTable(id="sc-players", cursor_type="row", zebra_stripes=True)
        # Drawn at every refresh as a plain Static: measured once, before the game view's
        # scroll bar came, it kept the height of the wider box and its text was cut.
        yield Static("", id="sc-setup", classes="hidden")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#sc-players", DataTable).focus()
        # Cells drawn during mount are measured before the table has its styles (their
        # columns came out cut on a resumed screen): draw once more after the first layout.
        # (Also for a new session: the deal's commit may be drawn before that layout, and
        # the setup panel then kept the height it had before the scroll bar came.)
        self.call_after_refresh(self.refresh_view)

    def first_draw(self) -> Callable[[], Action] | None:
        """A new session (or one left before its deal): read the roster and deal, on the
        writer thread (the shared screen commits it, then shows it)."""
        if self.game.phase != "setup" or self.game.draft is not None:
            return None
        path = str(self.session.options.get("roster_file") or "")
        players, rng = self.game.players, self.session.rng
        return lambda: prepare.deal(prepare.read_roster(path), players, rng)

    def first_draw_done(self, future: Future[Change]) -> None:
        error = future.exception()
        self.roster_error = error.render(_) if isinstance(error, RuleError) else ""

    def on_resize(self, event: Any) -> None:
        super().on_resize(event)
        if self._drawn_for != self._size_key():  # the screen's first resize is its size at mount
            self.refresh_view()

    _drawn_for: tuple[bool, ...] | None = None
    """The size thresholds (``_size_key``) the view was last drawn for."""

    def _size_key(self) -> tuple[bool, ...]:
        """What of the terminal's size the view depends on (WIDE, NARROW, TALL, FLAT)."""
        width, height = self.app.size
        return (width < WIDE, width < NARROW, height < TALL, height < FLAT_HEIGHT)

    # ------------------------------------------------------------------ rendering

    def view(self) -> ShadowView:
        return build(self.game, self.companion.lang)

    def refresh_view(self) -> None:
        state, view = self.game, self.view()
        self._drawn_for = self._size_key()
        self.query_one("#sc-phase", Static).update(render.text(view.banner))
        board = self.query_one("#sc-board", RingBoard)
        compact = self.app.size.height < TALL
        # The app's width (the screen's own is 0 until its first layout; a game screen
        # fills the terminal).
        self.query_one("#sc-side").set_class(self.app.size.width < WIDE, "narrow")
        # Once a victory is known the players table (identities, winners) is what the host
        # reads: on a short terminal the ring gives it its rows (at 80x24 the table showed
        # only its header under the ring, the winners below the fold).
        ended = state.phase in ("ended", "over")
        self.query_one("#sc-top").set_class(ended and compact, "hidden")
        flat = self.app.size.height < FLAT_HEIGHT
        board.show(
            lambda width: render.ring(view, width, compact, flat),
            (view, compact, flat, self.companion.lang),
        )
        self._render_players(view)
        for widget_id, sentence in (("#sc-death", view.death), ("#sc-victory", view.victory)):
            banner = self.query_one(widget_id, Static)
            banner.update(("💀 " if widget_id == "#sc-death" else "🏆 ") + render.text(sentence))
            banner.set_class(sentence is None, "hidden")
        self.query_one("#sc-notices", Static).update(render.notices_text(view))
        attack = Text(_("Last attack") + "\n", style="bold underline")
        attack.append_text(render.attack_text(view.attack))
        self.query_one("#sc-attack", Static).update(attack)
        setup = self.query_one("#sc-setup", Static)
        setup.set_class(state.phase not in ("setup", "start"), "hidden")
        if state.phase == "setup":
            setup.update(self._setup_text(state))
        elif state.phase == "start":
            setup.update(self._deck_text(state))

    def _render_players(self, view: ShadowView) -> None:
        table = self.query_one("#sc-players", PlayersTable)
        cursor = table.cursor_row
        turn = self.game.turn
        if turn != self._turn_shown:  # the selection follows the turn (g h x r t p act on it)
            self._turn_shown = turn
            ids = [p.id for p in self.game.players]
            cursor = ids.index(turn) if turn in ids else cursor
        table.show(
            lambda room: self._players_layout(view, room),
            cursor,
            (view, self.app.size.width, self.companion.lang),
        )

    def _players_layout(self, view: ShadowView, room: int) -> Layout:
        """The fullest layout that fits ``room`` columns, no fuller than the screen's width
        allows; if even the narrow one does not fit, the names are cut (with …) so every
        other column (HP, Identity, Distance) stays whole."""
        width = self.app.size.width
        kinds = ("wide", "mid", "narrow")
        first = 0 if width >= WIDE else 1 if width >= NARROW else 2
        for kind in kinds[first:]:
            layout = self._players_cells(view, kind)
            if table_cells(layout) <= room:
                return layout
        # Still too wide: the short titles, then the names, then the characters give way.
        layout = self._players_cells(view, "narrow", short=True)
        over = table_cells(layout) - room
        names = column_width("", layout[1], 0)
        cut_names = max(MIN_NAME_CELLS, names - over)
        over -= names - cut_names
        characters = column_width("", layout[1], 1)
        cut_characters = max(MIN_NAME_CELLS, characters - max(0, over))
        return self._players_cells(view, "narrow", cut_names, cut_characters, short=True)

    def _players_cells(
        self,
        view: ShadowView,
        kind: str,
        names: int | None = None,
        characters: int | None = None,
        short: bool = False,
    ) -> Layout:
        # Narrow (under 100 columns, or no room beside the log): the element goes beside
        # the character as its glyph, the HP is its numbers and a location at most 12
        # cells: the Distance column was cut to "Di" (issue 22).
        wide, narrow = kind == "wide", kind == "narrow"
        columns = [_("Player"), _("Character")]
        columns += [] if narrow else [_("Element")]
        columns += [_("HP")]
        columns += [_("Range"), _("Weapon"), _("Armour")] if wide else []
        columns += [_("Location")]
        # The short titles of the one-character columns (the English "Identity" and
        # "Distance" took 16 cells over a "?" and a digit).
        columns += [_("Ident."), _("Dist.")] if short else [_("Identity"), _("Distance")]
        rows: list[tuple[list[Any], str]] = []
        for row in view.rows:
            element = (
                render.ELEMENT_GLYPHS[row.element] if narrow else render.element_label(row.element)
            )
            if row.copied:
                element += " ⇐ " + row.copied
            cells: list[Any] = [render.name_text(row, names)]
            character = f"{row.character} {element}"
            if characters is not None:
                character = fit_name(row.character, max(1, characters - 1 - cell_len(element)))
                character += f" {element}"
            cells += [character] if narrow else [row.character, element]
            bar = 12 if wide else 0 if narrow else 6
            cells.append(render.hp_text(row.hp, bar) if row.hp.top else "")
            if wide:
                cells += [str(row.range) if row.range else "", row.weapon or "—", row.armour or "—"]
            where = render.location_label(row.location)
            cells += [fit_name(where, 12) if narrow else where, render.identity_text(row.identity)]
            cells.append(render.distance_label(row))
            rows.append((cells, row.player))
        return columns, rows

    # ------------------------------------------------------------------ turns

    @work
    async def action_move(self) -> None:
        state, rng = self.game, self.session.rng
        if state.phase == "start" and (placing := state.next_to_place) is not None:
            title = _("Start position for {player}").format(player=self._pname(placing))
            dice = await self.ask(DiceDialog(title, None, start=True))
            typed = dice.typed if dice is not None else ()
            if dice is not None and dice.roll_rest:
                self.submit(lambda: prepare.place(rng, placing, typed))
            elif dice is not None:
                self.submit(Place(placing, typed))
            return
        pid = state.turn
        if pid is None:
            return
        here = state.seat(pid).location
        if state.step == "choose":
            await self._destination(pid, here)
            return
        dice = await self.ask(DiceDialog(_("{player} moves").format(player=self._pname(pid)), here))
        if dice is None:
            return
        if dice.roll_rest:
            self.submit(lambda: prepare.move(rng, pid, here, dice.typed))
        else:
            self.submit(prepare.move_from(pid, dice.typed))

    async def _destination(self, pid: str, here: str | None) -> None:
        choices = [(loc, render.location_label(loc)) for loc in LOCATIONS if loc != here]
        question = _("{player} rolled a 7: where to?").format(player=self._pname(pid))
        chosen = await self._choose(question, choices)
        if chosen:
            self.submit(Destination(pid, chosen))

    def on_committed(self, change: Change) -> None:
        state = self.game
        if state.phase == "play" and change.entry.kind == "action":
            if state.step == "forest":
                self.call_after_refresh(self.action_forest)
            elif state.step == "choose":
                self.call_after_refresh(self.action_move)

    @work
    async def action_attack(self) -> None:
        state, rng = self.game, self.session.rng
        pid = state.turn
        if pid is None:
            return
        lang, choices = self.companion.lang, []
        for target in state.in_range(pid):
            parts = [self._pname(target), state.character(target).display_name(lang)]
            parts.append(_("distance {n}").format(n=state.distance(pid, target)))
            parts.append(
                _("expected {x}").format(x=f"{float(state.expected_attack(pid, target)):.1f}")
            )
            parts.append(_("HP {hp}").format(hp=state.seat(target).hp))
            choices.append((target, choice_label(parts)))
        if not choices:
            self.say(_("Nobody is in range: end the turn with e."), error=True)
            return
        question = _("{player} attacks (range {n}): targets in range").format(
            player=self._pname(pid), n=state.character(pid).range
        )
        chosen = await self._choose(question, choices)
        if chosen is None:
            return
        target = chosen

        def check(text: str) -> str | None:
            clean = text.strip().lower()
            if clean == "r" or (clean.isdigit() and 1 <= int(clean) <= 100):
                return None
            if not clean:  # an empty enter: say what to type (quoting nothing told nothing)
                return _("Type a number from 1 to 100, or r to roll.")
            return _("{text!r} is not a d100 roll (1 to 100, or r to roll).").format(text=text)

        prompt = _("d100 for {player} → {target}: type the roll, or r to roll").format(
            player=self._pname(pid), target=self._pname(target)
        )
        text = await self.ask(PromptDialog(prompt, check=check, placeholder="1–100 / r"))
        if text is None:
            return
        if text.strip().lower() == "r":
            self.submit(lambda: prepare.attack(rng, pid, target))
        else:
            self.submit(Attack(pid, target, int(text.strip())))

    def action_end_turn(self) -> None:
        if self.game.turn is not None:
            self.submit(EndTurn(self.game.turn))

    @work
    async def action_forest(self) -> None:
        state = self.game
        pid = state.turn
        if pid is None or state.step != "forest":
            return
        others = [s.player for s in state.living() if s.player != pid]
        choices = [
            (f"damage:{p}", _("20 damage to {player}").format(player=self._pname(p)))
            for p in others
        ]
        choices += [
            (f"heal:{s.player}", _("heal {player} by 10").format(player=self._pname(s.player)))
            for s in state.living()
        ]
        question = _("Cat Forest: {effect}").format(effect=_(LOCATION_EFFECTS["forest"]))
        chosen = await self._choose(question, choices)
        if chosen:
            effect, target = chosen.split(":")
            self.submit(Forest(pid, target, "damage" if effect == "damage" else "heal"))


SCREEN = ShadowCatsScreen
