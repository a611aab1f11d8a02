"""Refusals and failures as answers: :class:`ApiError` (status, stable code, details, and a message in
the player's language from the catalogue), the words for a request's validation errors, and the
exception handlers :func:`install_error_handlers` puts on the app, so that every bad request is a 4xx
``{code, message, details}`` and every other failure a plain 500 that shows no internals."""

from __future__ import annotations

import logging
from typing import Final

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..messages import Problem
from ..store import StoreError
from .apierror import VALIDATION_TYPES, ApiError, Invalid, Reason, invalid_part, refused

__all__ = ["VALIDATION_TYPES", "ApiError", "Reason", "install_error_handlers", "invalid_part", "refused", "respond"]
from .assets import browser_lang, not_found_page
from .http import SAFE_METHODS, SECURITY_HEADERS, lang_of
from .metrics import DATABASE_ERRORS

#: Paths whose answers are data for the page, not pages: a missing one is a JSON 404, never the HTML page.
DATA_PATHS: Final = ("/api/", "/static/", "/locales/", "/art/", "/offline/", "/pyodide/")
#: The server's log.  Failures are logged under the app module's name, as they were when its handlers
#: lived there, so that logging set up for it still catches them.
LOG: Final = logging.getLogger("pyramid_solitaire.web.app")

# --- the exception handlers -----------------------------------------------------------------------


def respond(exc: ApiError, lang: str) -> JSONResponse:
    """The JSON answer ``{code, message, details}`` of a refused request."""
    return JSONResponse(exc.body(lang), status_code=exc.status)


async def api_error(request: Request, exc: ApiError) -> JSONResponse:
    return respond(exc, lang_of(request))


async def store_down(request: Request, exc: StoreError) -> JSONResponse:
    DATABASE_ERRORS.labels("request").inc()
    return respond(ApiError(503, "store-unavailable"), lang_of(request))


async def internal(request: Request, exc: Exception) -> JSONResponse:
    """Every other failure: the generic 500 in the player's language, never the exception's text.
    Starlette answers this outside the middleware, so the security headers are put on here; it then
    re-raises the exception, and the server logs its traceback."""
    LOG.error("internal error answering %s %s: %s", request.method, request.url.path, type(exc).__name__)
    response = respond(ApiError(500, "internal-error"), lang_of(request))
    response.headers.update(SECURITY_HEADERS)
    return response


async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    lang = lang_of(request)
    errors: list[Invalid] = [
        {"where": ".".join(str(p) for p in e.get("loc", ())), "type": e.get("type", ""), "ctx": e.get("ctx", {})}
        for e in exc.errors()
    ]
    sent = request.headers.get("content-type", "")
    if "json" not in sent.lower() and any(e["where"] == "body" for e in errors):
        # FastAPI reads a body as JSON only when it is said to be JSON; anything else (curl's -d sends
        # a form) reached the model as text, and pydantic's "not a valid dictionary" would hide why
        reason = Problem("request.content-type", sent=sent) if sent else Problem("request.no-content-type")
        return respond(ApiError(415, "not-json", reason), lang)
    code = "bad-json" if any(e["type"] == "json_invalid" for e in errors) else "bad-request"
    # each error for a program (where and its kind) and for a person (in the request's language)
    shown = [{"where": e["where"], "type": e["type"], "problem": invalid_part(lang, e)} for e in errors]
    return respond(ApiError(422, code, errors, {"errors": shown}), lang)


async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
    if exc.status_code == 404 and request.method in SAFE_METHODS and not request.url.path.startswith(DATA_PATHS):
        return not_found_page(browser_lang(request))  # a page a person opened: the app's own page
    code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "bad-request")
    return respond(ApiError(exc.status_code, code), lang_of(request))


def install_error_handlers(app: FastAPI) -> None:
    """Answer every refusal and failure on ``app`` as above."""
    app.exception_handler(ApiError)(api_error)
    app.exception_handler(StoreError)(store_down)
    app.exception_handler(Exception)(internal)
    app.exception_handler(RequestValidationError)(invalid)
    app.exception_handler(StarletteHTTPException)(http_error)
