"""The middleware in front of every route: :class:`Guard` refuses state-changing requests from other
origins, beyond a client's rate limit, and bodies that are too large or of unknown size, and puts the
security headers on every answer."""

from __future__ import annotations

from typing import Final

from fastapi import Request
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ApiError, respond
from .games import COOKIE
from .http import SAFE_METHODS, SECURITY_HEADERS, lang_of
from .limits import Limiter, RateLimiter

#: Largest request body accepted, in bytes (a deal in notation is under 200); an import file may be larger.
MAX_BODY: Final = 16 * 1024
MAX_IMPORT: Final = 8 * 1024 * 1024
#: The requests that carry whole games: a records file, and the games a browser played offline.
LARGE_BODIES: Final = frozenset({"/api/me/import", "/api/me/sync"})


def _same_origin(origin: str, request: Request) -> bool:
    """True if a browser's Origin header names this site (scheme and host:port)."""
    host = request.headers.get("host", "")
    return origin in (f"http://{host}", f"https://{host}")


class Guard:
    """Pure ASGI middleware (cheaper than ``@app.middleware``): refuses state-changing requests from
    other origins, beyond a client's rate limit (:mod:`.limits`), and bodies that are too large or of
    unknown size before any handler runs, and puts the security headers on every answer."""

    def __init__(self, app: ASGIApp, limiter: Limiter | None = None) -> None:
        self.app = app
        self.limiter: Limiter = limiter or RateLimiter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self._refusal(request) or await self._rate_refusal(request)
        if refusal is not None:
            response = respond(refusal, lang_of(request))
            response.headers.update(SECURITY_HEADERS)
            if refusal.status == 429:
                wait = refusal.details["retry_after"]
                assert isinstance(wait, (int, float))  # _rate_refusal gives seconds
                response.headers["Retry-After"] = str(max(1, round(wait)))
            await response(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).update(SECURITY_HEADERS)
            await send(message)

        await self.app(scope, receive, send_with_headers)

    async def _rate_refusal(self, request: Request) -> ApiError | None:
        if request.method in SAFE_METHODS:
            return None
        cookie = request.cookies.get(COOKIE)
        kind, key = ("player", cookie) if cookie else ("address", request.client.host if request.client else "?")
        wait = self.limiter.wait_needed(kind, key)
        if wait <= 0:
            return None
        return ApiError(429, "rate-limited", details={"retry_after": round(min(wait, 3600.0), 2)})

    @staticmethod
    def _refusal(request: Request) -> ApiError | None:
        origin = request.headers.get("origin")
        if request.method not in SAFE_METHODS and origin is not None and not _same_origin(origin, request):
            return ApiError(403, "cross-site")
        # the path from the scope: request.url would build the whole URL first
        limit = MAX_IMPORT if request.scope["path"] in LARGE_BODIES else MAX_BODY
        length = request.headers.get("content-length")
        # a chunked body has no length to check, so it could be any size: refused too
        unsized = length is None and "transfer-encoding" in request.headers
        if unsized or (length is not None and (not length.isdigit() or int(length) > limit)):
            return ApiError(413, "too-large", details={"limit": limit})
        return None
