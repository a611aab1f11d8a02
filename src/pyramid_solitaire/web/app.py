"""The web app, assembled: :func:`create_app` opens the store, puts the games and the page's files on
``app.state``, and adds the middleware (:mod:`.guard`), the error handlers (:mod:`.errors`) and the
routers (:mod:`.routes`); it holds no handler itself.  The handlers are module-level functions that get
what they need — the games and their store, the player, the language — as dependencies (:mod:`.deps`).

Games are kept in the store (every answered action is written before the answer leaves) and cached in
memory (:mod:`.games`); a player is an anonymous id in a signed, HttpOnly cookie.

The names other modules and the tests import from here (``Answer``, ``ApiError``, ``MAX_BODY``…) are
re-exported from where they now live.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from fastapi import FastAPI

from .. import __version__
from ..daily import DEFAULT_TIMEZONE, TIMEZONE_VARIABLE
from ..store import Store
from .answering import record_headers, rules_catalogue
from .assets import Assets
from .bundle import Bundle
from .daily import DailyDesk
from .errors import VALIDATION_TYPES, ApiError, Reason, install_error_handlers, invalid_part
from .games import Games
from .guard import MAX_BODY, MAX_IMPORT, Guard
from .http import COMPRESS_FROM, SAFE_METHODS, SECURITY_HEADERS, Answer
from .limits import Limiter
from .metrics import Metered
from .routes import challenges, daily, games, health, offline, pages, records
from .routes.games import MoveBody, NewGame
from .routes.pages import LOCALES, STATIC
from .schema import install_openapi
from .shared_limits import SharedRateLimiter
from .shortcut import Shortcut

__all__ = [
    "COMPRESS_FROM",
    "LOCALES",
    "MAX_BODY",
    "MAX_IMPORT",
    "SAFE_METHODS",
    "SECURITY_HEADERS",
    "STATIC",
    "VALIDATION_TYPES",
    "Answer",
    "ApiError",
    "Guard",
    "MoveBody",
    "NewGame",
    "Reason",
    "create_app",
    "invalid_part",
    "record_headers",
    "rules_catalogue",
]


def create_app(
    db: str | Store | None = None, limiter: Limiter | None = None, timezone: str | None = None, shortcut: bool = True
) -> FastAPI:
    """The FastAPI app over the database ``db`` (a URL or an open Store).  Without one, a new SQLite file
    in a temporary folder (for tests and trials: a real database, thrown away with the folder).  The
    daily deal's day turns at midnight in ``timezone`` (an IANA name; DailyError if there is none),
    else in the zone of the environment variable ``PYRAMID_SOLITAIRE_TIMEZONE`` (which every worker
    process of one server inherits), else in Asia/Tokyo.

    Without a ``limiter``, the rate limits are kept in the database on PostgreSQL (any number of app
    processes may share it, and a player's limit holds whichever answers) and in memory on SQLite (one
    app process).  With PostgreSQL the plain moves and events take a ``shortcut`` past FastAPI's
    validation (web/shortcut.py; tests turn it off to compare)."""
    desk = DailyDesk(timezone or os.environ.get(TIMEZONE_VARIABLE) or DEFAULT_TIMEZONE)
    if db is None:
        db = f"sqlite:///{Path(tempfile.mkdtemp(prefix='pyramid-')) / 'games.sqlite3'}"
    store = db if isinstance(db, Store) else Store(db)
    app = FastAPI(
        title="pyramid-solitaire",
        version=__version__,
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.games = Games(store)
    app.state.assets = Assets(STATIC, LOCALES)
    app.state.bundle = Bundle.find()
    app.state.daily = desk

    if limiter is None and store.engine.dialect.name == "postgresql":
        limiter = SharedRateLimiter(store)
    if shortcut and app.state.games.inline:
        app.add_middleware(Shortcut, games=app.state.games)  # inside the guard
    app.add_middleware(Guard, limiter=limiter)
    app.add_middleware(Metered)  # added last, so outermost: it counts the guard's refusals too
    install_error_handlers(app)
    install_openapi(app)
    app.include_router(games.router)
    app.include_router(records.router)
    app.include_router(daily.router)
    app.include_router(challenges.router)
    app.include_router(health.router)
    app.include_router(pages.router)
    app.include_router(offline.router)
    return app
