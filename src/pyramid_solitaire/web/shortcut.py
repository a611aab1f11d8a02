"""A shortcut past FastAPI for the requests players send most: a move, undo, redo, rewind or resign on
a game (``POST /api/games/{id}/<name>``), when the app plays moves on its event loop (PostgreSQL).

FastAPI's path for such a request — the router's matching, the dependencies, the query parameters'
and the body's validation by pydantic — cost about 0.2 ms of processor time, a sixth of a move's
whole cost once the rest had been cut (docs/performance.md, issue 24).  :class:`Shortcut` answers
the plain form of these requests itself: a JSON body ``{"move": …}`` or ``{"move": …, "cell": n}``
within the same limits as ``MoveBody``, and no query parameters but ``version`` (digits) and ``lang``
(``ja`` or ``en``), each at most once.  It then calls the very functions the routes call
(:func:`.routes.games.move_entry`, :func:`.routes.games.act` under :meth:`.Games.short`), and answers
refusals as the app's exception handlers do.

Anything else — another content type, a body or query that is not in that plain form (a wrong type,
an extra key, a percent-escape, JSON the strict parser refuses), hint and coach, SQLite — goes on to
FastAPI untouched (the body read is handed on as it came), so every bad request is judged, and
answered, by the one validation the API documents.  tests/web/test_shortcut.py sends the same
requests both ways and compares the answers.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Final

import orjson
from starlette.requests import Request, cookie_parser
from starlette.responses import Response
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..store import StoreError
from .answering import move_entry
from .errors import ApiError, api_error, store_down
from .games import COOKIE, Games
from .http import negotiated
from .routes.games import act, router

#: The requests taken: a move, or an event that runs no search.
_PATH: Final = re.compile(r"/api/games/([^/]+)/(move|undo|redo|rewind|resign)")
#: A version as the shortcut takes it (any other spelling goes to FastAPI).
_VERSION: Final = re.compile(rb"0|[1-9][0-9]{0,8}")
_LANGS: Final = {b"ja": "ja", b"en": "en"}
#: The limits of ``routes.games.MoveBody``.
_MOVE_LENGTH: Final = 40
_CELLS: Final = range(100)


class Shortcut:
    """Pure ASGI middleware over the app's ``games``."""

    def __init__(self, app: ASGIApp, games: Games) -> None:
        self.app = app
        self.games = games
        #: The routes it stands in for, by name: an answer is counted under its route's label (web/metrics.py).
        self.routes: dict[str, BaseRoute] = {
            str(getattr(route, "name", "")): route
            for route in router.routes
            if str(getattr(route, "path", "")).startswith("/api/games/{game_id}/")
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        found = _PATH.fullmatch(scope["path"]) if scope["type"] == "http" and scope["method"] == "POST" else None
        query = _query(scope["query_string"]) if found is not None and self.games.inline else None
        if found is None or query is None:
            await self.app(scope, receive, send)
            return
        game_id, name = found.group(1), found.group(2)
        version, lang = query
        move: tuple[str, int | None] | None = None
        if name == "move":
            messages = await _read(receive)
            move = _move_body(scope, messages)
            if move is None:
                await self.app(scope, _replay(messages, receive), send)
                return
        scope["route"] = self.routes[name]
        request = Request(scope, receive)
        lang = negotiated(lang, request.headers.get("accept-language", ""))  # no ?lang: HTTP's own header
        answer: Response
        try:
            entry = name if move is None else move_entry(*move)
            player = self.games.player_of(cookie_parser(request.headers.get("cookie", "")).get(COOKIE))
            answer = await self.games.short(
                game_id, lambda: act(self.games, game_id, player, entry, version, lang, request)
            )
        except ApiError as exc:  # answered by the app's own handlers, as a route's refusal is
            answer = await api_error(request, exc)
        except StoreError as exc:
            answer = await store_down(request, exc)
        await answer(scope, receive, send)


def _query(raw: bytes) -> tuple[int | None, str | None] | None:
    """``(version, lang)`` from a query string in the plain form (``lang`` None when it names none), else
    None."""
    version: int | None = None
    lang: str | None = None
    seen: set[bytes] = set()
    for part in raw.split(b"&") if raw else ():
        key, equals, value = part.partition(b"=")
        if not equals or key in seen:
            return None
        seen.add(key)
        if key == b"version" and _VERSION.fullmatch(value):
            version = int(value)
        elif key == b"lang" and value in _LANGS:
            lang = _LANGS[value]
        else:
            return None
    return version, lang


async def _read(receive: Receive) -> list[Message]:
    """The request's body messages, all of them (the guard has refused bodies too large or unsized)."""
    messages = []
    while True:
        message = await receive()
        messages.append(message)
        if message["type"] != "http.request" or not message.get("more_body", False):
            return messages


def _replay(messages: list[Message], receive: Receive) -> Callable[[], Awaitable[Message]]:
    """A ``receive`` that gives the messages already read, then goes on with the real one."""
    pending = list(messages)

    async def again() -> Message:
        return pending.pop(0) if pending else await receive()

    return again


def _move_body(scope: Scope, messages: list[Message]) -> tuple[str, int | None] | None:
    """``(notation, cell)`` from a JSON body in the plain form, else None."""
    content_type = b""
    for key, value in scope["headers"]:
        if key == b"content-type":
            content_type = value
    if content_type.split(b";", 1)[0].strip().lower() != b"application/json" or messages[-1]["type"] != "http.request":
        return None
    try:
        data: object = orjson.loads(b"".join(m.get("body", b"") for m in messages))
    except orjson.JSONDecodeError:
        return None
    if type(data) is not dict or "move" not in data or not data.keys() <= {"move", "cell"}:
        return None
    notation, cell = data["move"], data.get("cell")
    if type(notation) is not str or len(notation) > _MOVE_LENGTH:
        return None
    if cell is not None and (type(cell) is not int or cell not in _CELLS):
        return None
    return notation, cell
