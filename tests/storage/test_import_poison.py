"""Imports that cannot poison the history.

Before: ``started_at`` "garbage" or "2026-13-45" was stored, after which stats, CSV
export and the history crashed on every run; ``SCOREPAD`` was stored as written;
nesting 1,000 deep, a 5,000-digit number or seq 2**63 gave tracebacks (149 of
2,000 mutated files); a newer export of a stored session dropped its new entries.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cli import build_parser, main
from companion.rules.base import seat_players
from companion.session.export import _STRINGS, _depth, replay_session
from companion.session.live import LiveSession
from companion.session.store import Store

PARSER = build_parser()
"""Built once: the 2,000 mutations run 2,500 commands, and building the parser was half
of each (argparse looks up its own translations for every subcommand)."""


def run(*argv: str) -> int:
    try:
        return main(list(argv), parser=PARSER)
    except SystemExit as exc:
        return int(exc.code or 0)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def source(tmp_path: Path) -> dict[str, Any]:
    """A three-session export (finished, unfinished with hardware entries, abandoned)."""
    db = tmp_path / "source.sqlite3"
    with Store.open(db) as store:
        for n in range(3):
            live = LiveSession.start(store, "scorepad", seat_players(["Ann", "Bo", "洋洋"]), {})
            for i in range(4 + n):
                live.act({"type": "score", "player": f"p{i % 3 + 1}", "points": i - 1})
            live.record_hardware({"button": n, "device_us": 12345})
            if n == 0:
                live.act({"type": "end"})
            if n == 2:
                live.abandon()
    out = tmp_path / "all.json"
    assert run("--db", str(db), "export", "--all", "--out", str(out)) == 0
    return json.loads(out.read_text(encoding="utf-8"))


@pytest.fixture
def target(tmp_path: Path) -> Path:
    """A history with one session of its own, closed cleanly (its file is the truth)."""
    db = tmp_path / "target.sqlite3"
    with Store.open(db) as store:
        live = LiveSession.start(store, "scorepad", seat_players(["Cy"]), {})
        live.act({"type": "score", "player": "p1", "points": 2})
    return db


def write(tmp_path: Path, doc: Any, name: str = "in.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("path", "value", "place"),
    [
        (("started_at",), "garbage", "started_at"),
        (("started_at",), "2026-13-45", "started_at"),
        (("ended_at",), "2026-02-30T10:00:00Z", "ended_at"),
        (("game",), "SCOREPAD", "game"),
        (("game",), " scorepad ", "game"),
        (("entries", 0, "seq"), 2**63, "entries[0].seq"),
        (("entries", 0, "mono_ns"), -(2**64), "entries[0].mono_ns"),
        (("entries", 1, "at"), "yesterday", "entries[1].at"),
        (("players", 0, "name"), "x" * 20_000, "players[0].name"),
        (("players",), [], "players"),
    ],
)
def test_poisoned_fields_are_refused_naming_the_place(
    tmp_path, source, target, capsys, path, value, place
):
    doc = copy.deepcopy(source)
    node = doc["sessions"][1]
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    before = digest(target)
    assert run("--db", str(target), "import", str(write(tmp_path, doc))) == 2
    err = capsys.readouterr().err
    assert f"sessions[1].{place}" in err
    assert "Traceback" not in err
    assert digest(target) == before


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 1000 + "]" * 1000, "nested more than"),
        ('{"format": "companion-sessions", "n": ' + "9" * 5000 + "}", "more than 40 digits"),
        ('{"format": "companion-sessions", "n": NaN}', "NaN"),
        ('{"format": "companion-sessions", "format": "x"}', "twice"),
    ],
)
def test_hostile_text_is_refused_before_it_is_decoded(tmp_path, target, capsys, text, says):
    path = tmp_path / "hostile.json"
    path.write_text(text, encoding="utf-8")
    before = digest(target)
    assert run("--db", str(target), "import", str(path)) == 2
    assert says in capsys.readouterr().err
    assert digest(target) == before


def test_a_file_that_is_not_an_export_is_refused_before_the_database_is_opened(
    tmp_path, source, capsys
):
    """Refused on reading, the file never opens the database: none is created (nor its
    lock and record), and a good file beside it is still imported."""
    db = tmp_path / "new.sqlite3"
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "companion-sessions", "n": NaN}', encoding="utf-8")
    assert run("--db", str(db), "import", str(bad)) == 2
    assert "NaN" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("new")) == []
    good = write(tmp_path, source, "good.json")
    assert run("--db", str(db), "import", str(bad), str(good)) == 2
    out, err = capsys.readouterr()
    assert "3 imported" in out and "1 of 2 files were refused" in err
    with Store.open(db) as store:
        assert len(store.sessions()) == 3


def test_a_newer_export_of_a_stored_session_appends_its_new_entries(tmp_path, source, target):
    older = copy.deepcopy(source)
    older["sessions"][1]["entries"] = older["sessions"][1]["entries"][:3]
    assert run("--db", str(target), "import", str(write(tmp_path, older, "old.json"))) == 0
    assert run("--db", str(target), "import", str(write(tmp_path, source, "new.json"))) == 0
    sid = source["sessions"][1]["id"]
    with Store.open(target) as store:
        assert [e.seq for e in store.entries(sid)] == [
            e["seq"] for e in source["sessions"][1]["entries"]
        ]
    # The older one again changes nothing now.
    before = digest(target)
    assert run("--db", str(target), "import", str(write(tmp_path, older, "old.json"))) == 0
    assert digest(target) == before


def test_a_conflicting_export_is_refused_whole(tmp_path, source, target, capsys):
    assert run("--db", str(target), "import", str(write(tmp_path, source, "a.json"))) == 0
    other = copy.deepcopy(source)
    other["sessions"][1]["entries"][2]["payload"]["points"] = 99
    before = digest(target)
    assert run("--db", str(target), "import", str(write(tmp_path, other, "b.json"))) == 3
    assert "entry 3 differs" in capsys.readouterr().err
    assert digest(target) == before


def test_skip_bad_imports_the_good_sessions_and_lists_the_others(tmp_path, source, target, capsys):
    doc = copy.deepcopy(source)
    doc["sessions"][0]["started_at"] = "garbage"
    doc["sessions"][2]["entries"][1]["payload"]["player"] = "nobody"
    code = run("--db", str(target), "import", "--skip-bad", str(write(tmp_path, doc)))
    assert code == 3
    out, err = capsys.readouterr()
    assert "1 imported" in out
    assert err.count("left out") == 2
    with Store.open(target) as store:
        assert {r.id for r in store.sessions()} >= {doc["sessions"][1]["id"]}
        assert doc["sessions"][0]["id"] not in {r.id for r in store.sessions()}


# --------------------------------------------------------------------------- mutations

HOSTILE_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    2**63,
    -(2**63) - 1,
    10**30,
    1.5,
    1e308,
    "",
    " ",
    "garbage",
    "2026-13-45",
    "SCOREPAD",
    "x" * 12_000,
    "y" * 1_000_001,
    "\x00",
    [],
    {},
    [[[]]],
    {"type": "score"},
]


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


def mutate(rng: random.Random, doc: dict[str, Any]) -> bytes:
    """One hostile variation of a good export, as the bytes of a file."""
    doc = copy.deepcopy(doc)
    how = rng.randrange(10)
    paths = [p for p in _paths(doc) if p]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        parent: Any = doc
        leaf = path[-1]
        try:
            for key in path[:-1]:
                parent = parent[key]
            if how <= 3:
                parent[leaf] = rng.choice(HOSTILE_VALUES)
            elif how == 4 and isinstance(parent, dict):
                del parent[leaf]
                paths = [p for p in _paths(doc) if p]
            elif how == 5:
                parent[leaf] = "@NESTED@"  # written as text below: json.dumps would recurse
            elif how == 6 and isinstance(parent, list):
                parent.append(copy.deepcopy(parent[leaf]))  # a duplicate session/entry
            elif how == 7 and isinstance(parent[leaf], int) and not isinstance(parent[leaf], bool):
                parent[leaf] = parent[leaf] + rng.choice((1, -1, 2**62, 2**63, -(2**63)))
            elif how == 7 and isinstance(parent[leaf], str):
                parent[leaf] = parent[leaf].upper() if rng.random() < 0.5 else parent[leaf][:-3]
        except (IndexError, KeyError, TypeError):
            pass
    text = json.dumps(doc, ensure_ascii=False)
    depth = rng.choice((10, 60, 65, 200, 3000))
    text = text.replace('"@NESTED@"', "[" * depth + "1" + "]" * depth)
    if how == 8:
        text = text.replace("1", "9" * rng.choice((30, 4400, 5000)), 1)
    if how == 9:
        cut = rng.randrange(len(text))
        text = text[:cut] + rng.choice(("", "}", "]", '"', "\\u0000", "NaN", "\ufeff")) + text[cut:]
    encoding = rng.choice(("utf-8", "utf-8", "utf-8", "utf-8-sig", "utf-16"))
    return text.encode(encoding, errors="surrogatepass")


@pytest.mark.slow
def test_two_thousand_mutated_import_files(tmp_path, source, target, capsys):
    pristine = tmp_path / "pristine.sqlite3"
    shutil.copyfile(target, pristine)
    clean_digest = digest(pristine)
    rng = random.Random(2026)
    tally = {"imported": 0, "refused": 0}
    path = tmp_path / "mutated.json"
    for trial in range(2000):
        path.write_bytes(mutate(rng, source))
        code = run("--db", str(target), "import", str(path))
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err, trial
        if code == 0:
            tally["imported"] += 1
            # A correct import: every stored session replays, and the history reads.
            with Store.open(target) as store:
                for row in store.sessions():
                    replay_session(row, store.entries(row.id))
            assert run("--db", str(target), "stats", "--json") == 0
            assert run("--db", str(target), "export", "--all", "--format", "csv") == 0
            capsys.readouterr()
            shutil.copyfile(pristine, target)
        else:
            tally["refused"] += 1
            assert code in (2, 3), (trial, code, captured.err)
            assert captured.err.startswith("companion: "), trial
            assert digest(target) == clean_digest, f"trial {trial} changed the database"
    print(tally)
    assert tally["refused"] > 1000 and tally["imported"] > 0, tally


OLD_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
"""The string-literal pattern before its rewrite: one regex step a character."""


@given(st.text(alphabet='ab"\\[]{}:,é', max_size=60))  # under MAX_DEPTH: no early stop
def test_the_nesting_check_skips_the_same_string_literals_as_before(text: str) -> None:
    """The literal's pattern was rewritten to take a run of plain characters in one
    step (3 s to 0.14 s for a file holding a 1 MB string); it finds the same literals,
    escapes and unclosed quotes included."""
    assert _STRINGS.sub("", text) == OLD_STRINGS.sub("", text)
    assert _depth(text) == _depth_with(OLD_STRINGS, text)


def _depth_with(strings: re.Pattern[str], text: str) -> int:
    deepest = depth = 0
    for ch in strings.sub("", text):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def test_the_bounds_are_checked_in_one_walk_a_session(source, monkeypatch) -> None:
    """Every text and integer of a session is bounded in one flat walk (issue 26): a
    walk a field was 1.6 million calls for a club's 10,000 sessions, half the import's
    parse. Only the names, held to a tighter limit, are walked again."""
    import companion.session.export as ex

    calls: list[str] = []
    bounded = ex._bounded

    def counted(value: Any, src: str, where: str, limit: int = ex.MAX_TEXT) -> None:
        calls.append(where)
        bounded(value, src, where, limit)

    monkeypatch.setattr(ex, "_bounded", counted)
    parsed = ex.parse_export(json.dumps(source, ensure_ascii=False))
    sessions = len(parsed.sessions)
    players = sum(len(row.players) for row, _entries in parsed.sessions)
    entries = sum(len(e) for _row, e in parsed.sessions)
    assert sessions == 3 and entries > 3 * sessions
    # One walk a session, and a player's id, name (and colour, birth date if given).
    assert len(calls) <= sessions + 4 * players, calls
    assert [c for c in calls if "entries" in c] == []
