"""The page as a player first meets it: bytes on the wire, time to first paint and to a dealt game, memory.

    .venv/bin/python benchmarks/page.py                 # 15 first visits and 15 return visits, 1280x720
    .venv/bin/python benchmarks/page.py --runs 30 --phone

The app runs under uvicorn on loopback in this process (as the browser tests run it); Debian's Chromium
opens it through Playwright.  A *first visit* is a new browser profile (empty cache, no cookie): the
page, its stylesheet and modules, the card art, the locale and the first game.  A *return visit* is the
same profile opening the page again: what is cached is checked (ETag) or, for the card art, not asked
for at all, and the unfinished game is resumed.

Figures per visit, from the browser's own timing (the Navigation and Resource Timing APIs):

* *transferred*: bytes on the wire, headers included (``transferSize`` of the page and every resource);
* *first paint*: ``first-contentful-paint`` after the navigation started;
* *game drawn*: the page's ``game-ready`` mark, set once the first game is on the table;
* *JS heap*: the page's JavaScript heap in use after the game is drawn (Chrome DevTools Protocol).

Loopback has no latency and no bandwidth limit, so the times are the browser's and the server's work,
not a network's; the bytes are what a phone network would carry.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from typing import Any

from figures import percentile
from playwright.sync_api import Browser, sync_playwright

from pyramid_solitaire.web.app import create_app
from web import serve_on_loopback

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
KB = 1024

MEASURE = """() => {
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const paint = performance.getEntriesByName('first-contentful-paint')[0];
    const ready = performance.getEntriesByName('game-ready')[0];
    return {
        transferred: nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0),
        decoded: nav.decodedBodySize + resources.reduce((sum, r) => sum + r.decodedBodySize, 0),
        requests: 1 + resources.length,
        cached: resources.filter(r => r.transferSize === 0).length,
        paint: paint ? paint.startTime : null,
        ready: ready ? ready.startTime : null,
    };
}"""


def visit(browser: Browser, base: str, viewport: dict[str, int], runs: int) -> tuple[list[dict[str, Any]], ...]:
    """``runs`` first visits, each followed by a return visit in the same profile."""
    first: list[dict[str, Any]] = []
    again: list[dict[str, Any]] = []
    for _ in range(runs):
        context = browser.new_context(viewport=viewport, locale="ja-JP")
        for log in (first, again):
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready=true]")
            page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
            figures = page.evaluate(MEASURE)
            figures["heap"] = cdp.send("Runtime.getHeapUsage")["usedSize"]
            log.append(figures)
            page.close()
        context.close()
    return first, again


def line(name: str, values: list[float], unit: str, scale: float = 1.0) -> str:
    scaled = [v / scale for v in values]
    return (
        f"    {name:12} median {statistics.median(scaled):8.1f} {unit}, p90 {percentile(scaled, 0.9):8.1f} {unit}, "
        f"max {max(scaled):8.1f} {unit}"
    )


def report(title: str, visits: list[dict[str, Any]]) -> None:
    print(
        f"  {title} ({len(visits)} visits, {visits[0]['requests']} requests, "
        f"{visits[0]['cached']} from the cache without asking):"
    )
    print(line("transferred", [v["transferred"] for v in visits], "KB", KB))
    print(line("unpacked", [v["decoded"] for v in visits], "KB", KB))
    print(line("first paint", [v["paint"] for v in visits], "ms"))
    print(line("game drawn", [v["ready"] for v in visits], "ms"))
    print(line("JS heap", [v["heap"] for v in visits], "MB", KB * KB))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--phone", action="store_true", help="a 390x844 window instead of 1280x720")
    args = parser.parse_args()
    viewport = {"width": 390, "height": 844} if args.phone else {"width": 1280, "height": 720}
    base, stop = serve_on_loopback(create_app())
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            visit(browser, base, viewport, 2)  # warm the server and the browser's own start
            first, again = visit(browser, base, viewport, args.runs)
            browser.close()
    finally:
        stop()
    print(f"page: {viewport['width']}x{viewport['height']}, uvicorn on loopback, Debian's Chromium (headless)")
    report("first visit", first)
    report("return visit", again)
    return 0


if __name__ == "__main__":
    sys.exit(main())
