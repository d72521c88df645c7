"""``companion doctor`` and ``companion paths``: what works here, each problem with its fix."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from companion.audio.tracks import builtin_sounds_dir
from companion.resources import device_file


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        capture_output=True,
        text=True,
        env={**os.environ, "COMPANION_AUDIO": "silent", **(env or {})},
        timeout=120,
    )


def test_doctor_passes_here_in_both_languages_with_every_track_decoded(tmp_path: Path) -> None:
    db = str(tmp_path / "db.sqlite3")
    en = run("--lang", "en", "--db", db, "doctor")
    assert en.returncode == 0, en.stdout + en.stderr
    for heading in (
        "Language",
        "Sound",
        "Built-in music",
        "Serial Tadaa boxes",
        "USB HID buttons",
        "Table board",
        "Database",
    ):
        assert f"\n{heading}\n" in en.stdout
    # the length as the act's countdown starts (as the music dialog shows it)
    assert "Act 1: Big Top March, 2:05 (124.2 s, decoded)" in en.stdout
    assert en.stdout.count(" s, decoded)") == 5
    assert "not created yet" in en.stdout
    assert "fix: " in en.stdout  # sound is off here: the line says how to turn it on
    zh = run("--lang", "zh", "--db", db, "doctor")
    assert zh.returncode == 0, zh.stdout + zh.stderr
    assert (
        "内置音乐" in zh.stdout and "第 1 幕：大帐篷进行曲，2:05（124.2 秒，已解码）" in zh.stdout
    )
    assert "解决：" in zh.stdout
    assert not Path(db).exists(), "the doctor writes nothing"


def test_a_missing_track_fails_the_doctor_with_the_fix(tmp_path: Path) -> None:
    sounds = tmp_path / "sounds"
    shutil.copytree(builtin_sounds_dir(), sounds)
    (sounds / "tracks" / "jugglers-galop.wav").unlink()
    out = run(
        "--lang",
        "en",
        "--db",
        str(tmp_path / "db.sqlite3"),
        "doctor",
        env={"COMPANION_SOUNDS": str(sounds)},
    )
    assert out.returncode == 1
    assert "✗ Act 2: The Jugglers' Galop:" in out.stdout
    assert "unset COMPANION_SOUNDS" in out.stdout


def test_a_damaged_database_fails_the_doctor(tmp_path: Path) -> None:
    bad = tmp_path / "notes.sqlite3"
    bad.write_text("not a database at all, just some text that is long enough\n")
    out = run("--lang", "en", "--db", str(bad), "doctor")
    assert out.returncode == 1
    assert "is not a SQLite database" in out.stdout
    assert bad.read_text().startswith("not a database")


def test_a_sound_database_is_checked(tmp_path: Path) -> None:
    from companion.rules.base import seat_players
    from companion.session.live import LiveSession
    from companion.session.store import Store

    db = tmp_path / "db.sqlite3"
    with Store.open(db) as store:
        LiveSession.start(store, "scorepad", seat_players(["Ann"]), {})
    out = run("--lang", "en", "--db", str(db), "doctor")
    assert out.returncode == 0
    assert f"{db}: sound, 1 sessions." in out.stdout
    assert "Backups: 0 in" in out.stdout


def test_paths_lists_every_place_and_prints_one_for_scripts(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    out = run("--lang", "en", "--db", str(db), "paths")
    assert out.returncode == 0
    for name in ("database", "backups", "config", "udev-hid", "firmware-arduino"):
        assert name in out.stdout
    assert str(db) in out.stdout and str(tmp_path / "backups") in out.stdout
    rule = run("paths", "udev-hid")
    assert rule.stdout.strip() == str(device_file("udev-hid"))
    assert Path(rule.stdout.strip()).read_text().startswith("# Tadaa buttons over USB HID")
    zh = run("--lang", "zh", "paths")
    assert "历史记录（一个 SQLite 文件）" in zh.stdout
