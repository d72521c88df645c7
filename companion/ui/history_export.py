"""Exporting from the history screens: pick a format, pick a file, write it atomically.

The file is written on the app's writer thread (one place for every write, and a
large export never freezes the screen); the result comes back as a notification.
BG Stats links are shown in a dialog to copy, one per finished play.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, TextArea

from companion.i18n import N_, _, ngettext
from companion.session.export import (
    ExportError,
    ImportReport,
    bgstats_link,
    bgstats_play,
    export_file,
    import_file,
    now_stamp,
)
from companion.session.results import session_results
from companion.session.store import Store, StoreError
from companion.widgets.dialogs import ChoiceDialog, PromptDialog
from companion.widgets.translate import translate_bindings

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp

EXTENSIONS = {"json": "json", "csv": "csv", "bgstats": "bgstats.json"}


def default_path(fmt: str, single_id: str | None = None) -> Path:
    stem = f"companion-{single_id[:8]}" if single_id else f"companion-{date.today().isoformat()}"
    return Path.home() / f"{stem}.{EXTENSIONS[fmt]}"


class LinkDialog(ModalScreen[None]):
    """BG Stats links to copy (c copies them all to the clipboard)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("c", "copy", N_("Copy")),
        Binding("escape,enter", "close", N_("Close")),
    ]

    def __init__(self, links: Sequence[str]) -> None:
        super().__init__()
        self.links = list(links)
        translate_bindings(self)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="link-dialog"):
            yield Label(
                ngettext(
                    "BG Stats link ({n} play):", "BG Stats links ({n} plays):", len(self.links)
                ).format(n=len(self.links))
            )
            yield TextArea("\n".join(self.links), read_only=True, id="links", soft_wrap=True)
            yield Label(_("[c] copy   [esc] close"), classes="hint")

    def action_copy(self) -> None:
        self.app.copy_to_clipboard("\n".join(self.links))
        self.notify(_("Copied."))

    def action_close(self) -> None:
        self.dismiss(None)


def start_export(
    screen: Screen[Any], store: Store, session_ids: Sequence[str], single: bool
) -> None:
    """Ask for a format, then a file (or show links), then write on the writer thread."""
    ids = list(session_ids)
    if not ids:
        screen.notify(_("There is nothing to export: no session matches."), severity="warning")
        return
    question = (
        _("Export this session as:")
        if single
        else ngettext("Export {n} session as:", "Export {n} sessions as:", len(ids)).format(
            n=len(ids)
        )
    )
    choices = [
        ("json", _("JSON (replayable, for companion import)")),
        ("csv", _("CSV (spreadsheet, one row per player)")),
        ("bgstats", _("BG Stats plays (JSON file)")),
        ("link", _("BG Stats link (bgstats://)")),
    ]

    def chosen(fmt: str | None) -> None:
        if not fmt:
            return
        if fmt == "link":
            _show_links(screen, store, ids)
            return
        suggested = default_path(fmt, ids[0] if single else None)

        def check(value: str) -> str | None:
            return None if value.strip() else _("Give a file name.")

        screen.app.push_screen(
            PromptDialog(_("Save to file:"), str(suggested), check=check),
            lambda path: _write(screen, store, ids, fmt, single, path) if path else None,
        )

    screen.app.push_screen(ChoiceDialog(question, choices), chosen)


def _show_links(screen: Screen[Any], store: Store, ids: list[str]) -> None:
    links = [bgstats_link(bgstats_play(r)) for r in session_results(store, ids) if r.finished]
    if not links:
        screen.notify(
            _("BG Stats records finished plays only; none is selected."), severity="warning"
        )
        return
    screen.app.push_screen(LinkDialog(links))


def _write(
    screen: Screen[Any], store: Store, ids: list[str], fmt: str, single: bool, path: str
) -> None:
    app: CompanionApp = screen.app  # type: ignore[assignment]
    lang = app.lang
    target = Path(path.strip()).expanduser()

    def job() -> Path:
        return export_file(  # written as it is read: the whole history is never in memory
            store,
            ids,
            fmt,
            target,
            lang=lang,
            exported_at=now_stamp(),
            single=single,
            skip_damaged=not single,  # the whole list: every sound session, the rest named
        )

    def done(future: Future[Path]) -> None:
        try:
            written = future.result()
        except (ExportError, StoreError) as exc:  # a damaged session, a full disk
            screen.notify(exc.render(_), severity="error", timeout=10)
            return
        n = len(ids) - sum(sid in store.damaged for sid in ids)
        screen.notify(
            ngettext(
                "Exported {n} session to {path}.", "Exported {n} sessions to {path}.", n
            ).format(n=n, path=written),
            timeout=8,
        )
        app.tell_damage()

    app.write(job, done)


def start_import(screen: Screen[Any], store: Store, after: Callable[[], None]) -> None:
    """Ask for an export file and merge it into the history (all or nothing)."""

    def check(value: str) -> str | None:
        return None if value.strip() else _("Give a file name.")

    def chosen(path: str | None) -> None:
        if not path:
            return
        app: CompanionApp = screen.app  # type: ignore[assignment]
        target = Path(path.strip()).expanduser()

        def done(future: Future[ImportReport]) -> None:
            try:
                report = future.result()
            except (ExportError, StoreError) as exc:  # a conflict, a full disk
                screen.notify(exc.render(_), severity="error", timeout=15)
                return
            screen.notify(
                _("{file}: {added} imported, {skipped} already present.").format(
                    file=target.name, added=len(report.added), skipped=len(report.skipped)
                ),
                timeout=8,
            )
            after()

        app.write(lambda: import_file(store, target), done)

    screen.app.push_screen(
        PromptDialog(_("Import sessions from a JSON export:"), str(Path.home()) + "/", check=check),
        chosen,
    )
