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

from ..messages import DEFAULT_LANG, Problem, text
from ..store import hide_password

DEFAULT_HOST: Final = "127.0.0.1"
DEFAULT_PORT: Final = 8765
#: Ports tried after the default when it is taken (only when no --port was given).
PORT_TRIES: Final = 20
DB_SCHEMES: Final = ("sqlite", "postgresql", "postgresql+psycopg")


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


def serve(
    host: str = DEFAULT_HOST,
    port: int | None = None,
    db: str | None = None,
    browser: bool = True,
    lang: str = DEFAULT_LANG,
) -> None:
    """Run the app until interrupted, saying where in ``lang`` (a refusal is a :class:`ServeError`, which the
    caller writes in the same language)."""
    import uvicorn

    from ..store import StoreError
    from .app import create_app

    db_url = check_db_url(db or default_db_url())
    chosen = pick_port(host, port)
    try:
        app = create_app(db_url)
    except StoreError as exc:
        raise ServeError("serve.store", problem=exc) from None
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{chosen}/"
    print("pyramid-solitaire: " + text(lang, "serve.playing", url=url), flush=True)
    print("pyramid-solitaire: " + text(lang, "serve.records", db=app.state.games.store.shown_url), flush=True)
    if browser:
        threading.Timer(0.8, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=host, port=chosen, log_level="warning")
