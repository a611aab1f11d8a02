"""Offline play's budgets (issue 35): what the first visit costs before the game is drawn, the offline
bundle's size, how long an offline reload takes to a dealt table, and how long one move takes offline.

    .venv/bin/python benchmarks/offline.py                 # 5 offline reloads at each CPU rate, 40 moves
    .venv/bin/python benchmarks/offline.py --reloads 10 --moves 100

The app runs under uvicorn on loopback in this process; Debian's Chromium opens it through Playwright.

* *first visit*: a new profile opens ``/``; bytes on the wire (``transferSize``, headers included) of every
  response that ended before the page's ``game-ready`` mark, and whether any offline file was asked for
  before that mark (it must not be: the bundle is fetched after the game is on screen).
* *bundle*: the files ``/offline/files.json`` lists, as transferred (the response bodies the server sent
  for ``/pyodide/`` and ``/offline/``, gzip where it helps, counted by a wrapper around the app) and as
  stored (``navigator.storage.estimate()``: the Cache Storage, IndexedDB and the rest of the origin's).
* *offline reload*: with the browser context offline, a reload of ``/`` to the ``game-ready`` mark (the
  worker starts Pyodide, imports the engine and deals), at CPU rate 1 and throttled 4x with the DevTools
  protocol's ``Emulation.setCPUThrottlingRate`` as a stand-in for a phone.
* *one move offline*: from the tap (``pointerup`` on the stock or a king) to the page's next drawn answer
  (``body[data-drawn]`` changed), measured in the page with ``performance.now()``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from typing import Any

from figures import percentile
from page import ARGS, CHROMIUM
from playwright.sync_api import BrowserContext, Page, sync_playwright

from pyramid_solitaire.web.app import create_app
from web import serve_on_loopback

KB = 1024
READY = "() => localStorage.getItem('pyramid.offline') !== null"
FIRST = """() => {
    const ready = performance.getEntriesByName('game-ready')[0].startTime;
    const nav = performance.getEntriesByType('navigation')[0];
    const resources = performance.getEntriesByType('resource');
    const before = resources.filter((r) => r.responseEnd <= ready);
    return {
        bytes: nav.transferSize + before.reduce((sum, r) => sum + r.transferSize, 0),
        requests: 1 + before.length,
        bundle_before: resources.filter((r) => /\\/(pyodide|offline)\\//.test(r.name) && r.startTime < ready).length,
        ready,
    };
}"""
BUNDLE = """async () => {
    const listing = await (await fetch('/offline/files.json')).json();
    const estimate = await navigator.storage.estimate();
    return {listed: listing.bytes, stored: estimate.usage, files: listing.files.length};
}"""
# One tap, timed in the page: a king alone if one is usable, else the stock.  Sets up the timing and says
# where to tap; the time is read from ``window.__tap`` once the page has drawn the answer.
TAP = """async () => {
    const { app } = await import('/static/js/state.js');
    const king = Object.entries(app.game.pairs || {}).find(([, p]) => p.alone);
    const target = king
        ? document.querySelector(`#pyramid [data-card="${king[0]}"], #stock-area [data-card="${king[0]}"]`)
        : document.querySelector('#stock-area .stock-btn');
    if (!target || target.disabled || app.game.status !== 'playing') return null;
    let start = 0;
    const before = document.body.dataset.drawn;
    target.addEventListener('pointerup', () => { start = performance.now(); }, { once: true, capture: true });
    window.__tap = new Promise((resolve) => {
        const seen = new MutationObserver(() => {
            if (document.body.dataset.drawn !== before) { seen.disconnect(); resolve(performance.now() - start); }
        });
        seen.observe(document.body, { attributes: true, attributeFilter: ['data-drawn'] });
    });
    const box = target.getBoundingClientRect();
    return [box.x + box.width / 2, box.y + Math.min(12, box.height / 2)];
}"""


class Counted:
    """The app, counting the bytes of the response bodies it sends for the offline bundle."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.bundle = 0

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(("/pyodide/", "/offline/")):
            await self.app(scope, receive, send)
            return

        async def counting(message: Any) -> None:
            if message["type"] == "http.response.body":
                self.bundle += len(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, counting)


def line(name: str, values: list[float], unit: str, scale: float = 1.0) -> str:
    scaled = [v / scale for v in values]
    return (
        f"    {name:22} median {statistics.median(scaled):9.1f} {unit}, p90 {percentile(scaled, 0.9):9.1f} {unit}, "
        f"p99 {percentile(scaled, 0.99):9.1f} {unit}, max {max(scaled):9.1f} {unit}"
    )


def reload_offline(context: BrowserContext, page: Page, base: str, rate: float) -> float:
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]", timeout=120_000)
    ready = float(page.evaluate("performance.getEntriesByName('game-ready')[0].startTime"))
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})
    cdp.detach()
    return ready


def one_tap(page: Page) -> float | None:
    """Tap the stock (or a king) as a player does and time it in the page; None when the game is over."""
    # a tap while a card still moves only ends the motion (docs/web.md): tap on a settled table, as players do
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    at = page.evaluate(TAP)
    if at is None:
        return None
    page.mouse.click(at[0], at[1])
    return float(page.evaluate("window.__tap"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reloads", type=int, default=5)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    app = Counted(create_app())
    base, stop = serve_on_loopback(app)
    try:
        with sync_playwright() as driver:
            browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="ja-JP")
            page = context.new_page()
            page.goto(base + "/")
            page.wait_for_selector("body[data-ready=true]")
            first = page.evaluate(FIRST)
            page.wait_for_function(READY, timeout=300_000)
            bundle = page.evaluate(BUNDLE)
            bundle["transferred"] = app.bundle
            context.set_offline(True)
            reloads = {
                rate: [reload_offline(context, page, base, rate) for _ in range(args.reloads)] for rate in (1, 4)
            }
            taps: list[float] = []
            while len(taps) < args.moves:
                took = one_tap(page)
                if took is None:  # the stock is spent: a new game, offline too
                    page.goto(base + "/")
                    page.wait_for_selector("body[data-ready=true]", timeout=120_000)
                    page.evaluate("import('/static/js/start.js').then((m) => m.startGame({ rules: 'classic' }))")
                    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
                    continue
                taps.append(took)
            browser.close()
    finally:
        stop()
    print("offline: uvicorn on loopback, Debian's Chromium (headless), 1280x720")
    print(
        f"  first visit before the game is drawn: {first['bytes'] / KB:.1f} KB in {first['requests']} requests, "
        f"game drawn at {first['ready']:.0f} ms; offline files asked for before it: {first['bundle_before']}"
    )
    print(
        f"  bundle: {bundle['files']} files, {bundle['listed'] / KB / KB:.1f} MB listed, "
        f"{bundle['transferred'] / KB / KB:.1f} MB transferred, {bundle['stored'] / KB / KB:.1f} MB stored"
    )
    for rate, times in reloads.items():
        print(line(f"offline reload, CPU /{rate}", times, "ms"))
    print(line("one move offline", taps, "ms"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
