"""Fixtures for the browser tests: the real app on loopback (uvicorn in a thread), Debian's Chromium
driven by Playwright, screenshots saved as test artefacts, and axe-core from the npm registry.

``scripts/test`` installs Chromium (apt) and axe-core (npm) when they are missing; without them these
tests fail with a message saying so, rather than being skipped.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Playwright, sync_playwright

from pyramid_solitaire.web.app import create_app

sys.path.insert(0, str(Path(__file__).resolve().parent))

from browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, NOT_CONFORMING, Errors, open_context

from helpers import serving


@pytest.fixture(autouse=True)
def answers_conform() -> Iterator[None]:
    """Every API answer a page received during the test is what /api/openapi.json declares (the test
    clients' answers are checked as they arrive, tests/conftest.py)."""
    NOT_CONFORMING.clear()
    yield
    assert not NOT_CONFORMING, "answers the page received are not what the API declares:\n" + "\n".join(
        NOT_CONFORMING[:10]
    )


@pytest.fixture(scope="session")
def server() -> Iterator[str]:
    """The app served on a free loopback port for the whole session, over the HTTP protocol ``serve`` runs
    (so that the pages are fetched the way players get them); yields its base URL."""
    with serving(create_app()) as url:
        yield url


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium package")
    instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
    yield instance
    instance.close()


@pytest.fixture
def desktop(browser: Browser) -> Iterator[tuple[Page, Errors]]:
    context, errors = open_context(browser, **DESKTOP)
    page = context.new_page()
    yield page, errors
    context.close()
