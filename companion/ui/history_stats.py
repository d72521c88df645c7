"""Statistics and charts for the sessions the history currently shows.

All numbers come from ``companion.session.stats.statistics_of`` (SQL aggregates over the
summary tables kept at commit time, for the history's filter), read when the screen
opens; the head-to-head and the charts ask the same tables when a player is picked.
No session is replayed and no per-session object is built (docs/PERFORMANCE.md).
"""

from __future__ import annotations

from concurrent.futures import Future
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Header, Select, Static, TabbedContent, TabPane

from companion.i18n import N_, _, ngettext
from companion.session.results import HistoryFilter
from companion.session.stats import (
    Statistics,
    compute,
    head_to_head_of,
    player_plays_of,
    rate,
    statistics_of,
)
from companion.session.store import Store
from companion.ui.history import HISTORY_CSS
from companion.ui.history_format import duration, game_name, number, percent, side_label
from companion.widgets.footer import KeyFooter
from companion.widgets.translate import translate_bindings
from companion.widgets.wide_plot import WidePlot

TABS = ("stats-players", "stats-games", "stats-h2h", "stats-charts")


class StatsScreen(Screen[None]):
    CSS_PATH = HISTORY_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        # Priority: a focused select searches by typed keys and took the digit, so
        # after the Head-to-head selects "4" did nothing (no field here takes digits).
        Binding("1", "tab(0)", N_("Players"), priority=True),
        Binding("2", "tab(1)", N_("Games"), priority=True),
        Binding("3", "tab(2)", N_("Head-to-head"), priority=True),
        Binding("4", "tab(3)", N_("Charts"), priority=True),
        Binding("escape", "back", N_("Back")),
    ]

    def __init__(self, store: Store, flt: HistoryFilter | None = None) -> None:
        super().__init__()
        self.store = store
        self.filter = flt or HistoryFilter()
        self.stats: Statistics = compute([])
        self.ready = False
        translate_bindings(self)

    @property
    def lang(self) -> str:
        return str(getattr(self.app, "lang", "en"))

    def compose(self) -> ComposeResult:
        players: list[tuple[str, str]] = []  # filled when the numbers are in
        games: list[tuple[str, str]] = []
        yield Header(show_clock=True)
        yield Static(self._heading(), id="stats-heading")
        with TabbedContent(id="stats-tabs"):
            with TabPane(_("Players"), id="stats-players"), VerticalScroll():
                yield DataTable(id="stats-player-table", cursor_type="row", zebra_stripes=True)
                yield Static(_("Per game"), classes="section-title")
                yield DataTable(id="stats-player-games", cursor_type="row", zebra_stripes=True)
            with TabPane(_("Games"), id="stats-games"), VerticalScroll():
                yield DataTable(id="stats-game-table", cursor_type="row", zebra_stripes=True)
                yield Static(
                    _("Sides (hidden-role games), by player count"), classes="section-title"
                )
                yield DataTable(id="stats-sides", cursor_type="row", zebra_stripes=True)
            with TabPane(_("Head-to-head"), id="stats-h2h"), Vertical():
                with Horizontal(classes="stats-pickers"):
                    yield Select(players, prompt=_("First player"), id="h2h-a")
                    yield Select(players, prompt=_("Second player"), id="h2h-b")
                yield Static(_("Pick two players."), id="h2h-result")
                yield DataTable(id="h2h-games", cursor_type="none", zebra_stripes=True)
            with TabPane(_("Charts"), id="stats-charts"), Vertical():
                with Horizontal(classes="stats-pickers"):
                    yield Select(players, prompt=_("Player"), id="chart-player")
                    yield Select(games, prompt=_("All games"), id="chart-game")
                with Horizontal(id="stats-plots"):
                    yield WidePlot(id="chart-player-plot")
                    yield WidePlot(id="chart-game-plot")
        yield KeyFooter()

    def _heading(self) -> str:
        text = ngettext("{n} session", "{n} sessions", self.stats.sessions).format(
            n=self.stats.sessions
        )
        text += " · " + ngettext("{n} play", "{n} plays", self.stats.plays).format(
            n=self.stats.plays
        )
        if not self.filter.is_empty():
            text += " · " + _("filtered as in the history")
        return text

    def on_mount(self) -> None:
        self.sub_title = _("Statistics")
        self.query_one("#stats-heading", Static).update(_("Computing statistics…"))
        h2h = self.query_one("#h2h-games", DataTable)
        h2h.add_columns(_("Game"), _("Plays"), _("First ahead"), _("Second ahead"), _("Level"))
        # Reading 10,000 sessions takes a moment: do it on the app's single database
        # thread, so the screen stays responsive and no read races a write.
        from companion.ui.app import CompanionApp

        def job() -> Statistics:
            return statistics_of(self.store, self.filter)

        if isinstance(self.app, CompanionApp):
            self.app.write(job, self._computed)
        else:  # pragma: no cover - the screen always runs inside the companion app
            self._show(job())

    def _computed(self, future: Future[Statistics]) -> None:
        try:
            stats = future.result()
        except Exception as exc:  # a database problem: say so rather than crash
            self.query_one("#stats-heading", Static).update(
                _("Cannot compute the statistics: {error}").format(error=exc)
            )
            return
        self._show(stats)

    def _show(self, stats: Statistics) -> None:
        self.stats = stats
        self.query_one("#stats-heading", Static).update(self._heading())
        players = [(p.name, p.name) for p in stats.players]
        for selector in ("#h2h-a", "#h2h-b", "#chart-player"):
            self.query_one(selector, Select).set_options(players)
        self.query_one("#chart-game", Select).set_options(
            [(game_name(g.game, self.lang, g.title), g.key) for g in stats.games]
        )
        self._fill_players()
        self._fill_games()
        self.ready = True
        if self.stats.players:
            self.query_one("#chart-player", Select).value = self.stats.players[0].name
        self._draw_player_chart()
        self._draw_game_chart()

    # ------------------------------------------------------------------ tables

    def _fill_players(self) -> None:
        table = self.query_one("#stats-player-table", DataTable)
        table.add_columns(_("Player"), _("Plays"), _("Wins"), _("Win rate"), _("Abandoned"))
        for p in self.stats.players:
            table.add_row(p.name, str(p.plays), str(p.wins), percent(p.win_rate), str(p.abandoned))
        games = self.query_one("#stats-player-games", DataTable)
        games.add_columns(
            _("Player"),
            _("Game"),
            _("Plays"),
            _("Wins"),
            _("Win rate"),
            _("Average score"),
            _("Best score"),
        )
        for p in self.stats.players:
            for g in p.games:
                games.add_row(
                    p.name,
                    game_name(g.game, self.lang, g.title),
                    str(g.plays),
                    str(g.wins),
                    percent(g.win_rate),
                    number(g.average),
                    number(g.best),
                )

    def _fill_games(self) -> None:
        table = self.query_one("#stats-game-table", DataTable)
        table.add_columns(
            _("Game"),
            _("Plays"),
            _("Abandoned"),
            _("Unfinished"),
            _("Average length"),
            _("Lowest"),
            _("Median"),
            _("Mean"),
            _("Highest"),
        )
        for g in self.stats.games:
            d = g.scores
            table.add_row(
                game_name(g.game, self.lang, g.title),
                str(g.plays),
                str(g.abandoned),
                str(g.unfinished),
                duration(g.average_duration_s),
                number(d.minimum if d else None),
                number(d.median if d else None),
                number(d.mean if d else None),
                number(d.maximum if d else None),
            )
        sides = self.query_one("#stats-sides", DataTable)
        sides.add_columns(_("Game"), _("Players"), _("Side"), _("Plays"), _("Wins"), _("Win rate"))
        for g in self.stats.games:
            for s in g.sides:
                sides.add_row(
                    game_name(g.game, self.lang, g.title),
                    str(s.players),
                    side_label(s.side, g.game),
                    str(s.plays),
                    str(s.wins),
                    percent(s.win_rate),
                )

    # ------------------------------------------------------------------ head-to-head

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("h2h-a", "h2h-b"):
            self._show_h2h()
        elif event.select.id == "chart-player":
            self._draw_player_chart()
        elif event.select.id == "chart-game":
            self._draw_player_chart()
            self._draw_game_chart()

    def _show_h2h(self) -> None:
        a = self.query_one("#h2h-a", Select).value
        b = self.query_one("#h2h-b", Select).value
        out = self.query_one("#h2h-result", Static)
        table = self.query_one("#h2h-games", DataTable)
        table.clear()
        if not isinstance(a, str) or not isinstance(b, str) or a == b:
            out.update(_("Pick two players."))
            return
        h = head_to_head_of(self.store, a, b, self.filter)
        out.update(
            _(
                "{a} and {b} played {n} times together: {a} ahead {x}, {b} ahead {y}, "
                "level {z}. Wins: {a} {wa}, {b} {wb}."
            ).format(
                a=h.a,
                b=h.b,
                n=h.plays,
                x=h.a_ahead,
                y=h.b_ahead,
                z=h.level,
                wa=h.a_wins,
                wb=h.b_wins,
            )
        )
        for g in h.games:
            table.add_row(
                game_name(g.game, self.lang, g.title),
                str(g.plays),
                str(g.a_ahead),
                str(g.b_ahead),
                str(g.level),
            )

    # ------------------------------------------------------------------ charts

    def _selected(self, selector: str) -> str | None:
        value = self.query_one(selector, Select).value
        return value if isinstance(value, str) else None

    def _draw_player_chart(self) -> None:
        plot = self.query_one("#chart-player-plot", WidePlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        name = self._selected("#chart-player")
        game = self._selected("#chart-game")
        if name is None:
            plt.title(_("Pick a player"))
            plot.refresh()
            return
        plays = player_plays_of(self.store, name, game, self.filter)
        xs = list(range(1, len(plays) + 1))
        if not plays:
            plt.title(_("{name}: no plays").format(name=name))
        elif game and any(p.score is not None for p in plays):
            scored = [(x, p) for x, p in zip(xs, plays, strict=True) if p.score is not None]
            plt.plot(
                [x for x, _p in scored],
                [p.score or 0.0 for _x, p in scored],
                label=_("score"),
                marker="braille",
            )
            wins = [(x, p.score or 0.0) for x, p in scored if p.winner]
            if wins:
                plt.scatter(
                    [x for x, _y in wins], [y for _x, y in wins], label=_("win"), marker="★"
                )
            plt.title(_("{name}: scores over time").format(name=name))
        else:
            won = 0
            rates = []
            for i, p in enumerate(plays, start=1):
                won += p.winner
                rates.append(rate(won, i) * 100)
            plt.plot(xs, rates, label=_("win rate %"), marker="braille")
            plt.ylim(0, 100)
            plt.title(_("{name}: win rate over time").format(name=name))
        if plays:
            step = max(1, len(plays) // 6)
            plt.xticks([float(x) for x in xs[::step]], [p.started_at[:10] for p in plays][::step])
        plt.xlabel(_("Plays, oldest first"))
        plot.refresh()

    def _draw_game_chart(self) -> None:
        plot = self.query_one("#chart-game-plot", WidePlot)
        plt = plot.plt
        plt.clear_data()
        plt.clear_figure()
        game = self._selected("#chart-game")
        stats = self.stats.game(game) if game else None
        if stats is None:
            # Default to the first game that has sides, else the first with scores.
            stats = next((g for g in self.stats.games if g.sides), None) or next(
                (g for g in self.stats.games if g.scores), None
            )
        if stats is None:
            plt.title(_("No finished plays"))
            plot.refresh()
            return
        name = game_name(stats.game, self.lang, stats.title)
        if stats.sides:
            counts = sorted({s.players for s in stats.sides})
            sides = sorted({s.side for s in stats.sides})
            values: list[list[float]] = []
            for side in sides:
                row = []
                for n in counts:
                    found = stats.side(n, side)
                    row.append(found.win_rate * 100 if found else 0.0)
                values.append(row)
            # plotext takes ``labels`` here; textual-plotext's stub says ``label``.
            plt.multiple_bar(  # type: ignore[call-arg]
                [_("{n} players").format(n=n) for n in counts],
                values,
                labels=[side_label(s, stats.game) for s in sides],
            )
            plt.ylim(0, 100)
            plt.title(_("{game}: side win rates (%)").format(game=name))
        elif stats.scores is not None:
            buckets = stats.scores.buckets
            counts_per_bucket = [c for *_b, c in buckets]
            plt.bar([f"{number(lo)}–{number(hi)}" for lo, hi, _c in buckets], counts_per_bucket)
            # A count of plays is whole: plotext spread fractional ticks (0.0, 0.2 …).
            ticks = count_ticks(max(counts_per_bucket, default=0))
            plt.yticks([float(t) for t in ticks], [str(t) for t in ticks])
            plt.ylim(0, ticks[-1])
            plt.title(_("{game}: final scores").format(game=name))
        else:
            plt.title(_("{game}: no scores").format(game=name))
        plot.refresh()

    # ------------------------------------------------------------------ actions

    def action_tab(self, index: int) -> None:
        # Focus leaves the old tab's field first: a TabbedContent shows the pane of the
        # focused widget, so a focused Head-to-head select pulled the screen back to it.
        self.set_focus(None)
        self.query_one("#stats-tabs", TabbedContent).active = TABS[index]

    def action_back(self) -> None:
        self.app.pop_screen()


def count_ticks(top: int, most: int = 6) -> list[int]:
    """Whole-number ticks from 0 to at least ``top`` (at most ``most`` of them), for an
    axis that counts plays.

    >>> count_ticks(1), count_ticks(3), count_ticks(10)
    ([0, 1], [0, 1, 2, 3], [0, 2, 4, 6, 8, 10])
    """
    top = max(top, 1)
    step = max(1, -(-top // (most - 1)))
    return list(range(0, top + step, step)) if top % step else list(range(0, top + 1, step))
