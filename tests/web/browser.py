"""What the browser tests share: Chromium's flags, viewport sizes, fresh contexts that record page
errors and check every API answer the page receives, screenshots saved as test artefacts, and where
axe-core is installed."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import Browser, BrowserContext, Error, Page, Response

from conformance import NotConforming, check

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
AXE = ROOT / ".cache" / "npm" / "node_modules" / "axe-core" / "axe.min.js"
SCREENSHOTS = ROOT / "test-artifacts" / "screenshots"
#: Flags for a headless Chromium in a closed network, as root (see the env notes in the README).
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 860}}


class Errors(list[str]):
    """Errors the page reported (uncaught exceptions, console errors)."""


#: API answers a page received that are not what /api/openapi.json declares (tests/conformance.py);
#: tests/web/conftest.py fails the test that saw one.
NOT_CONFORMING: list[str] = []


def check_answer(response: Response) -> None:
    """Check one answer the page received, if it is the API's."""
    path = urlsplit(response.url).path
    if not path.startswith("/api/"):
        return
    try:
        body = response.body()
    except Error:  # the page went away before the body was read: nothing to check
        return
    try:
        check(response.request.method, path, response.status, response.headers.get("content-type", ""), body)
    except NotConforming as exc:
        NOT_CONFORMING.append(str(exc))


#: Run before a page's own scripts: the first-game guide counts as skipped, as after a player's first
#: visit (the guide's own tests open a context with ``guide=True``).
GUIDE_SKIPPED = (
    "try { if (!localStorage.getItem('pyramid.guide')) localStorage.setItem('pyramid.guide', 'skipped'); } catch (e) {}"
)


def open_context(browser: Browser, guide: bool = False, **options: Any) -> tuple[BrowserContext, Errors]:
    """A fresh context (its own storage, like a new browser profile) that records page errors; a Japanese
    browser unless ``locale`` says otherwise (a first visit follows the browser's language).  The
    first-game guide starts skipped unless ``guide``."""
    context = browser.new_context(**{"locale": "ja-JP", **options})
    if not guide:
        context.add_init_script(GUIDE_SKIPPED)
    errors = Errors()
    context.on("response", check_answer)
    context.on("weberror", lambda error: errors.append(str(error.error)))
    context.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return context, errors


def screenshot(page: Page, name: str, jpeg: bool = False) -> Path:
    """Save a full-page screenshot under test-artifacts/screenshots/ and return its path (a JPEG, a tenth
    of the size, for the pictures the README shows)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    if jpeg:
        path = SCREENSHOTS / f"{name}.jpg"
        page.screenshot(path=str(path), full_page=True, type="jpeg", quality=82)
    else:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
    return path


#: for ``page.eval_on_selector_all``: how many lines each element's text is laid out on
TEXT_LINES = (
    "els => els.map(e => { const r = document.createRange(); r.selectNodeContents(e); "
    "return r.getClientRects().length; })"
)
