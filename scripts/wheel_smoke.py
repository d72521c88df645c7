"""The install a user gets, checked from inside it (run by ``scripts/wheel_smoke.sh``).

Run with the installed venv's interpreter in isolated mode (``python -I``), from a
folder outside the source tree: the ``companion`` imported here must be the wheel's
copy in site-packages, never the checkout. Checks, each printed with its time:

1. ``companion --version`` is the wheel's version;
2. ``companion doctor`` exits 0 here, in English and in Chinese;
3. the app starts headless to Home, in both languages (80x24);
4. every built-in track decodes to its catalogued length; every cue decodes;
5. a score-pad game exported to JSON replays (``export`` then ``replay``);
6. ``companion board --web`` serves its page.

    python -I scripts/wheel_smoke.py --bin VENV/bin --version 0.1.0
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

TIMEOUT = 60


def step(name: str, fn: Callable[[], str]) -> None:
    start = time.perf_counter()
    detail = fn()
    print(f"ok  {time.perf_counter() - start:5.1f} s  {name}: {detail}", flush=True)


def run(bin_dir: Path, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "companion"), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=TIMEOUT,
        check=False,
    )


def check_isolated(source_tree: Path | None) -> str:
    import companion

    where = Path(companion.__file__).resolve()
    assert "site-packages" in where.parts, f"companion imported from {where}, not an install"
    if source_tree is not None:
        assert source_tree not in where.parents, f"companion imported from the checkout: {where}"
    return str(where.parent)


def check_version(bin_dir: Path, expected: str, env: dict[str, str]) -> str:
    out = run(bin_dir, "--version", env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == f"companion {expected}", out.stdout
    return out.stdout.strip()


def check_doctor(bin_dir: Path, env: dict[str, str]) -> str:
    en = run(bin_dir, "--lang", "en", "doctor", env=env)
    assert en.returncode == 0, en.stdout + en.stderr
    assert "Built-in music" in en.stdout and " s, decoded)" in en.stdout, en.stdout
    zh = run(bin_dir, "--lang", "zh", "doctor", env=env)
    assert zh.returncode == 0, zh.stdout + zh.stderr
    assert "内置音乐" in zh.stdout, zh.stdout
    tracks = len(re.findall(r"✓ Act .* s, decoded\)", en.stdout))
    return f"exit 0 in both languages, {tracks} tracks decoded"


def check_home(db: Path) -> str:
    from companion.ui.app import make_app
    from companion.ui.home import HomeScreen

    seen = []
    for lang, word in (("en", "New session"), ("zh", "新游戏")):

        async def start(lang: str = lang, word: str = word) -> None:
            app = make_app(db, lang=lang, audio=None)
            async with app.run_test(size=(80, 24)) as pilot:
                for _ in range(200):
                    if isinstance(app.screen, HomeScreen):
                        break
                    await pilot.pause(0.05)
                assert isinstance(app.screen, HomeScreen), app.screen
                text = " ".join(
                    str(getattr(w, "renderable", "") or getattr(w, "content", ""))
                    for w in app.screen.query("Label")
                )
                assert word in text, (lang, text)
                app.exit()

        asyncio.run(start())
        seen.append(lang)
    return "Home in " + " and ".join(seen)


def check_tracks() -> str:
    from companion.audio.decode import decode_music, read_music_info
    from companion.audio.tracks import CUES, catalogue, cue

    lengths = []
    for track in catalogue():
        assert "site-packages" in track.path.parts, track.path
        pcm = decode_music(track.path)
        decoded = pcm.n_frames / pcm.sample_rate
        assert abs(decoded - track.duration_s) < 0.01, (track.id, decoded, track.duration_s)
        lengths.append(f"{track.id} {decoded:.1f} s")
    for name in CUES:
        assert read_music_info(cue(name)).n_frames > 0, name
    return ", ".join(lengths) + f"; {len(CUES)} cues"


def check_round_trip(bin_dir: Path, db: Path, env: dict[str, str]) -> str:
    from companion.rules.base import seat_players
    from companion.session.live import LiveSession
    from companion.session.store import Store

    with Store.open(db) as store:
        live = LiveSession.start(
            store,
            "scorepad",
            seat_players(["Ann", "小明"]),
            {"target": 10},
            rng=random.Random(1),
        )
        live.act({"type": "score", "player": "p1", "points": 4})
        live.act({"type": "score", "player": "p2", "points": 11})
        live.act({"type": "close-round"})
        sid = live.id
    out_file = db.with_name("export.json")
    exported = run(
        bin_dir,
        "--db",
        str(db),
        "export",
        "--session",
        sid,
        "--format",
        "json",
        "--out",
        str(out_file),
        env=env,
    )
    assert exported.returncode == 0, exported.stderr
    doc = json.loads(out_file.read_text(encoding="utf-8"))
    from companion import __version__

    assert doc["app_version"] == __version__, doc.get("app_version")
    replayed = run(bin_dir, "--db", str(db), "replay", str(out_file), env=env)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    return f"{len(doc['entries'])} entries exported and replayed"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check_board(bin_dir: Path, db: Path, env: dict[str, str]) -> str:
    port = free_port()
    proc = subprocess.Popen(
        [str(bin_dir / "companion"), "--db", str(db), "board", "--web", "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    try:
        assert proc.stdout is not None
        url = ""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and not url:
            line = proc.stdout.readline()
            if not line:
                break
            if line.startswith("http://127.0.0.1"):
                url = line.strip()
        assert url, "board --web printed no address"
        # The address is printed at start-up, a moment before the socket listens.
        while True:
            try:
                with urllib.request.urlopen(url, timeout=TIMEOUT) as reply:
                    page = reply.read().decode("utf-8", "replace")
                    assert reply.status == 200
                break
            except urllib.error.URLError as exc:
                if time.monotonic() > deadline or proc.poll() is not None:
                    raise AssertionError(f"board --web does not answer at {url}: {exc}") from exc
                time.sleep(0.1)
        assert "<html" in page.lower(), page[:200]
        return f"{url.split('?')[0]} served {len(page)} bytes"
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", type=Path, required=True, help="the install's bin folder")
    parser.add_argument("--version", required=True, help="the version the wheel says")
    parser.add_argument("--source-tree", type=Path, help="must not be imported from")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="companion-smoke-"))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTHON"))}
    env.update(
        {
            "HOME": str(work / "home"),  # no user data folder of the machine's is touched
            "XDG_DATA_HOME": str(work / "data"),
            "XDG_CONFIG_HOME": str(work / "config"),
            "COMPANION_DB": str(work / "db" / "companion.sqlite3"),
            "LANG": "C.UTF-8",
        }
    )
    os.environ.clear()
    os.environ.update(env)
    os.chdir(work)
    total = time.perf_counter()
    step("imported from the install", lambda: check_isolated(args.source_tree))
    step("--version", lambda: check_version(args.bin, args.version, env))
    step("doctor", lambda: check_doctor(args.bin, env))
    step("headless start", lambda: check_home(work / "home.sqlite3"))
    step("built-in tracks", check_tracks)
    step("export and replay", lambda: check_round_trip(args.bin, work / "trip.sqlite3", env))
    step("board --web", lambda: check_board(args.bin, work / "trip.sqlite3", env))
    print(f"wheel smoke test passed in {time.perf_counter() - total:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
