"""The sequence record (exactly once) and the button-map settings file."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.hardware.config import TadaaConfig
from companion.hardware.link import SeqRecord


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 40), max_size=120))
def test_seq_record_counts_each_number_once_in_any_arrival_order(arrivals):
    rec = SeqRecord()
    new = []
    for seq in arrivals:
        if not rec.has(seq):
            rec.add(seq)
            new.append(seq)
    assert sorted(new) == sorted(set(arrivals))  # each once, none lost
    expect = 0
    while expect + 1 in set(arrivals):
        expect += 1
    assert rec.contiguous == expect  # what may be acknowledged
    assert rec.missing == (max(arrivals, default=0) > expect)


def test_overflow_gives_up_only_the_unrecoverable():
    rec = SeqRecord()
    for s in (1, 2, 5):
        rec.add(s)
    assert rec.give_up_below(7) == 3  # 3, 4, 6 were dropped by the device
    assert rec.lost == 3 and rec.contiguous == 6 and not rec.missing


def test_config_roundtrip_and_reassignment(tmp_path):
    path = tmp_path / "sub" / "tadaa.json"
    cfg = TadaaConfig.load(path)
    assert cfg.buttons == {} and cfg.ports == []
    cfg.ports.append("/tmp/tadaa-sim/tadaa-*")
    cfg.assign("E661", 1, "Ann")
    cfg.assign("E661", 2, "Bo")
    cfg.assign("F00D", 1, "ann")  # Ann moves to another device: her old button is freed
    cfg.save()
    again = TadaaConfig.load(path)
    assert again.buttons == {"E661": {2: "Bo"}, "F00D": {1: "ann"}}
    assert again.player_for("F00D", 1) == "ann" and again.button_of("ANN") == ("F00D", 1)
    assert again.ports == ["/tmp/tadaa-sim/tadaa-*"]
    assert json.loads(path.read_text())["buttons"]["E661"] == {"2": "Bo"}


def test_config_ignores_junk_entries_and_reports_broken_files(tmp_path):
    path = tmp_path / "tadaa.json"
    path.write_text(
        json.dumps(
            {
                "ports": ["/dev/x", 3],
                "buttons": {"S": {"1": "Ann", "x": "Bo", "2": ""}, "T": "nope"},
            }
        )
    )
    cfg = TadaaConfig.load(path)
    assert cfg.ports == ["/dev/x"] and cfg.buttons == {"S": {1: "Ann"}}
    path.write_text("{not json")
    try:
        TadaaConfig.load(path)
    except ValueError as exc:
        assert str(path) in str(exc)
    else:
        raise AssertionError("a broken settings file must be reported")


def test_candidate_ports_from_configured_paths_and_globs(tmp_path):
    import os

    from companion.hardware.link import candidate_ports, probe_port

    master, slave = os.openpty()
    try:
        real = os.ttyname(slave)
        (tmp_path / "tadaa-A").symlink_to(real)
        (tmp_path / "tadaa-B").symlink_to(real)  # same device twice: listed once
        ports = candidate_ports([str(tmp_path / "tadaa-*"), "/dev/does-not-matter"])
        assert str(tmp_path / "tadaa-A") in ports
        assert str(tmp_path / "tadaa-B") not in ports
        assert "/dev/does-not-matter" in ports  # a configured path is tried as given
        # A port that never says HELLO is not a Tadaa device.
        assert probe_port(real, timeout_s=0.2) is None
    finally:
        os.close(master)
        os.close(slave)
