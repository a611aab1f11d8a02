"""``pyramid-solitaire serve``: start the web app with uvicorn, print its address, open the browser.

The database URL is checked, and the database opened (and upgraded to the current schema), before
the server listens, so that a bad URL or an unreachable server fails at start with one clear line.
The default is an SQLite file in the user's data folder.
"""

from __future__ import annotations

import errno
import socket
import threading
import webbrowser
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from ..store import hide_password

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8765
#: Ports tried after the default when it is taken (only when no --port was given).
PORT_TRIES: Final = 20
DB_SCHEMES: Final = ("sqlite", "postgresql", "postgresql+psycopg")


class ServeError(ValueError):
    """A bad option for ``serve`` (database URL, host or port); printed as one line."""


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
        raise ServeError(f"database URL {shown!r}: {exc}") from None
    if parts.scheme not in DB_SCHEMES:
        known = ", ".join(f"{s}://" for s in DB_SCHEMES)
        raise ServeError(f"database URL {shown!r}: unknown kind {parts.scheme or '(none)'!r} (use {known})")
    if parts.scheme == "sqlite":
        path = url[len("sqlite:///"):] if url.startswith("sqlite:///") else ""
        if not path:
            raise ServeError(f"database URL {shown!r}: an SQLite URL is sqlite:///path/to/file.sqlite3")
    elif not hostname and not parts.path.strip("/"):
        raise ServeError(f"database URL {shown!r}: a PostgreSQL URL names a host or a database")
    return url


def _free(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return True


def pick_port(host: str, port: int | None) -> int:
    """``port`` if given and free; otherwise the first free port from the default on."""
    if port is not None:
        if not 0 < port < 65536:
            raise ServeError(f"--port must be 1-65535, not {port}")
        if not _free(host, port):
            raise ServeError(f"port {port} on {host} is already in use (choose another with --port)")
        return port
    for candidate in range(DEFAULT_PORT, DEFAULT_PORT + PORT_TRIES):
        if _free(host, candidate):
            return candidate
    raise ServeError(f"ports {DEFAULT_PORT}-{DEFAULT_PORT + PORT_TRIES - 1} are all in use (choose one with --port)")


def serve(host: str = DEFAULT_HOST, port: int | None = None, db: str | None = None, browser: bool = True) -> None:
    """Run the app until interrupted."""
    import uvicorn

    from ..store import StoreError
    from .app import create_app

    db_url = check_db_url(db or default_db_url())
    chosen = pick_port(host, port)
    try:
        app = create_app(db_url)
    except StoreError as exc:
        raise ServeError(str(exc)) from None
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{chosen}/"
    print(f"pyramid-solitaire: playing at {url}  (Ctrl+C stops it)", flush=True)
    print(f"pyramid-solitaire: records kept in {app.state.games.store.shown_url}", flush=True)
    if browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=chosen, log_level="warning")
