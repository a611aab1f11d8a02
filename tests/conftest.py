"""Fixtures shared by every test folder: databases of both kinds (SQLite, and a real PostgreSQL server
started once per session from Debian's packages)."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from starlette.testclient import TestClient

from conformance import checking, checking_offline
from pg_server import PostgresServer
from pyramid_solitaire.store import Store
from pyramid_solitaire.web.offline import OfflineApi

# The command line speaks the locale's language when not given --lang (cli.locale_lang): the tests run in
# the C locale, whose language is the default one (Japanese), whatever the machine's; the tests of the
# locale set their own (tests/test_cli.py).  Set here, so that the processes the tests start inherit it.
os.environ["LANG"] = "C.UTF-8"
for _name in ("LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)

# Every answer any test's client receives is checked against what /api/openapi.json declares for it
# (tests/conformance.py): the API's description is checked by the whole API suite, not by one test.
# The offline engine's answers too (tests/web/test_offline_engine.py, test_sync.py, test_watch.py).
TestClient.request = checking(TestClient.request)  # type: ignore[method-assign]
OfflineApi.handle = checking_offline(OfflineApi.handle)  # type: ignore[method-assign]

#: Files of whole-system checks, kept out of the quick subset: searches checked against a slow exhaustive
#: search, golden verdicts of every preset, the compiled build against pure Python, property and fuzz
#: tests, studies, and the server started as a process.  CI runs them all.
SLOW_FILES = frozenset(
    {
        "test_slow_search.py",
        "test_golden_verdicts.py",
        "test_native.py",
        "test_msc_1500.py",
        "test_properties.py",
        "test_fuzz_parsers.py",
        "test_fuzz_api.py",
        "test_study.py",
        "test_winnability.py",
        "test_crash.py",
        "test_workers.py",
        "test_serve.py",
        "test_accessibility.py",
    }
)
#: A test that opens a real browser or a live server is never quick.
SLOW_FIXTURES = frozenset({"browser", "desktop", "server", "playwright"})


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tests, so that ``scripts/test --quick`` (``-m "not slow"``) runs the engine, solver,
    API and store unit tests in a couple of minutes."""
    for item in items:
        fixtures = set(getattr(item, "fixturenames", ()))
        if item.path.name in SLOW_FILES or item.path.name.startswith("test_browser") or fixtures & SLOW_FIXTURES:
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer()
    server.start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.create_database(f"t_{uuid.uuid4().hex[:12]}")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    instance = Store(db_url)
    yield instance
    instance.close()
