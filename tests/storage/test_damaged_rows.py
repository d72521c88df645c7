"""A flipped byte in one row names that session; every read path goes on with the rest.

Before: a byte that made a text column invalid UTF-8 (a session's options, an entry's
payload or ``at``) raised SQLite's ``OperationalError: Could not decode to UTF-8``
from the store's listing (the app crashed at start, through Home's ``reload``, and
exited 0), from History and from ``export --all`` (which then exported nothing).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.base import seat_players
from companion.session.export import export_text
from companion.session.live import LiveSession
from companion.session.results import query_results
from companion.session.stats import compute
from companion.session.store import DamagedError, Store


def history(path: Path) -> dict[str, str]:
    """Three finished-or-not score-pad sessions; returns {marker: session id}."""
    ids: dict[str, str] = {}
    with Store.open(path) as store:
        for name in ("Ann", "Bo", "Cy"):
            live = LiveSession.start(
                store, "scorepad", seat_players([name, "Dee"]), {"game_name": f"mark{name}X"}
            )
            for pts in (3, 4):
                live.act({"type": "score", "player": "p1", "points": pts})
            live.record_hardware({"button": 1, "note": f"note{name}Q"})
            ids[name] = live.id
    return ids


def flip(path: Path, marker: bytes, value: int = 0xFF) -> None:
    """Overwrite the first byte of ``marker`` in the file (exactly one occurrence)."""
    data = bytearray(path.read_bytes())
    assert data.count(marker) == 1, marker
    data[data.index(marker)] = value
    path.write_bytes(bytes(data))


@pytest.fixture
def damaged_options(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    db = tmp_path / "h.sqlite3"
    ids = history(db)
    flip(db, b'"markBo')  # the options' JSON (the summary's title holds it too, unquoted)
    return db, ids


def run_cli(*argv: str) -> int:
    try:
        return main(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)


def test_listing_names_a_session_whose_options_are_not_utf8(damaged_options):
    db, ids = damaged_options
    with Store.open(db) as store:
        listed = {row.id for row in store.sessions()}
        assert listed == {ids["Ann"], ids["Cy"]}
        assert set(store.damaged) == {ids["Bo"]}
        assert "options" in str(store.damaged[ids["Bo"]])
        with pytest.raises(DamagedError):
            store.session(ids["Bo"])
        # History's query and the statistics also go on without it.
        assert {r.id for r in query_results(store)} == {ids["Ann"], ids["Cy"]}
        compute(query_results(store))


@pytest.mark.parametrize("marker", [b"noteBo", b"T"])
def test_an_entry_whose_payload_or_time_is_not_utf8_names_its_session(tmp_path, marker):
    db = tmp_path / "h.sqlite3"
    ids = history(db)
    if marker == b"T":  # the 'T' of the hardware entry's time, stored right after its payload
        data = bytearray(db.read_bytes())
        payload_end = data.index(b'noteBoQ"}') + len(b'noteBoQ"}')
        assert data[payload_end + 10 : payload_end + 11] == b"T"
        data[payload_end + 10] = 0xFF
        db.write_bytes(bytes(data))
    else:
        flip(db, marker)
    with Store.open(db) as store:
        with pytest.raises(DamagedError):
            store.entries(ids["Bo"])
        assert len(store.entries(ids["Ann"])) == 3
        query_results(store)
        compute(query_results(store))


def test_export_all_exports_every_sound_session_and_names_the_damaged_one(
    tmp_path, capsys, damaged_options
):
    db, ids = damaged_options
    out = tmp_path / "all.json"
    code = run_cli("--db", str(db), "export", "--all", "--format", "json", "--out", str(out))
    err = capsys.readouterr().err
    assert code == 1
    doc = json.loads(out.read_text(encoding="utf-8"))
    exported = {s["id"] for s in doc["sessions"]}
    assert exported == {ids["Ann"], ids["Cy"]}
    assert ids["Bo"] in err
    assert "UTF-8" not in err and "OperationalError" not in err


def test_stats_and_history_cli_never_print_sqlite_text(capsys, damaged_options):
    db, _ids = damaged_options
    for command in (("stats", "--json"), ("check",), ("export", "--all", "--format", "csv")):
        assert run_cli("--db", str(db), *command) in (0, 1)
        captured = capsys.readouterr()
        assert "decode" not in captured.err and "decode" not in captured.out


def test_export_text_skips_the_damaged_session_when_asked(damaged_options):
    db, ids = damaged_options
    with Store.open(db) as store:
        text = export_text(store, list(ids.values()), "json", skip_damaged=True)
        assert {s["id"] for s in json.loads(text)["sessions"]} == {ids["Ann"], ids["Cy"]}
        assert set(store.damaged) == {ids["Bo"]}


async def test_the_app_starts_on_a_damaged_history_and_names_the_session(damaged_options):
    from companion.ui.app import make_app
    from companion.ui.home import HomeScreen

    db, ids = damaged_options
    app = make_app(db)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(50):
            await pilot.pause()
            if isinstance(app.screen, HomeScreen) or app.screen_stack[0:1]:
                break
        home = app.screen_stack[0]
        assert isinstance(home, HomeScreen)
        await pilot.pause()
        shown = [n.message for n in app._notifications]
        assert any(ids["Bo"][:8] in str(m) for m in shown), shown


def test_a_crashed_app_does_not_exit_0(monkeypatch, tmp_path):
    """The process's exit status says the app crashed (it said 0)."""
    from companion.cli import app as cli_app

    class Crashed:
        return_code = 1

        def run(self) -> None:
            return None

    monkeypatch.setattr("companion.ui.app.make_app", lambda *a, **k: Crashed())
    args = argparse.Namespace(db=str(tmp_path / "x.sqlite3"), lang="en")
    assert cli_app.run_app(args) == 1


def test_a_flipped_byte_in_a_session_id_never_breaks_or_thins_the_export(tmp_path, capsys):
    """One byte of one session's id flipped, in each place the file holds the id (its
    row, its index, each entry's column, the summaries): ``export --all`` exports every
    session either whole (as the truth has it) or not at all and named, and never ends
    in a traceback or a refusal of the rest. The streamed export (issue 26) read the
    entries by their session_id *column* in one grouped query: a KeyError traceback, a
    refusal of the whole export ("No session …"), or a session written with 1 to 5 of
    its 6 entries and a word of nothing (the audit's 14 copies)."""
    clean = tmp_path / "clean.sqlite3"
    ids = history(clean)
    with Store.open(clean) as store:
        truth = {sid: len(store.entries(sid)) for sid in ids.values()}
    target = ids["Bo"].encode()
    data = clean.read_bytes()
    places = [i for i in range(len(data)) if data.startswith(target, i)]
    assert len(places) >= 4, places  # the row, the index, the entries, the summaries
    for n, at in enumerate(places):
        db = tmp_path / f"copy{n}.sqlite3"
        copy = bytearray(data)
        copy[at + 3] ^= 0x01  # '0'-'9'/'a'-'f' stay ASCII: valid text, a different id
        db.write_bytes(bytes(copy))
        out = tmp_path / f"copy{n}.json"
        code = run_cli("--db", str(db), "--lang", "en", "export", "--all", "--format", "json",
                       "--out", str(out))  # fmt: skip
        said = capsys.readouterr()
        assert "Traceback" not in said.err + said.out, (n, said)
        assert code in (0, 1, 2), (n, code, said)
        if not out.exists():  # refused: said why, naming a session
            assert code != 0 and "ession" in said.err, (n, said)
            continue
        exported = json.loads(out.read_text(encoding="utf-8"))["sessions"]
        got = {s["id"]: len(s["entries"]) for s in exported}
        for sid, count in got.items():
            assert sid in truth and count == truth[sid], (n, sid, count, truth)
        if set(truth) - set(got):  # left out: said so (by the id the damaged row holds)
            assert code != 0 and "damaged session" in said.err, (n, said)


def test_a_damaged_schema_is_never_a_decode_error(tmp_path, monkeypatch):
    """SQLite's complaint about a damaged schema can quote the damaged bytes; the
    sqlite3 module then fails to decode its own message and raises UnicodeDecodeError,
    which the open's check against the history's record let through (the damage sweep's
    two raw errors: flipped bytes of a clean file, seed 1). Modelled by that check's
    read failing so; the open goes on to its own checks, which name the damage."""
    from companion.session import record as rec

    db = tmp_path / "h.sqlite3"
    history(db)

    def undecodable(*_args, **_kwargs):
        raise UnicodeDecodeError("utf-8", b"\x8b", 0, 1, "invalid start byte")

    monkeypatch.setattr(rec, "missing", undecodable)
    Store.open(db).close()  # this file is sound: it opens
