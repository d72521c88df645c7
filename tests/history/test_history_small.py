"""The history list at 80x24, as a host meets it (docs/tour/scorepad.md row 15).

Found on the tmux tour: at 80 columns the filter row ran past the right edge (the
"To"/截止 date filter was cut) and the table's status column was cut ("已结"). Both
failed before the fix; at 160x48 the one-row filters and every column stay.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ui_history import build
from textual.widgets import DataTable, Input, Select

from companion.i18n import _
from companion.session.clock import ManualClock
from companion.ui.app import make_app
from companion.ui.history import HistoryScreen
from companion.ui.history_format import status_label
from tests.screen_text import missing_characters, visible_text


async def _history(tmp_path: Path, lang: str, size: tuple[int, int]):  # type: ignore[no-untyped-def]
    db = tmp_path / "h.sqlite3"
    build(db)
    return make_app(db, lang=lang, clock=ManualClock()), size


def _filter_labels(screen: HistoryScreen) -> list[str]:
    labels = [str(i.placeholder) for i in screen.query("#history-filters Input").results(Input)]
    labels += [str(s.prompt) for s in screen.query("#history-filters Select").results(Select)]
    return labels


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_every_filter_and_column_title_is_whole(tmp_path: Path, lang: str) -> None:
    app, size = await _history(tmp_path, lang, (80, 24))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        shown = visible_text(app)
        labels = _filter_labels(screen)
        assert len(labels) == 5
        for label in labels:
            assert label in shown, (label, shown)
        table = screen.query_one("#history-table", DataTable)
        titles = [str(c.label) for c in table.columns.values()]
        assert _("Status") in titles
        for title in titles:
            assert not missing_characters(title, shown), (title, shown)
            assert title in shown, (title, shown)
        # Every filter lies inside the screen, and so does every row's status.
        for widget in screen.query("#history-filters > *"):
            assert widget.region.right <= 80, (widget, widget.region)
        assert status_label("finished") in shown
        assert shown.count(status_label("finished")) == table.row_count


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_160x48_the_filters_take_one_row_and_every_column_stays(
    tmp_path: Path, lang: str
) -> None:
    app, size = await _history(tmp_path, lang, (160, 48))
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("h")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        filters = list(screen.query("#history-filters > *"))
        assert len({w.region.y for w in filters}) == 1
        table = screen.query_one("#history-table", DataTable)
        titles = [str(c.label) for c in table.columns.values()]
        keys = ("Date", "Game", "Players", "Winners", "Scores", "Duration", "Status")
        assert titles == [_(k) for k in keys]
        shown = visible_text(app)
        for label in _filter_labels(screen):
            assert label in shown, (label, shown)
        # Narrowed to 80 columns, the table leaves out the scores and the duration.
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        titles = [str(c.label) for c in table.columns.values()]
        assert _("Scores") not in titles and _("Status") in titles
        assert len(table.get_row_at(0)) == len(titles)


LONG = "Annabelle-Marie von Hohenzollern-Sigmaringen"


@pytest.mark.parametrize("lang", ["en", "zh"])
async def test_at_80x24_the_detail_log_wraps_long_entries(tmp_path: Path, lang: str) -> None:
    """Found on the tour (docs/tour/meowfia.md row 9): the log's long entries ran past
    the right edge of the detail at 80 columns. Failed before the fix."""
    from history_builders import scorepad_session

    from companion.session.store import Store
    from companion.ui.history_detail import SessionDetailScreen

    db = tmp_path / "h.sqlite3"
    store = Store.open(db)
    sid = scorepad_session(store, [LONG, "Bo"], [{LONG: 6, "Bo": 5}], undo_last_score=True)
    store.close()
    app = make_app(db, lang=lang, clock=ManualClock())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        store = Store.open(db)
        app.push_screen(SessionDetailScreen(store, sid))
        await pilot.pause()
        await pilot.press("3")
        await pilot.pause()
        screen = app.screen
        table = screen.query_one("#detail-timeline", DataTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        shown = visible_text(app)
        for i in range(min(table.row_count, 5)):
            entry = str(table.get_row_at(i)[2])
            for word in entry.split():
                assert word in shown, (word, entry, shown)
        store.close()
