"""Phone-sized screenshots (390x844, portrait) of the phone page, in both languages.

    .venv/bin/python scripts/phone_screenshots.py [OUT_DIR]   # default docs/images

A real ``PhoneServer`` on 127.0.0.1 and Debian's Chromium (Playwright never
downloads a browser); the page is seated as Bo after an act whose Tadaa order
holds a gap and a tie.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.hardware.phones import PhoneServer, Seat  # noqa: E402

SEATS = [
    Seat("p1", "Ann", "red"),
    Seat("p2", "Bo", "blue"),
    Seat("p3", "Cy", "green"),
    Seat("p4", "小美", "yellow"),
]
ACT = {
    "state": "ended",
    "act": 2,
    "attempt": 0,
    "pressed": ["p2", "p4", "p1", "p3"],
    "order": [
        {"seat": "p2", "place": 1, "gap_ms": None, "close": False},
        {"seat": "p4", "place": 2, "gap_ms": 14.2, "close": False},
        {"seat": "p1", "place": 3, "gap_ms": 1.3, "close": True},
        {"seat": "p3", "place": 3, "gap_ms": 0.0, "close": True},
    ],
}
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


async def main(out: Path) -> None:
    from playwright.async_api import async_playwright

    chromium = shutil.which("chromium")
    if chromium is None:
        raise SystemExit("needs Debian's chromium (apt-get install chromium)")
    server = PhoneServer(lambda: SEATS, host="127.0.0.1", port=0).start()
    server.set_act(ACT)
    out.mkdir(parents=True, exist_ok=True)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=chromium, args=FLAGS)
        for lang in ("en", "zh"):
            context = await browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                locale="zh-CN" if lang == "zh" else "en-GB",
            )
            page = await context.new_page()
            await page.goto(f"{server.url}?lang={lang}")
            await page.get_by_role("button", name="Bo", exact=True).click()
            await page.wait_for_function("() => window.__phone.seatState === 'yours'")
            await page.locator("#big").dispatch_event("pointerdown")
            await page.wait_for_function("() => window.__phone.done.length === 1")
            await page.wait_for_timeout(300)  # the press's flash is over
            await page.screenshot(path=str(out / f"phone-{lang}.png"))
            await context.close()
            server.release("p2")  # one phone per seat: the next page may take Bo's
        await browser.close()
    server.stop()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "images"))
