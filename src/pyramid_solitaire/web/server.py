"""``pyramid-solitaire serve``: start the web app with uvicorn, print its address, open the browser.

The database URL is checked, and the database opened (and upgraded to the current schema), before
the server listens, so that a bad URL or an unreachable server fails at start with one clear line.
The default is ``$PYRAMID_SOLITAIRE_DB`` if set (a password kept there stays off the command line), else an
SQLite file in the user's data folder.

``--workers N`` runs N processes on the one port (uvicorn's process manager: it restarts a worker that
dies, and SIGHUP replaces them one by one).  Each builds its app with :func:`app_from_environment` from
``PYRAMID_SOLITAIRE_DB``; nothing a player relies on is kept per process only (docs/deploy.md): the
cached game is checked against the database's version on every write, the rate limits are kept in the
database, and the metrics of all workers are summed through prometheus-client's multiprocess mode (a
folder named by ``PROMETHEUS_MULTIPROC_DIR``, made for the run when it is not set).  SQLite with more than
one worker is refused: it takes one writer at a time, so more processes add no capacity, only waiting.
"""

from __future__ import annotations

import errno
import os
import shutil
import socket
import sys
import tempfile
import threading
import webbrowser
from pathlib import Path
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from ..messages import DEFAULT_LANG, Problem, text
from ..store import hide_password

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..store import Store

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8765
#: Ports tried after the default when it is taken (only when no --port was given).
PORT_TRIES: Final = 20
DB_SCHEMES: Final = ("sqlite", "postgresql", "postgresql+psycopg")
#: The database of ``serve`` when no --db is given, and how the worker processes learn it.
DB_ENV: Final = "PYRAMID_SOLITAIRE_DB"
#: prometheus-client's folder for the workers' metrics (its multiprocess mode).
METRICS_ENV: Final = "PROMETHEUS_MULTIPROC_DIR"


class ServeError(Problem, ValueError):
    """A bad option for ``serve`` (database URL, host or port), or a database it cannot use; printed as one
    line, in the language of the command."""


def default_db_url() -> str:
    """``sqlite:///<user data dir>/pyramid-solitaire/games.sqlite3``."""
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("pyramid-solitaire", appauthor=False))
    return f"sqlite:///{folder / 'games.sqlite3'}"


def check_db_url(url: str) -> str:
    """The URL if it names a database this app can use; raise ServeError naming the problem."""
    shown = hide_password(url)
    try:
        parts = urlsplit(url)
        hostname = parts.hostname
    except ValueError as exc:  # e.g. an unclosed [ of an IPv6 address
        raise ServeError("serve.url-unreadable", url=shown, reason=str(exc)) from None
    if parts.scheme not in DB_SCHEMES:
        known = [f"{s}://" for s in DB_SCHEMES]
        if not parts.scheme:
            raise ServeError("serve.no-kind", url=shown, known=known)
        raise ServeError("serve.unknown-kind", url=shown, kind=parts.scheme, known=known)
    if parts.scheme == "sqlite":
        path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else ""
        if not path:
            raise ServeError("store.sqlite-url", url=shown)
    elif not hostname and not parts.path.strip("/"):
        raise ServeError("serve.postgresql-url", url=shown)
    return url


def _free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            key = "serve.cannot-listen.address" if exc.errno == errno.EADDRNOTAVAIL else "serve.cannot-listen"
            raise ServeError(key, host=host, port=port, reason=exc.strerror or type(exc).__name__) from None
    return True


def pick_port(host: str, port: int | None) -> int:
    """``port`` if given and free; otherwise the first free port from the default on."""
    if port is not None:
        if not 0 < port < 65536:
            raise ServeError("serve.port-range", port=port)
        if not _free(host, port):
            raise ServeError("serve.port-taken", port=port, host=host)
        return port
    for candidate in range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES):
        if _free(host, candidate):
            return candidate
    raise ServeError("serve.ports-taken", first=DEFAULT_PORT, last=DEFAULT_PORT + PORT_TRIES - 1)


def check_workers(db_url: str, workers: int) -> int:
    """``workers`` if this database can have that many app processes; SQLite takes one writer at a time."""
    if workers < 1:
        raise ServeError("serve.workers-range", count=workers)
    if workers > 1 and urlsplit(db_url).scheme == "sqlite":
        raise ServeError("serve.workers-sqlite", count=workers)
    return workers


def app_from_environment() -> FastAPI:
    """The app of one worker process of ``serve --workers N``: over the database ``$PYRAMID_SOLITAIRE_DB``
    (already checked and upgraded by the parent)."""
    from .app import create_app

    return create_app(os.environ[DB_ENV])


def serve(
    host: str = DEFAULT_HOST,
    port: int | None = None,
    db: str | None = None,
    browser: bool = True,
    lang: str = DEFAULT_LANG,
    workers: int = 1,
) -> None:
    """Run the app until interrupted, saying where in ``lang`` (a refusal is a :class:`ServeError`, which the
    caller writes in the same language)."""
    import uvicorn

    from ..store import Store, StoreError
    from .app import create_app
    from .wire import OneWrite

    db_url = check_db_url(db if db is not None else os.environ.get(DB_ENV) or default_db_url())  # "" is no URL
    check_workers(db_url, workers)
    chosen = pick_port(host, port)
    try:
        store = Store(db_url)  # checked, and upgraded, once before any worker starts
    except StoreError as exc:
        raise ServeError("serve.store", problem=exc) from None
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{chosen}/"
    print("pyramid-solitaire: " + text(lang, "serve.playing", url=url), flush=True)
    print("pyramid-solitaire: " + text(lang, "serve.records", db=store.shown_url), flush=True)
    if workers > 1:
        print("pyramid-solitaire: " + text(lang, "serve.workers", count=workers), flush=True)
        _warn_of_connections(store, workers, lang)
    if browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    if workers == 1:
        uvicorn.run(create_app(store), host=host, port=chosen, log_level="warning", http=OneWrite)
        return
    store.close()
    made = _metrics_folder()
    os.environ[DB_ENV] = db_url
    try:
        uvicorn.run(
            f"{__name__}:app_from_environment",
            factory=True,
            workers=workers,
            http=OneWrite,
            host=host,
            port=chosen,
            log_level="warning",
        )
    finally:
        if made is not None:
            shutil.rmtree(made, ignore_errors=True)


def _warn_of_connections(store: Store, workers: int, lang: str) -> None:
    """Say so when ``workers`` processes may open more connections than the PostgreSQL server allows: past
    its ``max_connections`` an action cannot be saved and the player is told so (a 503), which is better
    learnt at start (docs/deploy.md, *Connections*).  A warning, not a refusal: under a light load the
    processes open far fewer, and other servers' share is not known here."""
    from ..store import CONNECTIONS_PER_PROCESS, StoreError

    try:
        room = store.connection_room()
    except StoreError:
        return  # the database was just opened; if it went away since, the workers say so themselves
    needed = workers * CONNECTIONS_PER_PROCESS
    if room is not None and needed > room:
        print(
            "pyramid-solitaire: " + text(lang, "serve.connections", count=workers, needed=needed, room=room),
            file=sys.stderr,
            flush=True,
        )


def _metrics_folder() -> str | None:
    """Point prometheus-client's multiprocess mode at a fresh folder, unless one is set; returns the folder
    made (removed when the server stops)."""
    if os.environ.get(METRICS_ENV):
        return None
    folder = tempfile.mkdtemp(prefix="pyramid-metrics-")
    os.environ[METRICS_ENV] = folder
    return folder
