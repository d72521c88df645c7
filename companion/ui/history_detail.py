"""One session from the history: final state, scores per round/act, chart, log, photo finish.

Everything shown is computed by ``companion.session.detail`` from the log with
the current rules; this screen only lays it out.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Static, TabbedContent, TabPane

from companion.games import find_game
from companion.i18n import N_, _, listing, set_game_domain
from companion.rules.base import RuleError
from companion.session.detail import Performance, SessionDetail, session_detail
from companion.session.narrate import button_words, compact
from companion.session.store import Store
from companion.ui.history import HISTORY_CSS, abandon, resume
from companion.ui.history_export import start_export
from companion.ui.history_format import (
    clock,
    duration,
    game_name,
    number,
    options_text,
    progress_label,
    side_label,
    source_label,
    status_label,
    when,
)
from companion.widgets.footer import KeyFooter
from companion.widgets.outcome import outcome_sentence
from companion.widgets.translate import translate_bindings
from companion.widgets.wide_plot import WidePlot

TABS = ("tab-summary", "tab-chart", "tab-timeline", "tab-photo")
VERDICTS = {
    "counted": N_("counted"),
    "repeat": N_("again (no effect)"),
    "voided": N_("voided"),
    "false-start": N_("false start"),
    "too-late": N_("too late"),
    "uncertain": N_("too close to call: the host decides"),
    "discarded": N_("discarded (aborted)"),
    "undone": N_("undone"),
    "raw": N_("raw event"),
}


class SessionDetailScreen(Screen[None]):
    """A finished, unfinished or abandoned session, read-only."""

    CSS_PATH = HISTORY_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "tab(0)", N_("Summary")),
        Binding("2", "tab(1)", N_("Chart")),
        Binding("3", "tab(2)", N_("Log")),
        Binding("4", "tab(3)", N_("Photo finish")),
        Binding("x", "export", N_("Export")),
        Binding("r", "resume", N_("Resume")),
        Binding("a", "abandon", N_("Abandon")),
        Binding("escape", "back", N_("Back")),
    ]

    def __init__(self, store: Store, session_id: str) -> None:
        super().__init__()
        self.store = store
        self.session_id = session_id
        self.detail: SessionDetail = session_detail(store, session_id)
        self._select_domain()
        translate_bindings(self)
        self._timeline_width = 0

    def _select_domain(self) -> None:
        """The session's game's catalog first (its sentences in its own words)."""
        try:
            set_game_domain(find_game(self.detail.result.game).domain)
        except RuleError:  # a game this version does not know: the shared words
            set_game_domain(None)

    def on_screen_resume(self) -> None:
        self._select_domain()

    @property
    def lang(self) -> str:
        return str(getattr(self.app, "lang", "en"))

    def names(self) -> dict[str, str]:
        return {p.id: p.name for p in self.detail.row.players}

    # ------------------------------------------------------------------ layout

    def compose(self) -> ComposeResult:
        yield Header(show_clock=True)
        yield Static(self._heading(), id="detail-heading")
        with TabbedContent(id="detail-tabs"):
            with TabPane(_("Summary"), id="tab-summary"), VerticalScroll():
                yield Static(self._state_text(), id="detail-state")
                yield DataTable(id="detail-final", cursor_type="none", zebra_stripes=True)
                yield Static(_("Scores by round / act"), classes="section-title")
                yield DataTable(id="detail-rounds", cursor_type="none", zebra_stripes=True)
            with TabPane(_("Chart"), id="tab-chart"):
                yield WidePlot(id="detail-chart")
            with TabPane(_("Log"), id="tab-timeline"):
                yield DataTable(id="detail-timeline", cursor_type="row", zebra_stripes=True)
            with TabPane(_("Photo finish"), id="tab-photo"), VerticalScroll(id="detail-photo"):
                yield from self._photo_widgets()
        yield KeyFooter()

    def on_mount(self) -> None:
        self.sub_title = _("Session {id}").format(id=self.session_id[:8])
        self._fill_final()
        self._fill_rounds()
        self._fill_chart()
        self._fill_timeline()
        self._fill_photo_tables()

    def _heading(self) -> Text:
        d = self.detail
        res = d.result
        text = Text()
        text.append(game_name(res.game, self.lang, res.title), style="bold")
        text.append(f"   {when(res.started_at)}   ")
        text.append(_("Duration: {d}").format(d=duration(res.duration_s)))
        text.append("   ")
        style = {"finished": "green", "abandoned": "yellow"}.get(res.status, "cyan")
        text.append(status_label(res.status), style=f"bold {style}")
        text.append(
            "\n" + _("Players: {names}").format(names=listing(p.name for p in d.row.players))
        )
        opts = options_text(res.game, d.row.options) if d.row.options else ""
        if opts:  # Shadow Cats' options all left out (as the form shows them): no line
            text.append("\n" + _("Options: {options}").format(options=opts), style="dim")
        if d.outcome is not None:
            text.append("\n" + outcome_sentence(d.row.players, d.outcome), style="bold green")
        if d.error:
            text.append(
                "\n"
                + _("This log does not replay under the current rules: {error}").format(
                    error=d.error
                ),
                style="bold red",
            )
        return text

    def _state_text(self) -> Text:
        """Where the game stood, in the game guide's words: its progress and, for a
        session that did not end, what the host was to do next (never the state's
        internal fields)."""
        d = self.detail
        text = Text()
        text.append(_("Final state"), style="bold")
        if d.progress:
            text.append("  " + progress_label(d.progress))
        if d.next_step is not None:
            text.append("\n  " + _("Next: {step}").format(step=d.next_step.render(_)))
        return text

    def _fill_final(self) -> None:
        table = self.query_one("#detail-final", DataTable)
        res = self.detail.result
        has_sides = any(p.side for p in res.players)
        characters = self._characters()
        columns = [_("Seat"), _("Player")]
        if characters:
            columns.append(_("Character"))
        if has_sides:
            columns.append(_("Side"))
        columns += [_("Score"), _("Rank"), _("Winner")]
        table.add_columns(*columns)
        current = self.detail.steps[-1].scores if self.detail.steps else {}
        for p in res.players:
            score = p.value if res.finished else current.get(p.pid)
            row: list[Any] = [str(p.seat), p.name]
            if characters:
                row.append(characters.get(p.pid, ""))
            if has_sides:
                row.append(side_label(p.side or "", self.detail.result.game))
            row += [number(score), str(p.rank) if p.rank else "", "★" if p.winner else ""]
            table.add_row(*row)

    def _characters(self) -> dict[str, str]:
        """Each player's character, in the host's language (games that deal them):
        from the outcome the rules give the replayed log, else the stored one."""
        d = self.detail
        cards = dict(d.outcome.characters) if d.outcome is not None else {}
        if not cards and d.result.outcome:
            cards = dict(d.result.outcome.get("characters") or {})
        key = "zh" if self.lang.startswith("zh") else "en"
        return {
            pid: str(card.get(key) or card.get("id") or "")
            for pid, card in cards.items()
            if isinstance(card, dict | Mapping)
        }

    def _fill_rounds(self) -> None:
        """Each round/act's own points and the total after it (``+3 → 11``): the
        totals alone hid what an act scored (Meeple Circus, issue 22)."""
        table = self.query_one("#detail-rounds", DataTable)
        players = self.detail.row.players
        table.add_columns(_("Round / act"), *[p.name for p in players])
        before: dict[str, float] = {}
        for rnd in self.detail.rounds:
            cells = []
            for p in players:
                total = rnd.scores.get(p.id)
                gained = (total or 0.0) - before.get(p.id, 0.0)
                cells.append(f"{number(gained, sign=True)} → {number(total)}")
            table.add_row(progress_label(rnd.label), *cells)
            before = {p.id: rnd.scores.get(p.id, 0.0) for p in players}
        if not self.detail.rounds:
            table.add_row(_("(no scores)"), *["" for _p in players])

    def _fill_chart(self) -> None:
        plot = self.query_one("#detail-chart", WidePlot)
        plt = plot.plt
        plt.clear_data()
        rounds = self.detail.rounds
        use_rounds = len(rounds) >= 2
        points = (
            [(progress_label(r.label), r.scores) for r in rounds]
            if use_rounds
            else [(str(i), s.scores) for i, s in enumerate(self.detail.steps)]
        )
        if not points or not any(scores for _l, scores in points):
            plt.title(_("No scores to chart"))
            return
        xs = list(range(1, len(points) + 1))
        for p in self.detail.row.players:
            plt.plot(
                xs,
                [float(scores.get(p.id, 0.0)) for _l, scores in points],
                label=p.name,
                marker="braille",
            )
        if use_rounds:
            plt.xticks([float(x) for x in xs], [label for label, _s in points])
        plt.title(_("Score progression"))
        plt.xlabel(_("Round / act") if use_rounds else _("Action"))

    def on_resize(self) -> None:
        if self._entry_width() != self._timeline_width:
            self._fill_timeline()

    def _entry_width(self) -> int:
        """The log's entry column fills the screen's width (the time is 8 cells, the
        number as wide as the last one, a cell of padding each side of the three, and
        the scroll bar), so a long entry wraps instead of running past the edge."""
        digits = len(str(self.detail.timeline[-1].seq)) if self.detail.timeline else 1
        return max(20, self.app.size.width - 8 - max(digits, 1) - 3 * 2 - 2)

    def _fill_timeline(self) -> None:
        table = self.query_one("#detail-timeline", DataTable)
        self._timeline_width = self._entry_width()
        table.clear(columns=True)
        table.add_column(_("Time"))
        table.add_column("#")
        table.add_column(_("Entry"), width=self._timeline_width)
        names = self.names()
        for item in self.detail.timeline:
            said = item.said.render(_) if item.said is not None else compact(item.payload, names)
            body = Text(said, style=timeline_style(item.kind, item.undone))
            if item.undone:
                body.append("  " + _("(undone)"), style="italic yellow")
            table.add_row(clock(item.at), str(item.seq), body, height=None)

    # ------------------------------------------------------------------ photo finish

    def _photo_widgets(self) -> ComposeResult:
        if not self.detail.performances:
            yield Static(_("No presses were recorded in this session."), classes="hint")
            return
        for perf in self.detail.performances:
            yield Static(self._performance_title(perf), classes="section-title")
            yield DataTable(
                id=f"photo-{perf.number}",
                cursor_type="none",
                zebra_stripes=True,
                classes="photo-table",
            )

    def _performance_title(self, perf: Performance) -> str:
        parts = [_("Performance {n}").format(n=perf.number)]
        if perf.label:
            parts.append(progress_label(perf.label))
        if perf.length_ms is not None:
            parts.append(_("music {s} s").format(s=number(perf.length_ms / 1000, 1)))
        if perf.aborted:
            parts.append(_("aborted at {s} s").format(s=number((perf.end_ms or 0) / 1000, 3)))
        elif perf.end_ms is not None:
            parts.append(_("stopped at {s} s").format(s=number(perf.end_ms / 1000, 3)))
        return " · ".join(parts)

    def _fill_photo_tables(self) -> None:
        names = self.names()
        for perf in self.detail.performances:
            table = self.query_one(f"#photo-{perf.number}", DataTable)
            table.add_columns(
                _("Order"), _("Player"), _("Time after start"), "±", _("Source"), _("Verdict"), "#"
            )
            order = 0
            for press in perf.presses:
                verdict = _(VERDICTS.get(press.verdict, press.verdict))
                counted = press.verdict == "counted"
                order += counted
                unc = press.payload.get("uncertainty_ns")
                source = (
                    source_label(str(press.payload.get("source", "")))
                    if press.kind == "action"
                    else _("hardware")
                )
                who = names.get(press.player or "", "") or self._hw_label(press.payload)
                table.add_row(
                    str(order) if counted else "",
                    who,
                    _fmt_offset(press.offset_ms),
                    f"{unc / 1e6:.1f} ms" if isinstance(unc, int) else "",
                    str(source or ""),
                    verdict,
                    str(press.seq),
                )

    @staticmethod
    def _hw_label(payload: Any) -> str:
        """A raw press with no player: which button it was (it showed raw JSON)."""
        return button_words(dict(payload)).render(_)

    # ------------------------------------------------------------------ actions

    def action_tab(self, index: int) -> None:
        self.query_one("#detail-tabs", TabbedContent).active = TABS[index]

    def action_export(self) -> None:
        start_export(self, self.store, [self.session_id], single=True)

    def action_resume(self) -> None:
        resume(self, self.detail.result)

    def action_abandon(self) -> None:
        abandon(self, self.store, self.detail.result, self._reload)

    def _reload(self) -> None:
        self.detail = session_detail(self.store, self.session_id)
        self.query_one("#detail-heading", Static).update(self._heading())

    def action_back(self) -> None:
        self.app.pop_screen()


def _fmt_offset(offset_ms: float | None) -> str:
    if offset_ms is None:
        return ""
    return f"{offset_ms / 1000:+.3f} s"


def timeline_style(kind: str, undone: bool) -> str:
    if kind in ("undo", "redo"):
        return "yellow"
    if kind == "hw":
        return "dim"
    return "strike dim" if undone else ""
