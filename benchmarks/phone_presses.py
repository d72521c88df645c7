"""Phones as Tadaa buttons against the keyboard, side by side in one run.

    .venv/bin/python benchmarks/phone_presses.py [--finishes 400] [--seed 24] [--browser 30]

One set of finishes (2–8 players, gaps uniform 0–20 ms, 3 % exact ties: the draw of
``tadaa_sources_bench.py``, finishes 0.3–0.5 s apart so a run takes minutes), then:

* **keyboard**: the host's keyboard stamped on arrival, ±20 ms (the model of
  ``tadaa_sources_bench.py``: 8 ms USB polling, the UI thread's delays and stalls).
* **phones**: the real ``PhoneServer`` on 127.0.0.1, one WebSocket client per
  player (a page stand-in: its clock is the host's monotonic clock with a random
  offset, a drift of ±50 ppm and Chromium's 100 µs step; it answers pings at once
  and stamps a press at its true instant), every byte through ``JitterProxy``
  holding each chunk 2–8 ms (5 ± 3 ms one way), in order. The presses are placed
  by the server's ``ClockSync`` fit and judged by the real rules
  (``tie_groups`` / ``definitely_before``).
* **phones in Chromium** (``--browser N``, when ``chromium`` is installed): six
  real pages (Playwright), N finishes of 2–6 players pressed with the mouse at the
  scripted instants; the truth is each page's own stamp (``performance.timeOrigin``
  + the event's ``timeStamp``, bridged to the host clock as the browser test does).

Columns: wrong orders (pairs shown in the wrong order), ties declared, finishes left
to the host, the stated ± (median, p99), truths outside their interval, and for the
phones press → host latency (the true press to the press handed to the screen).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import math
import random
import shutil
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import aiohttp  # noqa: E402
from tadaa_sources_bench import keyboard  # noqa: E402

from companion.games.meeple_circus.rules.actions import Press  # noqa: E402
from companion.games.meeple_circus.rules.timing import definitely_before, tie_groups  # noqa: E402
from companion.hardware.phones import PhonePress, PhoneServer, Seat  # noqa: E402
from tests.phones.jitter_proxy import JitterProxy  # noqa: E402

MS = 1_000_000
NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def draw_finishes(n: int, seed: int, players: int = 8) -> list[list[int]]:
    """Offsets (ns) of each finish's presses from its start, as the sources bench draws them."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        count = rng.randint(2, players)
        base = 0
        times = []
        for k in range(count):
            base += 0 if (k and rng.random() < 0.03) else int(rng.uniform(0, 20) * MS)
            times.append(base)
        out.append(times)
    return out


@dataclass
class Row:
    pairs: int = 0
    wrong: int = 0
    tied: int = 0
    finishes: int = 0
    left_to_host: int = 0
    outside: int = 0
    presses: int = 0
    unc: list[int] = field(default_factory=list)
    latency: list[int] = field(default_factory=list)

    def judge(self, presses: list[Press], truth: dict[str, int]) -> None:
        self.finishes += 1
        self.presses += len(presses)
        for p in presses:
            self.unc.append(p.uncertainty_ns)
            self.outside += abs(p.host_ns - truth[p.player]) > p.uncertainty_ns
        by_truth = sorted(presses, key=lambda p: truth[p.player])
        for a, b in itertools.pairwise(by_truth):
            if truth[a.player] == truth[b.player]:
                continue
            self.pairs += 1
            if definitely_before(b, a):
                self.wrong += 1
            elif not definitely_before(a, b):
                self.tied += 1
        if any(len(g) > 1 for g in tie_groups(presses)):
            self.left_to_host += 1


def pct(values: list[int], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, math.ceil(q * len(s)) - 1)]


def to_press(p: PhonePress) -> Press:
    return Press(
        p.seat, p.host_ns, p.uncertainty_ns, "phone", device=p.device, device_us=p.device_us
    )


# --------------------------------------------------------------------------- simulated pages


class SimPage:
    """A page stand-in: its own clock, answers pings at once, stamps presses when told."""

    def __init__(self, k: int, rng: random.Random) -> None:
        self.k = k
        self.offset_ns = rng.randrange(10**9, 10**12)
        self.rate = 1 + rng.uniform(-50e-6, 50e-6)
        self.t0 = time.monotonic_ns()
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.acks: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.n = 0

    def clock_ms(self, host_ns: int) -> float:
        """performance.now(): the phone's clock, in Chromium's 100 µs steps."""
        local_ns = self.offset_ns + (host_ns - self.t0) * self.rate
        return math.floor(local_ns / 100_000) * 0.1

    async def run(self, http: aiohttp.ClientSession, url: str) -> None:
        self.ws = await http.ws_connect(url)
        await self.ws.send_str(
            json.dumps(
                {
                    "t": "hello",
                    "phone": f"bench-phone-{self.k:02d}",
                    "boot": f"bench-boot-{self.k:02d}",
                    "res_us": 100,
                }
            )
        )
        await self.ws.send_str(json.dumps({"t": "claim", "seat": f"p{self.k + 1}"}))
        async for msg in self.ws:
            now = time.monotonic_ns()
            if msg.data.startswith('{"t": "ping"') or msg.data.startswith('{"t":"ping"'):
                n = json.loads(msg.data)["n"]
                await self.ws.send_str(f'{{"t":"pong","n":{n},"d":{self.clock_ms(now)!r}}}')
                continue
            frame = json.loads(msg.data)
            if frame["t"] == "ack":
                self.acks.put_nowait(frame)

    async def press(self, at_ns: int) -> tuple[str, int]:
        """Press at host time ``at_ns`` (sleep, then spin): (press id, true time)."""
        wait = (at_ns - time.monotonic_ns()) / 1e9 - 0.002
        if wait > 0:
            await asyncio.sleep(wait)
        while time.monotonic_ns() < at_ns:
            pass
        truth = time.monotonic_ns()
        d = self.clock_ms(truth)
        self.n += 1
        press_id = f"bench-{self.k:02d}-{self.n:06d}"
        assert self.ws is not None
        frame = {
            "t": "press",
            "id": press_id,
            "boot": f"bench-boot-{self.k:02d}",
            "d": d,
            "seat": f"p{self.k + 1}",
        }
        await self.ws.send_str(json.dumps(frame))
        return press_id, truth


async def run_phones(finishes: list[list[int]], seed: int) -> Row:
    delivered: dict[str, tuple[PhonePress, int]] = {}
    seats = [Seat(f"p{k + 1}", NAMES[k]) for k in range(8)]
    server = PhoneServer(lambda: seats, host="127.0.0.1", port=0)
    server.on_press(lambda p: delivered.__setitem__(p.press_id, (p, time.monotonic_ns())))
    server.start()
    server.set_performing(True)
    proxy = await JitterProxy(server.port, seed=seed).start()
    rng = random.Random(seed)
    pages = [SimPage(k, rng) for k in range(8)]
    row = Row()
    async with aiohttp.ClientSession() as http:
        url = f"http://127.0.0.1:{proxy.port}/j/{server.token}/ws"
        tasks = [asyncio.ensure_future(p.run(http, url)) for p in pages]
        await asyncio.sleep(3.0)  # the clocks settle (a table joins minutes before the act)
        for k, offsets in enumerate(finishes):
            start = time.monotonic_ns() + 50 * MS
            order = rng.sample(range(8), len(offsets))  # who presses k-th
            made = await asyncio.gather(
                *(pages[who].press(start + off) for who, off in zip(order, offsets, strict=True))
            )
            ids = [m[0] for m in made]
            deadline = time.monotonic() + 10
            while not all(i in delivered for i in ids) and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            presses = []
            truth = {}
            for press_id, true_ns in made:
                if press_id not in delivered:
                    row.outside += 1  # lost: counts against the phones
                    continue
                pp, at = delivered[press_id]
                presses.append(to_press(pp))
                truth[pp.seat] = true_ns
                row.latency.append(at - true_ns)
            row.judge(presses, truth)
            await asyncio.sleep(0.25 + rng.random() * 0.2)
            if k % 100 == 99:
                print(f"<!-- phones: {k + 1} finishes -->", file=sys.stderr)
        for t in tasks:
            t.cancel()
    lost = sum(s.lost for s in server.status())
    if lost:
        print(f"phones: {lost} presses lost", file=sys.stderr)
    await proxy.close()
    server.stop()
    return row


# --------------------------------------------------------------------------- Chromium


async def run_browser(finishes: list[list[int]], seed: int) -> Row | None:
    chromium = shutil.which("chromium")
    if chromium is None:
        return None
    from playwright.async_api import async_playwright

    from tests.phones.test_phone_browser import FLAGS, WALL_MINUS_MONO

    delivered: dict[str, tuple[PhonePress, int]] = {}
    seats = [Seat(f"p{k + 1}", NAMES[k]) for k in range(6)]
    server = PhoneServer(lambda: seats, host="127.0.0.1", port=0)
    server.on_press(lambda p: delivered.__setitem__(p.press_id, (p, time.monotonic_ns())))
    server.start()
    server.set_performing(True)
    proxy = await JitterProxy(server.port, seed=seed + 1).start()
    url = f"http://127.0.0.1:{proxy.port}/j/{server.token}"
    rng = random.Random(seed)
    row = Row()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        pages = []
        for s in seats:
            context = await browser.new_context(viewport={"width": 390, "height": 844})
            page = await context.new_page()
            await page.goto(url)
            await page.get_by_role("button", name=s.name, exact=True).click()
            await page.wait_for_function("() => window.__phone.seatState === 'yours'")
            box = await page.locator("#big").bounding_box()
            await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            pages.append(page)
        await asyncio.sleep(3.0)

        async def press(page: Any, at_ns: int) -> None:
            wait = (at_ns - time.monotonic_ns()) / 1e9
            if wait > 0:
                await asyncio.sleep(wait)
            await page.mouse.down()
            await page.mouse.up()

        for offsets in finishes:
            offsets = offsets[:6]
            start = time.monotonic_ns() + 50 * MS
            order = rng.sample(range(6), len(offsets))
            before = len(delivered)
            await asyncio.gather(
                *(press(pages[w], start + off) for w, off in zip(order, offsets, strict=True))
            )
            deadline = time.monotonic() + 10
            while len(delivered) < before + len(offsets) and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            truth_by_id: dict[str, int] = {}
            for page in pages:
                done = await page.evaluate("() => window.__phone.done.concat(window.__phone.queue)")
                for p in done:
                    truth_by_id[p["id"]] = round((p["o"] + p["d"]) * 1e6) - WALL_MINUS_MONO
            fresh = [v for k, v in delivered.items() if k in truth_by_id][before:]
            presses = [to_press(pp) for pp, _ in fresh]
            truth = {pp.seat: truth_by_id[pp.press_id] for pp, _ in fresh}
            row.latency += [at - truth_by_id[pp.press_id] for pp, at in fresh]
            row.judge(presses, truth)
            await asyncio.sleep(0.25 + rng.random() * 0.2)
        await browser.close()
    await proxy.close()
    server.stop()
    return row


# --------------------------------------------------------------------------- main


def ms(ns: float) -> str:
    return f"{ns / 1e6:.2f} ms"


def line(name: str, row: Row) -> str:
    latency = (
        f"{ms(statistics.median(row.latency))} / {ms(pct(row.latency, 0.99))}"
        if row.latency
        else "—"
    )
    return (
        f"| {name} | {row.wrong} / {row.pairs:,} | {row.tied / max(1, row.pairs):.1%} "
        f"| {row.left_to_host / max(1, row.finishes):.1%} ({row.left_to_host:,}) "
        f"| ±{ms(statistics.median(row.unc))} / ±{ms(pct(row.unc, 0.99))} "
        f"| {row.outside} / {row.presses:,} | {latency} |"
    )


async def amain(args: argparse.Namespace) -> None:
    finishes = draw_finishes(args.finishes, args.seed)
    kb = keyboard(args.seed + 1)
    kb_row = Row()
    base = 60_000 * MS
    for offsets in finishes:
        base += 4_000 * MS  # seconds apart, as in the sources bench
        times = [base + o for o in offsets]
        presses = kb(times)
        kb_row.judge(presses, {f"p{k + 1}": t for k, t in enumerate(times)})
    started = time.perf_counter()
    phone_row = await run_phones(finishes, args.seed)
    took = time.perf_counter() - started
    browser_row = await run_browser(finishes[: args.browser], args.seed) if args.browser else None
    print(
        f"\n{args.finishes} finishes, 2–8 players, gaps 0–20 ms, seed {args.seed}; "
        "phones through a proxy holding each chunk 2–8 ms each way\n"
    )
    print(
        "| source | wrong orders | ties declared | finishes left to the host | "
        "stated ± (median / p99) | truth outside ± | press → host (median / p99) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    print(line("keyboard (arrival stamping, ±20 ms)", kb_row))
    print(line("phones (8 WebSocket pages, 5 ± 3 ms one way)", phone_row))
    if browser_row is not None:
        print(line(f"phones in Chromium (6 pages, {args.browser} finishes)", browser_row))
    print(f"<!-- phones: {took:.0f} s -->", file=sys.stderr)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--finishes", type=int, default=400)
    parser.add_argument("--seed", type=int, default=24)
    parser.add_argument("--browser", type=int, default=30)
    asyncio.run(amain(parser.parse_args()))


if __name__ == "__main__":
    main()
