"""The stats and import commands; the plot that keeps Chinese labels aligned;
a property: any score-pad log survives export → import unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from history_builders import outcome_session, scorepad_session
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.cells import cell_len
from rich.text import Text

from companion.cli import main
from companion.rules.base import seat_players
from companion.session import export as ex
from companion.session.live import LiveSession, NothingToRedoError, NothingToUndoError
from companion.session.results import query_ids
from companion.session.store import Store
from companion.widgets.wide_plot import fit_wide, fit_wide_line


def test_stats_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "h.db"
    store = Store.open(db)
    scorepad_session(store, ["Ann", "Bo"], [{"Ann": 3, "Bo": 8}])
    scorepad_session(store, ["Ann", "Bo"], [{"Ann": 9, "Bo": 8}])
    outcome_session(
        store,
        "meowfia",
        ["Ann", "Bo", "Cy", "Dee", "Eve"],
        winners=["Cy"],
        sides={"Ann": "police", "Cy": "meowfia"},
    )
    store.close()
    assert main(["--db", str(db), "stats", "--json", "--vs", "ann", "bo"]) == 0
    data = json.loads(capsys.readouterr().out)
    ann = next(p for p in data["players"] if p["name"] == "Ann")
    assert (ann["plays"], ann["wins"]) == (3, 1)
    assert data["head_to_head"]["plays"] == 3 and data["head_to_head"]["a_ahead"] == 1
    assert main(["--db", str(db), "--lang", "zh", "stats", "--game", "meowfia"]) == 0
    out = capsys.readouterr().out
    assert "喵喵咪呀" in out and "警方" in out


def test_import_command_refuses_a_broken_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = Store.open(tmp_path / "s.db")
    sid = scorepad_session(source, ["Ann"], [{"Ann": 1}])
    doc = json.loads(ex.export_text(source, [sid], "json"))
    doc["entries"][0]["payload"]["points"] = "many"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    good = tmp_path / "good.json"
    good.write_text(ex.export_text(source, [sid], "json"))
    target = tmp_path / "t.db"
    with pytest.raises(SystemExit) as info:
        main(["--db", str(target), "import", str(bad), str(good)])
    assert info.value.code == 3
    captured = capsys.readouterr()
    assert "entry 0 (seq 1)" in captured.err and "whole number" in captured.err
    assert "1 imported" in captured.out  # the good file is its own all-or-nothing unit
    with Store.open(target) as t:
        assert query_ids(t) == [sid]


def test_fit_wide_keeps_lines_at_their_width() -> None:
    line = Text("9.0┤ ▞▞ 小明" + " " * 20 + "▄▄▞│")
    fitted = fit_wide_line(line)
    assert cell_len(fitted.plain) == len(line.plain)
    assert fitted.plain.endswith("▄▄▞│") and "小明" in fitted.plain
    title = Text("      分数变化 score      ")
    assert cell_len(fit_wide_line(title).plain) == len(title.plain)
    plain = Text("ascii only   ")
    assert fit_wide_line(plain) is plain
    block = fit_wide(Text("小明  \nab"))
    assert [cell_len(x.plain) for x in block.split("\n")] == [5, 2]


ACTIONS = st.lists(
    st.one_of(
        st.tuples(st.just("score"), st.integers(0, 2), st.integers(-20, 20)),
        st.just(("close",)),
        st.just(("undo",)),
        st.just(("redo",)),
        st.just(("hw",)),
    ),
    max_size=25,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(script=ACTIONS, end=st.booleans())
def test_any_scorepad_log_survives_export_and_import(script: list[tuple], end: bool) -> None:
    source = Store.memory()
    live = LiveSession.start(source, "scorepad", seat_players(["Ann", "Bo", "小明"]), {})
    for step in script:
        try:
            if step[0] == "score":
                live.act({"type": "score", "player": f"p{step[1] + 1}", "points": step[2]})
            elif step[0] == "close":
                live.act({"type": "close-round"})
            elif step[0] == "undo":
                live.undo()
            elif step[0] == "redo":
                live.redo()
            else:
                live.record_hardware({"button": 1})
        except (NothingToUndoError, NothingToRedoError, ValueError):
            pass  # refused actions change nothing, which is the point
    if end and live.outcome is None:
        live.act({"type": "end"})
    text = ex.export_text(source, [live.id], "json")
    target = Store.memory()
    report = ex.import_sessions(target, ex.parse_document(text))
    assert report.added == [live.id]
    tables = ("SELECT * FROM sessions", "SELECT * FROM entries ORDER BY seq")
    for sql in tables:
        assert target.conn.execute(sql).fetchall() == source.conn.execute(sql).fetchall()
    assert ex.import_sessions(target, ex.parse_document(text)).added == []
